! module ferry_coupler_mod: the coupler's components, grids, partitions and fields, and
! put and get (docs/user/coupler.md), over the C API (ferry/ferry.h) through
! iso_c_binding. Its time-series buffers are module ferry_coupler_buffers. Named _mod
! because its type is ferry_coupler, as in C.
!
! As in module ferry (ferry.F90), every routine has the name of its C function and
! ends with `integer, intent(out) :: ierr`: FERRY_SUCCESS or a FERRY_ERR_* code, whose
! text ferry_error_message() gives.
module ferry_coupler_mod
  use, intrinsic :: iso_c_binding
  use ferry_argument_error, only: fail => ferry_record_argument_error
  use ferry_c_arrays, only: address, type_names
  use ferry_constants, only: FERRY_SUCCESS, FERRY_ERR_ARG, FERRY_ERR_ARG_SIZE, &
    FERRY_STATUS_NOTHING, FERRY_TYPE_FLOAT64, FERRY_TYPE_FLOAT32, FERRY_TYPE_INT32, &
    FERRY_TYPE_INT64
  use ferry_layout_mod, only: ferry_layout
  implicit none
  private

  !> A coupler (ferry_coupler* in C).
  type, public :: ferry_coupler
    type(c_ptr) :: ptr = c_null_ptr
  end type ferry_coupler

  public :: ferry_coupler_create, ferry_coupler_local_comm, ferry_coupler_def_grid
  public :: ferry_coupler_def_partition, ferry_coupler_def_field, ferry_coupler_field_values
  public :: ferry_coupler_set_coordinates, ferry_coupler_set_corners, ferry_coupler_set_areas
  public :: ferry_coupler_set_mask, ferry_coupler_partition_points
  public :: ferry_coupler_enddef, ferry_coupler_put, ferry_coupler_get
  public :: ferry_coupler_finalize, ferry_coupler_abandon, ferry_coupler_destroy

  !> Puts or gets a field from an array of any rank of real(8), real(4), integer(4)
  !> or integer(8), matching the field's declared type.
  interface ferry_coupler_put
    module procedure coupler_put_float64, coupler_put_float32, coupler_put_int32, &
      coupler_put_int64
  end interface ferry_coupler_put
  interface ferry_coupler_get
    module procedure coupler_get_float64, coupler_get_float32, coupler_get_int32, &
      coupler_get_int64
  end interface ferry_coupler_get

  ! The C API, and the shims of ferry_f.cpp (suffix _f) that take integer communicators.
  interface
    function c_coupler_create(comm, count, names, config_path, coupler) &
        bind(C, name='ferry_coupler_create_f') result(ierr)
      import :: c_char, c_int, c_ptr
      integer(c_int), value :: comm, count
      character(kind=c_char), intent(in) :: names(*), config_path(*)
      type(c_ptr), intent(out) :: coupler
      integer(c_int) :: ierr
    end function c_coupler_create
    function c_coupler_local_comm(coupler, component, comm) &
        bind(C, name='ferry_coupler_local_comm_f') result(ierr)
      import :: c_char, c_int, c_ptr
      type(c_ptr), value :: coupler
      character(kind=c_char), intent(in) :: component(*)
      integer(c_int), intent(out) :: comm
      integer(c_int) :: ierr
    end function c_coupler_local_comm
    function c_coupler_def_grid(coupler, component, name, nx, ny, grid) &
        bind(C, name='ferry_coupler_def_grid') result(ierr)
      import :: c_char, c_int, c_int64_t, c_ptr
      type(c_ptr), value :: coupler
      character(kind=c_char), intent(in) :: component(*), name(*)
      integer(c_int64_t), value :: nx, ny
      integer(c_int), intent(out) :: grid
      integer(c_int) :: ierr
    end function c_coupler_def_grid
    function c_coupler_def_partition(coupler, grid, name, layout, partition) &
        bind(C, name='ferry_coupler_def_partition') result(ierr)
      import :: c_char, c_int, c_ptr
      type(c_ptr), value :: coupler
      integer(c_int), value :: grid
      character(kind=c_char), intent(in) :: name(*)
      type(c_ptr), value :: layout
      integer(c_int), intent(out) :: partition
      integer(c_int) :: ierr
    end function c_coupler_def_partition
    function c_coupler_set_coordinates(coupler, partition, lon, lat) &
        bind(C, name='ferry_coupler_set_coordinates') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: coupler, lon, lat
      integer(c_int), value :: partition
      integer(c_int) :: ierr
    end function c_coupler_set_coordinates
    function c_coupler_set_corners(coupler, partition, ncorner, lon, lat) &
        bind(C, name='ferry_coupler_set_corners') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: coupler, lon, lat
      integer(c_int), value :: partition, ncorner
      integer(c_int) :: ierr
    end function c_coupler_set_corners
    function c_coupler_set_areas(coupler, partition, area) &
        bind(C, name='ferry_coupler_set_areas') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: coupler, area
      integer(c_int), value :: partition
      integer(c_int) :: ierr
    end function c_coupler_set_areas
    function c_coupler_set_mask(coupler, partition, mask) &
        bind(C, name='ferry_coupler_set_mask') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: coupler, mask
      integer(c_int), value :: partition
      integer(c_int) :: ierr
    end function c_coupler_set_mask
    function c_coupler_partition_points(coupler, partition, points) &
        bind(C, name='ferry_coupler_partition_points') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: coupler
      integer(c_int), value :: partition
      integer(c_int64_t), intent(out) :: points
      integer(c_int) :: ierr
    end function c_coupler_partition_points
    function c_coupler_def_field(coupler, partition, name, direction, type, bundle, field) &
        bind(C, name='ferry_coupler_def_field') result(ierr)
      import :: c_char, c_int, c_ptr
      type(c_ptr), value :: coupler
      integer(c_int), value :: partition, direction, type, bundle
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), intent(out) :: field
      integer(c_int) :: ierr
    end function c_coupler_def_field
    function c_coupler_field_values(coupler, field, values) &
        bind(C, name='ferry_coupler_field_values') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: coupler
      integer(c_int), value :: field
      integer(c_int64_t), intent(out) :: values
      integer(c_int) :: ierr
    end function c_coupler_field_values
    function c_coupler_field_type(coupler, field, type) &
        bind(C, name='ferry_coupler_field_type') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: coupler
      integer(c_int), value :: field
      integer(c_int), intent(out) :: type
      integer(c_int) :: ierr
    end function c_coupler_field_type
    function c_coupler_enddef(coupler) bind(C, name='ferry_coupler_enddef') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: coupler
      integer(c_int) :: ierr
    end function c_coupler_enddef
    function c_coupler_put(coupler, field, time, data, status) &
        bind(C, name='ferry_coupler_put') result(ierr)
      import :: c_double, c_int, c_ptr
      type(c_ptr), value :: coupler, data
      integer(c_int), value :: field
      real(c_double), value :: time
      integer(c_int), intent(out) :: status
      integer(c_int) :: ierr
    end function c_coupler_put
    function c_coupler_get(coupler, field, time, data, status) &
        bind(C, name='ferry_coupler_get') result(ierr)
      import :: c_double, c_int, c_ptr
      type(c_ptr), value :: coupler, data
      integer(c_int), value :: field
      real(c_double), value :: time
      integer(c_int), intent(out) :: status
      integer(c_int) :: ierr
    end function c_coupler_get
    function c_coupler_finalize(coupler) bind(C, name='ferry_coupler_finalize') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: coupler
      integer(c_int) :: ierr
    end function c_coupler_finalize
    function c_coupler_abandon(coupler, reason) bind(C, name='ferry_coupler_abandon') &
        result(ierr)
      import :: c_char, c_int, c_ptr
      type(c_ptr), value :: coupler
      character(kind=c_char), intent(in) :: reason(*)
      integer(c_int) :: ierr
    end function c_coupler_abandon
    function c_coupler_destroy(coupler) bind(C, name='ferry_coupler_destroy') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: coupler
      integer(c_int) :: ierr
    end function c_coupler_destroy
  end interface

