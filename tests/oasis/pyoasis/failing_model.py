"""A pyoasis model that fails: the ocean (world rank 0) raises an exception after
enddef while the atmosphere waits for its field. pyoasis ends every process of the
run with the exception's message (as oasis_abort), instead of leaving the atmosphere
waiting. usage: failing_model.py (two processes, one component each)
"""

import numpy
from mpi4py import MPI

import pyoasis

ocean = MPI.COMM_WORLD.rank == 0
comp = pyoasis.Component("ocean" if ocean else "atmos")
partition = pyoasis.ApplePartition(0, 60)
field = pyoasis.Var(
    "OSINGLE" if ocean else "ASINGLE", partition, pyoasis.OASIS.OUT if ocean else pyoasis.OASIS.IN
)
comp.enddef()
if ocean:
    raise RuntimeError("the ocean model failed")
field.get(0, numpy.zeros(60))
