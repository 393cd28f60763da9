"""ferry.Halo: ghost cells of a geodesic mesh equal their owners' values exactly.

Owned values are a function of (global cell, component); after an exchange every
local cell, owned or ghost, must hold that function of its global id.
"""

import numpy as np
import pytest
from agreed_errors import raises_everywhere

import ferry

ENGINES = [e for e in ("p2p", "neighbor") if e in ferry.engine_names()]


def cell_values(cells, dtype, components=()):
    """Component (l, b) of cell g holds 1000*g + 10*l + b (exact in every dtype)."""
    offset = np.zeros(components, dtype=np.int64)
    for d, extent in enumerate(components):
        axis = [1] * len(components)
        axis[d] = extent
        offset = offset + np.arange(extent).reshape(axis) * 10 ** (len(components) - 1 - d)
    cells = np.asarray(cells).reshape((-1,) + (1,) * len(components))
    return (1000 * cells + offset).astype(dtype)


def my_graph(comm, method="random", frequency=4):
    mesh = ferry.GeodesicMesh(frequency)
    owner = ferry.partition_cells(mesh.offsets, mesh.neighbours, comm.size, method, seed=3)
    return mesh, owner, mesh.cell_graph(owner, comm.rank)


@pytest.mark.parametrize("depth", [1, 2])
@pytest.mark.parametrize("engine", ENGINES)
def test_ghosts_equal_owners_for_2d_and_3d_fields(comm, engine, depth):
    mesh, owner, graph = my_graph(comm)
    assert mesh.cell_count == 162 and graph.global_cells == 162
    assert graph.cells.tolist() == np.flatnonzero(owner == comm.rank).tolist()
    # A 2-D field (cells x 3 levels) and a 3-D field (cells x 2 levels x 4 bins).
    halo = ferry.Halo(comm, graph, depth, [(np.float64, 3), (np.int32, (2, 4))], engine=engine)
    assert halo.engine_name == engine and halo.depth == depth
    assert halo.local_count == halo.owned_count + halo.ghost_count == halo.ring_end(depth)
    assert halo.owned_count == len(graph.cells)
    levels, bins = halo.empty(0), halo.empty(1)
    assert levels.shape == (halo.local_count, 3) and bins.shape == (halo.local_count, 2, 4)
    owned = slice(0, halo.owned_count)
    levels[:] = -1
    bins[:] = -1
    levels[owned] = cell_values(halo.cells[owned], np.float64, (3,))
    bins[owned] = cell_values(halo.cells[owned], np.int32, (2, 4))
    halo.execute([levels, bins])
    np.testing.assert_array_equal(levels, cell_values(halo.cells, np.float64, (3,)))
    np.testing.assert_array_equal(bins, cell_values(halo.cells, np.int32, (2, 4)))

    # Split phase with a mask: only the 3-D field moves.
    ghosts = slice(halo.owned_count, None)
    levels[ghosts] = -2
    bins[ghosts] = -2
    halo.begin([levels, bins], mask=[False, True])
    halo.end()
    assert (levels[ghosts] == -2).all()
    np.testing.assert_array_equal(bins, cell_values(halo.cells, np.int32, (2, 4)))


def test_local_neighbours_match_the_mesh(comm):
    mesh, _, graph = my_graph(comm, "block")
    halo = ferry.Halo(comm, graph, depth=2)
    inner = halo.ring_end(1)
    assert len(halo.neighbour_offsets) == inner + 1
    for i in range(inner):
        cell = halo.cells[i]
        local = halo.neighbours[halo.neighbour_offsets[i] : halo.neighbour_offsets[i + 1]]
        expected = mesh.neighbours[mesh.offsets[cell] : mesh.offsets[cell + 1]]
        assert halo.cells[local].tolist() == expected.tolist()
    # One float64 value per cell by default, and a single array for a single field.
    t = halo.empty()
    t[: halo.owned_count] = 100.0 + halo.cells[: halo.owned_count]
    halo.execute(t)
    np.testing.assert_array_equal(t, 100.0 + halo.cells)


def test_a_ring_of_cells_on_ranks_without_neighbours(comm):
    # Eight cells in a ring on rank 0 only; the other ranks own nothing.
    cells = np.arange(8) if comm.rank == 0 else np.zeros(0, dtype=np.int64)
    neighbours = np.stack([(cells + 7) % 8, (cells + 1) % 8], axis=1).ravel()
    offsets = np.arange(len(cells) + 1) * 2
    halo = ferry.Halo(comm, ferry.CellGraph(8, cells, offsets, neighbours), depth=2)
    assert halo.ghost_count == 0 and halo.local_count == len(cells)
    t = np.arange(len(cells), dtype=np.float64)
    halo.execute(t)
    np.testing.assert_array_equal(t, np.arange(len(cells)))


def test_bad_input_raises_the_same_error_on_every_rank(comm):
    _, _, graph = my_graph(comm)
    # A field this module cannot parse on rank 0 only: agreed on every rank.
    fields = ["complex128"] if comm.rank == 0 else [np.float64]
    raises_everywhere(ferry.Errc.ARG, "complex128", lambda: ferry.Halo(comm, graph, 1, fields))
    raises_everywhere(ferry.Errc.ARG, "CellGraph", lambda: ferry.Halo(comm, "mesh"))
    # A neighbour outside the mesh on the last rank: found by the library, agreed.
    neighbours = graph.neighbours.copy()
    if comm.rank == comm.size - 1 and len(neighbours):
        neighbours[0] = 500
    bad = ferry.CellGraph(162, graph.cells, graph.offsets, neighbours)
    raises_everywhere(ferry.Errc.ARG_RANGE, "outside 0..161", lambda: ferry.Halo(comm, bad))
    raises_everywhere(
        ferry.Errc.ARG, "unknown engine", lambda: ferry.Halo(comm, graph, engine="neighbour")
    )
    raises_everywhere(ferry.Errc.ARG, "integer", lambda: ferry.CellGraph(162, [0.5], [0, 0], []))
    raises_everywhere(
        ferry.Errc.ARG, "unknown", lambda: ferry.partition_cells([0], [], 1, "spectral")
    )

    halo = ferry.Halo(comm, graph, 1, [(np.float32, 2)])
    raises_everywhere(
        ferry.Errc.ARG, "dtype float64", lambda: halo.execute(np.zeros((halo.local_count, 2)))
    )
    raises_everywhere(
        ferry.Errc.ARG_SIZE,
        r"has shape \(",
        lambda: halo.execute(np.zeros(halo.local_count * 2 + 1, np.float32)),
    )
    raises_everywhere(ferry.Errc.ARG_SIZE, "expected 1", lambda: halo.execute([None, None]))
