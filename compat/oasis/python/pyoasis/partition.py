"""The five partition forms of OASIS (ig_paral): which global points this process holds.

Global indices count from 0, as in OASIS 5's C and Python interfaces; global_size
is the size of the grid (optional, -1: the largest index held by any process + 1).
"""

from . import _oasis
from .exception import PyOasisException, check
from .handle import Handle

_SERIAL, _APPLE, _BOX, _ORANGE, _POINTS = range(5)


def _count(value, what):
    if int(value) != value or value < 0:
        raise PyOasisException(f"{what} must be an integer >= 0; got {value!r}")
    return int(value)


class Partition(Handle):
    """A partition of a grid over this component's processes (base of the five forms)."""

    def _define(self, kparal, local_size, global_size, name):
        if not isinstance(name, str):
            raise PyOasisException(f"partition name must be a str; got {name!r}")
        self.name = name
        self._local_size = local_size
        gsize = max(int(global_size), 0)
        status, self._id = _oasis.def_partition([int(k) for k in kparal], gsize, name)
        check(status, "Error in def_partition")

    @property
    def local_size(self):
        """The number of points this process holds."""
        return self._local_size

    def __str__(self):
        return f"Partition: id: {self._id}"


class SerialPartition(Partition):
    """All size points of the grid on one process."""

    def __init__(self, size, global_size=-1, name=""):
        size = _count(size, "SerialPartition: size")
        self._define([_SERIAL, 0, size], size, global_size, name)


class ApplePartition(Partition):
    """One segment of size points from global index offset."""

    def __init__(self, offset, size, global_size=-1, name=""):
        offset = _count(offset, "ApplePartition: offset")
        size = _count(size, "ApplePartition: size")
        self._define([_APPLE, offset, size], size, global_size, name)


class BoxPartition(Partition):
    """A rectangle of local_extent_x x local_extent_y points of a 2-D grid
    global_extent_x points wide, its corner at global index global_offset."""

    def __init__(
        self,
        global_offset,
        local_extent_x,
        local_extent_y,
        global_extent_x,
        global_size=-1,
        name="",
    ):
        offset = _count(global_offset, "BoxPartition: global_offset")
        x = _count(local_extent_x, "BoxPartition: local_extent_x")
        y = _count(local_extent_y, "BoxPartition: local_extent_y")
        width = _count(global_extent_x, "BoxPartition: global_extent_x")
        if width == 0:
            raise PyOasisException("BoxPartition: global_extent_x must be > 0")
        self._define([_BOX, offset, x, y, width], x * y, global_size, name)


class OrangePartition(Partition):
    """Segments of the grid: extents[i] points from global index offsets[i]."""

    def __init__(self, offsets, extents, global_size=-1, name=""):
        offsets = [_count(o, "OrangePartition: offset") for o in offsets]
        extents = [_count(e, "OrangePartition: extent") for e in extents]
        if len(offsets) != len(extents):
            raise PyOasisException(
                f"OrangePartition: {len(offsets)} offsets and {len(extents)} extents; "
                "give one extent per offset"
            )
        kparal = [_ORANGE, len(offsets)]
        for offset, extent in zip(offsets, extents):
            kparal += [offset, extent]
        self._define(kparal, sum(extents), global_size, name)


class PointsPartition(Partition):
    """The points of the given global indices, in this order."""

    def __init__(self, global_indices, global_size=-1, name=""):
        indices = [_count(i, "PointsPartition: global index") for i in global_indices]
        self._define([_POINTS, len(indices)] + indices, len(indices), global_size, name)
