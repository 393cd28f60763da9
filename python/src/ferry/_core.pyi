"""Type stubs of ferry._core, the nanobind module behind the package ferry."""

import enum
import os
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any, Self, TypeAlias

import numpy
import numpy.typing

__version__: str

# A communicator: an mpi4py communicator or a ferry.FortranComm (anything with py2f()).
Comm: TypeAlias = Any
DTypeLike: TypeAlias = numpy.typing.DTypeLike
FieldSpec: TypeAlias = DTypeLike | tuple[DTypeLike, int]
# One array per field, or the array itself for a single field; None where a side of
# this rank has no values.
Arrays: TypeAlias = numpy.ndarray | None | Sequence[numpy.ndarray | None]
# A weight generation's progress(stage, done, total, seconds), called on each rank alone.
WeightProgress: TypeAlias = Callable[[str, int, int, float], None]

class Errc(enum.IntEnum):
    """Stable error codes, the same numbers as ferry::Errc and FERRY_ERR_*."""

    SUCCESS = 0
    ARG = 1
    ARG_SIZE = 2
    ARG_RANGE = 3
    DUPLICATE = 4
    MISSING = 5
    OVERFLOW = 6
    STATE = 7
    MPI = 8
    UNSUPPORTED = 9
    NO_MEMORY = 10
    IO = 11
    INTERNAL = 12

class Error(RuntimeError):
    """A failure reported by ferry; str(error) says what is wrong and how to fix it."""

    code: Errc
    rank: int

def engine_names() -> list[str]:
    """Names of the engines of this build, in registration order."""

def disabled_engines() -> list[str]:
    """Built-in engines this build could not offer, each with the reason."""

class Layout:
    """The global ids (0 .. global_size-1) one rank holds, in its storage order."""

    @staticmethod
    def block(global_size: int, parts: int, part: int) -> Layout: ...
    @staticmethod
    def box(nx: int, ny: int, px: int, py: int, part: int) -> Layout: ...
    @staticmethod
    def orange(nx: int, ny: int, parts: int, part: int) -> Layout: ...
    @staticmethod
    def round_robin(global_size: int, parts: int, part: int) -> Layout: ...
    @staticmethod
    def points(global_size: int, ids: numpy.typing.ArrayLike) -> Layout: ...
    @staticmethod
    def random(global_size: int, parts: int, part: int, seed: int) -> Layout: ...
    @staticmethod
    def none(global_size: int) -> Layout: ...
    @property
    def global_size(self) -> int: ...
    @property
    def local_size(self) -> int: ...
    @property
    def member(self) -> bool: ...
    @property
    def ids(self) -> numpy.ndarray:
        """A read-only int64 view of the layout's own ids (no copy)."""
    def __len__(self) -> int:
        """local_size: the number of ids this rank holds."""

class Exchange:
    """Moves fields from a source layout to a destination layout, again and again."""

    def __init__(
        self,
        comm: Comm,
        src: Layout,
        dst: Layout,
        fields: FieldSpec | Sequence[FieldSpec] | None = None,
        engine: str = "default",
        options: dict[str, str | bool | int | float] = {},
    ) -> None: ...
    def execute(self, src: Arrays, dst: Arrays, mask: Sequence[bool] | None = None) -> None: ...
    def begin(self, src: Arrays, dst: Arrays, mask: Sequence[bool] | None = None) -> None: ...
    def end(self) -> None: ...
    def test(self) -> bool: ...
    def destination_field(self, field: int) -> numpy.ndarray | None:
        """A view of memory the engine offers for the field's received values, or None."""
    @property
    def engine_name(self) -> str: ...
    @property
    def fields(self) -> list[tuple[numpy.dtype, int]]: ...
    @property
    def setup_seconds(self) -> float: ...
    def traffic(self) -> dict[str, int]: ...
    def close(self) -> None:
        """Collective, idempotent: frees what only every rank together can free."""
    def __enter__(self) -> Self: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> bool: ...

class FieldDirection(enum.Enum):
    OUT = 0
    IN = 1

class Status(enum.Flag):
    """What a put or get did (bit flags)."""

    NOTHING = 0
    TRANSFORMED = 1
    SENT = 2
    RECEIVED = 4
    FROM_RESTART = 8
    OUTPUT = 16
    TO_RESTART = 32
    WAIT_GROUP = 64

class GridId:
    @property
    def value(self) -> int: ...

class PartitionId:
    @property
    def value(self) -> int: ...

