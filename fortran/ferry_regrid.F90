! module ferry_regrid_mod: regridding outside the coupler (docs/user/regrid.md) for
! Fortran 2018, over the C API (ferry/regrid.h) through iso_c_binding: remapping
! weights read from SCRIP or ESMF files, given as links or computed from the grids'
! coordinates (read from grid files with ferry_grid_read, or given), their
! application to fields in parallel, and the cell areas,
! fractions and masks the weights carry (for module ferry_conservation_mod). Named
! _mod because its types are ferry_weights and ferry_remap, as in C.
!
! As in module ferry: routines end with `integer, intent(out) :: ierr`, sizes and
! ids are integer(int64), and point ids (rows, columns, first_row) are 0-based global
! ids, as in C. A grid's arrays on this rank are in the order of its layout: lon(n)
! and lat(n) in degrees, or corner_lon(corners, n) and corner_lat(corners, n) with the
! corner index first; masks are integer(c_int), 1 = valid, 0 = masked. Masks and the
! links' order are optional, as NULL is in C; they come just before ierr, so a call
! without them names ierr: `call ferry_weights_bilinear(..., nx, .true., w, ierr=ierr)`.
! The collective routines check the sizes of their arrays and agree on the outcome
! over comm before calling C (one MPI_Allreduce more): an array of the wrong size on
! one rank fails the call on every rank with FERRY_ERR_ARG_SIZE and the same message.
module ferry_regrid_mod
  use, intrinsic :: iso_c_binding
  use ferry_constants, only: FERRY_SUCCESS, FERRY_ERR_ARG_SIZE, FERRY_GRID_SRC, FERRY_GRID_DST, &
    FERRY_UNMAPPED_FILL, FERRY_GRID_FORMAT_AUTO, FERRY_GAUSSIAN_SCALE_SOURCE, &
    FERRY_MASKED_NEIGHBOURS_SKIP
  use ferry_layout_mod, only: ferry_layout, ferry_layout_local_size
  use ferry_argument_error, only: fail => ferry_record_argument_error
  use ferry_argument_checks, only: room
  use ferry_c_arrays, only: fortran_string
  use ferry_collective_checks, only: array_check, check_count, check_per_point, check_shape, &
    layout_points, agree_checks
  implicit none
  private

  !> Remapping weights (ferry_weights* in C): a matrix of destination rows and source
  !> columns, distributed over the ranks by blocks of rows.
  type, public :: ferry_weights
    type(c_ptr) :: ptr = c_null_ptr
  end type ferry_weights

  !> One grid as ferry_grid_read reads it (ferry_grid* in C): this rank's block of
  !> its cells, centres, corners, mask and areas.
  type, public :: ferry_grid
    type(c_ptr) :: ptr = c_null_ptr
  end type ferry_grid

  !> A remap (ferry_remap* in C), its number of fields (the length apply and begin
  !> expect for their arrays of c_loc() pointers; 1 until a field is added) and the
  !> points of this rank's source and destination layouts (the length of a
  !> destination mask, and of the point data of either grid).
  type, public :: ferry_remap
    type(c_ptr) :: ptr = c_null_ptr
    integer :: fields = 1
    integer(c_int64_t) :: src_points = 0
    integer(c_int64_t) :: dst_points = 0
  end type ferry_remap

  public :: ferry_weights_read, ferry_weights_from_links, ferry_weights_write_scrip
  public :: ferry_weights_write_esmf, ferry_weights_conservative_polygons
  public :: ferry_weights_nearest_neighbour, ferry_weights_bilinear, ferry_weights_conservative
  public :: ferry_weights_get_sizes, ferry_weights_get_local_rows, ferry_weights_get_links
  public :: ferry_weights_get_method, ferry_weights_destroy
  public :: ferry_weights_bicubic, ferry_weights_bicubic_gradients
  public :: ferry_weights_conservative_gradients
  public :: ferry_grid_read, ferry_grid_get_sizes, ferry_grid_get_layout, ferry_grid_get_points
  public :: ferry_grid_get_corners, ferry_grid_get_area, ferry_grid_destroy
  public :: ferry_remap_create, ferry_remap_add_field, ferry_remap_set_map_on
  public :: ferry_remap_set_mode, ferry_remap_set_fill_value, ferry_remap_set_dst_mask
  public :: ferry_remap_set_option, ferry_remap_setup, ferry_remap_apply, ferry_remap_begin
  public :: ferry_remap_end, ferry_remap_get_traffic, ferry_remap_get_point_data
  public :: ferry_remap_close, ferry_remap_destroy

  ! The C API, and the shims of ferry_regrid_f.cpp (suffix _f) for the calls that take
  ! a communicator.
  interface
    function c_read(comm, path, weights) bind(C, name='ferry_weights_read_f') result(ierr)
      import :: c_char, c_int, c_ptr
      integer(c_int), value :: comm
      character(kind=c_char), intent(in) :: path(*)
      type(c_ptr), intent(out) :: weights
      integer(c_int) :: ierr
    end function c_read
    function c_from_links(comm, src_size, dst_size, count, rows, cols, values, order, &
                          weights) bind(C, name='ferry_weights_from_links_f') result(ierr)
      import :: c_double, c_int, c_int64_t, c_ptr
      integer(c_int), value :: comm
      integer(c_int64_t), value :: src_size, dst_size, count
      integer(c_int64_t), intent(in) :: rows(*), cols(*)
      real(c_double), intent(in) :: values(*)
      integer(c_int64_t), intent(in), optional :: order(*)
      type(c_ptr), intent(out) :: weights
      integer(c_int) :: ierr
    end function c_from_links
    function c_write_scrip(comm, weights, path) bind(C, name='ferry_weights_write_scrip_f') &
        result(ierr)
      import :: c_char, c_int, c_ptr
      integer(c_int), value :: comm
      type(c_ptr), value :: weights
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int) :: ierr
    end function c_write_scrip
    function c_write_esmf(comm, weights, path) bind(C, name='ferry_weights_write_esmf_f') &
        result(ierr)
      import :: c_char, c_int, c_ptr
      integer(c_int), value :: comm
      type(c_ptr), value :: weights
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int) :: ierr
    end function c_write_esmf
    function c_conservative_polygons(comm, src, src_corners, src_corner_counts, src_corner_lon, &
                                     src_corner_lat, src_mask, src_edges, dst, dst_corners, &
                                     dst_corner_counts, dst_corner_lon, dst_corner_lat, &
                                     dst_mask, dst_edges, normalisation, unmapped, order, &
                                     nx, periodic, weights) &
        bind(C, name='ferry_weights_conservative_polygons_f') result(ierr)
      import :: c_double, c_int, c_int64_t, c_ptr
      integer(c_int), value :: comm, src_corners, dst_corners, src_edges, dst_edges
      integer(c_int), value :: normalisation, unmapped, order, periodic
      integer(c_int64_t), value :: nx
      type(c_ptr), value :: src, dst
      integer(c_int), intent(in), optional :: src_corner_counts(*), dst_corner_counts(*)
      real(c_double), intent(in) :: src_corner_lon(*), src_corner_lat(*)
      real(c_double), intent(in) :: dst_corner_lon(*), dst_corner_lat(*)
      integer(c_int), intent(in), optional :: src_mask(*), dst_mask(*)
      type(c_ptr), intent(out) :: weights
      integer(c_int) :: ierr
    end function c_conservative_polygons
    function c_conservative_gradients(comm, src, src_corners, src_corner_counts, &
                                      src_corner_lon, src_corner_lat, src_mask, src_edges, dst, &
                                      dst_corners, dst_corner_counts, dst_corner_lon, &
                                      dst_corner_lat, dst_mask, dst_edges, normalisation, &
                                      unmapped, value, lat_gradient, lon_gradient) &
        bind(C, name='ferry_weights_conservative_gradients_f') result(ierr)
      import :: c_double, c_int, c_ptr
      integer(c_int), value :: comm, src_corners, dst_corners, src_edges, dst_edges
      integer(c_int), value :: normalisation, unmapped
      type(c_ptr), value :: src, dst
      integer(c_int), intent(in), optional :: src_corner_counts(*), dst_corner_counts(*)
      real(c_double), intent(in) :: src_corner_lon(*), src_corner_lat(*)
      real(c_double), intent(in) :: dst_corner_lon(*), dst_corner_lat(*)
      integer(c_int), intent(in), optional :: src_mask(*), dst_mask(*)
      type(c_ptr), intent(out) :: value, lat_gradient, lon_gradient
      integer(c_int) :: ierr
    end function c_conservative_gradients
    function c_nearest_neighbour(comm, src, src_lon, src_lat, src_mask, dst, dst_lon, dst_lat, &
                                 dst_mask, neighbours, weighting, gaussian_variance, &
                                 gaussian_scale, masked_neighbours, weights) &
        bind(C, name='ferry_weights_nearest_neighbour_f') result(ierr)
      import :: c_double, c_int, c_ptr
      integer(c_int), value :: comm, neighbours, weighting, gaussian_scale, masked_neighbours
      type(c_ptr), value :: src, dst
      real(c_double), intent(in) :: src_lon(*), src_lat(*), dst_lon(*), dst_lat(*)
      integer(c_int), intent(in), optional :: src_mask(*), dst_mask(*)
      real(c_double), value :: gaussian_variance
      type(c_ptr), intent(out) :: weights
      integer(c_int) :: ierr
    end function c_nearest_neighbour
    function c_bicubic_gradients(comm, src, src_lon, src_lat, src_mask, dst, dst_lon, dst_lat, &
                                 dst_mask, nx, periodic, unmapped, value, i_gradient, &
                                 j_gradient, ij_gradient) &
        bind(C, name='ferry_weights_bicubic_gradients_f') result(ierr)
      import :: c_double, c_int, c_int64_t, c_ptr
      integer(c_int), value :: comm, periodic, unmapped
      type(c_ptr), value :: src, dst
      real(c_double), intent(in) :: src_lon(*), src_lat(*), dst_lon(*), dst_lat(*)
      integer(c_int), intent(in), optional :: src_mask(*), dst_mask(*)
      integer(c_int64_t), value :: nx
      type(c_ptr), intent(out) :: value, i_gradient, j_gradient, ij_gradient
      integer(c_int) :: ierr
    end function c_bicubic_gradients
    function c_grid_read(comm, path, format, name, masks, areas, grid) &
        bind(C, name='ferry_grid_read_f') result(ierr)
      import :: c_char, c_int, c_ptr
      integer(c_int), value :: comm, format
      character(kind=c_char), intent(in) :: path(*), name(*), masks(*), areas(*)
      type(c_ptr), intent(out) :: grid
      integer(c_int) :: ierr
    end function c_grid_read
    function c_grid_get_sizes(grid, size, first, count, corners, nx, has_corners, has_area) &
        bind(C, name='ferry_grid_get_sizes') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: grid
      integer(c_int64_t), intent(out) :: size, first, count, nx
      integer(c_int), intent(out) :: corners, has_corners, has_area
      integer(c_int) :: ierr
    end function c_grid_get_sizes
    function c_grid_get_layout(grid, layout) bind(C, name='ferry_grid_get_layout') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: grid
      type(c_ptr), intent(out) :: layout
      integer(c_int) :: ierr
    end function c_grid_get_layout
    function c_grid_get_points(grid, lon, lat, mask) bind(C, name='ferry_grid_get_points') &
        result(ierr)
      import :: c_double, c_int, c_ptr
      type(c_ptr), value :: grid
      real(c_double), intent(out) :: lon(*), lat(*)
      integer(c_int), intent(out), optional :: mask(*)
      integer(c_int) :: ierr
    end function c_grid_get_points
    function c_grid_get_corners(grid, corner_lon, corner_lat) &
        bind(C, name='ferry_grid_get_corners') result(ierr)
      import :: c_double, c_int, c_ptr
      type(c_ptr), value :: grid
      real(c_double), intent(out) :: corner_lon(*), corner_lat(*)
      integer(c_int) :: ierr
    end function c_grid_get_corners
    function c_grid_get_area(grid, area) bind(C, name='ferry_grid_get_area') result(ierr)
      import :: c_double, c_int, c_ptr
      type(c_ptr), value :: grid
      real(c_double), intent(out) :: area(*)
      integer(c_int) :: ierr
    end function c_grid_get_area
    function c_grid_destroy(grid) bind(C, name='ferry_grid_destroy') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: grid
      integer(c_int) :: ierr
    end function c_grid_destroy
    function c_conservative(comm, src, src_corners, src_corner_lon, src_corner_lat, src_mask, &
                            dst, dst_corners, dst_corner_lon, dst_corner_lat, dst_mask, &
                            normalisation, weights) &
        bind(C, name='ferry_weights_conservative_f') result(ierr)
      import :: c_double, c_int, c_ptr
      integer(c_int), value :: comm, src_corners, dst_corners, normalisation
      type(c_ptr), value :: src, dst
      real(c_double), intent(in) :: src_corner_lon(*), src_corner_lat(*)
      real(c_double), intent(in) :: dst_corner_lon(*), dst_corner_lat(*)
      integer(c_int), intent(in), optional :: src_mask(*), dst_mask(*)
      type(c_ptr), intent(out) :: weights
      integer(c_int) :: ierr
    end function c_conservative
    function c_get_sizes(weights, src_size, dst_size, global_links) &
        bind(C, name='ferry_weights_get_sizes') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: weights
      integer(c_int64_t), intent(out) :: src_size, dst_size, global_links
      integer(c_int) :: ierr
    end function c_get_sizes
    function c_get_local_rows(weights, first_row, row_count, link_count) &
        bind(C, name='ferry_weights_get_local_rows') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: weights
      integer(c_int64_t), intent(out) :: first_row, row_count, link_count
      integer(c_int) :: ierr
    end function c_get_local_rows
    function c_get_links(weights, row_start, cols, values) &
        bind(C, name='ferry_weights_get_links') result(ierr)
      import :: c_double, c_int, c_int64_t, c_ptr
      type(c_ptr), value :: weights
      integer(c_int64_t), intent(out) :: row_start(*), cols(*)
      real(c_double), intent(out) :: values(*)
      integer(c_int) :: ierr
    end function c_get_links
    function c_get_method(weights, method) bind(C, name='ferry_weights_get_method') &
        result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: weights
      type(c_ptr), intent(out) :: method
      integer(c_int) :: ierr
    end function c_get_method
    function c_weights_destroy(weights) bind(C, name='ferry_weights_destroy') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: weights
      integer(c_int) :: ierr
    end function c_weights_destroy

    function c_remap_create(comm, weights, src, dst, engine, remap) &
        bind(C, name='ferry_remap_create_f') result(ierr)
      import :: c_char, c_int, c_ptr
      integer(c_int), value :: comm
      type(c_ptr), value :: weights, src, dst
      character(kind=c_char), intent(in) :: engine(*)
      type(c_ptr), intent(out) :: remap
      integer(c_int) :: ierr
    end function c_remap_create
    function c_add_field(remap, type, components, field) bind(C, name='ferry_remap_add_field') &
        result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: remap
      integer(c_int), value :: type, components
      integer(c_int), intent(out) :: field
      integer(c_int) :: ierr
    end function c_add_field
    function c_set_map_on(remap, map_on) bind(C, name='ferry_remap_set_map_on') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: remap
      integer(c_int), value :: map_on
      integer(c_int) :: ierr
    end function c_set_map_on
    function c_set_mode(remap, mode) bind(C, name='ferry_remap_set_mode') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: remap
      integer(c_int), value :: mode
      integer(c_int) :: ierr
    end function c_set_mode
    function c_set_fill_value(remap, fill_value) bind(C, name='ferry_remap_set_fill_value') &
        result(ierr)
      import :: c_double, c_int, c_ptr
      type(c_ptr), value :: remap
      real(c_double), value :: fill_value
      integer(c_int) :: ierr
    end function c_set_fill_value
    function c_set_dst_mask(remap, mask) bind(C, name='ferry_remap_set_dst_mask') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: remap
      integer(c_int), intent(in) :: mask(*)
      integer(c_int) :: ierr
    end function c_set_dst_mask
    function c_set_option(remap, key, value) bind(C, name='ferry_remap_set_option') &
        result(ierr)
      import :: c_char, c_int, c_ptr
      type(c_ptr), value :: remap
      character(kind=c_char), intent(in) :: key(*), value(*)
      integer(c_int) :: ierr
    end function c_set_option
    function c_setup(remap) bind(C, name='ferry_remap_setup') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: remap
      integer(c_int) :: ierr
    end function c_setup
    function c_apply(remap, src, dst) bind(C, name='ferry_remap_apply') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: remap
      type(c_ptr), intent(in) :: src(*), dst(*)
      integer(c_int) :: ierr
    end function c_apply
    function c_begin(remap, src, dst) bind(C, name='ferry_remap_begin') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: remap
      type(c_ptr), intent(in) :: src(*), dst(*)
      integer(c_int) :: ierr
    end function c_begin
    function c_end(remap) bind(C, name='ferry_remap_end') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: remap
      integer(c_int) :: ierr
    end function c_end
    function c_get_traffic(remap, messages, bytes) bind(C, name='ferry_remap_get_traffic') &
        result(ierr)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: remap
      integer(c_int64_t), intent(out) :: messages, bytes
      integer(c_int) :: ierr
    end function c_get_traffic
    function c_get_point_data(remap, grid, area, frac, mask, present) &
        bind(C, name='ferry_remap_get_point_data') result(ierr)
      import :: c_double, c_int, c_ptr
      type(c_ptr), value :: remap
      integer(c_int), value :: grid
      real(c_double), intent(inout), optional :: area(*), frac(*)
      integer(c_int), intent(inout), optional :: mask(*)
      integer(c_int), intent(out) :: present
      integer(c_int) :: ierr
    end function c_get_point_data
    function c_remap_close(remap) bind(C, name='ferry_remap_close') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: remap
      integer(c_int) :: ierr
    end function c_remap_close
    function c_remap_destroy(remap) bind(C, name='ferry_remap_destroy') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: remap
      integer(c_int) :: ierr
    end function c_remap_destroy
  end interface

  ! The C calls of one weight matrix from a logically rectangular source (the shims of
  ! ferry_weights_bilinear and ferry_weights_bicubic).
  abstract interface
    function c_rectangular(comm, src, src_lon, src_lat, src_mask, dst, dst_lon, dst_lat, &
                           dst_mask, nx, periodic, unmapped, weights) bind(C) result(ierr)
      import :: c_double, c_int, c_int64_t, c_ptr
      integer(c_int), value :: comm, periodic, unmapped
      type(c_ptr), value :: src, dst
      real(c_double), intent(in) :: src_lon(*), src_lat(*), dst_lon(*), dst_lat(*)
      integer(c_int), intent(in), optional :: src_mask(*), dst_mask(*)
      integer(c_int64_t), value :: nx
      type(c_ptr), intent(out) :: weights
      integer(c_int) :: ierr
    end function c_rectangular
  end interface
  procedure(c_rectangular), bind(C, name='ferry_weights_bilinear_f') :: c_bilinear
  procedure(c_rectangular), bind(C, name='ferry_weights_bicubic_f') :: c_bicubic

