! module ferry_coupler_buffers: the time-series buffers of a coupler's configuration
! (docs/user/coupler.md): load on the source component, read on the target, over the C
! API (ferry/ferry.h) through iso_c_binding. The standalone buffer, outside a coupler,
! is module ferry_buffer_mod.
!
! As in module ferry (ferry.F90), every routine has the name of its C function and
! ends with `integer, intent(out) :: ierr`: FERRY_SUCCESS or a FERRY_ERR_* code, whose
! text ferry_error_message() gives.
module ferry_coupler_buffers
  use, intrinsic :: iso_c_binding
  use ferry_argument_error, only: fail => ferry_record_argument_error
  use ferry_c_arrays, only: address, type_names
  use ferry_constants, only: FERRY_SUCCESS, FERRY_ERR_ARG, FERRY_ERR_ARG_SIZE, &
    FERRY_TYPE_FLOAT64, FERRY_TYPE_FLOAT32, FERRY_TYPE_INT32, FERRY_TYPE_INT64
  use ferry_coupler_mod, only: ferry_coupler
  implicit none
  private

  public :: ferry_coupler_load, ferry_coupler_read, ferry_coupler_read_steps
  public :: ferry_coupler_buffer_values

  !> Loads or reads a time-series buffer of the configuration from an array of any
  !> rank of real(8), real(4), integer(4) or integer(8), matching the type of the
  !> buffer's fields.
  interface ferry_coupler_load
    module procedure coupler_load_float64, coupler_load_float32, coupler_load_int32, &
      coupler_load_int64
  end interface ferry_coupler_load
  interface ferry_coupler_read
    module procedure coupler_read_float64, coupler_read_float32, coupler_read_int32, &
      coupler_read_int64
  end interface ferry_coupler_read

  ! The C API.
  interface
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
  end interface

contains

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

  ! One load and read specific per Fortran type.
#define FERRY_ELEMENT real(c_double)
#define FERRY_CODE FERRY_TYPE_FLOAT64
#define FERRY_LOAD coupler_load_float64
#define FERRY_READ coupler_read_float64
#include "coupler_load_read.inc"
#undef FERRY_ELEMENT
#undef FERRY_CODE
#undef FERRY_LOAD
#undef FERRY_READ

#define FERRY_ELEMENT real(c_float)
#define FERRY_CODE FERRY_TYPE_FLOAT32
#define FERRY_LOAD coupler_load_float32
#define FERRY_READ coupler_read_float32
#include "coupler_load_read.inc"
#undef FERRY_ELEMENT
#undef FERRY_CODE
#undef FERRY_LOAD
#undef FERRY_READ

#define FERRY_ELEMENT integer(c_int32_t)
#define FERRY_CODE FERRY_TYPE_INT32
#define FERRY_LOAD coupler_load_int32
#define FERRY_READ coupler_read_int32
#include "coupler_load_read.inc"
#undef FERRY_ELEMENT
#undef FERRY_CODE
#undef FERRY_LOAD
#undef FERRY_READ

#define FERRY_ELEMENT integer(c_int64_t)
#define FERRY_CODE FERRY_TYPE_INT64
#define FERRY_LOAD coupler_load_int64
#define FERRY_READ coupler_read_int64
#include "coupler_load_read.inc"
#undef FERRY_ELEMENT
#undef FERRY_CODE
#undef FERRY_LOAD
#undef FERRY_READ

end module ferry_coupler_buffers
