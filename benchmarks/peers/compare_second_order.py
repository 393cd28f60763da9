"""ferry's second-order conservative remapping ORCA2 (torc) -> LMDZ against YAC's, by
values (docs/benchmarks/regrid.md): computes ferry's weights (order 2, gradients
ferry computes, FRACAREA) with its Python module, applies them to the analytic fields
of yac_second_order_values.py at ORCA2's centres and compares, on every LMDZ cell both
give a value, with the values YAC received (its OUT file). Prints, per field, the
largest and mean relative difference, and each one's mean relative error against the
field at the LMDZ centres (test_interpolation's statistic). Runs in ferry's venv:

    python compare_second_order.py DIR YAC_OUT [TOLERANCE]

exits 1 if a relative difference exceeds TOLERANCE (default 1e-2). ORDER=1 in the
environment compares ferry's first order instead (with YAC's output of a first-order
run, or to see how far second order moves the values).
"""

import os
import sys
import tempfile

import numpy as np
from mpi4py import MPI
from netCDF4 import Dataset

import ferry
from analytic_fields import FIELDS, analytic


def main():
    folder, yac_out = sys.argv[1], sys.argv[2]
    tolerance = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-2
    comm = MPI.COMM_SELF

    def read(name):
        return ferry.read_grid(comm, folder + "/grids.nc", format="oasis", name=name,
                               masks=folder + "/masks.nc", areas=folder + "/areas.nc")

    torc, lmdz = read("torc"), read("lmdz")
    order = int(os.environ.get("ORDER", "2"))
    weights = ferry.conservative_weights(comm, torc.cells, lmdz.cells, order=order)
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "w.nc")
        weights.write_scrip(comm, path)
        with Dataset(path) as f:
            src = np.asarray(f["src_address"][:], dtype=np.int64) - 1
            dst = np.asarray(f["dst_address"][:], dtype=np.int64) - 1
            w = np.asarray(f["remap_matrix"][:], dtype=np.float64)
            w = w[:, 0] if w.ndim == 2 else w
    with Dataset(folder + "/grids.nc") as g:
        src_lon = np.asarray(g["torc.lon"][:], dtype=np.float64).ravel()
        src_lat = np.asarray(g["torc.lat"][:], dtype=np.float64).ravel()
        dst_lon = np.asarray(g["lmdz.lon"][:], dtype=np.float64).ravel()
        dst_lat = np.asarray(g["lmdz.lat"][:], dtype=np.float64).ravel()
    covered = np.zeros(dst_lon.size, dtype=bool)
    covered[dst] = True
    worst = 0.0
    with Dataset(yac_out) as y:
        for kind in FIELDS:
            ours = np.zeros(dst_lon.size)
            np.add.at(ours, dst, w * analytic(kind, src_lon, src_lat)[src])
            theirs = np.asarray(y[kind][:], dtype=np.float64)
            both = covered & np.isfinite(theirs)
            relative = np.abs(ours[both] - theirs[both]) / np.abs(theirs[both])
            exact = analytic(kind, dst_lon[both], dst_lat[both])
            print(f"{kind}: {both.sum()} cells (ferry {covered.sum()}, YAC "
                  f"{np.isfinite(theirs).sum()}); ferry - YAC relative max {relative.max():.3e} "
                  f"mean {relative.mean():.3e}, beyond 1e-8 / 1e-6 / 1e-4: "
                  f"{(relative > 1e-8).sum()} / {(relative > 1e-6).sum()} / "
                  f"{(relative > 1e-4).sum()} cells; error at the centres, mean %: ferry "
                  f"{100 * np.mean(np.abs(ours[both] - exact) / np.abs(ours[both])):.6f}, YAC "
                  f"{100 * np.mean(np.abs(theirs[both] - exact) / np.abs(theirs[both])):.6f}")
            worst = max(worst, relative.max())
    sys.exit(0 if worst <= tolerance else 1)


if __name__ == "__main__":
    main()
