! The module ferry_regrid_mod from Fortran. A source grid of 12 x 6 points held round
! robin by every rank; a destination of 40 points held by blocks (by all ranks but
! the last on 4 ranks, which then holds none), rank 0 also asking for the last point.
!
! - Weights from links by a formula known on every rank: destination row r has the
!   source points mod(3 r + j, 72) with weights (j + 1) / 6, j = 0, 1, 2, summed in
!   order j, except the rows with mod(r, 7) = 6, which have none. Given once with
!   orders (each rank the rows with mod(r, nranks) = rank) and once without, in
!   global position order (each rank one slice of the list). Applied with map_on dst
!   and src (mode bfb) to a real(8) field and a real(4) field of 2 components: every
!   value equals the links summed in order j in double, bit for bit (converted to
!   real(4) for that field); rows without links and masked points get the fill value.
! - A SCRIP write and read gives the same matrix bit for bit.
! - Nearest neighbour (k = 1) between identical point sets copies every value;
!   bilinear and conservative weights keep a constant to 1e-13.
! - Error codes, four of them from a wrong argument on the last rank only, which
!   every rank must report alike.
! Run with --engine=NAME; failures are agreed across ranks, so every rank exits alike.
program regrid_fortran_test
  use, intrinsic :: iso_c_binding, only: c_associated, c_int
  use, intrinsic :: iso_fortran_env, only: int64, real32, real64
  use mpi
  use ferry
  use ferry_c_arrays, only: address
  use ferry_regrid_mod
  use test_checks
  implicit none

  integer(int64), parameter :: src_nx = 12, src_ny = 6, nsrc = src_nx * src_ny, ndst = 40
  integer, parameter :: per_row = 3
  real(real64), parameter :: fill = -999.0_real64
  integer :: rank, nranks, ierr
  character(len=32) :: engine
  type(ferry_layout) :: src, dst
  integer(int64), allocatable :: src_ids(:), dst_ids(:)
  real(real64), allocatable :: src_lon(:), src_lat(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call start_checks()
  engine = engine_argument()

  call make_layouts()
  call test_links_and_files()
  call test_nearest_neighbour()
  call test_masked_neighbours()
  call test_bilinear()
  call test_conservative()
  call test_errors()
  call ferry_layout_destroy(src, ierr)
  call ferry_layout_destroy(dst, ierr)
  call finish_checks()

contains

  ! ---- The formula ----

  elemental integer(int64) function link_col(row, j)
    integer(int64), intent(in) :: row
    integer, intent(in) :: j
    link_col = mod(3 * row + j, nsrc)
  end function link_col

  elemental real(real64) function link_weight(j)
    integer, intent(in) :: j
    link_weight = real(j + 1, real64) / 6
  end function link_weight

  elemental logical function has_links(row)
    integer(int64), intent(in) :: row
    has_links = mod(row, 7_int64) /= 6
  end function has_links

  elemental real(real64) function src_value(point)
    integer(int64), intent(in) :: point
    src_value = 1000 * real(point, real64) + 0.5_real64
  end function src_value

  elemental real(real32) function src_value32(point, c)
    integer(int64), intent(in) :: point
    integer, intent(in) :: c
    src_value32 = real(point, real32) + 0.25_real32 * real(c, real32)
  end function src_value32

  ! Row `row` of the formula applied to the real(8) field: its links summed in order j.
  real(real64) function expected64(row)
    integer(int64), intent(in) :: row
    integer :: j
    expected64 = 0
    do j = 0, per_row - 1
      expected64 = expected64 + link_weight(j) * src_value(link_col(row, j))
    end do
  end function expected64

  ! The same for component c of the real(4) field: summed in double, then rounded.
  real(real32) function expected32(row, c)
    integer(int64), intent(in) :: row
    integer, intent(in) :: c
    real(real64) :: sum
    integer :: j
    sum = 0
    do j = 0, per_row - 1
      sum = sum + link_weight(j) * real(src_value32(link_col(row, j), c), real64)
    end do
    expected32 = real(sum, real32)
  end function expected32

  ! ---- Layouts and grids ----

  ! The source points round robin; the destination by blocks over all ranks but the
  ! last on 4 ranks, rank 0 also asking for the last point (two ranks want it).
  subroutine make_layouts()
    integer :: holders
    integer(int64), allocatable :: ids(:)
    type(ferry_layout) :: blocks
    call ferry_layout_create_round_robin(nsrc, nranks, rank, src, ierr)
    call expect_ok(ierr, 'source layout')
    call layout_ids(src, src_ids)
    src_lon = 15 + 30 * real(mod(src_ids, src_nx), real64)
    src_lat = -75 + 30 * real(src_ids / src_nx, real64)
    holders = merge(nranks - 1, nranks, nranks == 4)
    if (rank < holders) then
      call ferry_layout_create_block(ndst, holders, rank, blocks, ierr)
    else
      call ferry_layout_create_none(ndst, blocks, ierr)
    end if
    call layout_ids(blocks, ids)
    call ferry_layout_destroy(blocks, ierr)
    if (rank == 0 .and. holders > 1) ids = [ids, ndst - 1]
    call ferry_layout_create_points(ndst, ids, dst, ierr)
    call expect_ok(ierr, 'destination layout')
    call layout_ids(dst, dst_ids)
  end subroutine make_layouts

  ! ---- Weights from links ----

  ! The rows with mod(r, nranks) = rank, with orders j.
  subroutine ordered_weights(w)
    type(ferry_weights), intent(out) :: w
    integer(int64), allocatable :: rows(:), cols(:), order(:)
    real(real64), allocatable :: values(:)
    integer(int64) :: r
    integer :: j
    allocate (rows(0), cols(0), order(0), values(0))
    do r = rank, ndst - 1, nranks
      if (.not. has_links(r)) cycle
      do j = 0, per_row - 1
        rows = [rows, r]
        cols = [cols, link_col(r, j)]
        values = [values, link_weight(j)]
        order = [order, int(j, int64)]
      end do
    end do
    call ferry_weights_from_links(MPI_COMM_WORLD, nsrc, ndst, rows, cols, values, w, order, &
                                  ierr)
    call expect_ok(ierr, 'from_links with orders')
  end subroutine ordered_weights

  ! The list of every link, row by row and j ascending within a row, cut into one
  ! slice per rank; no orders: the position in the list is the order.
  subroutine position_weights(w)
    type(ferry_weights), intent(out) :: w
    integer(int64), allocatable :: rows(:), cols(:)
    real(real64), allocatable :: values(:)
    integer(int64) :: r, links, first, last
    integer :: j
    allocate (rows(0), cols(0), values(0))
    do r = 0, ndst - 1
      if (.not. has_links(r)) cycle
      do j = 0, per_row - 1
        rows = [rows, r]
        cols = [cols, link_col(r, j)]
        values = [values, link_weight(j)]
      end do
    end do
    links = size(rows, kind=int64)
    first = links * rank / nranks + 1
    last = links * (rank + 1) / nranks
    call ferry_weights_from_links(MPI_COMM_WORLD, nsrc, ndst, rows(first:last), &
                                  cols(first:last), values(first:last), w, ierr=ierr)
    call expect_ok(ierr, 'from_links in position order')
  end subroutine position_weights

  ! This rank's rows of a and b are the same bit for bit, and those of the formula.
  subroutine expect_same_matrix(a, b, what)
    type(ferry_weights), intent(in) :: a, b
    character(len=*), intent(in) :: what
    integer(int64) :: sizes_a(3), sizes_b(3), rows_a(3), rows_b(3), i, row, k, links
    integer(int64), allocatable :: start_a(:), start_b(:), cols_a(:), cols_b(:)
    real(real64), allocatable :: values_a(:), values_b(:)
    integer :: j
    call ferry_weights_get_sizes(a, sizes_a(1), sizes_a(2), sizes_a(3), ierr)
    call expect_ok(ierr, what // ': get_sizes')
    call ferry_weights_get_sizes(b, sizes_b(1), sizes_b(2), sizes_b(3), ierr)
    call expect(all(sizes_a == sizes_b), what // ': sizes differ')
    links = per_row * count(has_links([(i, i = 0, ndst - 1)]))
    call expect(all(sizes_a == [nsrc, ndst, links]), what // ': sizes')
    call ferry_weights_get_local_rows(a, rows_a(1), rows_a(2), rows_a(3), ierr)
    call expect_ok(ierr, what // ': get_local_rows')
    call ferry_weights_get_local_rows(b, rows_b(1), rows_b(2), rows_b(3), ierr)
    call expect(all(rows_a == rows_b), what // ': local rows differ')
    allocate (start_a(rows_a(2) + 1), cols_a(rows_a(3)), values_a(rows_a(3)))
    allocate (start_b(rows_b(2) + 1), cols_b(rows_b(3)), values_b(rows_b(3)))
    call ferry_weights_get_links(a, start_a, cols_a, values_a, ierr)
    call expect_ok(ierr, what // ': get_links')
    call ferry_weights_get_links(b, start_b, cols_b, values_b, ierr)
    call expect_ok(ierr, what // ': get_links')
    if (any(rows_a /= rows_b)) return
    call expect(all(start_a == start_b) .and. all(cols_a == cols_b) .and. &
                all(values_a == values_b), what // ': links differ')
    do i = 1, rows_a(2)
      row = rows_a(1) + i - 1
      call expect(start_a(i + 1) - start_a(i) == merge(per_row, 0, has_links(row)), &
                  what // ': links per row')
      if (.not. has_links(row)) cycle
      do j = 0, per_row - 1
        k = start_a(i) + j + 1
        call expect(cols_a(k) == link_col(row, j) .and. values_a(k) == link_weight(j), &
                    what // ': a link is not the formula''s')
      end do
    end do
  end subroutine expect_same_matrix

  ! Applies w with map_on and mode bfb to a real(8) field and a real(4) field of 2
  ! components (with begin and end if split), the points with mod(id, 5) = 0 masked
  ! if masked; every value must be the formula's exactly, or the fill value.
  subroutine check_formula_remap(w, map_on, split, masked, what)
    type(ferry_weights), intent(in) :: w
    integer, intent(in) :: map_on
    logical, intent(in) :: split, masked
    character(len=*), intent(in) :: what
    type(ferry_remap) :: remap
    integer :: f64, f32, c
    integer(int64) :: i, messages, bytes
    real(real64), allocatable, target :: in64(:), out64(:)
    real(real32), allocatable, target :: in32(:, :), out32(:, :)
    logical :: filled
    call ferry_remap_create(MPI_COMM_WORLD, w, src, dst, engine, remap, ierr)
    call expect_ok(ierr, what // ': create')
    call ferry_remap_add_field(remap, FERRY_TYPE_FLOAT64, 1, f64, ierr)
    call ferry_remap_add_field(remap, FERRY_TYPE_FLOAT32, 2, f32, ierr)
    call expect(f64 == 1 .and. f32 == 2 .and. remap%fields == 2, what // ': fields 1 and 2')
    call ferry_remap_set_map_on(remap, map_on, ierr)
    call expect_ok(ierr, what // ': set_map_on')
    call ferry_remap_set_mode(remap, FERRY_REMAP_BFB, ierr)
    call expect_ok(ierr, what // ': set_mode')
    call ferry_remap_set_fill_value(remap, fill, ierr)
    call expect_ok(ierr, what // ': set_fill_value')
    if (masked) then
      call ferry_remap_set_dst_mask(remap, merge(1_c_int, 0_c_int, mod(dst_ids, 5_int64) == 0), &
                                    ierr)
      call expect_ok(ierr, what // ': set_dst_mask')
    end if
    call ferry_remap_setup(remap, ierr)
    call expect_ok(ierr, what // ': setup')

    allocate (in64(size(src_ids)), in32(2, size(src_ids)))
    allocate (out64(size(dst_ids)), out32(2, size(dst_ids)))
    in64 = src_value(src_ids)
    do c = 1, 2
      in32(c, :) = src_value32(src_ids, c)
    end do
    out64 = 0
    out32 = 0
    if (split) then
      call ferry_remap_begin(remap, [address(in64), address(in32)], &
                             [address(out64), address(out32)], ierr)
      call expect_ok(ierr, what // ': begin')
      call ferry_remap_end(remap, ierr)
      call expect_ok(ierr, what // ': end')
    else
      call ferry_remap_apply(remap, [address(in64), address(in32)], &
                             [address(out64), address(out32)], ierr)
      call expect_ok(ierr, what // ': apply')
    end if
    do i = 1, size(dst_ids)
      filled = .not. has_links(dst_ids(i)) .or. (masked .and. mod(dst_ids(i), 5_int64) == 0)
      if (filled) then
        call expect(out64(i) == fill .and. all(out32(:, i) == real(fill, real32)), &
                    what // ': fill value')
      else
        call expect(out64(i) == expected64(dst_ids(i)), what // ': real(8) value')
        call expect(all(out32(:, i) == [(expected32(dst_ids(i), c), c = 1, 2)]), &
                    what // ': real(4) value')
      end if
    end do
    messages = -1
    bytes = -1
    call ferry_remap_get_traffic(remap, messages, bytes, ierr)
    call expect_ok(ierr, what // ': get_traffic')
    call expect(messages >= 0 .and. bytes >= 0, what // ': traffic')
    call ferry_remap_destroy(remap, ierr)
    call expect_ok(ierr, what // ': destroy')
    call expect(.not. c_associated(remap%ptr) .and. remap%fields == 1, what // ': destroyed')
  end subroutine check_formula_remap

  subroutine test_links_and_files()
    type(ferry_weights) :: w, unordered, back
    character(len=:), allocatable :: method
    character(len=80) :: path
    integer :: unit
    call ordered_weights(w)
    call position_weights(unordered)
    call expect_same_matrix(w, unordered, 'links without orders')

    call check_formula_remap(w, FERRY_MAP_ON_DST, .false., .false., 'map_on dst')
    call check_formula_remap(w, FERRY_MAP_ON_SRC, .true., .false., 'map_on src')
    call check_formula_remap(w, FERRY_MAP_ON_SRC, .false., .true., 'map_on src, masked')
    call check_formula_remap(unordered, FERRY_MAP_ON_DST, .true., .true., 'position order')
    call ferry_weights_destroy(unordered, ierr)

    write (path, '(a,i0,a,a,a)') 'regrid_fortran_test_np', nranks, '_', trim(engine), '.nc'
    call ferry_weights_write_scrip(MPI_COMM_WORLD, w, path, ierr)
    call expect_ok(ierr, 'write_scrip')
    call ferry_weights_read(MPI_COMM_WORLD, path, back, ierr)
    call expect_ok(ierr, 'read')
    call expect_same_matrix(w, back, 'SCRIP write and read')
    call ferry_weights_get_method(back, method, ierr)
    call expect_ok(ierr, 'get_method')
    call ferry_weights_destroy(back, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    if (rank == 0) then
      open (newunit=unit, file=trim(path), status='old')
      close (unit, status='delete')
    end if
    call ferry_weights_destroy(w, ierr)
    call expect_ok(ierr, 'destroy')
    call expect(.not. c_associated(w%ptr), 'destroy left the handle')
  end subroutine test_links_and_files

  ! ---- Weights from grids ----

  ! Remaps one real(8) value per point with w (no field added), fill value `fill`.
  subroutine remap_values(w, src_layout, dst_layout, in, out)
    type(ferry_weights), intent(in) :: w
    type(ferry_layout), intent(in) :: src_layout, dst_layout
    real(real64), intent(in) :: in(:)
    real(real64), intent(out) :: out(:)
    call remap_once(w, src_layout, dst_layout, engine, fill, in, out)
  end subroutine remap_values

  ! The number of links of every row, over all ranks.
  subroutine get_links_per_row(w, links)
    type(ferry_weights), intent(in) :: w
    integer(int64), allocatable, intent(out) :: links(:)
    integer(int64), allocatable :: start(:), cols(:)
    real(real64), allocatable :: values(:)
    integer(int64) :: sizes(3), rows(3)
    call ferry_weights_get_sizes(w, sizes(1), sizes(2), sizes(3), ierr)
    call ferry_weights_get_local_rows(w, rows(1), rows(2), rows(3), ierr)
    allocate (start(rows(2) + 1), cols(rows(3)), values(rows(3)))
    call ferry_weights_get_links(w, start, cols, values, ierr)
    call expect_ok(ierr, 'get_links')
    allocate (links(0:sizes(2) - 1), source=0_int64)
    links(rows(1):rows(1) + rows(2) - 1) = start(2:) - start(:rows(2))
    call MPI_Allreduce(MPI_IN_PLACE, links, int(sizes(2)), MPI_INTEGER8, MPI_SUM, &
                       MPI_COMM_WORLD, ierr)
  end subroutine get_links_per_row

  ! The source points themselves, held by blocks: k = 1 copies every value exactly;
  ! destination points with mod(id, 7) = 3 are masked and get the fill value.
  subroutine test_nearest_neighbour()
    type(ferry_layout) :: same
    type(ferry_weights) :: w
    integer(int64), allocatable :: ids(:)
    real(real64), allocatable :: out(:)
    integer(c_int), allocatable :: mask(:)
    integer(int64) :: i
    call ferry_layout_create_block(nsrc, nranks, rank, same, ierr)
    call layout_ids(same, ids)
    allocate (mask(size(ids)), out(size(ids)))
    mask = merge(0_c_int, 1_c_int, mod(ids, 7_int64) == 3)
    call ferry_weights_nearest_neighbour(MPI_COMM_WORLD, src, src_lon, src_lat, same, &
                                         15 + 30 * real(mod(ids, src_nx), real64), &
                                         -75 + 30 * real(ids / src_nx, real64), 1, &
                                         FERRY_WEIGHTING_INVERSE_DISTANCE, 0.0_real64, w, &
                                         dst_mask=mask, ierr=ierr)
    call expect_ok(ierr, 'nearest_neighbour')
    call remap_values(w, src, same, src_value(src_ids), out)
    do i = 1, size(ids)
      if (mask(i) == 1) then
        call expect(out(i) == src_value(ids(i)), 'nearest: the same point''s value')
      else
        call expect(out(i) == fill, 'nearest: masked point')
      end if
    end do
    call ferry_weights_destroy(w, ierr)
    call ferry_layout_destroy(same, ierr)
  end subroutine test_nearest_neighbour

  ! The source points themselves with source points mod(id, 5) = 2 masked, k = 1:
  ! masked_neighbours DROP gives a point on a masked source point its nearest valid
  ! one (as SKIP does), DROP_NO_FILL the fill value; the others copy their own value.
  ! The Gaussian of neighbour spacing (one neighbour: weight 1) gives the same.
  subroutine test_masked_neighbours()
    type(ferry_layout) :: same
    type(ferry_weights) :: w
    integer(int64), allocatable :: ids(:)
    real(real64), allocatable :: skipped(:), out(:)
    integer(c_int), allocatable :: mask(:)
    real(real64), allocatable :: lon(:), lat(:)
    integer :: rule
    call ferry_layout_create_block(nsrc, nranks, rank, same, ierr)
    call layout_ids(same, ids)
    allocate (skipped(size(ids)), out(size(ids)))
    mask = merge(0_c_int, 1_c_int, mod(src_ids, 5_int64) == 2)
    lon = 15 + 30 * real(mod(ids, src_nx), real64)
    lat = -75 + 30 * real(ids / src_nx, real64)
    call ferry_weights_nearest_neighbour(MPI_COMM_WORLD, src, src_lon, src_lat, same, lon, lat, &
                                         1, FERRY_WEIGHTING_INVERSE_DISTANCE, 0.0_real64, w, &
                                         src_mask=mask, ierr=ierr)
    call expect_ok(ierr, 'nearest_neighbour skip')
    call remap_values(w, src, same, src_value(src_ids), skipped)
    call ferry_weights_destroy(w, ierr)
    do rule = FERRY_MASKED_NEIGHBOURS_DROP, FERRY_MASKED_NEIGHBOURS_DROP_NO_FILL
      call ferry_weights_nearest_neighbour(MPI_COMM_WORLD, src, src_lon, src_lat, same, lon, &
                                           lat, 1, FERRY_WEIGHTING_GAUSSIAN, 0.5_real64, w, &
                                           src_mask=mask, ierr=ierr, masked_neighbours=rule, &
                                           gaussian_scale=FERRY_GAUSSIAN_SCALE_NEIGHBOURS)
      call expect_ok(ierr, 'nearest_neighbour drop')
      call remap_values(w, src, same, src_value(src_ids), out)
      call expect(all(merge(skipped, src_value(ids), mod(ids, 5_int64) == 2) == skipped), &
                  'skip: valid points copy their own value')
      if (rule == FERRY_MASKED_NEIGHBOURS_DROP) then
        call expect(all(out == skipped), 'drop: as skip for one neighbour')
      else
        call expect(all(merge(fill, skipped, mod(ids, 5_int64) == 2) == out), &
                    'drop_no_fill: fill on masked source points')
      end if
      call ferry_weights_destroy(w, ierr)
    end do
    call ferry_layout_destroy(same, ierr)
  end subroutine test_masked_neighbours

  ! 40 destination points on 5 latitudes, -88 to 88: those beyond the outermost
  ! source rows (latitude 75) get no links; source point 30 is masked, so the
  ! points of its cells get none either. A constant stays where a row has links.
  subroutine test_bilinear()
    type(ferry_layout) :: points
    type(ferry_weights) :: w
    integer(int64), allocatable :: ids(:), links(:)
    real(real64), allocatable :: lat(:), out(:)
    integer(int64) :: i
    call ferry_layout_create_block(ndst, nranks, rank, points, ierr)
    call layout_ids(points, ids)
    allocate (lat(size(ids)))
    lat = -88 + 44 * real(ids / 8, real64)
    call ferry_weights_bilinear(MPI_COMM_WORLD, src, src_lon, src_lat, points, &
                                22.5_real64 + 45 * real(mod(ids, 8_int64), real64), lat, src_nx, &
                                .true., w, merge(0_c_int, 1_c_int, src_ids == 30), ierr=ierr)
    call expect_ok(ierr, 'bilinear')
    call get_links_per_row(w, links)
    call expect(all(links == 0 .or. links == 4), 'bilinear: 0 or 4 links per row')
    call expect(all(links(0:7) == 0) .and. all(links(32:39) == 0), &
                'bilinear: no links beyond the outermost source rows')
    call expect(count(links == 4) >= 16, 'bilinear: links inside')
    allocate (out(size(ids)))
    call remap_values(w, src, points, [(2.5_real64, i = 1, size(src_ids))], out)
    do i = 1, size(ids)
      if (links(ids(i)) > 0) then
        call expect(abs(out(i) - 2.5_real64) <= 1e-13_real64, 'bilinear: constant')
      else
        call expect(out(i) == fill, 'bilinear: fill value')
      end if
    end do
    call ferry_weights_destroy(w, ierr)
    call ferry_layout_destroy(points, ierr)
  end subroutine test_bilinear

  ! 12 x 6 cells (the source layout; cell 40 masked) to 8 x 4 cells by blocks: a
  ! constant stays in every destination cell.
  subroutine test_conservative()
    type(ferry_layout) :: cells
    type(ferry_weights) :: w
    integer(int64), allocatable :: ids(:)
    real(real64), allocatable :: src_corner_lon(:, :), src_corner_lat(:, :), out(:)
    real(real64), allocatable :: dst_corner_lon(:, :), dst_corner_lat(:, :)
    integer(int64) :: i
    call ferry_layout_create_block(32_int64, nranks, rank, cells, ierr)
    call layout_ids(cells, ids)
    call cell_corners(src_ids, src_nx, src_ny, src_corner_lon, src_corner_lat)
    call cell_corners(ids, 8_int64, 4_int64, dst_corner_lon, dst_corner_lat)
    call ferry_weights_conservative(MPI_COMM_WORLD, src, 4, src_corner_lon, src_corner_lat, &
                                    cells, 4, dst_corner_lon, dst_corner_lat, &
                                    FERRY_NORMALISATION_FRACAREA, w, &
                                    merge(0_c_int, 1_c_int, src_ids == 40), ierr=ierr)
    call expect_ok(ierr, 'conservative')
    allocate (out(size(ids)))
    call remap_values(w, src, cells, [(1.0_real64, i = 1, size(src_ids))], out)
    call expect(all(abs(out - 1) <= 1e-13_real64), 'conservative: constant')

    ! Corners of the wrong shape on the last rank only: every rank fails alike.
    call ferry_weights_destroy(w, ierr)
    if (rank == nranks - 1) dst_corner_lat = dst_corner_lat(1:3, :)
    call ferry_weights_conservative(MPI_COMM_WORLD, src, 4, src_corner_lon, src_corner_lat, &
                                    cells, 4, dst_corner_lon, dst_corner_lat, &
                                    FERRY_NORMALISATION_FRACAREA, w, ierr=ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'dst_corner_lat has the shape (3, ', &
                      'corners of the wrong shape on the last rank')
    call expect(.not. c_associated(w%ptr), 'failed conservative left a handle')

    ! The same cells with great-circle edges and corner counts: still a constant.
    call cell_corners(ids, 8_int64, 4_int64, dst_corner_lon, dst_corner_lat)
    call ferry_weights_conservative_polygons(MPI_COMM_WORLD, src, 4, src_corner_lon, &
                                             src_corner_lat, FERRY_CELL_EDGES_GREAT_CIRCLE, &
                                             cells, 4, dst_corner_lon, dst_corner_lat, &
                                             FERRY_CELL_EDGES_AUTO, FERRY_NORMALISATION_FRACAREA, &
                                             w, src_corner_counts=[(4_c_int, i = 1, size(src_ids))], &
                                             ierr=ierr)
    call expect_ok(ierr, 'conservative polygons')
    call remap_values(w, src, cells, [(1.0_real64, i = 1, size(src_ids))], out)
    call expect(all(abs(out - 1) <= 1e-13_real64), 'conservative polygons: constant')
    call ferry_weights_destroy(w, ierr)
    call ferry_layout_destroy(cells, ierr)
  end subroutine test_conservative

  ! ---- Errors ----

  subroutine test_errors()
    type(ferry_weights) :: w, none
    type(ferry_remap) :: remap
    integer(int64) :: first, rows, links, bad_row(1), col(1)
    integer(int64), allocatable :: start(:), cols(:)
    real(real64), allocatable :: values(:), lon(:)
    real(real64), target :: value(1)
    integer :: field, i
    character(len=16) :: last_rank
    logical :: last
    last = rank == nranks - 1
    write (last_rank, '(a,i0)') 'on rank ', nranks - 1

    call ordered_weights(w)
    call ferry_remap_create(MPI_COMM_WORLD, w, src, dst, engine, remap, ierr)
    call expect_ok(ierr, 'create')
    call ferry_remap_set_map_on(remap, 7, ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'map_on', 'bad map_on')
    call ferry_remap_set_mode(remap, -1, ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'mode', 'bad mode')
    call ferry_remap_add_field(remap, FERRY_TYPE_INT32, 1, field, ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'FERRY_TYPE_FLOAT64', 'integer field')
    call expect(field == 0 .and. remap%fields == 1, 'a failed add_field adds no field')
    call ferry_remap_set_dst_mask(remap, [(1_c_int, i = 1, size(dst_ids) + 1)], ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'mask has', 'mask of the wrong size')
    value = 0
    call ferry_remap_apply(remap, [address(value)], [address(value)], ierr)
    call expect_error(ierr, FERRY_ERR_STATE, 'not set up', 'apply before setup')
    call ferry_remap_setup(remap, ierr)
    call expect_ok(ierr, 'setup')
    call ferry_remap_apply(remap, [address(value)], [address(value), address(value)], ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'got 1 source and 2 destination arrays', &
                      'two destination arrays for one field')
    call ferry_remap_destroy(remap, ierr)

    call ferry_weights_get_local_rows(w, first, rows, links, ierr)
    allocate (start(rows), cols(links), values(links))
    call ferry_weights_get_links(w, start, cols, values, ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'row_start has', 'short row_start')
    call ferry_weights_destroy(w, ierr)

    call ferry_weights_read(MPI_COMM_WORLD, 'regrid_fortran_test_missing.nc', none, ierr)
    call expect_error(ierr, FERRY_ERR_IO, 'regrid_fortran_test_missing.nc', 'missing file')
    call expect(.not. c_associated(none%ptr), 'failed read left a handle')

    ! Wrong on the last rank only: every rank fails with that rank's error.
    lon = src_lon
    if (last) lon = [src_lon, 0.0_real64]
    call ferry_weights_nearest_neighbour(MPI_COMM_WORLD, src, lon, src_lat, src, src_lon, &
                                         src_lat, 1, FERRY_WEIGHTING_INVERSE_DISTANCE, &
                                         0.0_real64, none, ierr=ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'src_lon has', 'lon of the wrong size')
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, trim(last_rank), 'the last rank is named')
    call expect(.not. c_associated(none%ptr), 'failed nearest_neighbour left a handle')
    bad_row = merge(ndst, 0_int64, last)
    col = 0
    call ferry_weights_from_links(MPI_COMM_WORLD, nsrc, ndst, bad_row, col, [1.0_real64], none, &
                                  ierr=ierr)
    call expect_error(ierr, FERRY_ERR_ARG_RANGE, '40', 'row outside the grid on the last rank')
    call ferry_weights_from_links(MPI_COMM_WORLD, nsrc, ndst, bad_row, col, &
                                  [real(real64) :: (1, i = 1, merge(2, 1, last))], none, &
                                  ierr=ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'values has 2 elements', &
                      'values of the wrong size on the last rank')
    call expect(.not. c_associated(none%ptr), 'failed from_links left a handle')
  end subroutine test_errors

end program regrid_fortran_test
