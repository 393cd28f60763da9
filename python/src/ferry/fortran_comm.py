"""FortranComm: a communicator given by its Fortran handle, named as such."""


class FortranComm:
    """A communicator given by its Fortran handle: the integer a Fortran code holds,
    or ``MPI_Comm_c2f`` returns in C. ferry accepts it wherever it takes an mpi4py
    communicator; a bare int is refused, since any int would pass for a handle.

    >>> exchange = ferry.Exchange(ferry.FortranComm(handle), src, dst)
    """

    __slots__ = ("handle",)

    def __init__(self, handle: int) -> None:
        if isinstance(handle, bool) or not isinstance(handle, int):
            raise TypeError(f"FortranComm takes an int (a Fortran handle); got {handle!r}")
        self.handle = handle

    def py2f(self) -> int:
        """The Fortran handle, as mpi4py's Comm.py2f() gives it."""
        return self.handle

    def __repr__(self) -> str:
        return f"FortranComm({self.handle})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FortranComm) and other.handle == self.handle

    def __hash__(self) -> int:
        return hash(self.handle)
