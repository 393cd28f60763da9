"""OASIS3-MCT's tutorial model1 (the ocean) for pyOASIS: see tutorial_model.py."""

import tutorial_model

tutorial_model.run("model1")
