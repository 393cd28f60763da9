"""A simulation that publishes its temperature field at every step (the requester).

Run it together with worker.py as one MPI job, for example
``mpiexec -n 3 python -m mpi4py requester.py : -n 1 python -m mpi4py worker.py``.
Each requester rank computes a band of rows of a 90 x 120 field and loads it into
the buffer; loading is a local copy, so the simulation never waits for the worker
unless the worker falls a whole ring (8 steps) behind.
"""

import numpy as np
from mpi4py import MPI

import ferry

SHAPE = (90, 120)
STEPS = 20

world = MPI.COMM_WORLD
model = world.Split(0, world.rank)  # the simulation's own ranks (the workers split off)
rows = (SHAPE[0] * model.rank // model.size, SHAPE[0] * (model.rank + 1) // model.size)
buffer = ferry.TimeSeriesBuffer.expose(
    world, SHAPE, (rows, (0, SHAPE[1])), np.float64, capacity=8, mode="lossless"
)

i, j = np.meshgrid(np.arange(*rows), np.arange(SHAPE[1]), indexing="ij")
for step in range(STEPS):
    temperature = 280.0 + 0.01 * i + 0.001 * j + step  # this rank's band at this step
    buffer.load(temperature, step)
buffer.close()
del buffer  # collective over the whole job: frees the window
model.Free()
