"""What yac_conservative.py and yac_second_order_values.py share: a YAC instance with
one component, and this rank's block of an OASIS example grid (grids.nc, masks.nc)."""

from types import SimpleNamespace

import numpy as np
import yac
from netCDF4 import Dataset


def start(role):
    """A YAC instance with the component `role` ("ocean" or "atmos")."""
    instance = yac.YAC()
    instance.set_coordinates_check(False)  # ORCA2's masked land cells have odd corners
    yac.def_calendar(yac.Calendar.PROLEPTIC_GREGORIAN)
    instance.def_datetime("2000-01-01T00:00:00", "2000-01-01T01:00:00")
    return instance, instance.def_comp(role)


def read_block(folder, name, comm):
    """The whole grid `name` of DIR's grids.nc and masks.nc (corners of shape (4,
    cells), centres, OASIS's mask: 1 = masked) and this rank's block of ids, first to
    last - 1."""
    grids = Dataset(folder + "/grids.nc")
    masks = Dataset(folder + "/masks.nc")
    mask = np.asarray(masks[name + ".msk"][:]).ravel()
    first = comm.rank * mask.size // comm.size
    last = (comm.rank + 1) * mask.size // comm.size
    return SimpleNamespace(
        corner_lon=np.asarray(grids[name + ".clo"][:]).reshape(4, -1),
        corner_lat=np.asarray(grids[name + ".cla"][:]).reshape(4, -1),
        lon=np.asarray(grids[name + ".lon"][:], dtype=np.float64).ravel(),
        lat=np.asarray(grids[name + ".lat"][:], dtype=np.float64).ravel(),
        mask=mask,
        first=first,
        last=last,
        ids=np.arange(first, last),
    )
