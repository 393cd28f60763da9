! module ferry_conservation_mod: global sums that give the same bits on any number of
! ranks, and the correction that makes a remapped field conserve the source's area
! integral (OASIS CONSERV), for Fortran 2018 over the C API (ferry/conservation.h;
! docs/user/conservation.md). The constants FERRY_SUM_* and FERRY_CONSERVE_* come
! with module ferry; the point data of a remap's weights, with
! ferry_remap_get_point_data of module ferry_regrid_mod.
!
! As in module ferry: routines end with `integer, intent(out) :: ierr`, ids are
! 0-based global ids in integer(int64), a grid's arrays on this rank are in the order
! of its layout. A field of several components is values(components, points), the
! component index first; one of a single component may be values(points). The
! optional arguments come just before ierr, so a call without them names ierr. Both
! routines check the sizes of their arrays and agree on the outcome over comm before
! calling C (one MPI_Allreduce more): an array of the wrong size on one rank fails
! the call on every rank with FERRY_ERR_ARG_SIZE and the same message.
module ferry_conservation_mod
  use, intrinsic :: iso_c_binding
  use ferry_constants, only: FERRY_SUCCESS
  use ferry_layout_mod, only: ferry_layout
  use ferry_collective_checks, only: array_check, check_count, check_per_point, check_shape, &
    layout_points, agree_checks
  implicit none
  private
  public :: ferry_global_sums, ferry_conserve

  !> Collective over comm; method (FERRY_SUM_*) the same on every rank. The sums over
  !> all ranks of the terms held here: values(count, points) gives sums(count), the
  !> sum of each row; values(points) gives one sum, a scalar.
  interface ferry_global_sums
    module procedure global_sums_rows, global_sums_one
  end interface ferry_global_sums

  !> Collective over comm: corrects a remapped field dst_values in place so that its
  !> area integral matches that of src_values, values(components, points) or
  !> values(points).
  interface ferry_conserve
    module procedure conserve_components, conserve_one
  end interface ferry_conserve

  ! The shims of ferry_conservation_f.cpp, which take an integer communicator.
  interface
    function c_global_sums(comm, method, count, points, values, ids, sums) &
        bind(C, name='ferry_global_sums_f') result(ierr)
      import :: c_double, c_int, c_int64_t
      integer(c_int), value :: comm, method, count
      integer(c_int64_t), value :: points
      real(c_double), intent(in) :: values(*)
      integer(c_int64_t), intent(in), optional :: ids(*)
      real(c_double), intent(inout) :: sums(*)
      integer(c_int) :: ierr
    end function c_global_sums
    function c_conserve(comm, method, sum, components, src, src_area, src_frac, src_mask, &
                        src_values, dst, dst_area, dst_frac, dst_mask, dst_values) &
        bind(C, name='ferry_conserve_f') result(ierr)
      import :: c_double, c_int, c_ptr
      integer(c_int), value :: comm, method, sum, components
      type(c_ptr), value :: src, dst
      real(c_double), intent(in) :: src_area(*), src_values(*), dst_area(*)
      real(c_double), intent(in), optional :: src_frac(*), dst_frac(*)
      integer(c_int), intent(in), optional :: src_mask(*), dst_mask(*)
      real(c_double), intent(inout) :: dst_values(*)
      integer(c_int) :: ierr
    end function c_conserve
  end interface

