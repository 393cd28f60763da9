"""ferry.Layout: the constructors, and ids as a read-only view without copies."""

import numpy as np
import pytest

import ferry


def test_block_splits_ids_into_runs():
    parts = [ferry.Layout.block(10, 3, p) for p in range(3)]
    assert [list(p.ids) for p in parts] == [[0, 1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert [p.local_size for p in parts] == [4, 3, 3]
    assert all(p.global_size == 10 and p.member for p in parts)


def test_grid_and_cyclic_constructors():
    assert list(ferry.Layout.box(4, 2, 2, 1, 1).ids) == [2, 3, 6, 7]
    assert list(ferry.Layout.orange(3, 4, 2, 1).ids) == [6, 7, 8, 9, 10, 11]
    assert list(ferry.Layout.round_robin(7, 3, 1).ids) == [1, 4]
    ids = np.concatenate([ferry.Layout.random(50, 4, p, seed=3).ids for p in range(4)])
    assert sorted(ids) == list(range(50))


def test_points_copies_the_given_ids():
    ids = np.array([5, 1, 3], dtype=np.int64)
    layout = ferry.Layout.points(6, ids)
    ids[0] = 0
    assert list(layout.ids) == [5, 1, 3]
    assert list(ferry.Layout.points(6, [2, 4]).ids) == [2, 4]


def test_none_is_not_a_member():
    layout = ferry.Layout.none(100)
    assert not layout.member
    assert layout.local_size == 0
    assert layout.ids.shape == (0,)
    assert repr(layout) == "Layout(global_size=100, local_size=0, member=False)"


def test_ids_is_a_read_only_view_of_the_layout():
    layout = ferry.Layout.block(1000, 4, 2)
    first, second = layout.ids, layout.ids
    assert first.dtype == np.int64
    assert np.shares_memory(first, second)  # both view the layout's storage
    assert not first.flags.writeable
    with pytest.raises(ValueError):
        first[0] = 7
    del layout  # the view keeps the layout alive
    assert first[0] == 500 and first[-1] == 749


def test_bad_arguments_raise_ferry_errors():
    with pytest.raises(ferry.Error) as error:
        ferry.Layout.block(10, 0, 0)
    assert error.value.code == ferry.Errc.ARG
    assert "parts must be >= 1" in str(error.value)
