"""What a user meets first: objects that say what they are (repr, len), communicators
checked (an mpi4py communicator, or a Fortran handle named as such), and shape errors
that say how to fix the array."""

import numpy as np

import ferry
from agreed_errors import raises_everywhere


def box(comm, nx=6, ny=4):
    """A box layout of an nx x ny grid over comm.size x 1 blocks."""
    return ferry.Layout.box(nx, ny, comm.size, 1, comm.rank)


def test_len_of_a_layout_is_its_local_size(comm):
    layout = box(comm)
    assert len(layout) == layout.local_size
    assert len(ferry.Layout.none(24)) == 0


def test_repr_names_the_class_and_what_it_holds(comm):
    layout = box(comm)
    assert repr(layout) == f"Layout(global_size=24, local_size={layout.local_size})"
    exchange = ferry.Exchange(comm, layout, layout, [(np.float32, 2)], engine="p2p")
    assert repr(exchange) == "Exchange(engine_name='p2p', fields=[(dtype('float32'), 2)])"
    allreduce = ferry.Allreduce(comm, 5, np.float64)
    assert repr(allreduce).startswith("Allreduce(algorithm=")
    assert "count=5" in repr(allreduce)
    assert repr(ferry.FortranComm(3)) == "FortranComm(3)"


def test_a_fortran_handle_named_as_such_is_a_communicator(comm):
    layout = box(comm)
    exchange = ferry.Exchange(ferry.FortranComm(comm.py2f()), layout, layout, np.int64)
    got = np.full(layout.local_size, -1, np.int64)
    exchange.execute(layout.ids.copy(), got)
    np.testing.assert_array_equal(got, layout.ids)


def test_a_bare_int_is_refused_with_the_fix(comm):
    layout = box(comm)
    handle = comm.py2f()
    raises_everywhere(
        ferry.Errc.ARG,
        rf"Exchange: got {handle} as the communicator; pass an mpi4py communicator, or a "
        rf"Fortran handle named as such: ferry\.FortranComm\({handle}\)",
        lambda: ferry.Exchange(handle, layout, layout),
    )
    raises_everywhere(
        ferry.Errc.ARG,
        r"must be an mpi4py communicator .* or ferry\.FortranComm\(handle\); got a str",
        lambda: ferry.Exchange("world", layout, layout),
    )


def test_fortran_comm_takes_an_int_only():
    for wrong in (1.0, "1", True, None):
        try:
            ferry.FortranComm(wrong)
        except TypeError as error:
            assert "FortranComm takes an int" in str(error)
        else:
            raise AssertionError(f"FortranComm({wrong!r}) was accepted")


def test_a_2d_array_of_a_box_gets_a_hint_to_flatten_it(comm):
    nx, ny = 6, 4
    layout = box(comm, nx, ny)
    exchange = ferry.Exchange(comm, layout, layout)
    rows = ny  # comm.size x 1 blocks: every block spans all rows
    cols = layout.local_size // rows
    grid = np.arange(layout.local_size, dtype=np.float64).reshape(rows, cols)
    got = np.zeros(layout.local_size)
    raises_everywhere(
        ferry.Errc.ARG_SIZE,
        rf"source field 0 has shape \({rows}, {cols}\) on rank {comm.rank}, expected "
        rf"\({layout.local_size},\) .*pass array\.reshape\(-1\), a view of a C-order array",
        lambda: exchange.execute(grid, got),
        rank=comm.rank,
    )
    # The hint works: the flattened view moves the grid's values in the layout's order.
    exchange.execute(grid.reshape(-1), got)
    np.testing.assert_array_equal(got, grid.reshape(-1))


def test_a_fortran_order_array_gets_a_hint_for_c_order(comm):
    layout = ferry.Layout.block(10 * comm.size, comm.size, comm.rank)
    exchange = ferry.Exchange(comm, layout, layout, [(np.float64, 2)])
    fortran = np.asfortranarray(np.zeros((layout.local_size, 2)))
    raises_everywhere(
        ferry.Errc.ARG,
        r"is not C-contiguous.*numpy\.ascontiguousarray\(array\)",
        lambda: exchange.execute(fortran, np.zeros((layout.local_size, 2))),
        rank=comm.rank,
    )
