"""The analytic fields of yac_second_order_values.py and compare_second_order.py."""

import numpy as np

FIELDS = ("constant", "smooth", "fcos")


def analytic(kind, lon, lat):
    """The fields, of longitude and latitude in degrees (fcos: test_interpolation's)."""
    if kind == "constant":
        return np.ones_like(lon)
    if kind == "smooth":
        return 2 + np.cos(np.radians(lat)) ** 2 * np.cos(2 * np.radians(lon))
    pi = 3.14159265359  # test_interpolation's own value
    arc = np.arccos(np.cos(lon * pi / 180) * np.cos(lat * pi / 180))
    return 2 - np.cos(pi * arc / (1.2 * pi))
