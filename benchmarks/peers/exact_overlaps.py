"""Which overlap areas are right: ferry's or another tool's (for docs/user/regrid.md).

Reads two SCRIP weight files of the same grids (first-order conservative, fracarea;
the second with the grids' corners, as SCRIP, OASIS and CDO write them),
turns each link back into its overlap area (weight x dst_grid_area x dst_grid_frac),
and computes the overlaps where the two differ most a third way: the source cell
taken as a convex polygon with great-circle edges and the destination cell as a
longitude-latitude rectangle, the area is the integral over longitude of the length
in z = sin(latitude) of the meridian arc inside both, by 64-point Gauss-Legendre
quadrature on panels cut at every kink (the source corners' longitudes and where its
edges cross the rectangle's parallels). Needs numpy and ncdump (netcdf-bin).

    python exact_overlaps.py ferry.nc other.nc [count [max_latitude]]

lists the `count` (default 5) links whose areas differ most, relatively, among those
whose destination cell lies within `max_latitude` degrees of the equator (default 90)
and covers at least 1e-3 of that cell.
"""

import re
import subprocess
import sys

import numpy as np


def variable(path, name):
    text = subprocess.run(
        ["ncdump", "-p", "17,17", "-v", name, path], capture_output=True, text=True, check=True
    ).stdout
    body = text.split("data:")[1].split(name + " =", 1)[1].rsplit("}", 1)[0]
    return np.array([float(x) for x in re.split(r"[,;\s]+", body) if x])


def overlap_areas(path):
    src = variable(path, "src_address").astype(int) - 1
    dst = variable(path, "dst_address").astype(int) - 1
    weight = variable(path, "remap_matrix")
    covered = variable(path, "dst_grid_area") * variable(path, "dst_grid_frac")
    return {(d, s): w * covered[d] for d, s, w in zip(dst, src, weight)}


def radians(path, name, shape):
    values = variable(path, name).reshape(shape)
    return np.radians(values) if np.abs(values).max() > 7 else values


def point(lon, lat):
    return np.array([np.cos(lat) * np.cos(lon), np.cos(lat) * np.sin(lon), np.sin(lat)])


NODES, WEIGHTS = np.polynomial.legendre.leggauss(64)


def onto(lon, start):
    """lon on the branch start .. start + 2 pi."""
    return start + np.mod(lon - start + np.pi, 2 * np.pi) - np.pi


def exact_overlap(src_lon, src_lat, dst_lon, dst_lat):
    corners = []
    for lon, lat in zip(src_lon, src_lat):
        p = point(lon, lat)
        if not corners or np.linalg.norm(p - corners[-1]) > 1e-12:
            corners.append(p)
    if np.linalg.norm(corners[0] - corners[-1]) < 1e-12:
        corners.pop()
    centre = sum(corners)
    normals = []
    for k, p in enumerate(corners):
        n = np.cross(p, corners[(k + 1) % len(corners)])
        n /= np.linalg.norm(n)
        normals.append(n if n @ centre > 0 else -n)
    west, east = dst_lon.min(), dst_lon.max()
    south, north = np.sin(dst_lat.min()), np.sin(dst_lat.max())

    def inside_length(lon):
        low, high = south, north
        for n in normals:
            # n . x >= 0 on the meridian: a cos(lat) + b sin(lat) = r cos(lat - angle) >= 0
            a, b = n[0] * np.cos(lon) + n[1] * np.sin(lon), n[2]
            angle = np.arctan2(b, a)
            low = max(low, np.sin(max(angle - np.pi / 2, -np.pi / 2)))
            high = min(high, np.sin(min(angle + np.pi / 2, np.pi / 2)))
        return max(0.0, high - low)

    kinks = [west, east]
    kinks += [onto(lon, west) for lon in src_lon if west < onto(lon, west) < east]
    for n in normals:
        for z in (south, north):
            c, r = np.sqrt(1 - z * z), np.hypot(n[0], n[1])
            if r * c <= abs(n[2] * z):
                continue
            base, spread = np.arctan2(n[1], n[0]), np.arccos(-n[2] * z / (r * c))
            kinks += [onto(lon, west) for lon in (base + spread, base - spread)]
    kinks = sorted(k for k in kinks if west <= k <= east)
    total = 0.0
    for a, b in zip(kinks[:-1], kinks[1:]):
        for lo, hi in zip(np.linspace(a, b, 9)[:-1], np.linspace(a, b, 9)[1:]):
            lons = (lo + hi) / 2 + (hi - lo) / 2 * NODES
            total += (hi - lo) / 2 * sum(w * inside_length(x) for w, x in zip(WEIGHTS, lons))
    return total


def main():
    ours, theirs = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    max_latitude = np.radians(float(sys.argv[4])) if len(sys.argv) > 4 else np.pi / 2
    a, b = overlap_areas(ours), overlap_areas(theirs)
    dst_area = variable(theirs, "dst_grid_area")
    # The corners come from the second file (ferry's files carry none).
    src_lon = radians(theirs, "src_grid_corner_lon", (-1, 4))
    src_lat = radians(theirs, "src_grid_corner_lat", (-1, 4))
    dst_lon = radians(theirs, "dst_grid_corner_lon", (-1, 4))
    dst_lat = radians(theirs, "dst_grid_corner_lat", (-1, 4))
    dst_centre = radians(theirs, "dst_grid_center_lat", (-1,))
    common = [
        (d, s)
        for d, s in set(a) & set(b)
        if abs(dst_centre[d]) <= max_latitude and a[d, s] >= 1e-3 * dst_area[d]
    ]
    common.sort(key=lambda k: -abs(a[k] - b[k]) / max(abs(a[k]), 1e-300))
    print("dst src lat | first file | second file | third way | rel. diff first | second")
    for d, s in common[:count]:
        exact = exact_overlap(src_lon[s], src_lat[s], dst_lon[d], dst_lat[d])
        print(
            f"{d} {s} {np.degrees(dst_centre[d]):.1f} | {a[d, s]:.10e} | {b[d, s]:.10e} | "
            f"{exact:.10e} | {abs(a[d, s] - exact) / exact:.1e} | {abs(b[d, s] - exact) / exact:.1e}"
        )


if __name__ == "__main__":
    main()