class FieldId:
    @property
    def value(self) -> int: ...

class Coupler:
    """A coupled run seen from one rank."""

    def __init__(
        self,
        comm: Comm,
        components: str | Sequence[str],
        config: str | os.PathLike[str],
    ) -> None: ...
    def local_comm(self, component: str) -> Any:
        """An mpi4py Intracomm (a ferry.FortranComm without mpi4py)."""
    def def_grid(self, component: str, name: str, nx: int, ny: int = 1) -> GridId: ...
    def def_partition(self, grid: GridId, name: str, layout: Layout) -> PartitionId: ...
    def set_coordinates(
        self, partition: PartitionId, lon: numpy.ndarray | None, lat: numpy.ndarray | None
    ) -> None: ...
    def set_corners(
        self,
        partition: PartitionId,
        ncorner: int,
        lon: numpy.ndarray | None,
        lat: numpy.ndarray | None,
    ) -> None: ...
    def set_areas(self, partition: PartitionId, area: numpy.ndarray | None) -> None: ...
    def set_mask(self, partition: PartitionId, mask: numpy.ndarray | None) -> None: ...
    def partition_points(self, partition: PartitionId) -> int: ...
    def def_field(
        self,
        partition: PartitionId,
        name: str,
        direction: FieldDirection | str,
        dtype: DTypeLike,
        bundle: int = 1,
    ) -> FieldId: ...
    def field_values(self, field: FieldId) -> int: ...
    def enddef(self) -> None: ...
    def put(self, field: FieldId, time: float, values: numpy.ndarray | None) -> Status: ...
    def get(self, field: FieldId, time: float, out: numpy.ndarray | None) -> Status: ...
    def load(self, buffer: str, values: numpy.ndarray | None, step: int) -> None: ...
    def read(self, buffer: str, out: numpy.ndarray | int) -> tuple[numpy.ndarray, int, int]:
        """Reads up to max_steps new steps (out.shape[0], or out itself when an int);
        returns (values of shape (n_steps, points), first_step, lost_steps)."""
    def read_steps(self, buffer: str) -> numpy.ndarray: ...
    def buffer_values(self, buffer: str) -> int: ...
    def finalize(self) -> None: ...
    def close(self) -> None:
        """finalize() while running; before enddef, tells the other ranks (abandon)."""
    def abandon(self, reason: str) -> None:
        """Not collective: tells every other rank that this one gives up on the run."""
    def __enter__(self) -> Self: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> bool: ...

# A box of a global array: one (start, stop) pair or slice per dimension.
Box: TypeAlias = Sequence[tuple[int, int] | slice]

class BufferMode(enum.Enum):
    """What a TimeSeriesBuffer does when a ring is full."""

    LOSSLESS = 0
    LOSSY = 1

class TimeSeriesReader:
    """One worker group's reader of a TimeSeriesBuffer."""

    def read(self, out: numpy.ndarray | None, max_steps: int | None = None) -> tuple[int, int, int]:
        """Fills out[:n_steps] with new steps; returns (first_step, n_steps, lost_steps)."""
    def empty(self, max_steps: int) -> numpy.ndarray: ...
    @property
    def steps(self) -> numpy.ndarray: ...
    def done(self) -> None: ...
    def close(self) -> None:
        """Collective over the group, idempotent: done() unless it was called."""
    def __enter__(self) -> Self: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> bool: ...
    @property
    def box_shape(self) -> tuple[int, ...]: ...
    @property
    def dtype(self) -> numpy.dtype: ...
    @property
    def values_per_step(self) -> int: ...
    @property
    def statistics(self) -> dict[str, int | float]: ...

class TimeSeriesBuffer:
    """A ring of time steps that requester ranks load and worker groups read."""

    @staticmethod
    def expose(
        comm: Comm,
        shape: Sequence[int],
        box: Box,
        dtype: DTypeLike,
        capacity: int | None = None,
        *,
        capacity_bytes: int | None = None,
        mode: BufferMode | str = "lossless",
    ) -> TimeSeriesBuffer: ...
    @staticmethod
    def connect(comm: Comm, group: int) -> TimeSeriesBuffer: ...
    def load(self, data: numpy.ndarray | None, step: int) -> None: ...
    def close(self) -> None: ...
    def free(self) -> None:
        """Collective over the parent, idempotent: frees the window (closes first)."""
    def __enter__(self) -> Self: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> bool: ...
    def attach(self, comm: Comm, box: Box) -> TimeSeriesReader: ...
    @property
    def is_requester(self) -> bool: ...
    @property
    def shape(self) -> tuple[int, ...]: ...
    @property
    def dtype(self) -> numpy.dtype: ...
    @property
    def mode(self) -> BufferMode: ...
    @property
    def capacity_steps(self) -> int: ...
    @property
    def groups(self) -> int: ...

