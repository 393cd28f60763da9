"""Var: a coupling field declared on a partition, sent with put or received with get."""

import numpy

from . import _oasis
from .exception import OasisException, PyOasisException, check
from .handle import Handle
from .parameters import OasisParameters
from .partition import Partition

_RECEIVED = (OasisParameters.OASIS_RECVD.value, OasisParameters.OASIS_RECVOUT.value)


class Var(Handle):
    """The field name of the namcouple on partition, sent (OASIS_OUT) or received
    (OASIS_IN), with bundle_size values per point.

    A put or get takes a NumPy array of float64 or float32 of the partition's local
    size x bundle_size values; array[i, j, ...] is the point at position i + ni*j + ...
    of the partition (Fortran order, as pyoasis.asarray makes), the bundle last. A
    field the namcouple does not name is not active (is_active False): its put and
    get do nothing.
    """

    def __init__(self, name, partition, kinout, bundle_size=1):
        if not isinstance(name, str) or not name:
            raise PyOasisException(f"Var: name must be a non-empty str; got {name!r}")
        if not isinstance(partition, Partition):
            raise PyOasisException(f"Var {name}: partition must be a pyoasis partition")
        if kinout not in (OasisParameters.OASIS_IN, OasisParameters.OASIS_OUT):
            raise PyOasisException(
                f"Var {name}: kinout must be OASIS_IN or OASIS_OUT; got {kinout}"
            )
        if int(bundle_size) != bundle_size or bundle_size < 1:
            raise PyOasisException(f"Var {name}: bundle_size must be >= 1; got {bundle_size!r}")
        self.name = name
        self.bundle_size = int(bundle_size)
        self.direction = kinout
        self._local_size = partition.local_size
        status, self._id = _oasis.def_var(name, partition.id, self.bundle_size, kinout.value)
        check(status, f"Error in def_var of {name}")

    @property
    def is_active(self):
        """Whether the namcouple names this field."""
        return self._id != -1

    @property
    def cpl_freqs(self):
        """The coupling periods (s) of the field, one per namcouple entry it is in."""
        status, freqs = _oasis.get_freqs(self._id, self.direction.value)
        check(status, f"Error in get_freqs of {self.name}")
        return freqs

    def _checked(self, field, routine):
        floats = (numpy.float64, numpy.float32)
        if not isinstance(field, numpy.ndarray) or field.dtype not in floats:
            raise PyOasisException(
                f"Var {self.name}: {routine} takes a NumPy array of float64 or float32; got "
                f"{getattr(field, 'dtype', type(field).__name__)}"
            )
        expected = self._local_size * self.bundle_size
        if field.size != expected or (self.bundle_size > 1 and field.shape[-1] != self.bundle_size):
            raise PyOasisException(
                f"Var {self.name}: {routine} of an array of shape {field.shape}; expected "
                f"{self._local_size} points x bundle_size {self.bundle_size} "
                "(the bundle the last dimension)"
            )
        return field

    def _info(self, status, kinfo, routine):
        check(status, f"Error in {routine} of {self.name}")
        try:
            return OasisParameters(kinfo)
        except ValueError:
            raise OasisException(f"{routine} of {self.name}: unknown info code", kinfo) from None

    def put(self, date, field, write_restart=False):
        """Sends field at date (s, an int); returns the info code (OASIS_SENT, ...)."""
        array = numpy.asfortranarray(self._checked(field, "put"))
        restart = bool(write_restart)
        status, kinfo = _oasis.put(self._id, int(date), array, self.bundle_size, restart)
        return self._info(status, kinfo, "put")

    def get(self, date, field):
        """Receives into field at date (s, an int) if it is a coupling time; returns the
        info code (OASIS_RECVD, or OASIS_OK when nothing arrives)."""
        self._checked(field, "get")
        into = field if field.flags.f_contiguous and field.flags.writeable else None
        if into is None:
            into = numpy.empty(field.shape, dtype=field.dtype, order="F")
        status, kinfo = _oasis.get(self._id, int(date), into, self.bundle_size)
        info = self._info(status, kinfo, "get")
        if into is not field and kinfo in _RECEIVED:
            field[...] = into
        return info

    def put_inquire(self, date):
        """The info code a put at date would return, without sending."""
        status, kinfo = _oasis.put_inquire(self._id, int(date))
        return self._info(status, kinfo, "put_inquire")

    def __str__(self):
        return f"Var: name: {self.name}, id: {self._id}"