contains

  !> Collective over comm (every rank of the run). components: the components this
  !> rank runs; config_path: the YAML configuration, the same on every rank.
  subroutine ferry_coupler_create(comm, components, config_path, coupler, ierr)
    integer, intent(in) :: comm
    character(len=*), intent(in) :: components(:)
    character(len=*), intent(in) :: config_path
    type(ferry_coupler), intent(out) :: coupler
    integer, intent(out) :: ierr
    character(len=:), allocatable :: names
    integer :: i
    names = ''
    do i = 1, size(components)
      names = names // trim(components(i)) // c_null_char
    end do
    ierr = c_coupler_create(int(comm, c_int), int(size(components), c_int), names, &
                            trim(config_path) // c_null_char, coupler%ptr)
  end subroutine ferry_coupler_create

  !> The ranks of a component this rank runs (owned by the coupler: do not free).
  subroutine ferry_coupler_local_comm(coupler, component, comm, ierr)
    type(ferry_coupler), intent(in) :: coupler
    character(len=*), intent(in) :: component
    integer, intent(out) :: comm
    integer, intent(out) :: ierr
    integer(c_int) :: handle
    ierr = c_coupler_local_comm(coupler%ptr, trim(component) // c_null_char, handle)
    if (ierr == FERRY_SUCCESS) comm = handle
  end subroutine ferry_coupler_local_comm

  !> A grid of nx x ny points (ny = 1 for unstructured grids); grid gets its id.
  subroutine ferry_coupler_def_grid(coupler, component, name, nx, ny, grid, ierr)
    type(ferry_coupler), intent(in) :: coupler
    character(len=*), intent(in) :: component, name
    integer(c_int64_t), intent(in) :: nx, ny
    integer, intent(out) :: grid
    integer, intent(out) :: ierr
    integer(c_int) :: id
    ierr = c_coupler_def_grid(coupler%ptr, trim(component) // c_null_char, &
                              trim(name) // c_null_char, nx, ny, id)
    grid = id
  end subroutine ferry_coupler_def_grid

  !> The points of grid this rank holds, as a layout (the coupler keeps a copy).
  subroutine ferry_coupler_def_partition(coupler, grid, name, layout, partition, ierr)
    type(ferry_coupler), intent(in) :: coupler
    integer, intent(in) :: grid
    character(len=*), intent(in) :: name
    type(ferry_layout), intent(in) :: layout
    integer, intent(out) :: partition
    integer, intent(out) :: ierr
    integer(c_int) :: id
    ierr = c_coupler_def_partition(coupler%ptr, int(grid, c_int), trim(name) // c_null_char, &
                                   layout%ptr, id)
    partition = id
  end subroutine ferry_coupler_def_partition

  !> Optional grid metadata of this rank's points of a partition, one value per point
  !> in layout order, before enddef: centres in degrees.
  subroutine ferry_coupler_set_coordinates(coupler, partition, lon, lat, ierr)
    type(ferry_coupler), intent(in) :: coupler
    integer, intent(in) :: partition
    real(c_double), dimension(..), intent(in), target :: lon, lat
    integer, intent(out) :: ierr
    character(len=*), parameter :: routine = 'ferry_coupler_set_coordinates'
    call check_point_array(coupler, partition, routine, 'lon', 1, size(lon, kind=c_int64_t), &
                           is_contiguous(lon), ierr)
    if (ierr == FERRY_SUCCESS) &
      call check_point_array(coupler, partition, routine, 'lat', 1, size(lat, kind=c_int64_t), &
                             is_contiguous(lat), ierr)
    if (ierr /= FERRY_SUCCESS) return
    ierr = c_coupler_set_coordinates(coupler%ptr, int(partition, c_int), address(lon), &
                                     address(lat))
  end subroutine ferry_coupler_set_coordinates

  !> Cell corners in degrees: ncorner per point, the fastest dimension (lon(ncorner, points)).
  subroutine ferry_coupler_set_corners(coupler, partition, ncorner, lon, lat, ierr)
    type(ferry_coupler), intent(in) :: coupler
    integer, intent(in) :: partition, ncorner
    real(c_double), dimension(..), intent(in), target :: lon, lat
    integer, intent(out) :: ierr
    character(len=*), parameter :: routine = 'ferry_coupler_set_corners'
    call check_point_array(coupler, partition, routine, 'lon', ncorner, &
                           size(lon, kind=c_int64_t), is_contiguous(lon), ierr)
    if (ierr == FERRY_SUCCESS) &
      call check_point_array(coupler, partition, routine, 'lat', ncorner, &
                             size(lat, kind=c_int64_t), is_contiguous(lat), ierr)
    if (ierr /= FERRY_SUCCESS) return
    ierr = c_coupler_set_corners(coupler%ptr, int(partition, c_int), int(ncorner, c_int), &
                                 address(lon), address(lat))
  end subroutine ferry_coupler_set_corners

  !> Cell areas.
  subroutine ferry_coupler_set_areas(coupler, partition, area, ierr)
    type(ferry_coupler), intent(in) :: coupler
    integer, intent(in) :: partition
    real(c_double), dimension(..), intent(in), target :: area
    integer, intent(out) :: ierr
    call check_point_array(coupler, partition, 'ferry_coupler_set_areas', 'area', 1, &
                           size(area, kind=c_int64_t), is_contiguous(area), ierr)
    if (ierr /= FERRY_SUCCESS) return
    ierr = c_coupler_set_areas(coupler%ptr, int(partition, c_int), address(area))
  end subroutine ferry_coupler_set_areas

  !> Mask: 1 for a valid point, 0 for a masked one.
  subroutine ferry_coupler_set_mask(coupler, partition, mask, ierr)
    type(ferry_coupler), intent(in) :: coupler
    integer, intent(in) :: partition
    integer(c_int32_t), dimension(..), intent(in), target :: mask
    integer, intent(out) :: ierr
    call check_point_array(coupler, partition, 'ferry_coupler_set_mask', 'mask', 1, &
                           size(mask, kind=c_int64_t), is_contiguous(mask), ierr)
    if (ierr /= FERRY_SUCCESS) return
    ierr = c_coupler_set_mask(coupler%ptr, int(partition, c_int), address(mask))
  end subroutine ferry_coupler_set_mask

  !> This rank's number of points of a partition: the length of the set_* arrays.
  subroutine ferry_coupler_partition_points(coupler, partition, points, ierr)
    type(ferry_coupler), intent(in) :: coupler
    integer, intent(in) :: partition
    integer(c_int64_t), intent(out) :: points
    integer, intent(out) :: ierr
    ierr = c_coupler_partition_points(coupler%ptr, int(partition, c_int), points)
  end subroutine ferry_coupler_partition_points

  ! What a C caller checks by hand: the array `what` is contiguous and holds
  ! per_point values for each of this rank's points of the partition.
  subroutine check_point_array(coupler, partition, routine, what, per_point, values, &
                               contiguous, ierr)
    type(ferry_coupler), intent(in) :: coupler
    integer, intent(in) :: partition, per_point
    character(len=*), intent(in) :: routine, what
    integer(c_int64_t), intent(in) :: values
    logical, intent(in) :: contiguous
    integer, intent(out) :: ierr
    integer(c_int64_t) :: points
    character(len=300) :: message
    ierr = c_coupler_partition_points(coupler%ptr, int(partition, c_int), points)
    if (ierr /= FERRY_SUCCESS) return
    if (.not. contiguous) then
      call fail(routine, FERRY_ERR_ARG, 'the array ' // what // ' is not contiguous. Pass a ' // &
                'whole array or a contiguous section, or copy the values into one', ierr)
    else if (per_point > 0 .and. values /= points * per_point) then
      write (message, '(a,i0,a,i0,a,i0,a,i0,a,i0,a)') 'the array ' // what // ' has ', values, &
        ' values on this rank, expected ', points * per_point, ' (', points, &
        ' points of partition ', partition, ' x ', per_point, &
        '). Size it with ferry_coupler_partition_points'
      call fail(routine, FERRY_ERR_ARG_SIZE, trim(message), ierr)
    end if
  end subroutine check_point_array

  !> A field on a partition: direction FERRY_FIELD_OUT or FERRY_FIELD_IN, a FERRY_TYPE_*,
  !> and bundle values per point (the first, fastest array dimension).
  subroutine ferry_coupler_def_field(coupler, partition, name, direction, type, bundle, &
                                     field, ierr)
    type(ferry_coupler), intent(in) :: coupler
    integer, intent(in) :: partition
    character(len=*), intent(in) :: name
    integer, intent(in) :: direction, type, bundle
    integer, intent(out) :: field
    integer, intent(out) :: ierr
    integer(c_int) :: id
    ierr = c_coupler_def_field(coupler%ptr, int(partition, c_int), trim(name) // c_null_char, &
                               int(direction, c_int), int(type, c_int), int(bundle, c_int), id)
    field = id
  end subroutine ferry_coupler_def_field

  !> This rank's number of values of a field: local points x bundle.
  subroutine ferry_coupler_field_values(coupler, field, values, ierr)
    type(ferry_coupler), intent(in) :: coupler
    integer, intent(in) :: field
    integer(c_int64_t), intent(out) :: values
    integer, intent(out) :: ierr
    ierr = c_coupler_field_values(coupler%ptr, int(field, c_int), values)
  end subroutine ferry_coupler_field_values

  !> Collective over the run: checks every declaration and builds the exchanges.
  subroutine ferry_coupler_enddef(coupler, ierr)
    type(ferry_coupler), intent(in) :: coupler
    integer, intent(out) :: ierr
    ierr = c_coupler_enddef(coupler%ptr)
  end subroutine ferry_coupler_enddef

  !> Collective over the run: completes pending puts, closes the buffers (steps not
  !> read by then are dropped), writes restarts and timers.
  subroutine ferry_coupler_finalize(coupler, ierr)
    type(ferry_coupler), intent(in) :: coupler
    integer, intent(out) :: ierr
    ierr = c_coupler_finalize(coupler%ptr)
  end subroutine ferry_coupler_finalize

  !> Not collective, never waits: this rank gives up on the run (its own code failed);
  !> every other rank's current or next coupler call fails naming this rank and reason.
  subroutine ferry_coupler_abandon(coupler, reason, ierr)
    type(ferry_coupler), intent(in) :: coupler
    character(len=*), intent(in) :: reason
    integer, intent(out) :: ierr
    ierr = c_coupler_abandon(coupler%ptr, trim(reason) // c_null_char)
  end subroutine ferry_coupler_abandon

  !> Frees the coupler; not collective, never waits. Call it before MPI_Finalize. A
  !> coupler not finalized (an error path) tells the other ranks, as abandon does.
  subroutine ferry_coupler_destroy(coupler, ierr)
    type(ferry_coupler), intent(inout) :: coupler
    integer, intent(out) :: ierr
    ierr = c_coupler_destroy(coupler%ptr)
  end subroutine ferry_coupler_destroy

  ! The put behind every specific of ferry_coupler_put: `type` is the FERRY_TYPE_* of
  ! the array of the caller.
  subroutine put_any(coupler, field, time, data, array_type, status, ierr)
    type(ferry_coupler), intent(in) :: coupler
    integer, intent(in) :: field, array_type
    real(c_double), intent(in) :: time
    type(*), dimension(..), intent(in), target :: data
    integer, intent(out) :: status
    integer, intent(out) :: ierr
    integer(c_int) :: done
    status = FERRY_STATUS_NOTHING
    call check_field_array(coupler, field, 'ferry_coupler_put', array_type, &
                           size(data, kind=c_int64_t), is_contiguous(data), ierr)
    if (ierr /= FERRY_SUCCESS) return
    ierr = c_coupler_put(coupler%ptr, int(field, c_int), time, address(data), done)
    if (ierr == FERRY_SUCCESS) status = done
  end subroutine put_any

  ! The get behind every specific of ferry_coupler_get.
  subroutine get_any(coupler, field, time, data, array_type, status, ierr)
    type(ferry_coupler), intent(in) :: coupler
    integer, intent(in) :: field, array_type
    real(c_double), intent(in) :: time
    type(*), dimension(..), intent(inout), target :: data
    integer, intent(out) :: status
    integer, intent(out) :: ierr
    integer(c_int) :: done
    status = FERRY_STATUS_NOTHING
    call check_field_array(coupler, field, 'ferry_coupler_get', array_type, &
                           size(data, kind=c_int64_t), is_contiguous(data), ierr)
    if (ierr /= FERRY_SUCCESS) return
    ierr = c_coupler_get(coupler%ptr, int(field, c_int), time, address(data), done)
    if (ierr == FERRY_SUCCESS) status = done
  end subroutine get_any

  ! What a C caller checks by hand: the array is contiguous, of the field type, and
  ! holds the values of the field on this rank.
  subroutine check_field_array(coupler, field, routine, array_type, values, contiguous, ierr)
    type(ferry_coupler), intent(in) :: coupler
    integer, intent(in) :: field, array_type
    character(len=*), intent(in) :: routine
    integer(c_int64_t), intent(in) :: values
    logical, intent(in) :: contiguous
    integer, intent(out) :: ierr
    integer(c_int64_t) :: expected
    integer(c_int) :: expected_type
    character(len=300) :: message
    ierr = c_coupler_field_values(coupler%ptr, int(field, c_int), expected)
    if (ierr == FERRY_SUCCESS) ierr = c_coupler_field_type(coupler%ptr, int(field, c_int), &
                                                           expected_type)
    if (ierr /= FERRY_SUCCESS) return
    if (.not. contiguous) then
      write (message, '(a,i0,a)') 'the array for field ', field, ' is not contiguous. Pass a ' // &
        'whole array or a contiguous section, or copy the values into one'
      call fail(routine, FERRY_ERR_ARG, trim(message), ierr)
    else if (array_type /= expected_type) then
      write (message, '(a,i0,a)') 'field ', field, ' was declared with ' // &
        trim(type_names(expected_type)) // ' values, but the array is ' // &
        trim(type_names(array_type)) // '. Pass an array of the declared type'
      call fail(routine, FERRY_ERR_ARG, trim(message), ierr)
    else if (values /= expected) then
      write (message, '(a,i0,a,i0,a,i0,a)') 'the array has ', values, &
        ' values on this rank, expected ', expected, ' for field ', field, &
        ' (local points x bundle). Size it with ferry_coupler_field_values'
      call fail(routine, FERRY_ERR_ARG_SIZE, trim(message), ierr)
    end if
  end subroutine check_field_array

  ! One put and get specific per Fortran type.
#define FERRY_ELEMENT real(c_double)
#define FERRY_CODE FERRY_TYPE_FLOAT64
#define FERRY_PUT coupler_put_float64
#define FERRY_GET coupler_get_float64
#include "coupler_put_get.inc"
#undef FERRY_ELEMENT
#undef FERRY_CODE
#undef FERRY_PUT
#undef FERRY_GET

#define FERRY_ELEMENT real(c_float)
#define FERRY_CODE FERRY_TYPE_FLOAT32
#define FERRY_PUT coupler_put_float32
#define FERRY_GET coupler_get_float32
#include "coupler_put_get.inc"
#undef FERRY_ELEMENT
#undef FERRY_CODE
#undef FERRY_PUT
#undef FERRY_GET

#define FERRY_ELEMENT integer(c_int32_t)
#define FERRY_CODE FERRY_TYPE_INT32
#define FERRY_PUT coupler_put_int32
#define FERRY_GET coupler_get_int32
#include "coupler_put_get.inc"
#undef FERRY_ELEMENT
#undef FERRY_CODE
#undef FERRY_PUT
#undef FERRY_GET

#define FERRY_ELEMENT integer(c_int64_t)
#define FERRY_CODE FERRY_TYPE_INT64
#define FERRY_PUT coupler_put_int64
#define FERRY_GET coupler_get_int64
#include "coupler_put_get.inc"
#undef FERRY_ELEMENT
#undef FERRY_CODE
#undef FERRY_PUT
#undef FERRY_GET

end module ferry_coupler_mod
