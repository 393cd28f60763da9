! module ferry: ferry for Fortran 2018, over the C API (ferry/ferry.h) through
! iso_c_binding.
!
! Every routine has the name of its C function and ends with `integer, intent(out) ::
! ierr`: FERRY_SUCCESS or a FERRY_ERR_* code, whose text ferry_error_message() gives.
! No routine stops the program: the caller decides what a failure means.
! Conventions (docs/user/fortran.md): communicators are integer handles (the `mpi`
! module), sizes and global ids are integer(int64), global ids are 0-based as in C,
! arrays handed to ferry are contiguous.
module ferry
  use, intrinsic :: iso_c_binding
  use ferry_argument_error, only: fail => ferry_record_argument_error
  use ferry_c_arrays, only: address, fortran_string, type_names
  implicit none
  private

  ! FERRY_SUCCESS, FERRY_ERR_*, FERRY_TYPE_*, FERRY_FIELD_*, FERRY_STATUS_* and the
  ! constants of buffer.h, halo.h, regrid.h, conservation.h and collectives.h
  ! (FERRY_BUFFER_*, FERRY_PARTITION_*, FERRY_MAP_ON_*, FERRY_REMAP_*,
  ! FERRY_WEIGHTING_*, FERRY_NORMALISATION_*, FERRY_GRID_*, FERRY_POINT_*, FERRY_SUM_*,
  ! FERRY_CONSERVE_*, FERRY_ALLTOALLV_*, FERRY_ALLREDUCE_*), generated from the C
  ! headers so that the numbers have one source.
