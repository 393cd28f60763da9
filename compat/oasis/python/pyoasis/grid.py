"""Grid: a grid written to grids.nc, masks.nc and areas.nc (OASIS's grid writing)."""

import numpy

from . import _oasis
from .exception import PyOasisException, check

# Grids created and not yet written: the first starts OASIS's grid writing, writing
# the last ends it.
_open = []


def _doubles(values):
    return numpy.asfortranarray(values, dtype=numpy.float64)


class Grid:
    """Grid name of nx_global x ny_global points: lon and lat of the cell centres, as
    (x, y) arrays of the whole grid, or of this process's points of partition.

    Add corners, mask, fraction, area and angle with the set_ methods, then write().
    """

    def __init__(self, cgrid, nx_global, ny_global, lon, lat, partition=None):
        if not isinstance(cgrid, str) or not cgrid:
            raise PyOasisException(f"Grid: name must be a non-empty str; got {cgrid!r}")
        self._name = cgrid
        self._nx = int(nx_global)
        self._ny = int(ny_global)
        self._part = partition.id if partition is not None else 0
        if not _open:
            check(_oasis.start_grids_writing(), "Error in start_grids_writing")
        _open.append(self)
        self._write("write_grid", _doubles(lon), _doubles(lat), self._part)

    def _write(self, routine, *values):
        call = getattr(_oasis, routine)
        check(call(self._name, self._nx, self._ny, *values), f"Error in {routine} of {self._name}")

    def set_corners(self, clo, cla):
        """Corner longitudes and latitudes, (x, y, corners) arrays."""
        self._write("write_corner", _doubles(clo), _doubles(cla), self._part)

    def set_mask(self, mask, companion=None):
        """The mask, OASIS's convention: 1 (or True) for a masked point, 0 for a valid one."""
        values = numpy.asfortranarray(mask, dtype=numpy.int32)
        self._write("write_mask", values, self._part, companion or "NULL-STRING")

    def set_frac(self, frac, companion=None):
        self._write("write_frac", _doubles(frac), self._part, companion or "NULL-STRING")

    def set_area(self, area):
        self._write("write_area", _doubles(area), self._part)

    def set_angle(self, angle):
        self._write("write_angle", _doubles(angle), self._part)

    def write(self):
        """Ends this grid; the files are written at enddef, once every grid is written."""
        if self in _open:
            _open.remove(self)
            if not _open:
                check(_oasis.terminate_grids_writing(), "Error in terminate_grids_writing")
