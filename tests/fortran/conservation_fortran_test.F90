! The module ferry_conservation_mod and ferry_remap_get_point_data of ferry_regrid_mod
! from Fortran. A grid of 61 source points held by blocks by all ranks but the last
! (when there are 3 or more, so one rank holds none) and a grid of 37 destination
! points held by blocks in reverse rank order.
!
! - ferry_global_sums of terms that cancel (1e16, 1, -1e16, then quarters), as rows of
!   a 2-D array and as a 1-D array: FERRY_SUM_REPROSUM gives the exact sum and
!   FERRY_SUM_GATHER the sum in ascending id order, bit for bit on every rank and rank
!   count; lsum8, lsum16 and ddpdd are within rounding of it.
! - ferry_conserve by each method, with masks, fractions and 2 components (and with
!   one component as a 1-D array): areas are multiples of 1/8, values and fractions of
!   1/4, so every integral is exact in double and each corrected value equals the
!   formula of docs/user/conservation.md computed here, bit for bit.
! - Conservative weights from 12 x 6 cells (one masked) to 8 x 4 cells: the remap's
!   point data are the cells' areas on the unit sphere, the masks and the covered
!   fractions; a remapped field shifted by 1 regains the source's integral after
!   ferry_conserve with them.
! - Error codes, eight of them from a wrong argument on the last rank only, which every
!   rank must report alike.
! Run with --engine=NAME; failures are agreed across ranks, so every rank exits alike.
program conservation_fortran_test
  use, intrinsic :: iso_c_binding, only: c_int
  use, intrinsic :: iso_fortran_env, only: int64, real64
  use, intrinsic :: ieee_arithmetic, only: ieee_quiet_nan, ieee_value
  use mpi
  use ferry
  use ferry_c_arrays, only: address
  use ferry_regrid_mod
  use ferry_conservation_mod
  use test_checks
  implicit none

  integer(int64), parameter :: src_size = 61, dst_size = 37
  integer, parameter :: terms = 3, components = 2
  real(real64), parameter :: pi = acos(-1.0_real64)

  ! This rank's points of one grid, with their areas, fractions, masks and values
  ! (components, points).
  type :: grid
    type(ferry_layout) :: layout
    integer(int64), allocatable :: ids(:)
    real(real64), allocatable :: area(:), frac(:), values(:, :)
    integer(c_int), allocatable :: mask(:)
  end type grid

  integer :: rank, nranks, ierr
  logical :: last
  character(len=16) :: last_rank
  character(len=32) :: engine

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call start_checks()
  engine = engine_argument()
  last = rank == nranks - 1
  write (last_rank, '(a,i0)') 'on rank ', nranks - 1

  call test_global_sums()
  call test_conserve()
  call test_conserve_errors()
  call test_point_data()
  call finish_checks()

