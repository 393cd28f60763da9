"""Type stubs of ferry._core, the nanobind module behind the package ferry."""

import enum
import os
from collections.abc import Sequence
from typing import Any, TypeAlias

import numpy
import numpy.typing

__version__: str

# A communicator: an mpi4py communicator (anything with py2f()) or a Fortran handle.
Comm: TypeAlias = Any
DTypeLike: TypeAlias = numpy.typing.DTypeLike
FieldSpec: TypeAlias = DTypeLike | tuple[DTypeLike, int]
# One array per field, or the array itself for a single field; None where a side of
# this rank has no values.
Arrays: TypeAlias = numpy.ndarray | None | Sequence[numpy.ndarray | None]

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
    @property
    def engine_name(self) -> str: ...
    @property
    def fields(self) -> list[tuple[numpy.dtype, int]]: ...
    @property
    def setup_seconds(self) -> float: ...
    def traffic(self) -> dict[str, int]: ...

class FieldDirection(enum.Enum):
    OUT = 0
    IN = 1

class Status(enum.IntFlag):
    """What a put or get did (bit flags)."""

    NOTHING = 0
    TRANSFORMED = 1
    SENT = 2
    RECEIVED = 4
    FROM_RESTART = 8
    OUTPUT = 16

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
        """An mpi4py Intracomm (the Fortran handle, an int, without mpi4py)."""
    def def_grid(self, component: str, name: str, nx: int, ny: int = 1) -> GridId: ...
    def def_partition(self, grid: GridId, name: str, layout: Layout) -> PartitionId: ...
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
    def finalize(self) -> None: ...