# Global cell ids or CSR offsets: a 1-D integer array or a sequence of integers.
Ids: TypeAlias = numpy.typing.ArrayLike
# A halo field: a dtype, or (dtype, components) with components an int or a shape.
HaloFieldSpec: TypeAlias = DTypeLike | tuple[DTypeLike, int | tuple[int, ...]]

class CellGraph:
    """One rank's cells (global ids) and their neighbours in CSR form."""

    def __init__(self, global_cells: int, cells: Ids, offsets: Ids, neighbours: Ids) -> None: ...
    @property
    def global_cells(self) -> int: ...
    @property
    def cells(self) -> numpy.ndarray: ...
    @property
    def offsets(self) -> numpy.ndarray: ...
    @property
    def neighbours(self) -> numpy.ndarray: ...

class Halo:
    """Ghost cells of an unstructured mesh, filled from their owners."""

    def __init__(
        self,
        comm: Comm,
        graph: CellGraph,
        depth: int = 1,
        fields: HaloFieldSpec | Sequence[HaloFieldSpec] | None = None,
        engine: str = "default",
        options: dict[str, Any] = ...,
    ) -> None: ...
    def execute(self, arrays: Arrays, mask: Sequence[bool] | None = None) -> None: ...
    def begin(self, arrays: Arrays, mask: Sequence[bool] | None = None) -> None: ...
    def end(self) -> None: ...
    def close(self) -> None:
        """Collective, idempotent: frees what only every rank together can free."""
    def __enter__(self) -> Self: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> bool: ...
    def empty(self, field: int = 0) -> numpy.ndarray: ...
    @property
    def depth(self) -> int: ...
    @property
    def owned_count(self) -> int: ...
    @property
    def ghost_count(self) -> int: ...
    @property
    def local_count(self) -> int: ...
    def ring_end(self, ring: int) -> int: ...
    @property
    def cells(self) -> numpy.ndarray: ...
    @property
    def neighbour_offsets(self) -> numpy.ndarray: ...
    @property
    def neighbours(self) -> numpy.ndarray: ...
    @property
    def engine_name(self) -> str: ...

class GeodesicMesh:
    """A test mesh of 10 f^2 + 2 hexagonal and pentagonal cells on the unit sphere."""

    def __init__(self, frequency: int) -> None: ...
    @staticmethod
    def frequency_for(cells: int) -> int: ...
    @property
    def frequency(self) -> int: ...
    @property
    def cell_count(self) -> int: ...
    @property
    def offsets(self) -> numpy.ndarray: ...
    @property
    def neighbours(self) -> numpy.ndarray: ...
    @property
    def centres(self) -> numpy.ndarray: ...
    def cell_graph(self, owner: Sequence[int] | numpy.ndarray, rank: int) -> CellGraph: ...

def partition_cells(
    offsets: Ids, neighbours: Ids, parts: int, method: str = "block", seed: int = 0
) -> numpy.ndarray: ...

class MapOn(enum.Enum):
    """Where Remap forms the sums (or "src" / "dst")."""

    SRC = 0
    DST = 1

class RemapMode(enum.Enum):
    """How Remap sums a row (or "bfb" / "sum")."""

    BFB = 0
    SUM = 1

class GridPoints:
    """This rank's points of a grid for the online weights (copied)."""

    def __init__(
        self,
        layout: Layout,
        lon: numpy.typing.ArrayLike,
        lat: numpy.typing.ArrayLike,
        mask: numpy.typing.ArrayLike | None = None,
    ) -> None: ...
    @property
    def layout(self) -> Layout: ...

class GridCells:
    """This rank's cells of a grid for conservative weights: corners (cells, corners)."""

    def __init__(
        self,
        layout: Layout,
        corner_lon: numpy.typing.ArrayLike,
        corner_lat: numpy.typing.ArrayLike,
        mask: numpy.typing.ArrayLike | None = None,
        corner_counts: numpy.typing.ArrayLike | None = None,
        edges: str = "auto",
        name: str = "",
    ) -> None: ...
    @property
    def layout(self) -> Layout: ...
    @property
    def corners(self) -> int: ...
    @property
    def name(self) -> str: ...

