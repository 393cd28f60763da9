"""Two weight files of the same grids, link by link (for docs/benchmarks/regrid.md).

Reads SCRIP-style weight files (src_address, dst_address, remap_matrix: ferry's, CDO's
and YAC's files all have them) with netCDF4 and numpy, and prints how many links each
has, how many they share, the largest absolute and relative difference of the shared
weights (first column), and the links only one file has, with the largest of their
weights (a link of weight 1e-13 is a rounding sliver; one of 0.1 is a real
disagreement). Runs in the same venv as the YAC scripts:

    python compare_weights.py ferry.nc other.nc [tolerance]

exits 1 if a shared weight differs by more than `tolerance` (default 3e-11, the
tolerance of ferry's tests against CDO on ORCA2 x LMDZ).
"""

import sys

import numpy as np
from netCDF4 import Dataset


def links(path):
    with Dataset(path) as f:
        src = np.asarray(f["src_address"][:], dtype=np.int64) - 1
        dst = np.asarray(f["dst_address"][:], dtype=np.int64) - 1
        weight = np.asarray(f["remap_matrix"][:], dtype=np.float64)
    weight = weight[:, 0] if weight.ndim == 2 else weight
    key = dst * (1 << 32) + src
    order = np.argsort(key, kind="stable")
    return key[order], weight[order]


def only(name, key, weight, shared):
    alone = np.ones(key.size, dtype=bool)
    alone[shared] = False
    biggest = np.abs(weight[alone]).max() if alone.any() else 0.0
    print(f"  links only in {name}: {alone.sum()}, largest weight {biggest:.3e}")
    if alone.any():
        k = np.argmax(np.where(alone, np.abs(weight), -1))
        print(f"    e.g. dst {key[k] >> 32} src {key[k] & 0xFFFFFFFF} weight {weight[k]:.17g}")


def main():
    a_path, b_path = sys.argv[1], sys.argv[2]
    tolerance = float(sys.argv[3]) if len(sys.argv) > 3 else 3e-11
    a_key, a_w = links(a_path)
    b_key, b_w = links(b_path)
    common, ia, ib = np.intersect1d(a_key, b_key, assume_unique=True, return_indices=True)
    diff = np.abs(a_w[ia] - b_w[ib])
    worst = diff.max() if diff.size else 0.0
    rel = diff / np.maximum(np.abs(b_w[ib]), 1e-300)
    print(f"{a_path}: {a_key.size} links; {b_path}: {b_key.size} links; shared {common.size}")
    print(f"  shared weights: largest difference {worst:.3e} absolute, "
          f"{rel.max() if rel.size else 0:.3e} relative; "
          f"{np.count_nonzero(diff > tolerance)} beyond {tolerance:g}")
    only(a_path, a_key, a_w, ia)
    only(b_path, b_key, b_w, ib)
    return 0 if worst <= tolerance else 1


if __name__ == "__main__":
    sys.exit(main())