#include "ferry_constants.inc"

  !> A layout: which global ids this rank holds (ferry_layout* in C).
  type, public :: ferry_layout
    type(c_ptr) :: ptr = c_null_ptr
  end type ferry_layout

  !> An exchange (ferry_exchange* in C), and how many fields were added to it:
  !> the length execute and begin expect for their src and dst arrays.
  type, public :: ferry_exchange
    type(c_ptr) :: ptr = c_null_ptr
    integer :: fields = 0
  end type ferry_exchange

  !> A coupler (ferry_coupler* in C).
  type, public :: ferry_coupler
    type(c_ptr) :: ptr = c_null_ptr
  end type ferry_coupler

  public :: ferry_error_message, ferry_error_string, ferry_version
  public :: ferry_layout_create_block, ferry_layout_create_box, ferry_layout_create_orange
  public :: ferry_layout_create_round_robin, ferry_layout_create_points
  public :: ferry_layout_create_random, ferry_layout_create_none
  public :: ferry_layout_local_size, ferry_layout_global_size, ferry_layout_get_ids
  public :: ferry_layout_destroy
  public :: ferry_exchange_create, ferry_exchange_add_field, ferry_exchange_set_option
  public :: ferry_exchange_setup, ferry_exchange_execute, ferry_exchange_begin
  public :: ferry_exchange_end, ferry_exchange_get_engine, ferry_exchange_destroy
  public :: ferry_coupler_create, ferry_coupler_local_comm, ferry_coupler_def_grid
  public :: ferry_coupler_def_partition, ferry_coupler_def_field, ferry_coupler_field_values
  public :: ferry_coupler_set_coordinates, ferry_coupler_set_corners, ferry_coupler_set_areas
  public :: ferry_coupler_set_mask, ferry_coupler_partition_points
  public :: ferry_coupler_enddef, ferry_coupler_put, ferry_coupler_get
  public :: ferry_coupler_load, ferry_coupler_read, ferry_coupler_read_steps
  public :: ferry_coupler_buffer_values
  public :: ferry_coupler_finalize, ferry_coupler_destroy

  !> Moves every field (or, with mask, those whose mask is .true.): src(f) and dst(f)
  !> are c_loc() of field f's arrays, f = 1 .. exchange%fields in add_field order.
  interface ferry_exchange_execute
    module procedure exchange_execute, exchange_execute_masked
  end interface ferry_exchange_execute
  !> Starts the same move; ferry_exchange_end completes it.
  interface ferry_exchange_begin
    module procedure exchange_begin, exchange_begin_masked
  end interface ferry_exchange_begin

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

  !> Loads or reads a time-series buffer of the configuration from an array of any
  !> rank of the same four types, matching the type of the buffer's fields.
  interface ferry_coupler_load
    module procedure coupler_load_float64, coupler_load_float32, coupler_load_int32, &
      coupler_load_int64
  end interface ferry_coupler_load
  interface ferry_coupler_read
    module procedure coupler_read_float64, coupler_read_float32, coupler_read_int32, &
      coupler_read_int64
  end interface ferry_coupler_read

  ! The C API, and the shims of ferry_f.cpp (suffix _f) for what C cannot take from
  ! Fortran directly: integer communicators, and messages of the checks made here.
  interface
    function c_last_error_message() bind(C, name='ferry_last_error_message') result(p)
      import :: c_ptr
      type(c_ptr) :: p
    end function c_last_error_message
    function c_error_string(code) bind(C, name='ferry_error_string') result(p)
      import :: c_ptr, c_int
      integer(c_int), value :: code
      type(c_ptr) :: p
    end function c_error_string
    function c_version() bind(C, name='ferry_version') result(p)
      import :: c_ptr
      type(c_ptr) :: p
    end function c_version
    function c_layout_create_block(n, parts, part, layout) &
        bind(C, name='ferry_layout_create_block') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      integer(c_int64_t), value :: n
      integer(c_int), value :: parts, part
      type(c_ptr), intent(out) :: layout
      integer(c_int) :: ierr
    end function c_layout_create_block
    function c_layout_create_box(nx, ny, px, py, part, layout) &
        bind(C, name='ferry_layout_create_box') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      integer(c_int64_t), value :: nx, ny
      integer(c_int), value :: px, py, part
      type(c_ptr), intent(out) :: layout
      integer(c_int) :: ierr
    end function c_layout_create_box
    function c_layout_create_orange(nx, ny, parts, part, layout) &
        bind(C, name='ferry_layout_create_orange') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      integer(c_int64_t), value :: nx, ny
      integer(c_int), value :: parts, part
      type(c_ptr), intent(out) :: layout
      integer(c_int) :: ierr
    end function c_layout_create_orange
    function c_layout_create_round_robin(n, parts, part, layout) &
        bind(C, name='ferry_layout_create_round_robin') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      integer(c_int64_t), value :: n
      integer(c_int), value :: parts, part
      type(c_ptr), intent(out) :: layout
      integer(c_int) :: ierr
    end function c_layout_create_round_robin
    function c_layout_create_points(n, count, ids, layout) &
        bind(C, name='ferry_layout_create_points') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      integer(c_int64_t), value :: n, count
      integer(c_int64_t), intent(in) :: ids(*)
      type(c_ptr), intent(out) :: layout
      integer(c_int) :: ierr
    end function c_layout_create_points
    function c_layout_create_random(n, parts, part, seed, layout) &
        bind(C, name='ferry_layout_create_random') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      integer(c_int64_t), value :: n, seed
      integer(c_int), value :: parts, part
      type(c_ptr), intent(out) :: layout
      integer(c_int) :: ierr
    end function c_layout_create_random
    function c_layout_create_none(n, layout) bind(C, name='ferry_layout_create_none') &
        result(ierr)
      import :: c_int, c_int64_t, c_ptr
      integer(c_int64_t), value :: n
      type(c_ptr), intent(out) :: layout
      integer(c_int) :: ierr
    end function c_layout_create_none
    function c_layout_local_size(layout, n) bind(C, name='ferry_layout_local_size') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: layout
      integer(c_int64_t), intent(out) :: n
      integer(c_int) :: ierr
    end function c_layout_local_size
    function c_layout_global_size(layout, n) bind(C, name='ferry_layout_global_size') &
        result(ierr)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: layout
      integer(c_int64_t), intent(out) :: n
      integer(c_int) :: ierr
    end function c_layout_global_size
    function c_layout_get_ids(layout, ids) bind(C, name='ferry_layout_get_ids') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: layout
      integer(c_int64_t), intent(out) :: ids(*)
      integer(c_int) :: ierr
    end function c_layout_get_ids
    function c_layout_destroy(layout) bind(C, name='ferry_layout_destroy') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: layout
      integer(c_int) :: ierr
    end function c_layout_destroy

    function c_exchange_create(comm, src, dst, engine, exchange) &
        bind(C, name='ferry_exchange_create_f') result(ierr)
      import :: c_char, c_int, c_ptr
      integer(c_int), value :: comm
      type(c_ptr), value :: src, dst
      character(kind=c_char), intent(in) :: engine(*)
      type(c_ptr), intent(out) :: exchange
      integer(c_int) :: ierr
    end function c_exchange_create
    function c_exchange_add_field(exchange, type, components, field) &
        bind(C, name='ferry_exchange_add_field') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: exchange
      integer(c_int), value :: type, components
      integer(c_int), intent(out) :: field
      integer(c_int) :: ierr
    end function c_exchange_add_field
    function c_exchange_set_option(exchange, key, value) &
        bind(C, name='ferry_exchange_set_option') result(ierr)
      import :: c_char, c_int, c_ptr
      type(c_ptr), value :: exchange
      character(kind=c_char), intent(in) :: key(*), value(*)
      integer(c_int) :: ierr
    end function c_exchange_set_option
    function c_exchange_setup(exchange) bind(C, name='ferry_exchange_setup') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: exchange
      integer(c_int) :: ierr
    end function c_exchange_setup
    function c_exchange_execute(exchange, src, dst, mask) &
        bind(C, name='ferry_exchange_execute') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: exchange
      type(c_ptr), intent(in) :: src(*), dst(*)
      integer(c_int), intent(in), optional :: mask(*)
      integer(c_int) :: ierr
    end function c_exchange_execute
    function c_exchange_begin(exchange, src, dst, mask) &
        bind(C, name='ferry_exchange_begin') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: exchange
      type(c_ptr), intent(in) :: src(*), dst(*)
      integer(c_int), intent(in), optional :: mask(*)
      integer(c_int) :: ierr
    end function c_exchange_begin
    function c_exchange_end(exchange) bind(C, name='ferry_exchange_end') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: exchange
      integer(c_int) :: ierr
    end function c_exchange_end
    function c_exchange_get_engine(exchange, engine) &
        bind(C, name='ferry_exchange_get_engine') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: exchange
      type(c_ptr), intent(out) :: engine
      integer(c_int) :: ierr
    end function c_exchange_get_engine
    function c_exchange_destroy(exchange) bind(C, name='ferry_exchange_destroy') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: exchange
      integer(c_int) :: ierr
    end function c_exchange_destroy

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
    function c_coupler_load(coupler, buffer, data, step) bind(C, name='ferry_coupler_load') &
        result(ierr)
      import :: c_char, c_int, c_int64_t, c_ptr
      type(c_ptr), value :: coupler, data
      character(kind=c_char), intent(in) :: buffer(*)
      integer(c_int64_t), value :: step
      integer(c_int) :: ierr
    end function c_coupler_load
    function c_coupler_read(coupler, buffer, out, max_steps, first_step, n_steps, lost_steps) &
        bind(C, name='ferry_coupler_read') result(ierr)
      import :: c_char, c_int, c_int64_t, c_ptr
      type(c_ptr), value :: coupler, out
      character(kind=c_char), intent(in) :: buffer(*)
      integer(c_int64_t), value :: max_steps
      integer(c_int64_t), intent(out) :: first_step, n_steps, lost_steps
      integer(c_int) :: ierr
    end function c_coupler_read
    function c_coupler_read_steps(coupler, buffer, size, steps) &
        bind(C, name='ferry_coupler_read_steps') result(ierr)
      import :: c_char, c_int, c_int64_t, c_ptr
      type(c_ptr), value :: coupler
      character(kind=c_char), intent(in) :: buffer(*)
      integer(c_int64_t), value :: size
      integer(c_int64_t), intent(out) :: steps(*)
      integer(c_int) :: ierr
    end function c_coupler_read_steps
    function c_coupler_buffer_values(coupler, buffer, values) &
        bind(C, name='ferry_coupler_buffer_values') result(ierr)
      import :: c_char, c_int, c_int64_t, c_ptr
      type(c_ptr), value :: coupler
      character(kind=c_char), intent(in) :: buffer(*)
      integer(c_int64_t), intent(out) :: values
      integer(c_int) :: ierr
    end function c_coupler_buffer_values
    function c_coupler_buffer_type(coupler, buffer, type) &
        bind(C, name='ferry_coupler_buffer_type') result(ierr)
      import :: c_char, c_int, c_ptr
      type(c_ptr), value :: coupler
      character(kind=c_char), intent(in) :: buffer(*)
      integer(c_int), intent(out) :: type
      integer(c_int) :: ierr
    end function c_coupler_buffer_type
    function c_coupler_finalize(coupler) bind(C, name='ferry_coupler_finalize') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: coupler
      integer(c_int) :: ierr
    end function c_coupler_finalize
    function c_coupler_destroy(coupler) bind(C, name='ferry_coupler_destroy') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: coupler
      integer(c_int) :: ierr
    end function c_coupler_destroy
  end interface

