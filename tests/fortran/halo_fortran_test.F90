! The module ferry_halo_mod from Fortran: a geodesic mesh of 162 cells, partitioned at
! random over the ranks; each rank builds its own cell graph and a halo of depth 1 and
! 2 with a real(8) field of 3 levels, levels(3, cells), and an integer(4) field of 2
! levels x 4 bins, bins(4, 2, cells). Owned values are a function of (global cell,
! component); after the exchange every ghost must hold its owner's value exactly.
! Then the error paths. Run with --engine=NAME; failures are agreed across ranks, so
! every rank exits alike.
program halo_fortran_test
  use, intrinsic :: iso_c_binding, only: c_loc, c_ptr, c_int
  use, intrinsic :: iso_fortran_env, only: int32, int64, real64
  use mpi
  use ferry
  use ferry_halo_mod
  use test_checks
  implicit none

  integer :: rank, nranks, ierr
  character(len=32) :: engine
  integer(int64) :: global_cells
  integer(int64), allocatable :: cells(:), offsets(:), neighbours(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call start_checks()
  engine = engine_argument()

  call my_graph()
  call test_halo(1)
  call test_halo(2)
  call test_errors()
  call finish_checks()

contains

  elemental real(real64) function level_value(cell, level)
    integer(int64), intent(in) :: cell
    integer, intent(in) :: level
    level_value = 1000.0_real64 * real(cell, real64) + level + 0.25_real64
  end function level_value

  elemental integer(int32) function bin_value(cell, level, bin)
    integer(int64), intent(in) :: cell
    integer, intent(in) :: level, bin
    bin_value = int(100 * cell + 10 * level + bin, int32)
  end function bin_value

  ! This rank's cells of the mesh and their neighbours (0-based ids and offsets).
  subroutine my_graph()
    type(ferry_geodesic_mesh) :: mesh
    integer(int64) :: entries, c, n
    integer(int64), allocatable :: all_offsets(:), all_neighbours(:)
    integer(c_int), allocatable :: owner(:)
    call ferry_geodesic_mesh_create(4, mesh, ierr)
    call expect_ok(ierr, 'mesh')
    call ferry_geodesic_mesh_cell_count(mesh, global_cells, ierr)
    call ferry_geodesic_mesh_neighbour_count(mesh, entries, ierr)
    call expect(global_cells == 162, '162 cells')
    allocate (all_offsets(global_cells + 1), all_neighbours(entries), owner(global_cells))
    call ferry_geodesic_mesh_get_graph(mesh, all_offsets, all_neighbours, ierr)
    call expect_ok(ierr, 'mesh graph')
    call ferry_geodesic_mesh_get_graph(mesh, all_offsets(1:3), all_neighbours, ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'offsets has 3 elements', 'short offsets')
    call ferry_partition_cells(all_offsets, all_neighbours, nranks, FERRY_PARTITION_RANDOM, &
                               7_int64, owner, ierr)
    call expect_ok(ierr, 'partition')
    call ferry_geodesic_mesh_destroy(mesh, ierr)
    cells = pack([(c, c = 0, global_cells - 1)], owner == rank)
    allocate (offsets(size(cells) + 1), neighbours(entries))
    offsets(1) = 0
    do n = 1, size(cells)
      c = cells(n)
      offsets(n + 1) = offsets(n) + all_offsets(c + 2) - all_offsets(c + 1)
      neighbours(offsets(n) + 1:offsets(n + 1)) = all_neighbours(all_offsets(c + 1) + 1: &
                                                                 all_offsets(c + 2))
    end do
  end subroutine my_graph

  subroutine test_halo(depth)
    integer, intent(in) :: depth
    type(ferry_halo) :: halo
    integer :: levels_field, bins_field, level, bin
    integer(int64) :: owned, local, inner, entries, i, k
    integer(int64), allocatable :: local_cells(:), local_offsets(:), local_neighbours(:)
    real(real64), allocatable, target :: levels(:, :)
    integer(int32), allocatable, target :: bins(:, :, :)
    type(c_ptr) :: fields(2)
    call ferry_halo_create(MPI_COMM_WORLD, global_cells, cells, offsets, neighbours, depth, &
                           engine, halo, ierr)
    call expect_ok(ierr, 'create')
    call ferry_halo_add_field(halo, FERRY_TYPE_FLOAT64, 3, levels_field, ierr)
    call ferry_halo_add_field(halo, FERRY_TYPE_INT32, 2 * 4, bins_field, ierr)
    call expect(levels_field == 1 .and. bins_field == 2, 'field positions 1 and 2')
    call ferry_halo_setup(halo, ierr)
    call expect_ok(ierr, 'setup')
    call ferry_halo_owned_count(halo, owned, ierr)
    call ferry_halo_local_count(halo, local, ierr)
    call expect(owned == size(cells), 'owned count')
    allocate (local_cells(local), levels(3, local), bins(4, 2, local))
    call ferry_halo_get_cells(halo, local_cells, ierr)
    call expect_ok(ierr, 'get_cells')
    call expect(all(local_cells(1:owned) == cells), 'owned cells first, in order')
    levels = -1
    bins = -1
    do i = 1, owned
      levels(:, i) = [(level_value(local_cells(i), level), level = 1, 3)]
      bins(:, :, i) = reshape([((bin_value(local_cells(i), level, bin), bin = 1, 4), &
                                level = 1, 2)], [4, 2])
    end do
    fields = [c_loc(levels), c_loc(bins)]
    call ferry_halo_execute(halo, fields, ierr)
    call expect_ok(ierr, 'execute')
    do i = 1, local
      call expect(all(levels(:, i) == [(level_value(local_cells(i), level), level = 1, 3)]), &
                  'real(8) ghost value')
      do level = 1, 2
        call expect(all(bins(:, level, i) == [(bin_value(local_cells(i), level, bin), &
                                                bin = 1, 4)]), 'integer(4) ghost value')
      end do
    end do

    ! Split phase with a mask: only the integer(4) field moves.
    levels(:, owned + 1:) = -2
    bins(:, :, owned + 1:) = -2
    call ferry_halo_begin(halo, fields, [.false., .true.], ierr)
    call expect_ok(ierr, 'begin')
    call ferry_halo_end(halo, ierr)
    call expect(all(levels(:, owned + 1:) == -2), 'masked field untouched')
    do i = owned + 1, local
      call expect(bins(4, 2, i) == bin_value(local_cells(i), 2, 4), 'split phase value')
    end do

    ! Local neighbours (0-based local indices) name the same cells as the graph.
    call ferry_halo_ring_end(halo, depth - 1, inner, ierr)
    call ferry_halo_neighbour_count(halo, entries, ierr)
    allocate (local_offsets(inner + 1), local_neighbours(entries))
    call ferry_halo_get_neighbours(halo, local_offsets, local_neighbours, ierr)
    call expect_ok(ierr, 'get_neighbours')
    do i = 1, owned
      do k = 1, offsets(i + 1) - offsets(i)
        call expect(local_cells(local_neighbours(local_offsets(i) + k) + 1) == &
                    neighbours(offsets(i) + k), 'local neighbour')
      end do
    end do
    call ferry_halo_execute(halo, fields(1:1), ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'got 1 arrays', 'one array for two fields')
    call ferry_halo_destroy(halo, ierr)
    call expect_ok(ierr, 'destroy')
  end subroutine test_halo

  subroutine test_errors()
    type(ferry_halo) :: halo
    integer(int64), allocatable :: bad(:)
    integer(int64) :: local
    call ferry_halo_create(MPI_COMM_WORLD, global_cells, cells, offsets(1:size(cells)), &
                           neighbours, 1, engine, halo, ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'offsets has', 'short offsets')
    ! A neighbour outside the mesh on rank 0 only: every rank fails at setup.
    bad = neighbours
    if (rank == 0 .and. size(bad) > 0) bad(1) = global_cells + 5
    call ferry_halo_create(MPI_COMM_WORLD, global_cells, cells, offsets, bad, 1, engine, halo, &
                           ierr)
    call expect_ok(ierr, 'create with a bad neighbour')
    call ferry_halo_local_count(halo, local, ierr)
    call expect_error(ierr, FERRY_ERR_STATE, 'not set up', 'count before setup')
    call ferry_halo_setup(halo, ierr)
    call expect_error(ierr, FERRY_ERR_ARG_RANGE, 'outside', 'neighbour outside the mesh')
    call ferry_halo_destroy(halo, ierr)
    call ferry_halo_create(MPI_COMM_WORLD, global_cells, cells, offsets, neighbours, 1, &
                           'neighbour', halo, ierr)
    call ferry_halo_setup(halo, ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'unknown engine', 'misspelt engine')
    call ferry_halo_destroy(halo, ierr)
  end subroutine test_errors

end program halo_fortran_test