class Grid:
    """One grid as read_grid reads it: this rank's block of cells."""

    @property
    def points(self) -> GridPoints: ...
    @property
    def cells(self) -> GridCells: ...
    @property
    def area(self) -> numpy.ndarray | None: ...
    @property
    def nx(self) -> int: ...

def read_grid(
    comm: Comm,
    path: str | os.PathLike[str],
    format: str = "auto",
    name: str = "",
    masks: str | os.PathLike[str] = "",
    areas: str | os.PathLike[str] = "",
) -> Grid: ...

class Weights:
    """A remapping matrix distributed by rows: read from a file or computed online."""

    @staticmethod
    def read(comm: Comm, path: str | os.PathLike[str]) -> Weights: ...
    @staticmethod
    def from_links(
        comm: Comm,
        src_size: int,
        dst_size: int,
        rows: numpy.typing.ArrayLike,
        cols: numpy.typing.ArrayLike,
        values: numpy.typing.ArrayLike,
        order: numpy.typing.ArrayLike | None = None,
    ) -> Weights:
        """Collective: a matrix from the links this rank holds (any share, any order)."""
    def write_scrip(self, comm: Comm, path: str | os.PathLike[str]) -> None: ...
    def write_esmf(self, comm: Comm, path: str | os.PathLike[str]) -> None: ...
    @property
    def src_size(self) -> int: ...
    @property
    def dst_size(self) -> int: ...
    @property
    def global_links(self) -> int: ...
    @property
    def method(self) -> str: ...
    @property
    def first_row(self) -> int: ...
    @property
    def row_count(self) -> int: ...
    @property
    def row_start(self) -> numpy.ndarray: ...
    @property
    def cols(self) -> numpy.ndarray: ...
    @property
    def values(self) -> numpy.ndarray: ...

def nearest_neighbour_weights(
    comm: Comm,
    src: GridPoints,
    dst: GridPoints,
    neighbours: int = 4,
    weighting: str = "inverse_distance",
    gaussian_variance: float = 0.1,
    masked_neighbours: str = "skip",
    gaussian_scale: str = "source",
) -> Weights: ...
def bilinear_weights(
    comm: Comm,
    src: GridPoints,
    dst: GridPoints,
    nx: int,
    periodic: bool = True,
    unmapped: str = "fill",
) -> Weights: ...
def bicubic_weights(
    comm: Comm,
    src: GridPoints,
    dst: GridPoints,
    nx: int,
    periodic: bool = True,
    unmapped: str = "fill",
) -> Weights: ...
def bicubic_gradient_weights(
    comm: Comm,
    src: GridPoints,
    dst: GridPoints,
    nx: int,
    periodic: bool = True,
    unmapped: str = "fill",
) -> tuple[Weights, Weights, Weights, Weights]: ...
def conservative_weights(
    comm: Comm,
    src: GridCells,
    dst: GridCells,
    normalisation: str = "fracarea",
    unmapped: str = "fill",
    order: int = 1,
    progress: WeightProgress | None = None,
    nx: int = 0,
    periodic: bool = True,
) -> Weights: ...
def conservative_gradient_weights(
    comm: Comm,
    src: GridCells,
    dst: GridCells,
    normalisation: str = "fracarea",
    unmapped: str = "fill",
    progress: WeightProgress | None = None,
) -> tuple[Weights, Weights, Weights]: ...

class Remap:
    """Applies Weights to fields again and again: dst = W src, in parallel."""

    def __init__(
        self,
        comm: Comm,
        weights: Weights,
        src: Layout,
        dst: Layout,
        fields: FieldSpec | Sequence[FieldSpec] | None = None,
        map_on: MapOn | str = "dst",
        mode: RemapMode | str = "bfb",
        fill_value: float = 0.0,
        dst_mask: numpy.typing.ArrayLike | None = None,
        engine: str = "default",
        options: dict[str, str | bool | int | float] = {},
    ) -> None: ...
    def apply(self, src: Arrays, dst: Arrays) -> None: ...
    def begin(self, src: Arrays, dst: Arrays) -> None: ...
    def end(self) -> None: ...
    @property
    def rows(self) -> numpy.ndarray: ...
    @property
    def fields(self) -> list[tuple[numpy.dtype, int]]: ...
    @property
    def src_points(self) -> GridPointData: ...
    @property
    def dst_points(self) -> GridPointData: ...
    def traffic(self) -> dict[str, int]: ...
    def close(self) -> None:
        """Collective, idempotent: frees what only every rank together can free."""
    def __enter__(self) -> Self: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> bool: ...