contains

  ! ---- Global sums ----

  !> sums(j) = the sum over all ranks of values(j, p), p = 1 .. size(values, 2) on
  !> each. count = size(values, 1) must be the same on every rank, also on one without
  !> terms (values(count, 0)); sums has count elements. ids (optional): the global id
  !> of each column, each id on one rank only. FERRY_SUM_GATHER adds in ascending id
  !> order and needs them; the other methods ignore them.
  subroutine global_sums_rows(comm, method, values, sums, ids, ierr)
    integer, intent(in) :: comm, method
    real(c_double), intent(in) :: values(:, :)
    real(c_double), intent(out) :: sums(:)
    integer(c_int64_t), intent(in), optional :: ids(:)
    integer, intent(out) :: ierr
    type(array_check) :: check
    call check_count(check, 'sums', size(sums, kind=c_int64_t), size(values, 1, kind=c_int64_t), &
                     ', one per row of values: size(values, 1)')
    if (present(ids)) &
      call check_count(check, 'ids', size(ids, kind=c_int64_t), size(values, 2, kind=c_int64_t), &
                       ', one per column of values: size(values, 2)')
    call sums_agreed(comm, method, check, size(values, 1), size(values, 2, kind=c_int64_t), &
                     values, sums, ids, ierr)
  end subroutine global_sums_rows

  !> sums = the sum over all ranks of the values held on each; ids as above, one per
  !> value.
  subroutine global_sums_one(comm, method, values, sums, ids, ierr)
    integer, intent(in) :: comm, method
    real(c_double), intent(in) :: values(:)
    real(c_double), intent(out) :: sums
    integer(c_int64_t), intent(in), optional :: ids(:)
    integer, intent(out) :: ierr
    type(array_check) :: check
    real(c_double) :: one(1)
    if (present(ids)) &
      call check_count(check, 'ids', size(ids, kind=c_int64_t), size(values, kind=c_int64_t), &
                       ', one per value')
    one = 0
    call sums_agreed(comm, method, check, 1, size(values, kind=c_int64_t), values, one, ids, &
                     ierr)
    sums = one(1)
  end subroutine global_sums_one

  ! Agrees on the problems the ranks found with their arrays and, if none, sums count
  ! rows of `points` terms.
  subroutine sums_agreed(comm, method, check, count, points, values, sums, ids, ierr)
    integer, intent(in) :: comm, method, count
    type(array_check), intent(in) :: check
    integer(c_int64_t), intent(in) :: points
    real(c_double), intent(in) :: values(*)
    real(c_double), intent(inout) :: sums(*)
    integer(c_int64_t), intent(in), optional :: ids(:)
    integer, intent(out) :: ierr
    call agree_checks(comm, 'ferry_global_sums', check, ierr)
    if (ierr /= FERRY_SUCCESS) return
    ierr = c_global_sums(int(comm, c_int), int(method, c_int), int(count, c_int), points, &
                         values, ids, sums)
  end subroutine sums_agreed

  ! ---- Conservation ----

  !> Corrects each of the components = size(dst_values, 1) rows of dst_values apart, by
  !> method (FERRY_CONSERVE_*) with global sums by sum (FERRY_SUM_*); method, sum and
  !> components the same on every rank. Each grid is a layout (each point on one rank
  !> only, else it counts twice) and arrays of one value per point in layout order:
  !> area; frac (optional, absent: 1) and mask (optional, integer(c_int), absent:
  !> every point active; else 1 = active, 0 = masked and left unchanged); values of
  !> the shape (components, local size of the layout).
  subroutine conserve_components(comm, method, sum, src, src_area, src_values, dst, dst_area, &
                                 dst_values, src_frac, src_mask, dst_frac, dst_mask, ierr)
    integer, intent(in) :: comm, method, sum
    type(ferry_layout), intent(in) :: src, dst
    real(c_double), intent(in) :: src_area(:), src_values(:, :), dst_area(:)
    real(c_double), intent(inout) :: dst_values(:, :)
    real(c_double), intent(in), optional :: src_frac(:), dst_frac(:)
    integer(c_int), intent(in), optional :: src_mask(:), dst_mask(:)
    integer, intent(out) :: ierr
    call conserve_checked(comm, method, sum, size(dst_values, 1), src, src_area, src_frac, &
                          src_mask, src_values, shape(src_values, kind=c_int64_t), dst, &
                          dst_area, dst_frac, dst_mask, dst_values, &
                          shape(dst_values, kind=c_int64_t), ierr)
  end subroutine conserve_components

  !> The same for a field of one component: values(local size of the layout).
  subroutine conserve_one(comm, method, sum, src, src_area, src_values, dst, dst_area, &
                          dst_values, src_frac, src_mask, dst_frac, dst_mask, ierr)
    integer, intent(in) :: comm, method, sum
    type(ferry_layout), intent(in) :: src, dst
    real(c_double), intent(in) :: src_area(:), src_values(:), dst_area(:)
    real(c_double), intent(inout) :: dst_values(:)
    real(c_double), intent(in), optional :: src_frac(:), dst_frac(:)
    integer(c_int), intent(in), optional :: src_mask(:), dst_mask(:)
    integer, intent(out) :: ierr
    call conserve_checked(comm, method, sum, 1, src, src_area, src_frac, src_mask, src_values, &
                          [size(src_values, kind=c_int64_t)], dst, dst_area, dst_frac, &
                          dst_mask, dst_values, [size(dst_values, kind=c_int64_t)], ierr)
  end subroutine conserve_one

  ! Checks both grids' arrays (values of the shape src_shape and dst_shape), agrees on
  ! the problems the ranks found and, if none, corrects dst_values.
  subroutine conserve_checked(comm, method, sum, components, src, src_area, src_frac, &
                              src_mask, src_values, src_shape, dst, dst_area, dst_frac, &
                              dst_mask, dst_values, dst_shape, ierr)
    integer, intent(in) :: comm, method, sum, components
    type(ferry_layout), intent(in) :: src, dst
    real(c_double), intent(in) :: src_area(:), src_values(*), dst_area(:)
    real(c_double), intent(in), optional :: src_frac(:), dst_frac(:)
    integer(c_int), intent(in), optional :: src_mask(:), dst_mask(:)
    real(c_double), intent(inout) :: dst_values(*)
    integer(c_int64_t), intent(in) :: src_shape(:), dst_shape(:)
    integer, intent(out) :: ierr
    type(array_check) :: check
    call check_grid(check, 'src', src, components, src_area, src_shape, src_frac, src_mask)
    call check_grid(check, 'dst', dst, components, dst_area, dst_shape, dst_frac, dst_mask)
    call agree_checks(comm, 'ferry_conserve', check, ierr)
    if (ierr /= FERRY_SUCCESS) return
    ierr = c_conserve(int(comm, c_int), int(method, c_int), int(sum, c_int), &
                      int(components, c_int), src%ptr, src_area, src_frac, src_mask, &
                      src_values, dst%ptr, dst_area, dst_frac, dst_mask, dst_values)
  end subroutine conserve_checked

  ! The arrays of one grid: area, frac and mask have the layout's local size n, the
  ! values n elements (values_shape of one extent) or the shape (components, n).
  subroutine check_grid(check, side, layout, components, area, values_shape, frac, mask)
    type(array_check), intent(inout) :: check
    character(len=*), intent(in) :: side
    type(ferry_layout), intent(in) :: layout
    integer, intent(in) :: components
    real(c_double), intent(in) :: area(:)
    integer(c_int64_t), intent(in) :: values_shape(:)
    real(c_double), intent(in), optional :: frac(:)
    integer(c_int), intent(in), optional :: mask(:)
    integer(c_int64_t) :: n
    call layout_points(check, side, layout, n)
    call check_per_point(check, side // '_area', size(area, kind=c_int64_t), n, side)
    if (present(frac)) &
      call check_per_point(check, side // '_frac', size(frac, kind=c_int64_t), n, side)
    if (present(mask)) &
      call check_per_point(check, side // '_mask', size(mask, kind=c_int64_t), n, side)
    if (size(values_shape) == 1) then
      call check_per_point(check, side // '_values', values_shape(1), n, side)
    else
      call check_shape(check, side // '_values', values_shape, [int(components, c_int64_t), n], &
                       ': (components, points of layout ' // side // '), components = ' // &
                       'size(dst_values, 1), in layout order')
    end if
  end subroutine check_grid

end module ferry_conservation_mod
