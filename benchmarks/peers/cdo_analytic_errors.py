"""test_interpolation's statistics for CDO's own remapping of fcos from LMDZ to ORCA2.

Writes both grids of the OASIS example files (grids.nc, masks.nc in DIR) as CF files
with cell bounds, fcos on LMDZ missing where masked, runs `cdo OP,torc.nc lmdz.nc` for
each OP given (remapcon, remapcon2, remapbic: CDO computes the gradients itself) and
prints the number of valid ORCA2 points that received a value, the maximum and the
mean of |fcos - received| / |received| x 100 over them, as test_interpolation does.

    python benchmarks/peers/cdo_analytic_errors.py DIR remapcon remapcon2 remapbic
"""

import subprocess
import sys
import tempfile
from pathlib import Path

import netCDF4
import numpy as np

from analytic_fields import analytic


def write_cf(grids, masks, name, path):
    """One grid as a CF file with bounds and fcos (missing where masked)."""
    lon = np.array(grids[name + ".lon"][:], float)
    lat = np.array(grids[name + ".lat"][:], float)
    mask = np.array(masks[name + ".msk"][:])  # OASIS: 0 valid
    with netCDF4.Dataset(path, "w") as f:
        f.createDimension("y", lon.shape[0])
        f.createDimension("x", lon.shape[1])
        f.createDimension("nv", 4)
        for var, values, units in (("lon", lon, "degrees_east"), ("lat", lat, "degrees_north")):
            v = f.createVariable(var, "f8", ("y", "x"))
            v[:] = values
            v.units = units
            v.standard_name = "longitude" if var == "lon" else "latitude"
            v.bounds = var + "_bnds"
            corners = np.array(grids[name + (".clo" if var == "lon" else ".cla")][:], float)
            f.createVariable(var + "_bnds", "f8", ("y", "x", "nv"))[:] = np.moveaxis(corners, 0, -1)
        field = f.createVariable("fld", "f8", ("y", "x"), fill_value=1e20)
        field.coordinates = "lat lon"
        field[:] = np.ma.masked_where(mask != 0, analytic("fcos", lon, lat))
    return lon, lat, mask


def main():
    data = Path(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp, netCDF4.Dataset(data / "grids.nc") as grids, \
            netCDF4.Dataset(data / "masks.nc") as masks:
        work = Path(tmp)
        write_cf(grids, masks, "lmdz", work / "lmdz.nc")
        lon, lat, mask = write_cf(grids, masks, "torc", work / "torc.nc")
        for op in sys.argv[2:]:
            out = work / (op + ".nc")
            subprocess.run(["cdo", "-s", f"{op},{work / 'torc.nc'}", str(work / "lmdz.nc"),
                            str(out)], check=True)
            with netCDF4.Dataset(out) as f:
                received = np.ma.masked_greater(np.array(f["fld"][:], float).squeeze(), 1e19)
            ok = (mask == 0) & ~np.ma.getmaskarray(received) & (received != 0)
            error = np.abs((analytic("fcos", lon, lat)[ok] - received[ok]) / received[ok]) * 100
            print(f"{op}: {ok.sum()} points, max {error.max():.6g} %, mean {error.mean():.6g} %")


if __name__ == "__main__":
    main()