contains

  ! ---- Weights ----

  !> Collective over comm: reads a SCRIP remapping file (src_address, dst_address,
  !> remap_matrix) or an ESMF one (row, col, S); each rank keeps a block of the rows.
  !> FERRY_ERR_IO names the file and variable, on every rank alike.
  subroutine ferry_weights_read(comm, path, weights, ierr)
    integer, intent(in) :: comm
    character(len=*), intent(in) :: path
    type(ferry_weights), intent(out) :: weights
    integer, intent(out) :: ierr
    ierr = c_read(int(comm, c_int), trim(path) // c_null_char, weights%ptr)
  end subroutine ferry_weights_read

  !> Collective over comm: a matrix of dst_size rows and src_size columns from the
  !> links held here (any share of them, in any order): destination point rows(i)
  !> receives values(i) times source point cols(i). order (optional, one per link):
  !> where each link is summed within its row (ascending, unique within a row);
  !> without it the links are numbered by their position over all ranks, rank 0's
  !> first.
  subroutine ferry_weights_from_links(comm, src_size, dst_size, rows, cols, values, weights, &
                                      order, ierr)
    integer, intent(in) :: comm
    integer(c_int64_t), intent(in) :: src_size, dst_size, rows(:), cols(:)
    real(c_double), intent(in) :: values(:)
    type(ferry_weights), intent(out) :: weights
    integer(c_int64_t), intent(in), optional :: order(:)
    integer, intent(out) :: ierr
    character(len=*), parameter :: routine = 'ferry_weights_from_links'
    character(len=*), parameter :: per_link = ' (one per link, as rows)'
    type(array_check) :: check
    integer(c_int64_t) :: count
    count = size(rows, kind=c_int64_t)
    call check_count(check, 'cols', size(cols, kind=c_int64_t), count, per_link)
    call check_count(check, 'values', size(values, kind=c_int64_t), count, per_link)
    if (present(order)) &
      call check_count(check, 'order', size(order, kind=c_int64_t), count, per_link)
    call agree_checks(comm, routine, check, ierr)
    if (ierr /= FERRY_SUCCESS) return
    ierr = c_from_links(int(comm, c_int), src_size, dst_size, count, rows, cols, values, order, &
                        weights%ptr)
  end subroutine ferry_weights_from_links

  !> Collective over comm, the communicator the weights were made on: writes a SCRIP
  !> remapping file that reads back to the same matrix bit for bit (written as
  !> "<path>.partial", renamed when complete).
  subroutine ferry_weights_write_scrip(comm, weights, path, ierr)
    integer, intent(in) :: comm
    type(ferry_weights), intent(in) :: weights
    character(len=*), intent(in) :: path
    integer, intent(out) :: ierr
    ierr = c_write_scrip(int(comm, c_int), weights%ptr, trim(path) // c_null_char)
  end subroutine ferry_weights_write_scrip

  !> Collective over comm, as ferry_weights_write_scrip: writes an ESMF remapping file
  !> (col, row, S) that reads back to the same matrix bit for bit.
  subroutine ferry_weights_write_esmf(comm, weights, path, ierr)
    integer, intent(in) :: comm
    type(ferry_weights), intent(in) :: weights
    character(len=*), intent(in) :: path
    integer, intent(out) :: ierr
    ierr = c_write_esmf(int(comm, c_int), weights%ptr, trim(path) // c_null_char)
  end subroutine ferry_weights_write_esmf

  !> Collective over comm: the k = neighbours nearest valid source points of every
  !> valid destination point on the unit sphere, weighted by weighting
  !> (FERRY_WEIGHTING_*; gaussian_variance, in units of the mean source spacing
  !> squared, is read for FERRY_WEIGHTING_GAUSSIAN only). Rows are ordered nearest
  !> first; the same bits for any number of ranks and layouts. After ierr, by keyword:
  !> masked_neighbours (FERRY_MASKED_NEIGHBOURS_*, default SKIP: OASIS's DISTWGT rule
  !> is DROP, DISTWGTNF's DROP_NO_FILL) and gaussian_scale (FERRY_GAUSSIAN_SCALE_*,
  !> default SOURCE; OASIS's GAUSWGT is NEIGHBOURS), as
  !> ferry_weights_nearest_neighbour_with_options in C.
  subroutine ferry_weights_nearest_neighbour(comm, src, src_lon, src_lat, dst, dst_lon, &
                                             dst_lat, neighbours, weighting, gaussian_variance, &
                                             weights, src_mask, dst_mask, ierr, &
                                             masked_neighbours, gaussian_scale)
    integer, intent(in) :: comm, neighbours, weighting
    integer, intent(in), optional :: masked_neighbours, gaussian_scale
    type(ferry_layout), intent(in) :: src, dst
    real(c_double), intent(in) :: src_lon(:), src_lat(:), dst_lon(:), dst_lat(:)
    real(c_double), intent(in) :: gaussian_variance
    type(ferry_weights), intent(out) :: weights
    integer(c_int), intent(in), optional :: src_mask(:), dst_mask(:)
    integer, intent(out) :: ierr
    character(len=*), parameter :: routine = 'ferry_weights_nearest_neighbour'
    if (.not. points_agreed(comm, routine, src, src_lon, src_lat, src_mask, dst, dst_lon, &
                            dst_lat, dst_mask, ierr)) return
    ierr = c_nearest_neighbour(int(comm, c_int), src%ptr, src_lon, src_lat, src_mask, dst%ptr, &
                               dst_lon, dst_lat, dst_mask, int(neighbours, c_int), &
                               int(weighting, c_int), gaussian_variance, &
                               c_int_or(gaussian_scale, FERRY_GAUSSIAN_SCALE_SOURCE), &
                               c_int_or(masked_neighbours, FERRY_MASKED_NEIGHBOURS_SKIP), &
                               weights%ptr)
  end subroutine ferry_weights_nearest_neighbour

  !> Collective over comm: bilinear weights (SCRIP's algorithm, CDO genbil) from a
  !> logically rectangular source grid of nx columns (the point in column i, row j,
  !> both 0-based, has id j * nx + i); periodic: column nx - 1 neighbours column 0.
  !> unmapped (FERRY_UNMAPPED_*, default FILL): what destination points in no source
  !> cell receive (ferry_weights_bilinear_with_options in C).
  subroutine ferry_weights_bilinear(comm, src, src_lon, src_lat, dst, dst_lon, dst_lat, nx, &
                                    periodic, weights, src_mask, dst_mask, unmapped, ierr)
    integer, intent(in) :: comm
    type(ferry_layout), intent(in) :: src, dst
    real(c_double), intent(in) :: src_lon(:), src_lat(:), dst_lon(:), dst_lat(:)
    integer(c_int64_t), intent(in) :: nx
    logical, intent(in) :: periodic
    type(ferry_weights), intent(out) :: weights
    integer(c_int), intent(in), optional :: src_mask(:), dst_mask(:)
    integer, intent(in), optional :: unmapped
    integer, intent(out) :: ierr
    call rectangular(c_bilinear, 'ferry_weights_bilinear', comm, src, src_lon, src_lat, dst, &
                     dst_lon, dst_lat, nx, periodic, weights, src_mask, dst_mask, unmapped, ierr)
  end subroutine ferry_weights_bilinear

  !> Collective over comm: bicubic weights (SCRIP's algorithm, CDO genbic) with the
  !> gradients made from the field itself, folded into one matrix (up to 16 links per
  !> row); arguments as ferry_weights_bilinear.
  subroutine ferry_weights_bicubic(comm, src, src_lon, src_lat, dst, dst_lon, dst_lat, nx, &
                                   periodic, weights, src_mask, dst_mask, unmapped, ierr)
    integer, intent(in) :: comm
    type(ferry_layout), intent(in) :: src, dst
    real(c_double), intent(in) :: src_lon(:), src_lat(:), dst_lon(:), dst_lat(:)
    integer(c_int64_t), intent(in) :: nx
    logical, intent(in) :: periodic
    type(ferry_weights), intent(out) :: weights
    integer(c_int), intent(in), optional :: src_mask(:), dst_mask(:)
    integer, intent(in), optional :: unmapped
    integer, intent(out) :: ierr
    call rectangular(c_bicubic, 'ferry_weights_bicubic', comm, src, src_lon, src_lat, dst, &
                     dst_lon, dst_lat, nx, periodic, weights, src_mask, dst_mask, unmapped, ierr)
  end subroutine ferry_weights_bicubic

  !> Collective over comm: bicubic weights for gradients the caller gives, as four
  !> weights with the same links: dst = value f + i_gradient df/di + j_gradient df/dj +
  !> ij_gradient d2f/didj, the derivatives along the source grid's index directions
  !> per index step (OASIS's fld2..fld4); arguments as ferry_weights_bilinear.
  subroutine ferry_weights_bicubic_gradients(comm, src, src_lon, src_lat, dst, dst_lon, &
                                             dst_lat, nx, periodic, value, i_gradient, &
                                             j_gradient, ij_gradient, src_mask, dst_mask, &
                                             unmapped, ierr)
    integer, intent(in) :: comm
    type(ferry_layout), intent(in) :: src, dst
    real(c_double), intent(in) :: src_lon(:), src_lat(:), dst_lon(:), dst_lat(:)
    integer(c_int64_t), intent(in) :: nx
    logical, intent(in) :: periodic
    type(ferry_weights), intent(out) :: value, i_gradient, j_gradient, ij_gradient
    integer(c_int), intent(in), optional :: src_mask(:), dst_mask(:)
    integer, intent(in), optional :: unmapped
    integer, intent(out) :: ierr
    character(len=*), parameter :: routine = 'ferry_weights_bicubic_gradients'
    if (.not. points_agreed(comm, routine, src, src_lon, src_lat, src_mask, dst, dst_lon, &
                            dst_lat, dst_mask, ierr)) return
    ierr = c_bicubic_gradients(int(comm, c_int), src%ptr, src_lon, src_lat, src_mask, dst%ptr, &
                               dst_lon, dst_lat, dst_mask, nx, merge(1_c_int, 0_c_int, periodic), &
                               unmapped_or_fill(unmapped), value%ptr, i_gradient%ptr, &
                               j_gradient%ptr, ij_gradient%ptr)
  end subroutine ferry_weights_bicubic_gradients

  !> Collective over comm: first-order conservative weights between grids of
  !> longitude-latitude rectangles (regular and Gaussian grids, CDO gencon), normalised
  !> by normalisation (FERRY_NORMALISATION_*). The corners of a cell are the columns
  !> of corner_lon(corners, n) and corner_lat(corners, n).
  subroutine ferry_weights_conservative(comm, src, src_corners, src_corner_lon, &
                                        src_corner_lat, dst, dst_corners, dst_corner_lon, &
                                        dst_corner_lat, normalisation, weights, src_mask, &
                                        dst_mask, ierr)
    integer, intent(in) :: comm, src_corners, dst_corners, normalisation
    type(ferry_layout), intent(in) :: src, dst
    real(c_double), intent(in) :: src_corner_lon(:, :), src_corner_lat(:, :)
    real(c_double), intent(in) :: dst_corner_lon(:, :), dst_corner_lat(:, :)
    type(ferry_weights), intent(out) :: weights
    integer(c_int), intent(in), optional :: src_mask(:), dst_mask(:)
    integer, intent(out) :: ierr
    character(len=*), parameter :: routine = 'ferry_weights_conservative'
    if (.not. cells_agreed(comm, routine, src, src_corners, src_corner_lon, src_corner_lat, &
                           src_mask, dst=dst, dst_corners=dst_corners, &
                           dst_corner_lon=dst_corner_lon, dst_corner_lat=dst_corner_lat, &
                           dst_mask=dst_mask, ierr=ierr)) return
    ierr = c_conservative(int(comm, c_int), src%ptr, int(src_corners, c_int), src_corner_lon, &
                          src_corner_lat, src_mask, dst%ptr, int(dst_corners, c_int), &
                          dst_corner_lon, dst_corner_lat, dst_mask, int(normalisation, c_int), &
                          weights%ptr)
  end subroutine ferry_weights_conservative

  !> Collective over comm: ferry_weights_conservative for cells of any convex polygons
  !> (ferry_weights_conservative_with_options in C): each grid also says how its edges
  !> run (FERRY_CELL_EDGES_*) and optionally the corners of each cell (corner_counts, at
  !> most corners; absent: every cell has corners, repeated corners allowed). unmapped
  !> (FERRY_UNMAPPED_*, default FILL; NEAREST makes FRACAREA into OASIS's FRACNNEI and
  !> DESTAREA into DESTNNEI) and order (1, the default, or 2: second order with the
  !> gradients made from the field, as CDO gencon2). After ierr, for a logically
  !> rectangular source grid (ferry_weights_conservative_rectangular in C): nx, its cells
  !> per row (cell (i, j), 0-based, has id j * nx + i; ferry_grid_get_sizes gives it),
  !> and periodic (default .true.: column nx - 1 neighbours column 0); with order 2 the
  !> gradients are then SCRIP's and CDO's centred differences along i and j instead of
  !> least squares. nx absent or 0: least squares.
  subroutine ferry_weights_conservative_polygons(comm, src, src_corners, src_corner_lon, &
                                                 src_corner_lat, src_edges, dst, dst_corners, &
                                                 dst_corner_lon, dst_corner_lat, dst_edges, &
                                                 normalisation, weights, src_mask, dst_mask, &
                                                 src_corner_counts, dst_corner_counts, &
                                                 unmapped, order, ierr, nx, periodic)
    integer, intent(in) :: comm, src_corners, dst_corners, src_edges, dst_edges, normalisation
    type(ferry_layout), intent(in) :: src, dst
    real(c_double), intent(in) :: src_corner_lon(:, :), src_corner_lat(:, :)
    real(c_double), intent(in) :: dst_corner_lon(:, :), dst_corner_lat(:, :)
    type(ferry_weights), intent(out) :: weights
    integer(c_int), intent(in), optional :: src_mask(:), dst_mask(:)
    integer(c_int), intent(in), optional :: src_corner_counts(:), dst_corner_counts(:)
    integer, intent(in), optional :: unmapped, order
    integer, intent(out) :: ierr
    integer(c_int64_t), intent(in), optional :: nx
    logical, intent(in), optional :: periodic
    character(len=*), parameter :: routine = 'ferry_weights_conservative_polygons'
    integer(c_int) :: c_order, c_periodic
    integer(c_int64_t) :: c_nx
    if (.not. cells_agreed(comm, routine, src, src_corners, src_corner_lon, src_corner_lat, &
                           src_mask, src_corner_counts, dst, dst_corners, dst_corner_lon, &
                           dst_corner_lat, dst_mask, dst_corner_counts, ierr)) return
    c_order = 1
    if (present(order)) c_order = int(order, c_int)
    c_nx = 0
    if (present(nx)) c_nx = nx
    c_periodic = 1
    if (present(periodic)) c_periodic = merge(1_c_int, 0_c_int, periodic)
    ierr = c_conservative_polygons(int(comm, c_int), src%ptr, int(src_corners, c_int), &
                                   src_corner_counts, src_corner_lon, src_corner_lat, src_mask, &
                                   int(src_edges, c_int), dst%ptr, int(dst_corners, c_int), &
                                   dst_corner_counts, dst_corner_lon, dst_corner_lat, dst_mask, &
                                   int(dst_edges, c_int), int(normalisation, c_int), &
                                   unmapped_or_fill(unmapped), c_order, c_nx, c_periodic, &
                                   weights%ptr)
  end subroutine ferry_weights_conservative_polygons

  !> Collective over comm: second-order conservative weights for gradients the caller
  !> gives (OASIS's fld2 and fld3), as three weights with the same links: dst = value
  !> src + lat_gradient g_lat + lon_gradient g_lon, g_lat and g_lon the northward and
  !> eastward gradients per radian of arc at the source cells' centroids. Arguments as
  !> ferry_weights_conservative_polygons.
  subroutine ferry_weights_conservative_gradients(comm, src, src_corners, src_corner_lon, &
                                                  src_corner_lat, src_edges, dst, dst_corners, &
                                                  dst_corner_lon, dst_corner_lat, dst_edges, &
                                                  normalisation, value, lat_gradient, &
                                                  lon_gradient, src_mask, dst_mask, &
                                                  src_corner_counts, dst_corner_counts, &
                                                  unmapped, ierr)
    integer, intent(in) :: comm, src_corners, dst_corners, src_edges, dst_edges, normalisation
    type(ferry_layout), intent(in) :: src, dst
    real(c_double), intent(in) :: src_corner_lon(:, :), src_corner_lat(:, :)
    real(c_double), intent(in) :: dst_corner_lon(:, :), dst_corner_lat(:, :)
    type(ferry_weights), intent(out) :: value, lat_gradient, lon_gradient
    integer(c_int), intent(in), optional :: src_mask(:), dst_mask(:)
    integer(c_int), intent(in), optional :: src_corner_counts(:), dst_corner_counts(:)
    integer, intent(in), optional :: unmapped
    integer, intent(out) :: ierr
    character(len=*), parameter :: routine = 'ferry_weights_conservative_gradients'
    if (.not. cells_agreed(comm, routine, src, src_corners, src_corner_lon, src_corner_lat, &
                           src_mask, src_corner_counts, dst, dst_corners, dst_corner_lon, &
                           dst_corner_lat, dst_mask, dst_corner_counts, ierr)) return
    ierr = c_conservative_gradients(int(comm, c_int), src%ptr, int(src_corners, c_int), &
                                    src_corner_counts, src_corner_lon, src_corner_lat, src_mask, &
                                    int(src_edges, c_int), dst%ptr, int(dst_corners, c_int), &
                                    dst_corner_counts, dst_corner_lon, dst_corner_lat, dst_mask, &
                                    int(dst_edges, c_int), int(normalisation, c_int), &
                                    unmapped_or_fill(unmapped), value%ptr, lat_gradient%ptr, &
                                    lon_gradient%ptr)
  end subroutine ferry_weights_conservative_gradients

  !> Not collective: columns (src_size), rows (dst_size) and links over all ranks.
  subroutine ferry_weights_get_sizes(weights, src_size, dst_size, global_links, ierr)
    type(ferry_weights), intent(in) :: weights
    integer(c_int64_t), intent(out) :: src_size, dst_size, global_links
    integer, intent(out) :: ierr
    ierr = c_get_sizes(weights%ptr, src_size, dst_size, global_links)
  end subroutine ferry_weights_get_sizes

  !> Not collective: the rows held here, first_row .. first_row + row_count - 1
  !> (0-based), and their number of links.
  subroutine ferry_weights_get_local_rows(weights, first_row, row_count, link_count, ierr)
    type(ferry_weights), intent(in) :: weights
    integer(c_int64_t), intent(out) :: first_row, row_count, link_count
    integer, intent(out) :: ierr
    ierr = c_get_local_rows(weights%ptr, first_row, row_count, link_count)
  end subroutine ferry_weights_get_local_rows

  !> Not collective: the local rows in CSR form, with 0-based offsets: row
  !> first_row + i - 1 has the links row_start(i) + 1 .. row_start(i + 1) of cols
  !> (0-based source points) and values, in summation order. row_start needs
  !> row_count + 1 elements, cols and values link_count (get_local_rows).
  subroutine ferry_weights_get_links(weights, row_start, cols, values, ierr)
    type(ferry_weights), intent(in) :: weights
    integer(c_int64_t), intent(out) :: row_start(:), cols(:)
    real(c_double), intent(out) :: values(:)
    integer, intent(out) :: ierr
    character(len=*), parameter :: routine = 'ferry_weights_get_links'
    integer(c_int64_t) :: first_row, row_count, link_count
    ierr = c_get_local_rows(weights%ptr, first_row, row_count, link_count)
    if (ierr /= FERRY_SUCCESS) return
    if (.not. room(size(row_start, kind=c_int64_t), row_count + 1, routine, 'row_start', ierr)) &
      return
    if (.not. room(size(cols, kind=c_int64_t), link_count, routine, 'cols', ierr)) return
    if (.not. room(size(values, kind=c_int64_t), link_count, routine, 'values', ierr)) return
    ierr = c_get_links(weights%ptr, row_start, cols, values)
  end subroutine ferry_weights_get_links

  !> Not collective: the file's map_method attribute ('' if none).
  subroutine ferry_weights_get_method(weights, method, ierr)
    type(ferry_weights), intent(in) :: weights
    character(len=:), allocatable, intent(out) :: method
    integer, intent(out) :: ierr
    type(c_ptr) :: text
    method = ''
    ierr = c_get_method(weights%ptr, text)
    if (ierr == FERRY_SUCCESS) method = fortran_string(text)
  end subroutine ferry_weights_get_method

  subroutine ferry_weights_destroy(weights, ierr)
    type(ferry_weights), intent(inout) :: weights
    integer, intent(out) :: ierr
    ierr = c_weights_destroy(weights%ptr)
  end subroutine ferry_weights_destroy

  ! ---- Grids ----

  !> Collective over comm: reads a grid, each rank a block of its cells: an OASIS
  !> grids.nc (name: the grid's prefix, 'torc'; masks, areas: masks.nc and areas.nc), a
  !> SCRIP grid file or a CDO/ICON unstructured grid file; format FERRY_GRID_FORMAT_*
  !> (default AUTO). FERRY_ERR_IO names the file and the variable, on every rank alike.
  subroutine ferry_grid_read(comm, path, grid, format, name, masks, areas, ierr)
    integer, intent(in) :: comm
    character(len=*), intent(in) :: path
    type(ferry_grid), intent(out) :: grid
    integer, intent(in), optional :: format
    character(len=*), intent(in), optional :: name, masks, areas
    integer, intent(out) :: ierr
    integer(c_int) :: c_format
    c_format = FERRY_GRID_FORMAT_AUTO
    if (present(format)) c_format = int(format, c_int)
    ierr = c_grid_read(int(comm, c_int), trim(path) // c_null_char, c_format, &
                       c_text(name), c_text(masks), c_text(areas), grid%ptr)
  end subroutine ferry_grid_read

  !> Not collective: the grid's cells (size), this rank's block (global ids first ..
  !> first + count - 1, 0-based), corner slots per cell, cells per row of a logically
  !> rectangular grid (nx; 0 if unstructured), and whether this rank holds the file's
  !> corners and cell areas.
  subroutine ferry_grid_get_sizes(grid, size, first, count, corners, nx, has_corners, &
                                  has_area, ierr)
    type(ferry_grid), intent(in) :: grid
    integer(c_int64_t), intent(out) :: size, first, count, nx
    integer, intent(out) :: corners
    logical, intent(out) :: has_corners, has_area
    integer, intent(out) :: ierr
    integer(c_int) :: c_corners, c_has_corners, c_has_area
    ierr = c_grid_get_sizes(grid%ptr, size, first, count, c_corners, nx, c_has_corners, &
                            c_has_area)
    corners = int(c_corners)
    has_corners = c_has_corners /= 0
    has_area = c_has_area /= 0
  end subroutine ferry_grid_get_sizes

  !> Not collective: a new layout of this rank's cells (destroy it).
  subroutine ferry_grid_get_layout(grid, layout, ierr)
    type(ferry_grid), intent(in) :: grid
    type(ferry_layout), intent(out) :: layout
    integer, intent(out) :: ierr
    ierr = c_grid_get_layout(grid%ptr, layout%ptr)
  end subroutine ferry_grid_get_layout

  !> Not collective: this rank's cell centres (degrees) and, if present, mask (1 =
  !> valid); each array needs count elements (ferry_grid_get_sizes).
  subroutine ferry_grid_get_points(grid, lon, lat, mask, ierr)
    type(ferry_grid), intent(in) :: grid
    real(c_double), intent(out) :: lon(:), lat(:)
    integer(c_int), intent(out), optional :: mask(:)
    integer, intent(out) :: ierr
    character(len=*), parameter :: routine = 'ferry_grid_get_points'
    integer(c_int64_t) :: count
    count = grid_count(grid, ierr)
    if (ierr /= FERRY_SUCCESS) return
    if (.not. room(size(lon, kind=c_int64_t), count, routine, 'lon', ierr)) return
    if (.not. room(size(lat, kind=c_int64_t), count, routine, 'lat', ierr)) return
    if (present(mask)) then
      if (.not. room(size(mask, kind=c_int64_t), count, routine, 'mask', ierr)) return
    end if
    ierr = c_grid_get_points(grid%ptr, lon, lat, mask)
  end subroutine ferry_grid_get_points

  !> Not collective: this rank's corners as corner_lon(corners, count) and
  !> corner_lat(corners, count), as the conservative routines take them.
  subroutine ferry_grid_get_corners(grid, corner_lon, corner_lat, ierr)
    type(ferry_grid), intent(in) :: grid
    real(c_double), intent(out) :: corner_lon(:, :), corner_lat(:, :)
    integer, intent(out) :: ierr
    character(len=*), parameter :: routine = 'ferry_grid_get_corners'
    integer(c_int64_t) :: cells, first, count, nx
    integer(c_int) :: corners, has_corners, has_area
    ierr = c_grid_get_sizes(grid%ptr, cells, first, count, corners, nx, has_corners, has_area)
    if (ierr /= FERRY_SUCCESS) return
    if (.not. room(size(corner_lon, kind=c_int64_t), count * corners, routine, 'corner_lon', &
                   ierr)) return
    if (.not. room(size(corner_lat, kind=c_int64_t), count * corners, routine, 'corner_lat', &
                   ierr)) return
    ierr = c_grid_get_corners(grid%ptr, corner_lon, corner_lat)
  end subroutine ferry_grid_get_corners

  !> Not collective: this rank's cell areas as the file gives them (OASIS areas.nc in
  !> m^2, SCRIP grid_area); FERRY_ERR_ARG if the file has none.
  subroutine ferry_grid_get_area(grid, area, ierr)
    type(ferry_grid), intent(in) :: grid
    real(c_double), intent(out) :: area(:)
    integer, intent(out) :: ierr
    integer(c_int64_t) :: count
    count = grid_count(grid, ierr)
    if (ierr /= FERRY_SUCCESS) return
    if (.not. room(size(area, kind=c_int64_t), count, 'ferry_grid_get_area', 'area', ierr)) &
      return
    ierr = c_grid_get_area(grid%ptr, area)
  end subroutine ferry_grid_get_area

  subroutine ferry_grid_destroy(grid, ierr)
    type(ferry_grid), intent(inout) :: grid
    integer, intent(out) :: ierr
    ierr = c_grid_destroy(grid%ptr)
  end subroutine ferry_grid_destroy

  ! ---- Remap ----

  !> Not collective: applies weights from the source layout (the points this rank
  !> holds source values of) to the destination layout (the points it wants). The
  !> layouts are copied; weights and comm must stay valid until setup. engine: a
  !> registered name, 'auto', or 'default' for $FERRY_ENGINE or p2p.
  subroutine ferry_remap_create(comm, weights, src, dst, engine, remap, ierr)
    integer, intent(in) :: comm
    type(ferry_weights), intent(in) :: weights
    type(ferry_layout), intent(in) :: src, dst
    character(len=*), intent(in) :: engine
    type(ferry_remap), intent(out) :: remap
    integer, intent(out) :: ierr
    ierr = c_remap_create(int(comm, c_int), weights%ptr, src%ptr, dst%ptr, &
                          trim(engine) // c_null_char, remap%ptr)
    if (ierr == FERRY_SUCCESS) call ferry_layout_local_size(src, remap%src_points, ierr)
    if (ierr == FERRY_SUCCESS) call ferry_layout_local_size(dst, remap%dst_points, ierr)
  end subroutine ferry_remap_create

  !> Adds a field of FERRY_TYPE_FLOAT64 or _FLOAT32 with `components` values per point
  !> (the first, fastest array dimension); field gets its position (1, 2, ...) in the
  !> arrays of apply. Before setup; without it the remap moves one real(8) per point.
  subroutine ferry_remap_add_field(remap, type, components, field, ierr)
    type(ferry_remap), intent(inout) :: remap
    integer, intent(in) :: type, components
    integer, intent(out) :: field
    integer, intent(out) :: ierr
    integer(c_int) :: index
    field = 0
    ierr = c_add_field(remap%ptr, int(type, c_int), int(components, c_int), index)
    if (ierr /= FERRY_SUCCESS) return
    field = index + 1
    remap%fields = field
  end subroutine ferry_remap_add_field

  !> FERRY_MAP_ON_SRC or FERRY_MAP_ON_DST (the default). Before setup.
  subroutine ferry_remap_set_map_on(remap, map_on, ierr)
    type(ferry_remap), intent(in) :: remap
    integer, intent(in) :: map_on
    integer, intent(out) :: ierr
    ierr = c_set_map_on(remap%ptr, int(map_on, c_int))
  end subroutine ferry_remap_set_map_on

  !> FERRY_REMAP_BFB (the default) or FERRY_REMAP_SUM. Before setup.
  subroutine ferry_remap_set_mode(remap, mode, ierr)
    type(ferry_remap), intent(in) :: remap
    integer, intent(in) :: mode
    integer, intent(out) :: ierr
    ierr = c_set_mode(remap%ptr, int(mode, c_int))
  end subroutine ferry_remap_set_mode

  !> The value of destination points that receive nothing: rows without links and
  !> the points of the destination mask (default 0). Before setup.
  subroutine ferry_remap_set_fill_value(remap, fill_value, ierr)
    type(ferry_remap), intent(in) :: remap
    real(c_double), intent(in) :: fill_value
    integer, intent(out) :: ierr
    ierr = c_set_fill_value(remap%ptr, fill_value)
  end subroutine ferry_remap_set_fill_value

  !> One flag per point of this rank's destination layout (copied): non-zero keeps the
  !> fill value there whatever the weights say. Before setup; may differ between ranks.
  subroutine ferry_remap_set_dst_mask(remap, mask, ierr)
    type(ferry_remap), intent(in) :: remap
    integer(c_int), intent(in) :: mask(:)
    integer, intent(out) :: ierr
    character(len=200) :: message
    if (c_associated(remap%ptr) .and. size(mask, kind=c_int64_t) /= remap%dst_points) then
      write (message, '(a,i0,a,i0,a)') 'mask has ', size(mask), ' elements, expected ', &
        remap%dst_points, ' (one per point of the destination layout on this rank)'
      call fail('ferry_remap_set_dst_mask', FERRY_ERR_ARG_SIZE, trim(message), ierr)
      return
    end if
    ierr = c_set_dst_mask(remap%ptr, mask)
  end subroutine ferry_remap_set_dst_mask

  !> Sets an option of the engine, e.g. ('shared_memory', 'false') for rma. Before setup.
  subroutine ferry_remap_set_option(remap, key, value, ierr)
    type(ferry_remap), intent(in) :: remap
    character(len=*), intent(in) :: key, value
    integer, intent(out) :: ierr
    ierr = c_set_option(remap%ptr, trim(key) // c_null_char, trim(value) // c_null_char)
  end subroutine ferry_remap_set_option

  !> Collective over comm: checks the layouts against the weights (errors are the same
  !> on every rank), routes each needed row to the rank that applies it and builds the
  !> exchanges. The weights may be destroyed afterwards.
  subroutine ferry_remap_setup(remap, ierr)
    type(ferry_remap), intent(in) :: remap
    integer, intent(out) :: ierr
    ierr = c_setup(remap%ptr)
  end subroutine ferry_remap_setup

  !> Collective: dst = W src for every field. src(f) and dst(f) are c_loc() of field
  !> f's arrays at this rank's source and destination points, f = 1 .. remap%fields
  !> in add_field order; c_null_ptr on a rank without such points.
  subroutine ferry_remap_apply(remap, src, dst, ierr)
    type(ferry_remap), intent(in) :: remap
    type(c_ptr), intent(in) :: src(:), dst(:)
    integer, intent(out) :: ierr
    call move(remap, 'ferry_remap_apply', src, dst, .false., ierr)
  end subroutine ferry_remap_apply

  !> Collective, split phase: starts apply; until ferry_remap_end, leave src and dst
  !> alone.
  subroutine ferry_remap_begin(remap, src, dst, ierr)
    type(ferry_remap), intent(in) :: remap
    type(c_ptr), intent(in) :: src(:), dst(:)
    integer, intent(out) :: ierr
    call move(remap, 'ferry_remap_begin', src, dst, .true., ierr)
  end subroutine ferry_remap_begin

  ! apply or begin, after checking that there is one pointer per field on each side.
  subroutine move(remap, routine, src, dst, split, ierr)
    type(ferry_remap), intent(in) :: remap
    character(len=*), intent(in) :: routine
    type(c_ptr), intent(in) :: src(:), dst(:)
    logical, intent(in) :: split
    integer, intent(out) :: ierr
    character(len=200) :: message
    if (size(src) /= remap%fields .or. size(dst) /= remap%fields) then
      write (message, '(a,i0,a,i0,a,i0,a)') 'got ', size(src), ' source and ', size(dst), &
        ' destination arrays, expected ', remap%fields, &
        ' (one c_loc() per field, in add_field order)'
      call fail(routine, FERRY_ERR_ARG_SIZE, trim(message), ierr)
    else if (split) then
      ierr = c_begin(remap%ptr, src, dst)
    else
      ierr = c_apply(remap%ptr, src, dst)
    end if
  end subroutine move

  !> Collective: completes ferry_remap_begin.
  subroutine ferry_remap_end(remap, ierr)
    type(ferry_remap), intent(in) :: remap
    integer, intent(out) :: ierr
    ierr = c_end(remap%ptr)
  end subroutine ferry_remap_end

  !> After setup, not collective: the messages and bytes one apply of every field
  !> sends from this rank.
  subroutine ferry_remap_get_traffic(remap, messages, bytes, ierr)
    type(ferry_remap), intent(in) :: remap
    integer(c_int64_t), intent(out) :: messages, bytes
    integer, intent(out) :: ierr
    ierr = c_get_traffic(remap%ptr, messages, bytes)
  end subroutine ferry_remap_get_traffic

  !> After setup, not collective: what the weights (a file's *_grid_area, *_grid_frac
  !> and *_grid_imask; those of ferry_weights_conservative) give of grid
  !> (FERRY_GRID_SRC or FERRY_GRID_DST) at the points of this rank's layout of that
  !> grid, in layout order: cell areas, fractions and masks (1 = active, 0 = masked),
  !> for ferry_conserve (module ferry_conservation_mod). Each array is optional and
  !> needs room for the layout's local size (remap%src_points or remap%dst_points);
  !> present gets the FERRY_POINT_* flags of those the weights have, the same on every
  !> rank. Only those are written; the others are left as they are.
  subroutine ferry_remap_get_point_data(remap, grid, area, frac, mask, present, ierr)
    ! The argument `present` (C's name) hides the intrinsic of that name here: the
    ! optional arguments are looked at by point_data_room and set_optional instead.
    type(ferry_remap), intent(in) :: remap
    integer, intent(in) :: grid
    real(c_double), intent(inout), optional :: area(:), frac(:)
    integer(c_int), intent(inout), optional :: mask(:)
    integer, intent(out), optional :: present
    integer, intent(out) :: ierr
    integer(c_int) :: flags
    flags = 0
    if (point_data_room(remap, grid, ierr, area, frac, mask)) &
      ierr = c_get_point_data(remap%ptr, int(grid, c_int), area, frac, mask, flags)
    if (ierr /= FERRY_SUCCESS) flags = 0
    call set_optional(present, int(flags))
  end subroutine ferry_remap_get_point_data

  ! True if each array given to ferry_remap_get_point_data has room for the points of
  ! its grid on this rank; else records the error. A remap without a handle or a grid
  ! that is neither is left to C.
  logical function point_data_room(remap, grid, ierr, area, frac, mask) result(ok)
    type(ferry_remap), intent(in) :: remap
    integer, intent(in) :: grid
    integer, intent(out) :: ierr
    real(c_double), intent(in), optional :: area(:), frac(:)
    integer(c_int), intent(in), optional :: mask(:)
    character(len=*), parameter :: routine = 'ferry_remap_get_point_data'
    integer(c_int64_t) :: n
    ok = .true.
    ierr = FERRY_SUCCESS
    if (.not. c_associated(remap%ptr)) return
    if (grid == FERRY_GRID_SRC) then
      n = remap%src_points
    else if (grid == FERRY_GRID_DST) then
      n = remap%dst_points
    else
      return
    end if
    if (present(area)) ok = room(size(area, kind=c_int64_t), n, routine, 'area', ierr)
    if (ok .and. present(frac)) ok = room(size(frac, kind=c_int64_t), n, routine, 'frac', ierr)
    if (ok .and. present(mask)) ok = room(size(mask, kind=c_int64_t), n, routine, 'mask', ierr)
  end function point_data_room

  ! out = value, if out is present.
  subroutine set_optional(out, value)
    integer, intent(out), optional :: out
    integer, intent(in) :: value
    if (present(out)) out = value
  end subroutine set_optional

  !> Collective, idempotent: closes the remap's exchanges; afterwards only queries and destroy.
  subroutine ferry_remap_close(remap, ierr)
    type(ferry_remap), intent(in) :: remap
    integer, intent(out) :: ierr
    ierr = c_remap_close(remap%ptr)
  end subroutine ferry_remap_close

  !> Frees the remap; not collective, never waits for another rank.
  subroutine ferry_remap_destroy(remap, ierr)
    type(ferry_remap), intent(inout) :: remap
    integer, intent(out) :: ierr
    ierr = c_remap_destroy(remap%ptr)
    remap%fields = 1
    remap%src_points = 0
    remap%dst_points = 0
  end subroutine ferry_remap_destroy

  ! ---- Checks of the collective calls' arrays ----

  ! The arrays of a grid of points: lon, lat and mask have the layout's local size.
  subroutine check_points(check, side, layout, lon, lat, mask)
    type(array_check), intent(inout) :: check
    character(len=*), intent(in) :: side
    type(ferry_layout), intent(in) :: layout
    real(c_double), intent(in) :: lon(:), lat(:)
    integer(c_int), intent(in), optional :: mask(:)
    integer(c_int64_t) :: n
    call layout_points(check, side, layout, n)
    call check_per_point(check, side // '_lon', size(lon, kind=c_int64_t), n, side)
    call check_per_point(check, side // '_lat', size(lat, kind=c_int64_t), n, side)
    if (present(mask)) &
      call check_per_point(check, side // '_mask', size(mask, kind=c_int64_t), n, side)
  end subroutine check_points

  ! The arrays of a grid of cells: corner_lon and corner_lat have the shape (corners,
  ! local size of the layout), mask the local size. corners < 1 is left to C.
  subroutine check_cells(check, side, layout, corners, corner_lon, corner_lat, mask, &
                         corner_counts)
    type(array_check), intent(inout) :: check
    character(len=*), intent(in) :: side
    type(ferry_layout), intent(in) :: layout
    integer, intent(in) :: corners
    real(c_double), intent(in) :: corner_lon(:, :), corner_lat(:, :)
    integer(c_int), intent(in), optional :: mask(:), corner_counts(:)
    integer(c_int64_t) :: n
    character(len=:), allocatable :: why
    call layout_points(check, side, layout, n)
    why = ': (' // side // '_corners, cells of layout ' // side // '), in layout order'
    if (corners >= 1) then
      call check_shape(check, side // '_corner_lon', shape(corner_lon, kind=c_int64_t), &
                       [int(corners, c_int64_t), n], why)
      call check_shape(check, side // '_corner_lat', shape(corner_lat, kind=c_int64_t), &
                       [int(corners, c_int64_t), n], why)
    end if
    if (present(mask)) &
      call check_count(check, side // '_mask', size(mask, kind=c_int64_t), n, &
                       ', the local size of layout ' // side // '. Give one value per ' // &
                       'cell of the layout, in layout order')
    if (present(corner_counts)) &
      call check_count(check, side // '_corner_counts', size(corner_counts, kind=c_int64_t), &
                       n, ', the local size of layout ' // side // '. Give one count per ' // &
                       'cell of the layout, in layout order')
  end subroutine check_cells

  ! The body of ferry_weights_bilinear and _bicubic: the arrays agreed, then `make`.
  subroutine rectangular(make, routine, comm, src, src_lon, src_lat, dst, dst_lon, dst_lat, nx, &
                         periodic, weights, src_mask, dst_mask, unmapped, ierr)
    procedure(c_rectangular) :: make
    character(len=*), intent(in) :: routine
    integer, intent(in) :: comm
    type(ferry_layout), intent(in) :: src, dst
    real(c_double), intent(in) :: src_lon(:), src_lat(:), dst_lon(:), dst_lat(:)
    integer(c_int64_t), intent(in) :: nx
    logical, intent(in) :: periodic
    type(ferry_weights), intent(out) :: weights
    integer(c_int), intent(in), optional :: src_mask(:), dst_mask(:)
    integer, intent(in), optional :: unmapped
    integer, intent(out) :: ierr
    if (.not. points_agreed(comm, routine, src, src_lon, src_lat, src_mask, dst, dst_lon, &
                            dst_lat, dst_mask, ierr)) return
    ierr = make(int(comm, c_int), src%ptr, src_lon, src_lat, src_mask, dst%ptr, dst_lon, &
                dst_lat, dst_mask, nx, merge(1_c_int, 0_c_int, periodic), &
                unmapped_or_fill(unmapped), weights%ptr)
  end subroutine rectangular

  ! The arrays of the two grids of points of a weight routine, checked and agreed over
  ! comm: false (ierr set) if any rank's are wrong.
  logical function points_agreed(comm, routine, src, src_lon, src_lat, src_mask, dst, dst_lon, &
                                 dst_lat, dst_mask, ierr)
    integer, intent(in) :: comm
    character(len=*), intent(in) :: routine
    type(ferry_layout), intent(in) :: src, dst
    real(c_double), intent(in) :: src_lon(:), src_lat(:), dst_lon(:), dst_lat(:)
    integer(c_int), intent(in), optional :: src_mask(:), dst_mask(:)
    integer, intent(out) :: ierr
    type(array_check) :: check
    call check_points(check, 'src', src, src_lon, src_lat, src_mask)
    call check_points(check, 'dst', dst, dst_lon, dst_lat, dst_mask)
    call agree_checks(comm, routine, check, ierr)
    points_agreed = ierr == FERRY_SUCCESS
  end function points_agreed

  ! The arrays of the two grids of cells of a conservative routine, checked and agreed
  ! over comm: false (ierr set) if any rank's are wrong.
  logical function cells_agreed(comm, routine, src, src_corners, src_corner_lon, &
                                src_corner_lat, src_mask, src_corner_counts, dst, dst_corners, &
                                dst_corner_lon, dst_corner_lat, dst_mask, dst_corner_counts, ierr)
    integer, intent(in) :: comm, src_corners, dst_corners
    character(len=*), intent(in) :: routine
    type(ferry_layout), intent(in) :: src, dst
    real(c_double), intent(in) :: src_corner_lon(:, :), src_corner_lat(:, :)
    real(c_double), intent(in) :: dst_corner_lon(:, :), dst_corner_lat(:, :)
    integer(c_int), intent(in), optional :: src_mask(:), dst_mask(:)
    integer(c_int), intent(in), optional :: src_corner_counts(:), dst_corner_counts(:)
    integer, intent(out) :: ierr
    type(array_check) :: check
    call check_cells(check, 'src', src, src_corners, src_corner_lon, src_corner_lat, src_mask, &
                     src_corner_counts)
    call check_cells(check, 'dst', dst, dst_corners, dst_corner_lon, dst_corner_lat, dst_mask, &
                     dst_corner_counts)
    call agree_checks(comm, routine, check, ierr)
    cells_agreed = ierr == FERRY_SUCCESS
  end function cells_agreed

  ! An optional FERRY_UNMAPPED_* for C: FERRY_UNMAPPED_FILL when absent.
  integer(c_int) function unmapped_or_fill(unmapped)
    integer, intent(in), optional :: unmapped
    unmapped_or_fill = c_int_or(unmapped, FERRY_UNMAPPED_FILL)
  end function unmapped_or_fill

  ! An optional integer option for C: `absent` when not given.
  integer(c_int) function c_int_or(option, absent)
    integer, intent(in), optional :: option
    integer(c_int), intent(in) :: absent
    c_int_or = absent
    if (present(option)) c_int_or = int(option, c_int)
  end function c_int_or

  ! An optional string for C: its trimmed text and a NUL, or just a NUL ("").
  function c_text(text) result(c)
    character(len=*), intent(in), optional :: text
    character(len=:, kind=c_char), allocatable :: c
    c = c_null_char
    if (present(text)) c = trim(text) // c_null_char
  end function c_text

  ! The cells this rank holds of a grid (ierr set on failure).
  integer(c_int64_t) function grid_count(grid, ierr)
    type(ferry_grid), intent(in) :: grid
    integer, intent(out) :: ierr
    integer(c_int64_t) :: cells, first, nx
    integer(c_int) :: corners, has_corners, has_area
    grid_count = 0
    ierr = c_grid_get_sizes(grid%ptr, cells, first, grid_count, corners, nx, has_corners, &
                            has_area)
  end function grid_count

end module ferry_regrid_mod