contains

  ! ---- The formulas (ids and components 0-based) ----

  ! Term j of point id: the first three of term 0 cancel but for 1 in double; then
  ! quarters.
  elemental real(real64) function term(id, j)
    integer(int64), intent(in) :: id
    integer, intent(in) :: j
    if (j == 0 .and. id < 3) then
      term = merge(1e16_real64, merge(1.0_real64, -1e16_real64, id == 1), id == 0)
    else
      term = 0.25_real64 * real(mod(id * (j + 3), 17_int64), real64) - 2
    end if
  end function term

  elemental real(real64) function src_area(id)
    integer(int64), intent(in) :: id
    src_area = 1 + 0.125_real64 * real(mod(id, 7_int64), real64)
  end function src_area

  elemental real(real64) function dst_area(id)
    integer(int64), intent(in) :: id
    dst_area = 0.5_real64 + 0.125_real64 * real(mod(id, 5_int64), real64)
  end function dst_area

  elemental real(real64) function dst_frac(id)
    integer(int64), intent(in) :: id
    dst_frac = 0.25_real64 * real(1 + mod(id, 4_int64), real64)
  end function dst_frac

  elemental logical function src_active(id)
    integer(int64), intent(in) :: id
    src_active = mod(id, 9_int64) /= 4
  end function src_active

  elemental logical function dst_active(id)
    integer(int64), intent(in) :: id
    dst_active = mod(id, 6_int64) /= 1
  end function dst_active

  elemental real(real64) function src_field(id, c)
    integer(int64), intent(in) :: id
    integer, intent(in) :: c
    src_field = 0.25_real64 * real(mod(id + 5 * c, 13_int64), real64) - 1
  end function src_field

  elemental real(real64) function dst_field(id, c)
    integer(int64), intent(in) :: id
    integer, intent(in) :: c
    dst_field = 0.25_real64 * real(mod(id + 3 * c, 11_int64), real64) + 0.5_real64
  end function dst_field

  ! The formula of the correction, serially over the whole grids: the integrals of
  ! each component (s) and the weight (w) over the active points of one grid, the
  ! weight being the area, times the fraction on the destination for the basin methods.
  subroutine integrals(is_src, basin, s, w)
    logical, intent(in) :: is_src, basin
    real(real64), intent(out) :: s(0:components - 1), w
    real(real64) :: weight
    integer(int64) :: id
    integer :: c
    s = 0
    w = 0
    do id = 0, merge(src_size, dst_size, is_src) - 1
      if (is_src) then
        if (.not. src_active(id)) cycle
        weight = src_area(id)
      else
        if (.not. dst_active(id)) cycle
        weight = dst_area(id)
        if (basin) weight = weight * dst_frac(id)
      end if
      do c = 0, components - 1
        s(c) = s(c) + weight * merge(src_field(id, c), dst_field(id, c), is_src)
      end do
      w = w + weight
    end do
  end subroutine integrals

  ! The corrected value of component c at destination point id.
  real(real64) function expected(method, id, c)
    integer, intent(in) :: method, c
    integer(int64), intent(in) :: id
    real(real64) :: s(0:components - 1), d(0:components - 1), w_src, w_dst, goal
    logical :: basin, scaled
    expected = dst_field(id, c)
    if (.not. dst_active(id)) return
    basin = method == FERRY_CONSERVE_BASIN_BALANCE .or. method == FERRY_CONSERVE_BASIN_POSITIVE
    scaled = method == FERRY_CONSERVE_GLOBAL_POSITIVE .or. &
             method == FERRY_CONSERVE_BASIN_POSITIVE
    call integrals(.true., basin, s, w_src)
    call integrals(.false., basin, d, w_dst)
    goal = s(c)
    if (basin) goal = s(c) * (w_dst / w_src)
    if (scaled) then
      expected = expected * (goal / d(c))
    else
      expected = expected + (goal - d(c)) / w_dst
    end if
  end function expected

  ! ---- Grids ----

  ! The source grid by blocks over all ranks but the last when there are 3 or more;
  ! the destination by blocks in reverse rank order. Values set by fill_values.
  subroutine make_grid(is_src, g)
    logical, intent(in) :: is_src
    type(grid), intent(out) :: g
    integer :: holders
    if (is_src) then
      holders = merge(nranks - 1, nranks, nranks >= 3)
      if (rank < holders) then
        call ferry_layout_create_block(src_size, holders, rank, g%layout, ierr)
      else
        call ferry_layout_create_none(src_size, g%layout, ierr)
      end if
    else
      call ferry_layout_create_block(dst_size, nranks, nranks - 1 - rank, g%layout, ierr)
    end if
    call expect_ok(ierr, 'grid layout')
    call layout_ids(g%layout, g%ids)
    if (is_src) then
      g%area = src_area(g%ids)
      g%frac = spread(1.0_real64, 1, size(g%ids))
      g%mask = merge(1_c_int, 0_c_int, src_active(g%ids))
    else
      g%area = dst_area(g%ids)
      g%frac = dst_frac(g%ids)
      g%mask = merge(1_c_int, 0_c_int, dst_active(g%ids))
    end if
    allocate (g%values(components, size(g%ids)))
    call fill_values(is_src, g)
  end subroutine make_grid

  subroutine fill_values(is_src, g)
    logical, intent(in) :: is_src
    type(grid), intent(inout) :: g
    integer :: c
    do c = 0, components - 1
      if (is_src) then
        g%values(c + 1, :) = src_field(g%ids, c)
      else
        g%values(c + 1, :) = dst_field(g%ids, c)
      end if
    end do
  end subroutine fill_values

  ! ---- Global sums ----

  subroutine test_global_sums()
    type(ferry_layout) :: blocks
    integer(int64), allocatable :: ids(:), long_ids(:)
    real(real64), allocatable :: values(:, :)
    real(real64) :: exact(0:terms - 1), in_order(0:terms - 1), sums(terms), total
    integer(int64) :: id
    integer :: j, method
    character(len=40) :: what
    ! Uneven blocks of the source ids; rank order reversed so rank 0 does not hold id 0.
    call ferry_layout_create_block(src_size, nranks, nranks - 1 - rank, blocks, ierr)
    call layout_ids(blocks, ids)
    allocate (values(terms, size(ids)))
    do j = 0, terms - 1
      values(j + 1, :) = term(ids, j)
    end do

    ! Expected: the exact sum (1e16 and -1e16 cancel, the rest are quarters) and the
    ! sum in ascending id order, where 1e16 + 1 rounds to 1e16 and the 1 is lost.
    do j = 0, terms - 1
      exact(j) = merge(1, 0, j == 0)
      in_order(j) = 0
      do id = 0, src_size - 1
        if (j /= 0 .or. id >= 3) exact(j) = exact(j) + term(id, j)
        in_order(j) = in_order(j) + term(id, j)
      end do
    end do
    call expect(exact(0) /= in_order(0), 'the terms must make the order matter')

    do method = FERRY_SUM_GATHER, FERRY_SUM_REPROSUM
      write (what, '(a,i0)') 'global_sums by method ', method
      sums = -1
      call ferry_global_sums(MPI_COMM_WORLD, method, values, sums, ids, ierr)
      call expect_ok(ierr, trim(what))
      if (method == FERRY_SUM_REPROSUM) then
        call expect(all(sums == exact), trim(what) // ': not the exact sums')
      else if (method == FERRY_SUM_GATHER) then
        call expect(all(sums == in_order), trim(what) // ': not the sums in id order')
      else  ! lsum8 may lose the 1 next to 1e16 (an ulp of 2e16) as gather does
        call expect(all(abs(sums - exact) <= 4), trim(what) // ': not within rounding')
      end if
    end do

    ! One row as a 1-D array (a strided section), one sum.
    total = -1
    call ferry_global_sums(MPI_COMM_WORLD, FERRY_SUM_REPROSUM, values(1, :), total, ierr=ierr)
    call expect_ok(ierr, 'global_sums of a 1-D array')
    call expect(total == exact(0), 'global_sums of a 1-D array: not the exact sum')
    call ferry_global_sums(MPI_COMM_WORLD, FERRY_SUM_GATHER, values(2, :), total, ids, ierr)
    call expect_ok(ierr, 'global_sums of a 1-D array by gather')
    call expect(total == in_order(1), 'global_sums of a 1-D array by gather: not in id order')

    call ferry_global_sums(MPI_COMM_WORLD, 5, values, sums, ids, ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'unknown method 5', 'unknown method')
    call ferry_global_sums(MPI_COMM_WORLD, FERRY_SUM_LSUM8, values(1:0, :), sums(1:0), ierr=ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'count is 0', 'no sums')
    ! Wrong on the last rank only: every rank fails with that rank's error.
    call ferry_global_sums(MPI_COMM_WORLD, FERRY_SUM_LSUM8, values, &
                           sums(1:merge(2, terms, last)), ids, ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'sums has 2 elements ' // trim(last_rank) // &
                      ', expected 3', 'sums of the wrong size on the last rank')
    long_ids = ids
    if (last) long_ids = [ids, 0_int64]
    call ferry_global_sums(MPI_COMM_WORLD, FERRY_SUM_GATHER, values(1, :), total, long_ids, ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'ids has', 'ids of the wrong size on the last rank')
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, trim(last_rank), 'the last rank is named')
    if (last) then
      call ferry_global_sums(MPI_COMM_WORLD, FERRY_SUM_GATHER, values, sums, ierr=ierr)
    else
      call ferry_global_sums(MPI_COMM_WORLD, FERRY_SUM_GATHER, values, sums, ids, ierr)
    end if
    call expect_error(ierr, FERRY_ERR_ARG, 'needs them', 'no ids with gather on the last rank')
    if (last) values(1, 1) = ieee_value(values(1, 1), ieee_quiet_nan)
    call ferry_global_sums(MPI_COMM_WORLD, FERRY_SUM_REPROSUM, values, sums, ierr=ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'needs finite terms', 'NaN on the last rank')
    call ferry_layout_destroy(blocks, ierr)
  end subroutine test_global_sums

  ! ---- Conservation ----

  subroutine test_conserve()
    type(grid) :: src, dst
    real(real64), allocatable :: one(:), integral(:, :), area_values(:, :)
    integer :: method, sum, c, side
    integer(int64) :: i
    character(len=40) :: what
    call make_grid(.true., src)
    call make_grid(.false., dst)
    do method = FERRY_CONSERVE_GLOBAL, FERRY_CONSERVE_BASIN_POSITIVE
      do sum = FERRY_SUM_GATHER, FERRY_SUM_REPROSUM, FERRY_SUM_REPROSUM
        write (what, '(a,i0,a,i0)') 'conserve by method ', method, ', sum ', sum
        call fill_values(.false., dst)
        call ferry_conserve(MPI_COMM_WORLD, method, sum, src%layout, src%area, src%values, &
                            dst%layout, dst%area, dst%values, src_mask=src%mask, &
                            dst_frac=dst%frac, dst_mask=dst%mask, ierr=ierr)
        call expect_ok(ierr, trim(what))
        do i = 1, size(dst%ids)
          call expect(all(dst%values(:, i) == &
                          [(expected(method, dst%ids(i), c), c = 0, components - 1)]), &
                      trim(what) // ': a value is not the formula''s')
        end do
      end do
      ! One component as 1-D arrays, the source's a strided section.
      one = dst_field(dst%ids, 1)
      call ferry_conserve(MPI_COMM_WORLD, method, FERRY_SUM_REPROSUM, src%layout, src%area, &
                          src%values(2, :), dst%layout, dst%area, one, src_frac=src%frac, &
                          src_mask=src%mask, dst_frac=dst%frac, dst_mask=dst%mask, ierr=ierr)
      call expect_ok(ierr, 'conserve of 1-D arrays')
      do i = 1, size(dst%ids)
        call expect(one(i) == expected(method, dst%ids(i), 1), &
                    'conserve of 1-D arrays: a value is not the formula''s')
      end do
    end do

    ! Without fractions and masks, GLOBAL makes the destination integral the source's.
    call fill_values(.false., dst)
    call ferry_conserve(MPI_COMM_WORLD, FERRY_CONSERVE_GLOBAL, FERRY_SUM_REPROSUM, src%layout, &
                        src%area, src%values, dst%layout, dst%area, dst%values, ierr=ierr)
    call expect_ok(ierr, 'conserve without fractions and masks')
    allocate (integral(components, 2))
    do side = 1, 2
      if (side == 1) then
        area_values = src%values * spread(src%area, 1, components)
        call ferry_global_sums(MPI_COMM_WORLD, FERRY_SUM_REPROSUM, area_values, &
                               integral(:, side), src%ids, ierr)
      else
        area_values = dst%values * spread(dst%area, 1, components)
        call ferry_global_sums(MPI_COMM_WORLD, FERRY_SUM_REPROSUM, area_values, &
                               integral(:, side), dst%ids, ierr)
      end if
      call expect_ok(ierr, 'integral')
    end do
    call expect(all(abs(integral(:, 2) - integral(:, 1)) <= 1e-13_real64 * abs(integral(:, 1))), &
                'conserve without fractions and masks: the integrals differ')
    call ferry_layout_destroy(src%layout, ierr)
    call ferry_layout_destroy(dst%layout, ierr)
  end subroutine test_conserve

  subroutine test_conserve_errors()
    type(grid) :: src, dst
    real(real64), allocatable :: one(:)
    integer(c_int), allocatable :: long_mask(:)
    call make_grid(.true., src)
    call make_grid(.false., dst)
    call ferry_conserve(MPI_COMM_WORLD, 4, FERRY_SUM_REPROSUM, src%layout, src%area, &
                        src%values, dst%layout, dst%area, dst%values, ierr=ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'unknown method 4', 'unknown method')
    call ferry_conserve(MPI_COMM_WORLD, FERRY_CONSERVE_GLOBAL, -1, src%layout, src%area, &
                        src%values, dst%layout, dst%area, dst%values, ierr=ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'unknown sum -1', 'unknown sum')
    call ferry_conserve(MPI_COMM_WORLD, FERRY_CONSERVE_GLOBAL, FERRY_SUM_REPROSUM, src%layout, &
                        src%area, src%values(1:0, :), dst%layout, dst%area, &
                        dst%values(1:0, :), ierr=ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'components is 0', 'no components')

    ! Wrong on the last rank only (which holds no source points on 3 and 4 ranks):
    ! every rank fails with that rank's error.
    call ferry_conserve(MPI_COMM_WORLD, FERRY_CONSERVE_GLOBAL, FERRY_SUM_REPROSUM, src%layout, &
                        src%area, src%values, dst%layout, dst%area(merge(2, 1, last):), &
                        dst%values, ierr=ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'dst_area has', 'short dst_area on the last rank')
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, trim(last_rank), 'the last rank is named')
    long_mask = src%mask
    if (last) long_mask = [src%mask, 1_c_int]
    call ferry_conserve(MPI_COMM_WORLD, FERRY_CONSERVE_GLOBAL, FERRY_SUM_REPROSUM, src%layout, &
                        src%area, src%values, dst%layout, dst%area, dst%values, &
                        src_mask=long_mask, ierr=ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'src_mask has', 'long src_mask on the last rank')
    call ferry_conserve(MPI_COMM_WORLD, FERRY_CONSERVE_GLOBAL, FERRY_SUM_REPROSUM, src%layout, &
                        src%area, src%values, dst%layout, dst%area, &
                        dst%values(:, merge(2, 1, last):), ierr=ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'dst_values has the shape (2, ', &
                      'dst_values of the wrong shape on the last rank')
    one = dst_field(dst%ids, 0)
    if (last) one = [one, 0.0_real64]
    call ferry_conserve(MPI_COMM_WORLD, FERRY_CONSERVE_GLOBAL, FERRY_SUM_REPROSUM, src%layout, &
                        src%area, src%values(1, :), dst%layout, dst%area, one, ierr=ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'dst_values has', &
                      'long 1-D dst_values on the last rank')
    ! A component count that differs between the sides, on every rank.
    call ferry_conserve(MPI_COMM_WORLD, FERRY_CONSERVE_GLOBAL, FERRY_SUM_REPROSUM, src%layout, &
                        src%area, src%values(1:1, :), dst%layout, dst%area, dst%values, &
                        ierr=ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'src_values has the shape (1, ', &
                      'one source component for two')
    call expect(all(dst%values == dst_field(spread(dst%ids, 1, components), &
                                            spread([0, 1], 2, size(dst%ids)))), &
                'a failed conserve changed the values')
    call ferry_layout_destroy(src%layout, ierr)
    call ferry_layout_destroy(dst%layout, ierr)
  end subroutine test_conserve_errors

  ! ---- Point data of conservative weights ----

  ! The area of cell id of an nx x ny longitude-latitude grid on the unit sphere.
  elemental real(real64) function cell_area(id, nx, ny)
    integer(int64), intent(in) :: id, nx, ny
    real(real64) :: south, dlat
    dlat = pi / real(ny, real64)
    south = -pi / 2 + dlat * real(id / nx, real64)
    cell_area = 2 * pi / real(nx, real64) * (sin(south + dlat) - sin(south))
  end function cell_area

  logical function close_to(got, want, tolerance)
    real(real64), intent(in) :: got(:), want(:), tolerance
    close_to = all(abs(got - want) <= tolerance * abs(want))
  end function close_to

  ! 12 x 6 source cells round robin (cell 40, longitudes 120-150 and latitudes 0-30,
  ! masked) to 8 x 4 destination cells by blocks, normalised by fracarea.
  subroutine test_point_data()
    integer(int64), parameter :: src_nx = 12, src_ny = 6, dst_nx = 8, dst_ny = 4
    type(ferry_layout) :: src, dst
    type(ferry_weights) :: w
    type(ferry_remap) :: remap
    integer(int64), allocatable :: src_ids(:), dst_ids(:)
    real(real64), allocatable :: src_lon(:, :), src_lat(:, :), dst_lon(:, :), dst_lat(:, :)
    real(real64), allocatable :: src_area_got(:), dst_area_got(:), frac(:), frac_want(:)
    real(real64), allocatable, target :: in(:), out(:)
    integer(c_int), allocatable :: src_mask(:), mask(:)
    real(real64) :: integral(2)
    integer :: flags, k, links
    call ferry_layout_create_round_robin(src_nx * src_ny, nranks, rank, src, ierr)
    call layout_ids(src, src_ids)
    call ferry_layout_create_block(dst_nx * dst_ny, nranks, rank, dst, ierr)
    call layout_ids(dst, dst_ids)
    call cell_corners(src_ids, src_nx, src_ny, src_lon, src_lat)
    call cell_corners(dst_ids, dst_nx, dst_ny, dst_lon, dst_lat)
    src_mask = merge(0_c_int, 1_c_int, src_ids == 40)
    call ferry_weights_conservative(MPI_COMM_WORLD, src, 4, src_lon, src_lat, dst, 4, dst_lon, &
                                    dst_lat, FERRY_NORMALISATION_FRACAREA, w, src_mask, &
                                    ierr=ierr)
    call expect_ok(ierr, 'conservative weights')
    call ferry_remap_create(MPI_COMM_WORLD, w, src, dst, engine, remap, ierr)
    call expect_ok(ierr, 'remap create')
    flags = -1
    call ferry_remap_get_point_data(remap, FERRY_GRID_SRC, present=flags, ierr=ierr)
    call expect_error(ierr, FERRY_ERR_STATE, 'not set up', 'point data before setup')
    call expect(flags == 0, 'point data before setup: flags')
    call ferry_remap_setup(remap, ierr)
    call expect_ok(ierr, 'remap setup')
    call ferry_weights_destroy(w, ierr)
    call ferry_remap_get_point_data(remap, 2, present=flags, ierr=ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'unknown grid 2', 'unknown grid')

    allocate (src_area_got(size(src_ids)), mask(size(src_ids)))
    call ferry_remap_get_point_data(remap, FERRY_GRID_SRC, area=src_area_got, mask=mask, &
                                    present=flags, ierr=ierr)
    call expect_ok(ierr, 'source point data')
    call expect(flags == ior(ior(FERRY_POINT_AREA, FERRY_POINT_FRAC), FERRY_POINT_MASK), &
                'source point data: flags')
    call expect(close_to(src_area_got, cell_area(src_ids, src_nx, src_ny), 1e-12_real64), &
                'source point data: areas')
    call expect(all(mask == src_mask), 'source point data: masks')
    ! The destination cells over part of cell 40 (longitudes 90-135 and 135-180,
    ! latitudes 0-45) lack a third of its longitudes and latitudes 0-30 of theirs.
    allocate (dst_area_got(size(dst_ids)), frac(size(dst_ids)), source=-1.0_real64)
    deallocate (mask)
    allocate (mask(size(dst_ids)), source=-1_c_int)
    call ferry_remap_get_point_data(remap, FERRY_GRID_DST, dst_area_got, frac, mask, ierr=ierr)
    call expect_ok(ierr, 'destination point data')
    frac_want = merge(1 - 0.5_real64 / sin(pi / 4) / 3, 1.0_real64, dst_ids == 18 .or. &
                      dst_ids == 19)
    call expect(close_to(dst_area_got, cell_area(dst_ids, dst_nx, dst_ny), 1e-12_real64), &
                'destination point data: areas')
    call expect(close_to(frac, frac_want, 1e-12_real64), 'destination point data: fractions')
    call expect(all(mask == 1), 'destination point data: masks')
    call ferry_remap_get_point_data(remap, FERRY_GRID_DST, area=dst_area_got(2:), ierr=ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'area has', 'point data: short area')

    ! A remapped field, shifted by 1, regains the integral over the active source cells.
    in = 1 + 0.5_real64 * real(mod(src_ids, 5_int64), real64)
    allocate (out(size(dst_ids)))
    call ferry_remap_apply(remap, [address(in)], [address(out)], ierr)
    call expect_ok(ierr, 'remap apply')
    out = out + 1
    call ferry_conserve(MPI_COMM_WORLD, FERRY_CONSERVE_GLOBAL, FERRY_SUM_REPROSUM, src, &
                        src_area_got, in, dst, dst_area_got, out, src_mask=src_mask, ierr=ierr)
    call expect_ok(ierr, 'conserve a remapped field')
    call ferry_global_sums(MPI_COMM_WORLD, FERRY_SUM_REPROSUM, src_area_got * in * src_mask, &
                           integral(1), ierr=ierr)
    call ferry_global_sums(MPI_COMM_WORLD, FERRY_SUM_REPROSUM, dst_area_got * out, integral(2), &
                           ierr=ierr)
    call expect(abs(integral(2) - integral(1)) <= 1e-13_real64 * abs(integral(1)), &
                'conserve a remapped field: the integrals differ')
    call ferry_remap_destroy(remap, ierr)

    ! Weights from links (one, given by rank 0) carry no point data: nothing is written.
    links = merge(1, 0, rank == 0)
    call ferry_weights_from_links(MPI_COMM_WORLD, src_nx * src_ny, dst_nx * dst_ny, &
                                  [(0_int64, k = 1, links)], [(0_int64, k = 1, links)], &
                                  [(1.0_real64, k = 1, links)], w, ierr=ierr)
    call ferry_remap_create(MPI_COMM_WORLD, w, src, dst, engine, remap, ierr)
    call ferry_remap_setup(remap, ierr)
    call expect_ok(ierr, 'remap of weights from links')
    dst_area_got = -1
    call ferry_remap_get_point_data(remap, FERRY_GRID_DST, dst_area_got, present=flags, &
                                    ierr=ierr)
    call expect_ok(ierr, 'point data of weights from links')
    call expect(flags == 0 .and. all(dst_area_got == -1), 'weights from links: point data')
    call ferry_remap_destroy(remap, ierr)
    call ferry_weights_destroy(w, ierr)
    call ferry_layout_destroy(src, ierr)
    call ferry_layout_destroy(dst, ierr)
  end subroutine test_point_data

end program conservation_fortran_test
