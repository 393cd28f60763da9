"""The two errors of pyoasis: the coupler's (OasisException) and a wrong argument's."""

from . import _oasis


class OasisException(Exception):
    """An OASIS call failed: the message says why; error is OASIS's return code."""

    def __init__(self, text, error):
        super().__init__(f"{text} ({error})")
        self.error = error


class PyOasisException(Exception):
    """An argument pyoasis refuses before calling the coupler."""


def check(status, text):
    """Raises OasisException(text and the coupler's message) unless status is OASIS_Ok."""
    if status != 0:
        raise OasisException(f"{text}: {_oasis.last_error()}", status)
