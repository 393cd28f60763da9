"""Regular longitude-latitude grids of the globe for the regridding tests: point
(i, j) has the global id j * nx + i."""

import numpy as np


def centres(nx, ny):
    """Longitude and latitude of every point of a regular grid, global id j * nx + i."""
    lon = (np.arange(nx) + 0.5) * 360.0 / nx
    lat = -90.0 + (np.arange(ny) + 0.5) * 180.0 / ny
    return np.tile(lon, ny), np.repeat(lat, nx)


def corners(nx, ny):
    """The four corners of every cell, counter-clockwise from the south-west: (cells, 4)."""
    west = np.tile(np.arange(nx) * 360.0 / nx, ny)
    east = west + 360.0 / nx
    south = np.repeat(-90.0 + np.arange(ny) * 180.0 / ny, nx)
    north = south + 180.0 / ny
    return np.stack([west, east, east, west], 1), np.stack([south, south, north, north], 1)