class SumMethod(enum.Enum):
    """How a global sum is formed (or "reprosum", "gather", "lsum8", "lsum16", "ddpdd")."""

    GATHER = 0
    LSUM8 = 1
    LSUM16 = 2
    DDPDD = 3
    REPROSUM = 4

class Conserve(enum.Enum):
    """How conserve() corrects a remapped field (or "global", "global_positive", ...)."""

    GLOBAL = 0
    GLOBAL_POSITIVE = 1
    BASIN_BALANCE = 2
    BASIN_POSITIVE = 3

class GridPointData:
    """A grid's area, frac and mask at one rank's points: read-only views, or None."""

    @property
    def area(self) -> numpy.ndarray | None: ...
    @property
    def frac(self) -> numpy.ndarray | None: ...
    @property
    def mask(self) -> numpy.ndarray | None: ...

def global_sums(
    comm: Comm,
    values: numpy.typing.ArrayLike | None,
    method: SumMethod | str = "reprosum",
    ids: numpy.typing.ArrayLike | None = None,
) -> numpy.ndarray: ...
def conserve(
    comm: Comm,
    method: Conserve | str,
    src: Layout,
    src_values: numpy.typing.ArrayLike | None,
    dst: Layout,
    dst_values: numpy.ndarray | None,
    *,
    src_area: numpy.typing.ArrayLike | None,
    dst_area: numpy.typing.ArrayLike | None,
    src_frac: numpy.typing.ArrayLike | None = None,
    dst_frac: numpy.typing.ArrayLike | None = None,
    src_mask: numpy.typing.ArrayLike | None = None,
    dst_mask: numpy.typing.ArrayLike | None = None,
    sum: SumMethod | str = "reprosum",
) -> None: ...

class AlltoallvAlgorithm(enum.Enum):
    """How Alltoallv moves its blocks (or "mpi", "ring", "swap", "bruck")."""

    MPI = 0
    RING = 1
    SWAP = 2
    BRUCK = 3

class AllreduceAlgorithm(enum.Enum):
    """How Allreduce sums the ranks' vectors (or "mpi", "doubling", "halving", "ring")."""

    MPI = 0
    DOUBLING = 1
    HALVING = 2
    RING = 3

class Alltoallv:
    """An all-to-all-v with fixed counts, set up once and executed many times."""

    def __init__(
        self,
        comm: Comm,
        send_counts: numpy.typing.ArrayLike,
        send_displs: numpy.typing.ArrayLike,
        recv_counts: numpy.typing.ArrayLike,
        recv_displs: numpy.typing.ArrayLike,
        dtype: DTypeLike = "float64",
        algorithm: AlltoallvAlgorithm | str = "mpi",
    ) -> None: ...
    def execute(self, send: numpy.ndarray | None, recv: numpy.ndarray | None) -> None: ...
    @property
    def algorithm(self) -> AlltoallvAlgorithm: ...
    @property
    def dtype(self) -> numpy.dtype: ...
    @property
    def send_size(self) -> int: ...
    @property
    def recv_size(self) -> int: ...

class Allreduce:
    """A sum over all ranks of a vector of `count` values, executed many times."""

    def __init__(
        self,
        comm: Comm,
        count: int,
        dtype: DTypeLike = "float64",
        algorithm: AllreduceAlgorithm | str = "mpi",
    ) -> None: ...
    def execute(
        self, send: numpy.ndarray | None, recv: numpy.ndarray | None = None
    ) -> numpy.ndarray: ...
    @property
    def algorithm(self) -> AllreduceAlgorithm: ...
    @property
    def dtype(self) -> numpy.dtype: ...
    @property
    def count(self) -> int: ...

def tuned_alltoallv_algorithm(
    comm: Comm,
    cache: str | os.PathLike[str] | None,
    block_bytes: int,
    fallback: AlltoallvAlgorithm | str = "mpi",
) -> AlltoallvAlgorithm: ...
def tuned_allreduce_algorithm(
    comm: Comm,
    cache: str | os.PathLike[str] | None,
    vector_bytes: int,
    fallback: AllreduceAlgorithm | str = "mpi",
) -> AllreduceAlgorithm: ...
