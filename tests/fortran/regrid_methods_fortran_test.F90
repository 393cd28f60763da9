! The regridding methods of module ferry_regrid_mod beyond first-order conservative and
! bilinear: bicubic (gradients made or given), second-order conservative (folded or as
! three weights), the unmapped fill, and grid files. A source of 12 x 6 points (cell
! centres of 30-degree cells) held round robin, with point 40 masked; a destination of
! 8 x 5 points and cells by blocks, its top row beyond the source's outermost row.
!
! - Bicubic and bilinear keep a constant (rows sum to 1) to 1e-13; with the unmapped
!   fill NEAREST every destination point has links, with FILL the top row has none.
! - The value weights of bicubic_gradients and conservative_gradients are those of
!   the one-matrix calls' first order / of the bilinear cells, bit for bit; the
!   gradient weights have the same links.
! - Second-order conservative keeps a constant and links more sources than first; with
!   nx (and periodic) its links are the centred differences' cross stencil.
! - ferry_grid_read of the OASIS example grid torc (when --grids=DIR has it): sizes,
!   points, corners, areas; a missing file fails every rank with FERRY_ERR_IO.
program regrid_methods_fortran_test
  use, intrinsic :: iso_c_binding, only: c_associated, c_int
  use, intrinsic :: iso_fortran_env, only: int64, real64
  use mpi
  use ferry
  use ferry_regrid_mod
  use test_checks
  implicit none

  integer(int64), parameter :: src_nx = 12, src_ny = 6, dst_nx = 8, dst_ny = 5
  real(real64), parameter :: fill = -999.0_real64
  integer :: rank, nranks, ierr
  character(len=32) :: engine
  character(len=512) :: grids_dir
  type(ferry_layout) :: src, dst
  integer(int64), allocatable :: src_ids(:), dst_ids(:)
  integer(c_int), allocatable :: src_mask(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call start_checks()
  engine = engine_argument()
  grids_dir = grids_argument()

  call ferry_layout_create_round_robin(src_nx * src_ny, nranks, rank, src, ierr)
  call ferry_layout_create_block(dst_nx * dst_ny, nranks, rank, dst, ierr)
  call layout_ids(src, src_ids)
  call layout_ids(dst, dst_ids)
  src_mask = merge(0_c_int, 1_c_int, src_ids == 40)

  call test_bicubic()
  call test_second_order_conservative()
  call test_grid_read()
  call ferry_layout_destroy(src, ierr)
  call ferry_layout_destroy(dst, ierr)
  call finish_checks()

contains

  function grids_argument() result(dir)
    character(len=512) :: dir
    character(len=512) :: argument
    integer :: i
    dir = ''
    do i = 1, command_argument_count()
      call get_command_argument(i, argument)
      if (argument(1:8) == '--grids=') dir = argument(9:)
    end do
  end function grids_argument

  ! Centres of the cells of an nx x ny lon-lat grid; the destination's top row is moved
  ! to 85N, beyond the source's outermost row (75N).
  subroutine centres(ids, nx, ny, lon, lat)
    integer(int64), intent(in) :: ids(:), nx, ny
    real(real64), allocatable, intent(out) :: lon(:), lat(:)
    allocate (lon(size(ids)), lat(size(ids)))
    lon = 360 * (real(mod(ids, nx), real64) + 0.5_real64) / real(nx, real64)
    lat = -90 + 180 * (real(ids / nx, real64) + 0.5_real64) / real(ny, real64)
    if (nx == dst_nx) lat = merge(85.0_real64, lat, ids / nx == ny - 1)
  end subroutine centres

  ! This rank's rows of w: CSR offsets, columns, values.
  subroutine local_links(w, start, cols, values)
    type(ferry_weights), intent(in) :: w
    integer(int64), allocatable, intent(out) :: start(:), cols(:)
    real(real64), allocatable, intent(out) :: values(:)
    integer(int64) :: first, rows, links
    call ferry_weights_get_local_rows(w, first, rows, links, ierr)
    allocate (start(rows + 1), cols(links), values(links))
    call ferry_weights_get_links(w, start, cols, values, ierr)
    call expect_ok(ierr, 'get_links')
  end subroutine local_links

  ! a and b hold the same rows and links; with `values`, the same weights bit for bit.
  subroutine expect_same_links(a, b, values, what)
    type(ferry_weights), intent(in) :: a, b
    logical, intent(in) :: values
    character(len=*), intent(in) :: what
    integer(int64), allocatable :: start_a(:), cols_a(:), start_b(:), cols_b(:)
    real(real64), allocatable :: values_a(:), values_b(:)
    call local_links(a, start_a, cols_a, values_a)
    call local_links(b, start_b, cols_b, values_b)
    call expect(size(start_a) == size(start_b) .and. size(cols_a) == size(cols_b), &
                what // ': row or link counts differ')
    if (size(start_a) /= size(start_b) .or. size(cols_a) /= size(cols_b)) return
    call expect(all(start_a == start_b) .and. all(cols_a == cols_b), what // ': links differ')
    if (values) call expect(all(values_a == values_b), what // ': weights differ')
  end subroutine expect_same_links

  subroutine test_bicubic()
    type(ferry_weights) :: w, value, di, dj, dij, nearest
    real(real64), allocatable :: src_lon(:), src_lat(:), dst_lon(:), dst_lat(:), out(:)
    logical, allocatable :: top(:)
    call centres(src_ids, src_nx, src_ny, src_lon, src_lat)
    call centres(dst_ids, dst_nx, dst_ny, dst_lon, dst_lat)
    allocate (top(size(dst_ids)), out(size(dst_ids)))
    top = dst_ids / dst_nx == dst_ny - 1

    call ferry_weights_bicubic(MPI_COMM_WORLD, src, src_lon, src_lat, dst, dst_lon, dst_lat, &
                               src_nx, .true., w, src_mask, ierr=ierr)
    call expect_ok(ierr, 'bicubic')
    call remap_once(w, src, dst, engine, fill, spread(1.0_real64, 1, size(src_ids)), out)
    ! Points in no cell (the top row) or in a cell with the masked corner keep the fill.
    call expect(all(abs(out - 1) <= 1e-13_real64 .or. out == fill), 'bicubic: constant')
    call expect(all(out == fill .or. .not. top), 'bicubic: unmapped top row filled')
    call ferry_weights_destroy(w, ierr)

    call ferry_weights_bicubic(MPI_COMM_WORLD, src, src_lon, src_lat, dst, dst_lon, dst_lat, &
                               src_nx, .true., nearest, src_mask, unmapped=FERRY_UNMAPPED_NEAREST, &
                               ierr=ierr)
    call expect_ok(ierr, 'bicubic nearest')
    call remap_once(nearest, src, dst, engine, fill, spread(1.0_real64, 1, size(src_ids)), out)
    call expect(all(abs(out - 1) <= 1e-13_real64), 'bicubic nearest: every point')
    call ferry_weights_destroy(nearest, ierr)

    ! Given gradients: the value weights are the bilinear cells' Hermite weights, the
    ! three gradient weights have the same links.
    call ferry_weights_bicubic_gradients(MPI_COMM_WORLD, src, src_lon, src_lat, dst, dst_lon, &
                                         dst_lat, src_nx, .true., value, di, dj, dij, src_mask, &
                                         unmapped=FERRY_UNMAPPED_NEAREST, ierr=ierr)
    call expect_ok(ierr, 'bicubic gradients')
    call remap_once(value, src, dst, engine, fill, spread(1.0_real64, 1, size(src_ids)), out)
    call expect(all(abs(out - 1) <= 1e-13_real64), 'bicubic value weights: constant')
    call expect_same_links(value, di, .false., 'bicubic i_gradient')
    call expect_same_links(value, dj, .false., 'bicubic j_gradient')
    call expect_same_links(value, dij, .false., 'bicubic ij_gradient')
    call ferry_weights_bilinear(MPI_COMM_WORLD, src, src_lon, src_lat, dst, dst_lon, dst_lat, &
                                src_nx, .true., w, src_mask, unmapped=FERRY_UNMAPPED_NEAREST, &
                                ierr=ierr)
    call expect_ok(ierr, 'bilinear nearest')
    call expect_same_links(value, w, .false., 'bicubic value against bilinear cells')
    call ferry_weights_destroy(w, ierr)
    call ferry_weights_destroy(value, ierr)
    call ferry_weights_destroy(di, ierr)
    call ferry_weights_destroy(dj, ierr)
    call ferry_weights_destroy(dij, ierr)

    ! A bad unmapped on the last rank only: every rank fails alike, no handles.
    call ferry_weights_bicubic_gradients(MPI_COMM_WORLD, src, src_lon, src_lat, dst, dst_lon, &
                                         dst_lat, src_nx, .true., value, di, dj, dij, &
                                         unmapped=merge(5, 0, rank == nranks - 1), ierr=ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'unknown unmapped 5', 'bad unmapped')
    call expect(.not. (c_associated(value%ptr) .or. c_associated(dij%ptr)), &
                'failed bicubic_gradients left a handle')
  end subroutine test_bicubic

  subroutine test_second_order_conservative()
    type(ferry_weights) :: first, second, value, dlat, dlon
    real(real64), allocatable :: src_lon(:, :), src_lat(:, :), dst_lon(:, :), dst_lat(:, :)
    real(real64), allocatable :: out(:)
    integer(int64) :: sizes(3), second_links(3)
    call cell_corners(src_ids, src_nx, src_ny, src_lon, src_lat)
    call cell_corners(dst_ids, dst_nx, dst_ny, dst_lon, dst_lat)
    allocate (out(size(dst_ids)))
    call ferry_weights_conservative_polygons(MPI_COMM_WORLD, src, 4, src_lon, src_lat, &
                                             FERRY_CELL_EDGES_AUTO, dst, 4, dst_lon, dst_lat, &
                                             FERRY_CELL_EDGES_AUTO, FERRY_NORMALISATION_FRACAREA, &
                                             first, src_mask, unmapped=FERRY_UNMAPPED_NEAREST, &
                                             ierr=ierr)
    call expect_ok(ierr, 'conservative first order')
    call ferry_weights_conservative_polygons(MPI_COMM_WORLD, src, 4, src_lon, src_lat, &
                                             FERRY_CELL_EDGES_AUTO, dst, 4, dst_lon, dst_lat, &
                                             FERRY_CELL_EDGES_AUTO, FERRY_NORMALISATION_FRACAREA, &
                                             second, src_mask, unmapped=FERRY_UNMAPPED_NEAREST, &
                                             order=2, ierr=ierr)
    call expect_ok(ierr, 'conservative second order')
    call remap_once(second, src, dst, engine, fill, spread(1.0_real64, 1, size(src_ids)), out)
    call expect(all(abs(out - 1) <= 1e-12_real64), 'second order: constant')
    call ferry_weights_get_sizes(first, sizes(1), sizes(2), sizes(3), ierr)
    call ferry_weights_get_sizes(second, second_links(1), second_links(2), second_links(3), ierr)
    call expect(second_links(3) > sizes(3), 'second order links the neighbours too')
    call test_centred_differences(first, second, src_lon, src_lat, dst_lon, dst_lat)

    call ferry_weights_conservative_gradients(MPI_COMM_WORLD, src, 4, src_lon, src_lat, &
                                              FERRY_CELL_EDGES_AUTO, dst, 4, dst_lon, dst_lat, &
                                              FERRY_CELL_EDGES_AUTO, &
                                              FERRY_NORMALISATION_FRACAREA, value, dlat, dlon, &
                                              src_mask, unmapped=FERRY_UNMAPPED_NEAREST, &
                                              ierr=ierr)
    call expect_ok(ierr, 'conservative gradients')
    call expect_same_links(value, first, .true., 'gradient value weights against first order')
    call expect_same_links(value, dlat, .false., 'lat_gradient')
    call expect_same_links(value, dlon, .false., 'lon_gradient')
    call ferry_weights_destroy(first, ierr)
    call ferry_weights_destroy(second, ierr)
    call ferry_weights_destroy(value, ierr)
    call ferry_weights_destroy(dlat, ierr)
    call ferry_weights_destroy(dlon, ierr)

    call ferry_weights_conservative_polygons(MPI_COMM_WORLD, src, 4, src_lon, src_lat, &
                                             FERRY_CELL_EDGES_AUTO, dst, 4, dst_lon, dst_lat, &
                                             FERRY_CELL_EDGES_AUTO, FERRY_NORMALISATION_FRACAREA, &
                                             second, order=merge(3, 2, rank == nranks - 1), &
                                             ierr=ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'order must be 1', 'bad order')
  end subroutine test_second_order_conservative

  ! True if every link of each row of `second` comes from a source cell of that row of
  ! `first` or from one of its neighbours (i +- 1, j) and (i, j +- 1) on the src_nx x
  ! src_ny grid, across the ends of the rows where `periodic`: the stencil of centred
  ! differences, which least squares over the 8 nearest cells (diagonals too) leaves.
  logical function within_cross(first, second, periodic)
    type(ferry_weights), intent(in) :: first, second
    logical, intent(in) :: periodic
    integer(int64), allocatable :: start_f(:), cols_f(:), start_s(:), cols_s(:)
    real(real64), allocatable :: values_f(:), values_s(:)
    integer(int64) :: r, k, l, di, dj
    logical :: near
    call local_links(first, start_f, cols_f, values_f)
    call local_links(second, start_s, cols_s, values_s)
    within_cross = size(start_f) == size(start_s)
    if (.not. within_cross) return
    do r = 1, size(start_s) - 1
      do k = start_s(r) + 1, start_s(r + 1)
        near = .false.
        do l = start_f(r) + 1, start_f(r + 1)
          di = abs(mod(cols_s(k), src_nx) - mod(cols_f(l), src_nx))
          if (periodic) di = min(di, src_nx - di)
          dj = abs(cols_s(k) / src_nx - cols_f(l) / src_nx)
          near = near .or. di + dj <= 1
        end do
        within_cross = within_cross .and. near
      end do
    end do
  end function within_cross

  ! Second order with nx (and periodic): SCRIP's centred differences. The links of each
  ! row are those of the cross stencil around its first-order sources (`first`),
  ! wrapping across the ends of the rows only where periodic, unlike least squares'
  ! (`squares`); a constant is kept. Bad nx on one rank, or nx 1, fails every rank alike.
  subroutine test_centred_differences(first, squares, src_lon, src_lat, dst_lon, dst_lat)
    type(ferry_weights), intent(in) :: first, squares
    real(real64), intent(in) :: src_lon(:, :), src_lat(:, :), dst_lon(:, :), dst_lat(:, :)
    type(ferry_weights) :: centred, open_rows
    real(real64) :: out(size(dst_ids))
    integer :: k
    call centred_differences(src_lon, src_lat, dst_lon, dst_lat, src_nx, .true., centred)
    call expect_ok(ierr, 'centred differences')
    call centred_differences(src_lon, src_lat, dst_lon, dst_lat, src_nx, .false., &
                             open_rows)
    call expect_ok(ierr, 'centred differences, not periodic')
    call remap_once(centred, src, dst, engine, fill, spread(1.0_real64, 1, size(src_ids)), out)
    call expect(all(abs(out - 1) <= 1e-12_real64), 'centred differences: constant')
    call expect(all_ranks(within_cross(first, centred, .true.)), 'centred: cross stencil')
    call expect(.not. all_ranks(within_cross(first, squares, .true.)), &
                'least squares: diagonals too')
    call expect(all_ranks(within_cross(first, open_rows, .false.)), 'not periodic: no wrap')
    call expect(.not. all_ranks(within_cross(first, centred, .false.)), 'periodic: wraps')
    call ferry_weights_destroy(centred, ierr)
    call ferry_weights_destroy(open_rows, ierr)
    ! nx not dividing the 72 cells on the last rank only, then nx 1 everywhere.
    do k = 1, 2
      call centred_differences(src_lon, src_lat, dst_lon, dst_lat, &
                               merge(merge(5_int64, src_nx, rank == nranks - 1), 1_int64, &
                                     k == 1), .true., centred)
      call expect_error(ierr, FERRY_ERR_ARG, &
                        merge('nx is 5 for a source grid of 72 cells', &
                              'nx is 1 for a source grid of 72 cells', k == 1), 'bad nx')
      call expect(.not. c_associated(centred%ptr), 'failed conservative left a handle')
    end do
  end subroutine test_centred_differences

  ! Second order from src to dst (cells of the corners given) with src_mask, unmapped
  ! NEAREST, nx and periodic; ierr as the routine sets it.
  subroutine centred_differences(src_lon, src_lat, dst_lon, dst_lat, nx, periodic, w)
    real(real64), intent(in) :: src_lon(:, :), src_lat(:, :), dst_lon(:, :), dst_lat(:, :)
    integer(int64), intent(in) :: nx
    logical, intent(in) :: periodic
    type(ferry_weights), intent(out) :: w
    call ferry_weights_conservative_polygons(MPI_COMM_WORLD, src, 4, src_lon, src_lat, &
                                             FERRY_CELL_EDGES_AUTO, dst, 4, dst_lon, dst_lat, &
                                             FERRY_CELL_EDGES_AUTO, FERRY_NORMALISATION_FRACAREA, &
                                             w, src_mask, unmapped=FERRY_UNMAPPED_NEAREST, &
                                             order=2, ierr=ierr, nx=nx, periodic=periodic)
  end subroutine centred_differences

  ! Collective: `value` is true on every rank.
  logical function all_ranks(value)
    logical, intent(in) :: value
    call MPI_Allreduce(value, all_ranks, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
  end function all_ranks

  subroutine test_grid_read()
    type(ferry_grid) :: grid
    type(ferry_layout) :: cells
    integer(int64) :: cell_count, first, count, nx, local, total
    integer :: corner_slots
    logical :: has_corners, has_area, there
    real(real64), allocatable :: lon(:), lat(:), corner_lon(:, :), corner_lat(:, :), area(:)
    integer(c_int), allocatable :: mask(:)

    call ferry_grid_read(MPI_COMM_WORLD, 'no_such_grid.nc', grid, ierr=ierr)
    call expect_error(ierr, FERRY_ERR_IO, 'no_such_grid.nc', 'missing grid file')
    call expect(.not. c_associated(grid%ptr), 'failed grid read left a handle')

    inquire (file=trim(grids_dir) // '/grids.nc', exist=there)
    if (len_trim(grids_dir) == 0 .or. .not. there) return
    call ferry_grid_read(MPI_COMM_WORLD, trim(grids_dir) // '/grids.nc', grid, &
                         FERRY_GRID_FORMAT_OASIS, 'torc', trim(grids_dir) // '/masks.nc', &
                         trim(grids_dir) // '/areas.nc', ierr)
    call expect_ok(ierr, 'grid read torc')
    call ferry_grid_get_sizes(grid, cell_count, first, count, corner_slots, nx, has_corners, &
                              has_area, ierr)
    call expect_ok(ierr, 'grid sizes')
    call expect(cell_count == 182 * 149 .and. nx == 182 .and. corner_slots == 4, 'torc sizes')
    call expect(has_corners .eqv. count > 0, 'torc has corners')
    call expect(has_area .eqv. count > 0, 'torc has areas')
    call MPI_Allreduce(count, total, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
    call expect(total == cell_count, 'the blocks cover the grid')
    call ferry_grid_get_layout(grid, cells, ierr)
    call ferry_layout_local_size(cells, local, ierr)
    call expect(local == count, 'grid layout size')
    allocate (lon(count), lat(count), mask(count), corner_lon(4, count), corner_lat(4, count), &
              area(count))
    call ferry_grid_get_points(grid, lon, lat, mask, ierr)
    call expect_ok(ierr, 'grid points')
    call expect(all(abs(lat) <= 90) .and. all(mask == 0 .or. mask == 1), 'torc points')
    call ferry_grid_get_corners(grid, corner_lon, corner_lat, ierr)
    call expect_ok(ierr, 'grid corners')
    call expect(all(abs(corner_lat) <= 90), 'torc corners')
    call ferry_grid_get_area(grid, area, ierr)
    call expect_ok(ierr, 'grid areas')
    call expect(all(area >= 0), 'torc areas')
    ! Too little room: an error, nothing written past the end.
    call ferry_grid_get_points(grid, lon(:count - 1), lat, ierr=ierr)
    if (count > 0) call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'lon has', 'short lon')
    call ferry_layout_destroy(cells, ierr)
    call ferry_grid_destroy(grid, ierr)
    call expect(.not. c_associated(grid%ptr), 'grid destroyed')
  end subroutine test_grid_read

end program regrid_methods_fortran_test
