"""Checking errors that every rank must raise alike."""

import re

import pytest

import ferry


def raises_everywhere(code, pattern, call, rank=None):
    """call() raises ferry.Error with `code` and a message matching `pattern`, the
    error of rank `rank` when given.

    Not pytest.raises: the traceback it keeps would keep ferry objects alive, and
    destroying a buffer is collective.
    """
    try:
        call()
    except ferry.Error as error:
        assert error.code == code and re.search(pattern, str(error)), repr(error)
        assert rank is None or error.rank == rank, repr(error)
    else:
        pytest.fail(f"no ferry.Error {code!r} raised")