contains

  ! ---- Errors and version ----

  !> The text of the last error raised on this thread ('' if none).
  function ferry_error_message() result(message)
    character(len=:), allocatable :: message
    message = fortran_string(c_last_error_message())
  end function ferry_error_message

  !> The generic text of an error code.
  function ferry_error_string(code) result(text)
    integer, intent(in) :: code
    character(len=:), allocatable :: text
    text = fortran_string(c_error_string(int(code, c_int)))
  end function ferry_error_string

  !> The version of the library, e.g. '0.1.0'.
  function ferry_version() result(version)
    character(len=:), allocatable :: version
    version = fortran_string(c_version())
  end function ferry_version

  ! ---- Layouts (not collective) ----

  subroutine ferry_layout_create_block(global_size, parts, part, layout, ierr)
    integer(c_int64_t), intent(in) :: global_size
    integer, intent(in) :: parts, part
    type(ferry_layout), intent(out) :: layout
    integer, intent(out) :: ierr
    ierr = c_layout_create_block(global_size, int(parts, c_int), int(part, c_int), layout%ptr)
  end subroutine ferry_layout_create_block

  subroutine ferry_layout_create_box(nx, ny, px, py, part, layout, ierr)
    integer(c_int64_t), intent(in) :: nx, ny
    integer, intent(in) :: px, py, part
    type(ferry_layout), intent(out) :: layout
    integer, intent(out) :: ierr
    ierr = c_layout_create_box(nx, ny, int(px, c_int), int(py, c_int), int(part, c_int), &
                               layout%ptr)
  end subroutine ferry_layout_create_box

  subroutine ferry_layout_create_orange(nx, ny, parts, part, layout, ierr)
    integer(c_int64_t), intent(in) :: nx, ny
    integer, intent(in) :: parts, part
    type(ferry_layout), intent(out) :: layout
    integer, intent(out) :: ierr
    ierr = c_layout_create_orange(nx, ny, int(parts, c_int), int(part, c_int), layout%ptr)
  end subroutine ferry_layout_create_orange

  subroutine ferry_layout_create_round_robin(global_size, parts, part, layout, ierr)
    integer(c_int64_t), intent(in) :: global_size
    integer, intent(in) :: parts, part
    type(ferry_layout), intent(out) :: layout
    integer, intent(out) :: ierr
    ierr = c_layout_create_round_robin(global_size, int(parts, c_int), int(part, c_int), &
                                       layout%ptr)
  end subroutine ferry_layout_create_round_robin

  !> ids: the 0-based global ids this rank holds, in the order of its arrays.
  subroutine ferry_layout_create_points(global_size, ids, layout, ierr)
    integer(c_int64_t), intent(in) :: global_size
    integer(c_int64_t), intent(in) :: ids(:)
    type(ferry_layout), intent(out) :: layout
    integer, intent(out) :: ierr
    ierr = c_layout_create_points(global_size, size(ids, kind=c_int64_t), ids, layout%ptr)
  end subroutine ferry_layout_create_points

  subroutine ferry_layout_create_random(global_size, parts, part, seed, layout, ierr)
    integer(c_int64_t), intent(in) :: global_size, seed
    integer, intent(in) :: parts, part
    type(ferry_layout), intent(out) :: layout
    integer, intent(out) :: ierr
    ierr = c_layout_create_random(global_size, int(parts, c_int), int(part, c_int), seed, &
                                  layout%ptr)
  end subroutine ferry_layout_create_random

  !> A rank that holds no point of the index space.
  subroutine ferry_layout_create_none(global_size, layout, ierr)
    integer(c_int64_t), intent(in) :: global_size
    type(ferry_layout), intent(out) :: layout
    integer, intent(out) :: ierr
    ierr = c_layout_create_none(global_size, layout%ptr)
  end subroutine ferry_layout_create_none

  subroutine ferry_layout_local_size(layout, local_size, ierr)
    type(ferry_layout), intent(in) :: layout
    integer(c_int64_t), intent(out) :: local_size
    integer, intent(out) :: ierr
    ierr = c_layout_local_size(layout%ptr, local_size)
  end subroutine ferry_layout_local_size

  subroutine ferry_layout_global_size(layout, global_size, ierr)
    type(ferry_layout), intent(in) :: layout
    integer(c_int64_t), intent(out) :: global_size
    integer, intent(out) :: ierr
    ierr = c_layout_global_size(layout%ptr, global_size)
  end subroutine ferry_layout_global_size

  !> ids gets the layout's 0-based global ids; its size must be the local size.
  subroutine ferry_layout_get_ids(layout, ids, ierr)
    type(ferry_layout), intent(in) :: layout
    integer(c_int64_t), intent(out) :: ids(:)
    integer, intent(out) :: ierr
    integer(c_int64_t) :: local_size
    character(len=200) :: message
    ierr = c_layout_local_size(layout%ptr, local_size)
    if (ierr /= FERRY_SUCCESS) return
    if (size(ids, kind=c_int64_t) /= local_size) then
      write (message, '(a,i0,a,i0,a)') 'ids has ', size(ids, kind=c_int64_t), &
        ' elements, but the layout holds ', local_size, &
        ' ids on this rank. Size it with ferry_layout_local_size'
      call fail('ferry_layout_get_ids', FERRY_ERR_ARG_SIZE, trim(message), ierr)
      return
    end if
    ierr = c_layout_get_ids(layout%ptr, ids)
  end subroutine ferry_layout_get_ids

  subroutine ferry_layout_destroy(layout, ierr)
    type(ferry_layout), intent(inout) :: layout
    integer, intent(out) :: ierr
    ierr = c_layout_destroy(layout%ptr)
  end subroutine ferry_layout_destroy

  ! ---- Exchanges ----

  !> Not collective; comm must stay valid until ferry_exchange_setup. engine: a
  !> registered name, 'auto', or 'default' for $FERRY_ENGINE or p2p.
  subroutine ferry_exchange_create(comm, src, dst, engine, exchange, ierr)
    integer, intent(in) :: comm
    type(ferry_layout), intent(in) :: src, dst
    character(len=*), intent(in) :: engine
    type(ferry_exchange), intent(out) :: exchange
    integer, intent(out) :: ierr
    ierr = c_exchange_create(int(comm, c_int), src%ptr, dst%ptr, trim(engine) // c_null_char, exchange%ptr)
  end subroutine ferry_exchange_create

  !> Adds a field of type FERRY_TYPE_* with `components` values per point (the first,
  !> fastest array dimension). field gets its position in execute's src and dst: 1, 2, ...
  !> Logically collective: the same fields in the same order on every rank.
  subroutine ferry_exchange_add_field(exchange, type, components, field, ierr)
    type(ferry_exchange), intent(inout) :: exchange
    integer, intent(in) :: type, components
    integer, intent(out) :: field
    integer, intent(out) :: ierr
    integer(c_int) :: index
    field = 0
    ierr = c_exchange_add_field(exchange%ptr, int(type, c_int), int(components, c_int), index)
    if (ierr /= FERRY_SUCCESS) return
    exchange%fields = exchange%fields + 1
    field = index + 1
  end subroutine ferry_exchange_add_field

  subroutine ferry_exchange_set_option(exchange, key, value, ierr)
    type(ferry_exchange), intent(in) :: exchange
    character(len=*), intent(in) :: key, value
    integer, intent(out) :: ierr
    ierr = c_exchange_set_option(exchange%ptr, trim(key) // c_null_char, &
                                 trim(value) // c_null_char)
  end subroutine ferry_exchange_set_option

  !> Collective: builds the plan and sets up the engine.
  subroutine ferry_exchange_setup(exchange, ierr)
    type(ferry_exchange), intent(in) :: exchange
    integer, intent(out) :: ierr
    ierr = c_exchange_setup(exchange%ptr)
  end subroutine ferry_exchange_setup

  subroutine exchange_execute(exchange, src, dst, ierr)
    type(ferry_exchange), intent(in) :: exchange
    type(c_ptr), intent(in) :: src(:), dst(:)
    integer, intent(out) :: ierr
    call move(exchange, 'ferry_exchange_execute', src, dst, .false., ierr)
  end subroutine exchange_execute

  subroutine exchange_execute_masked(exchange, src, dst, mask, ierr)
    type(ferry_exchange), intent(in) :: exchange
    type(c_ptr), intent(in) :: src(:), dst(:)
    logical, intent(in) :: mask(:)
    integer, intent(out) :: ierr
    call move(exchange, 'ferry_exchange_execute', src, dst, .false., ierr, &
              merge(1_c_int, 0_c_int, mask))
  end subroutine exchange_execute_masked

  subroutine exchange_begin(exchange, src, dst, ierr)
    type(ferry_exchange), intent(in) :: exchange
    type(c_ptr), intent(in) :: src(:), dst(:)
    integer, intent(out) :: ierr
    call move(exchange, 'ferry_exchange_begin', src, dst, .true., ierr)
  end subroutine exchange_begin

  subroutine exchange_begin_masked(exchange, src, dst, mask, ierr)
    type(ferry_exchange), intent(in) :: exchange
    type(c_ptr), intent(in) :: src(:), dst(:)
    logical, intent(in) :: mask(:)
    integer, intent(out) :: ierr
    call move(exchange, 'ferry_exchange_begin', src, dst, .true., ierr, &
              merge(1_c_int, 0_c_int, mask))
  end subroutine exchange_begin_masked

  ! execute or begin, after checking that there is one pointer (and mask flag) per field.
  ! An absent mask stays absent down to C, which receives NULL: every field moves.
  subroutine move(exchange, routine, src, dst, split, ierr, mask)
    type(ferry_exchange), intent(in) :: exchange
    character(len=*), intent(in) :: routine
    type(c_ptr), intent(in) :: src(:), dst(:)
    logical, intent(in) :: split
    integer, intent(out) :: ierr
    integer(c_int), intent(in), optional :: mask(:)
    character(len=200) :: message
    if (size(src) /= exchange%fields .or. size(dst) /= exchange%fields) then
      write (message, '(a,i0,a,i0,a,i0,a)') 'got ', size(src), ' source and ', size(dst), &
        ' destination arrays, expected ', exchange%fields, &
        ' (one c_loc() per field, in add_field order)'
      call fail(routine, FERRY_ERR_ARG_SIZE, trim(message), ierr)
      return
    end if
    if (present(mask)) then
      if (size(mask) /= exchange%fields) then
        write (message, '(a,i0,a,i0,a)') 'mask has ', size(mask), ' entries, expected ', &
          exchange%fields, ' (one per field)'
        call fail(routine, FERRY_ERR_ARG_SIZE, trim(message), ierr)
        return
      end if
    end if
    if (split) then
      ierr = c_exchange_begin(exchange%ptr, src, dst, mask)
    else
      ierr = c_exchange_execute(exchange%ptr, src, dst, mask)
    end if
  end subroutine move

  !> Collective: completes ferry_exchange_begin.
  subroutine ferry_exchange_end(exchange, ierr)
    type(ferry_exchange), intent(in) :: exchange
    integer, intent(out) :: ierr
    ierr = c_exchange_end(exchange%ptr)
  end subroutine ferry_exchange_end

  !> The engine the exchange uses (after setup).
  subroutine ferry_exchange_get_engine(exchange, engine, ierr)
    type(ferry_exchange), intent(in) :: exchange
    character(len=:), allocatable, intent(out) :: engine
    integer, intent(out) :: ierr
    type(c_ptr) :: name
    engine = ''
    ierr = c_exchange_get_engine(exchange%ptr, name)
    if (ierr == FERRY_SUCCESS) engine = fortran_string(name)
  end subroutine ferry_exchange_get_engine

  subroutine ferry_exchange_destroy(exchange, ierr)
    type(ferry_exchange), intent(inout) :: exchange
    integer, intent(out) :: ierr
    ierr = c_exchange_destroy(exchange%ptr)
    exchange%fields = 0
  end subroutine ferry_exchange_destroy

  ! ---- Coupler ----

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

  !> Frees the coupler and its communicators; call it before MPI_Finalize.
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

  !> The steps of this rank's last read of buffer, in steps(1:n_steps). Not collective.
  subroutine ferry_coupler_read_steps(coupler, buffer, steps, ierr)
    type(ferry_coupler), intent(in) :: coupler
    character(len=*), intent(in) :: buffer
    integer(c_int64_t), intent(out) :: steps(:)
    integer, intent(out) :: ierr
    ierr = c_coupler_read_steps(coupler%ptr, trim(buffer) // c_null_char, &
                                size(steps, kind=c_int64_t), steps)
  end subroutine ferry_coupler_read_steps

  !> This rank's number of values of one step of buffer: its points of the buffer's
  !> field (0 on ranks that neither load nor read it).
  subroutine ferry_coupler_buffer_values(coupler, buffer, values, ierr)
    type(ferry_coupler), intent(in) :: coupler
    character(len=*), intent(in) :: buffer
    integer(c_int64_t), intent(out) :: values
    integer, intent(out) :: ierr
    ierr = c_coupler_buffer_values(coupler%ptr, trim(buffer) // c_null_char, values)
  end subroutine ferry_coupler_buffer_values

  ! The load behind every specific of ferry_coupler_load: `array_type` is the
  ! FERRY_TYPE_* of the array of the caller.
  subroutine load_any(coupler, buffer, data, array_type, step, ierr)
    type(ferry_coupler), intent(in) :: coupler
    character(len=*), intent(in) :: buffer
    type(*), dimension(..), intent(in), target :: data
    integer, intent(in) :: array_type
    integer(c_int64_t), intent(in) :: step
    integer, intent(out) :: ierr
    character(len=300) :: problem
    integer :: code
    call check_buffer_array(coupler, buffer, array_type, .false., 1_c_int64_t, &
                            size(data, kind=c_int64_t), is_contiguous(data), code, problem, ierr)
    if (ierr /= FERRY_SUCCESS) return
    if (code /= FERRY_SUCCESS) then
      call fail('ferry_coupler_load', code, trim(problem), ierr)
      return
    end if
    ierr = c_coupler_load(coupler%ptr, trim(buffer) // c_null_char, address(data), step)
  end subroutine load_any

  ! The read behind every specific of ferry_coupler_read. A bad out on this rank still
  ! calls C, with NULL, so that every rank of the collective read fails alike (with
  ! the code C gives); this rank's own message then replaces C's.
  subroutine read_any(coupler, buffer, out, array_type, max_steps, first_step, n_steps, &
                      lost_steps, ierr)
    type(ferry_coupler), intent(in) :: coupler
    character(len=*), intent(in) :: buffer
    type(*), dimension(..), intent(inout), target :: out
    integer, intent(in) :: array_type
    integer(c_int64_t), intent(in) :: max_steps
    integer(c_int64_t), intent(out) :: first_step, n_steps, lost_steps
    integer, intent(out) :: ierr
    character(len=300) :: problem
    integer :: code
    first_step = 0
    n_steps = 0
    lost_steps = 0
    call check_buffer_array(coupler, buffer, array_type, .true., max_steps, &
                            size(out, kind=c_int64_t), is_contiguous(out), code, problem, ierr)
    if (ierr /= FERRY_SUCCESS) return
    if (code == FERRY_SUCCESS) then
      ierr = c_coupler_read(coupler%ptr, trim(buffer) // c_null_char, address(out), max_steps, &
                            first_step, n_steps, lost_steps)
      return
    end if
    code = c_coupler_read(coupler%ptr, trim(buffer) // c_null_char, c_null_ptr, max_steps, &
                          first_step, n_steps, lost_steps)
    call fail('ferry_coupler_read', code, trim(problem), ierr)
  end subroutine read_any

  ! What a C caller checks by hand, on a rank that loads or reads `buffer`: the array
  ! is contiguous, of the buffer's type, and holds this rank's values of one step
  ! (loading) or has room for `steps` of them (reading). ierr reports a failed query
  ! of the buffer (recorded by C); code and problem what is wrong with the array.
  subroutine check_buffer_array(coupler, buffer, array_type, reading, steps, values, &
                                contiguous, code, problem, ierr)
    type(ferry_coupler), intent(in) :: coupler
    character(len=*), intent(in) :: buffer
    integer, intent(in) :: array_type
    logical, intent(in) :: reading, contiguous
    integer(c_int64_t), intent(in) :: steps, values
    integer, intent(out) :: code
    character(len=300), intent(out) :: problem
    integer, intent(out) :: ierr
    integer(c_int64_t) :: expected
    integer(c_int) :: expected_type
    code = FERRY_SUCCESS
    problem = ''
    ierr = c_coupler_buffer_values(coupler%ptr, trim(buffer) // c_null_char, expected)
    if (ierr == FERRY_SUCCESS) &
      ierr = c_coupler_buffer_type(coupler%ptr, trim(buffer) // c_null_char, expected_type)
    ! Other ranks have nothing to check: C tells those that do not take part.
    if (ierr /= FERRY_SUCCESS .or. expected == 0) return
    if (.not. contiguous) then
      code = FERRY_ERR_ARG
      problem = 'the array for buffer "' // trim(buffer) // '" is not contiguous. Pass a ' // &
        'whole array or a contiguous section, or copy the values into one'
    else if (array_type /= expected_type) then
      code = FERRY_ERR_ARG
      problem = 'buffer "' // trim(buffer) // '" moves ' // trim(type_names(expected_type)) // &
        ' values, but the array is ' // trim(type_names(array_type)) // '. Pass an array ' // &
        'of the type of the buffer''s fields'
    else if (.not. reading .and. values /= expected) then
      code = FERRY_ERR_ARG_SIZE
      write (problem, '(a,i0,a,i0,a)') 'the array has ', values, &
        ' values on this rank, expected ', expected, ' for buffer "' // trim(buffer) // &
        '" (its points on this rank). Size it with ferry_coupler_buffer_values'
    else if (reading .and. values < steps * expected) then
      code = FERRY_ERR_ARG_SIZE
      write (problem, '(a,i0,a,i0,a,i0,a)') 'the array has ', values, &
        ' values on this rank, expected room for ', steps, ' steps of ', expected, &
        ' values of buffer "' // trim(buffer) // '". Size it as out(values, max_steps) ' // &
        'with ferry_coupler_buffer_values'
    end if
  end subroutine check_buffer_array

  ! One put, get, load and read specific per Fortran type.
#define FERRY_ELEMENT real(c_double)
#define FERRY_CODE FERRY_TYPE_FLOAT64
#define FERRY_PUT coupler_put_float64
#define FERRY_GET coupler_get_float64
#define FERRY_LOAD coupler_load_float64
#define FERRY_READ coupler_read_float64
#include "coupler_put_get.inc"
#include "coupler_load_read.inc"
#undef FERRY_ELEMENT
#undef FERRY_CODE
#undef FERRY_PUT
#undef FERRY_GET
#undef FERRY_LOAD
#undef FERRY_READ

#define FERRY_ELEMENT real(c_float)
#define FERRY_CODE FERRY_TYPE_FLOAT32
#define FERRY_PUT coupler_put_float32
#define FERRY_GET coupler_get_float32
#define FERRY_LOAD coupler_load_float32
#define FERRY_READ coupler_read_float32
#include "coupler_put_get.inc"
#include "coupler_load_read.inc"
#undef FERRY_ELEMENT
#undef FERRY_CODE
#undef FERRY_PUT
#undef FERRY_GET
#undef FERRY_LOAD
#undef FERRY_READ

#define FERRY_ELEMENT integer(c_int32_t)
#define FERRY_CODE FERRY_TYPE_INT32
#define FERRY_PUT coupler_put_int32
#define FERRY_GET coupler_get_int32
#define FERRY_LOAD coupler_load_int32
#define FERRY_READ coupler_read_int32
#include "coupler_put_get.inc"
#include "coupler_load_read.inc"
#undef FERRY_ELEMENT
#undef FERRY_CODE
#undef FERRY_PUT
#undef FERRY_GET
#undef FERRY_LOAD
#undef FERRY_READ

#define FERRY_ELEMENT integer(c_int64_t)
#define FERRY_CODE FERRY_TYPE_INT64
#define FERRY_PUT coupler_put_int64
#define FERRY_GET coupler_get_int64
#define FERRY_LOAD coupler_load_int64
#define FERRY_READ coupler_read_int64
#include "coupler_put_get.inc"
#include "coupler_load_read.inc"
#undef FERRY_ELEMENT
#undef FERRY_CODE
#undef FERRY_PUT
#undef FERRY_GET
#undef FERRY_LOAD
#undef FERRY_READ

end module ferry
