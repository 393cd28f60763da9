"""Component: one coupled model on this process (oasis_init_comp to oasis_terminate)."""

import atexit
import sys

from mpi4py import MPI

from . import _oasis
from .exception import PyOasisException, check
from .handle import Handle

# The component of this process (OASIS runs one per process): [name, id].
_current = []


def terminate():
    """Ends the coupling of this process's component (oasis_terminate); once only."""
    if _current:
        _current.clear()
        check(_oasis.terminate(), "terminate")


def _at_exit():
    """Terminates the component when the interpreter exits (before mpi4py finalises
    MPI); after an uncaught exception, ends every process of the coupled run instead,
    as oasis_abort does, since the partners would wait for this one's fields."""
    if _current and getattr(sys, "last_value", None) is not None:
        name, compid = _current
        _oasis.abort(compid, name, f"uncaught exception: {sys.last_value!r}", 1)
    terminate()


atexit.register(_at_exit)


class Component(Handle):
    """A component that OASIS couples, on the processes that create it with its name.

    name: the component's name in the namcouple; coupled: False for processes that
    take no part in the coupling; communicator: the mpi4py communicator of all
    coupled programs (MPI.COMM_WORLD by default). The coupling ends with terminate(),
    or when the component is deleted.
    """

    def __init__(self, name, coupled=True, communicator=None):
        if not isinstance(name, str) or not name:
            raise PyOasisException(f"Component: name must be a non-empty str; got {name!r}")
        if communicator is None:
            communicator = MPI.COMM_WORLD
        if _current:
            raise PyOasisException(
                f"Component: component {_current[0]!r} already runs on this process; "
                "OASIS couples one component per process"
            )
        self.name = name
        status, self._id = _oasis.init_comp(name, bool(coupled), communicator.py2f())
        check(status, f"Error initialising component {name}")
        _current[:] = [name, self._id]
        status, local = _oasis.get_localcomm()
        check(status, "Error in get_localcomm")
        self.localcomm = MPI.Comm.f2py(local)
        self.couplcomm = self.localcomm

    def create_couplcomm(self, coupled):
        """Collective over localcomm: the processes with coupled True couple, the others
        get MPI.COMM_NULL."""
        status, comm = _oasis.create_couplcomm(int(bool(coupled)), self.localcomm.py2f())
        check(status, "Error in create_couplcomm")
        self.couplcomm = MPI.Comm.f2py(comm)
        return self.couplcomm

    def set_couplcomm(self, couplcomm):
        """Gives OASIS the coupling communicator (MPI.COMM_NULL on uncoupled processes)."""
        check(_oasis.set_couplcomm(couplcomm.py2f()), "Error in set_couplcomm")
        self.couplcomm = couplcomm

    def get_intracomm(self, other):
        """An intracommunicator of this component's and component other's processes."""
        status, comm = _oasis.get_intracomm(other)
        check(status, f"Error in get_intracomm with {other}")
        return MPI.Intracomm(MPI.Comm.f2py(comm))

    def get_multi_intracomm(self, complist):
        """An intracommunicator of the processes of the components complist (a list of
        names holding this component's), in component order, and {name: rank in it of
        that component's first process}."""
        if not isinstance(complist, list) or not all(isinstance(n, str) for n in complist):
            raise PyOasisException(
                f"get_multi_intracomm: complist must be a list of component names; got {complist!r}"
            )
        status, comm, root_ranks = _oasis.get_multi_intracomm(complist)
        check(status, f"Error in get_multi_intracomm with {complist}")
        return MPI.Intracomm(MPI.Comm.f2py(comm)), dict(zip(complist, root_ranks))

    def get_intercomm(self, other):
        """An intercommunicator between this component and component other."""
        status, comm = _oasis.get_intercomm(other)
        check(status, f"Error in get_intercomm with {other}")
        return MPI.Intercomm(MPI.Comm.f2py(comm))

    @property
    def debug_level(self):
        """OASIS's debug level ($NLOGPRT); settable."""
        status, level = _oasis.get_debug()
        check(status, "Error in get_debug")
        return level

    @debug_level.setter
    def debug_level(self, level):
        check(_oasis.set_debug(int(level)), "Error in set_debug")

    def enddef(self):
        """Collective over the coupled processes of every component: ends the
        definitions, reads the namcouple's transformations and builds every exchange."""
        check(_oasis.enddef(), "Error in enddef")

    def __del__(self):
        if _current and _current[0] == self.name:
            terminate()

    def __str__(self):
        return f"Component: name: {self.name}, id: {self._id}"
