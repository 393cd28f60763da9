"""OASIS3-MCT's tutorial model2 (the atmosphere) for pyOASIS: see tutorial_model.py."""

import tutorial_model

tutorial_model.run("model2")
