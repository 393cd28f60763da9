"""An analysis code that reads the requester's field, many steps per call (a worker).

Run it with requester.py (see there). The worker ranks read the box of rows 30..59
and columns 40..79, which spans the bands of several requester ranks, and print the
mean temperature of every step.
"""

import numpy as np
from mpi4py import MPI

import ferry

world = MPI.COMM_WORLD
workers = world.Split(1, world.rank)
buffer = ferry.TimeSeriesBuffer.connect(world, group=0)
# Each worker rank reads its share of the box's rows.
rows = (30 + 30 * workers.rank // workers.size, 30 + 30 * (workers.rank + 1) // workers.size)
reader = buffer.attach(workers, np.s_[rows[0] : rows[1], 40:80])

out = reader.empty(max_steps=5)  # shape (5, rows, 40): up to 5 steps per read
while True:
    first, n, lost = reader.read(out)  # every new step since the last read
    if n == 0:
        break  # the requester closed the buffer and every step was read
    sums = workers.allreduce(out[:n].sum(axis=(1, 2)))
    if workers.rank == 0:
        for step, total in zip(reader.steps, sums):
            print(f"step {step:2d}: mean temperature {total / (30 * 40):.4f}")
reader.done()
del reader, buffer  # collective over the whole job: frees the window
workers.Free()
