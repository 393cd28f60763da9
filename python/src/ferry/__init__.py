"""ferry: couple parallel simulation codes.

Describe once, plan once, move many times: a ``Layout`` says which global ids a
rank holds, an ``Exchange`` moves fields between two layouts, a ``Coupler`` runs
the exchanges of a YAML configuration with put/get, a ``TimeSeriesBuffer``
lets worker codes read many time steps of a simulation in one call, a ``Halo``
fills the ghost cells of an unstructured mesh, and a ``Remap`` regrids fields with
``Weights`` read from a SCRIP file or computed online. Arrays are
NumPy arrays, read and written in place; communicators are mpi4py communicators.
Every failure is a ``ferry.Error`` whose ``code`` is a ``ferry.Errc``. Run with
``mpiexec -n 4 python -m mpi4py app.py`` so an error on one rank ends the job.
"""

from ferry._core import (
    BufferMode,
    CellGraph,
    Coupler,
    Errc,
    Error,
    Exchange,
    FieldDirection,
    FieldId,
    GeodesicMesh,
    GridCells,
    GridId,
    GridPoints,
    Halo,
    Layout,
    MapOn,
    PartitionId,
    Remap,
    RemapMode,
    Status,
    TimeSeriesBuffer,
    TimeSeriesReader,
    Weights,
    __version__,
    bilinear_weights,
    conservative_weights,
    disabled_engines,
    engine_names,
    nearest_neighbour_weights,
    partition_cells,
)

__all__ = [
    "BufferMode",
    "CellGraph",
    "Coupler",
    "Errc",
    "Error",
    "Exchange",
    "FieldDirection",
    "FieldId",
    "GeodesicMesh",
    "GridCells",
    "GridId",
    "GridPoints",
    "Halo",
    "Layout",
    "MapOn",
    "PartitionId",
    "Remap",
    "RemapMode",
    "Status",
    "TimeSeriesBuffer",
    "TimeSeriesReader",
    "Weights",
    "__version__",
    "bilinear_weights",
    "conservative_weights",
    "disabled_engines",
    "engine_names",
    "nearest_neighbour_weights",
    "partition_cells",
]
