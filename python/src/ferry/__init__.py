"""ferry: couple parallel simulation codes.

Describe once, plan once, move many times: a ``Layout`` says which global ids a
rank holds, an ``Exchange`` moves fields between two layouts, a ``Coupler`` runs
the exchanges of a YAML configuration with put/get, a ``TimeSeriesBuffer``
lets worker codes read many time steps of a simulation in one call, a ``Halo``
fills the ghost cells of an unstructured mesh, a ``Remap`` regrids fields with
``Weights`` read from a SCRIP file or computed online, ``conserve`` corrects a
regridded field to the source's area integral, ``global_sums`` adds values over
all ranks, reproducibly, and ``Alltoallv`` and ``Allreduce`` run the transpose and
the vector sum by the algorithm ``ferry tune kernels`` found fastest. Arrays are
NumPy arrays, read and written in place; communicators are mpi4py communicators
(or ``FortranComm(handle)`` for a Fortran handle).
Every failure is a ``ferry.Error`` whose ``code`` is a ``ferry.Errc``. Run with
``mpiexec -n 4 python -m mpi4py app.py`` so an error on one rank ends the job.
"""

from ferry._core import (
    Allreduce,
    AllreduceAlgorithm,
    Alltoallv,
    AlltoallvAlgorithm,
    BufferMode,
    CellGraph,
    Conserve,
    Coupler,
    Errc,
    Error,
    Exchange,
    FieldDirection,
    FieldId,
    GeodesicMesh,
    Grid,
    GridCells,
    GridId,
    GridPointData,
    GridPoints,
    Halo,
    Layout,
    MapOn,
    PartitionId,
    Remap,
    RemapMode,
    Status,
    SumMethod,
    TimeSeriesBuffer,
    TimeSeriesReader,
    Weights,
    __version__,
    bicubic_gradient_weights,
    bicubic_weights,
    bilinear_weights,
    conservative_gradient_weights,
    conservative_weights,
    conserve,
    disabled_engines,
    engine_names,
    global_sums,
    nearest_neighbour_weights,
    partition_cells,
    read_grid,
    tuned_allreduce_algorithm,
    tuned_alltoallv_algorithm,
)
from ferry.fortran_comm import FortranComm

__all__ = [
    "Allreduce",
    "AllreduceAlgorithm",
    "Alltoallv",
    "AlltoallvAlgorithm",
    "BufferMode",
    "CellGraph",
    "Conserve",
    "Coupler",
    "Errc",
    "Error",
    "Exchange",
    "FieldDirection",
    "FieldId",
    "FortranComm",
    "GeodesicMesh",
    "Grid",
    "GridCells",
    "GridId",
    "GridPointData",
    "GridPoints",
    "Halo",
    "Layout",
    "MapOn",
    "PartitionId",
    "Remap",
    "RemapMode",
    "Status",
    "SumMethod",
    "TimeSeriesBuffer",
    "TimeSeriesReader",
    "Weights",
    "__version__",
    "bicubic_gradient_weights",
    "bicubic_weights",
    "bilinear_weights",
    "conservative_gradient_weights",
    "conservative_weights",
    "conserve",
    "disabled_engines",
    "engine_names",
    "global_sums",
    "nearest_neighbour_weights",
    "partition_cells",
    "read_grid",
    "tuned_allreduce_algorithm",
    "tuned_alltoallv_algorithm",
]
