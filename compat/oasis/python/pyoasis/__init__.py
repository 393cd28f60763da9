"""pyoasis: OASIS3-MCT's Python interface (pyOASIS) over ferry's coupler.

Models written for pyOASIS run unchanged: Component, the five partitions, Var with
put, get and put_inquire, Grid, OasisParameters, OasisException and terminate, with
mpi4py communicators and NumPy arrays. The namcouple is read from the working
directory, as OASIS does. Run with `mpiexec ... python -m mpi4py model.py`, so an
error on one process ends the whole run.
"""

import numpy

from .component import Component, terminate
from .exception import OasisException, PyOasisException
from .grid import Grid
from .parameters import OASIS, OasisParameters
from .partition import (
    ApplePartition,
    BoxPartition,
    OrangePartition,
    Partition,
    PointsPartition,
    SerialPartition,
)
from .var import Var
from . import _oasis


def asarray(data, dtype=numpy.float64):
    """data as a NumPy array in Fortran order (first index fastest), as put and get use."""
    if dtype not in (numpy.float64, numpy.float32):
        raise PyOasisException(f"asarray: dtype must be float64 or float32; got {dtype}")
    return numpy.asfortranarray(data, dtype=dtype)


def oasis_abort(compid, routine, message, rcode=1):
    """Ends every process of the coupled run, after printing the message (oasis_abort)."""
    _oasis.abort(int(compid), str(routine), str(message), int(rcode))


def pyoasis_abort(exception):
    """Ends every process of the coupled run after printing exception."""
    oasis_abort(0, "pyoasis", repr(exception))


__all__ = [
    "OASIS",
    "ApplePartition",
    "BoxPartition",
    "Component",
    "Grid",
    "OasisException",
    "OasisParameters",
    "OrangePartition",
    "Partition",
    "PointsPartition",
    "PyOasisException",
    "SerialPartition",
    "Var",
    "asarray",
    "oasis_abort",
    "pyoasis_abort",
    "terminate",
]
