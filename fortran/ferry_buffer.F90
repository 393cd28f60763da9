! module ferry_buffer_mod: the time-series buffer (docs/user/buffer.md) for Fortran
! 2018, over the C API (ferry/buffer.h) through iso_c_binding. Named _mod because
! its type is ferry_buffer, as in C.
!
! Boxes are Fortran array sections: lower(d):upper(d) in each dimension d, 1-based
! and inclusive, the first index varying fastest, as a Fortran code declares its
! arrays. The module hands C the same box in C order (last index fastest, 0-based,
! half-open) by reversing the dimensions, so the bytes of a Fortran array a(nx, ny)
! are those of the C array [ny][nx]. A read fills out(box..., steps): the step is
! the last index.
!
! As in module ferry, every routine ends with `integer, intent(out) :: ierr`
! (FERRY_SUCCESS or a FERRY_ERR_* code; ferry_error_message() gives the text) and no
! routine stops the program. Arrays handed to the buffer must be contiguous and of
! the buffer's type: real(8), real(4), integer(4) or integer(8) for FERRY_TYPE_FLOAT64,
! _FLOAT32, _INT32 and _INT64; reads check the type of their out array.
module ferry_buffer_mod
  use, intrinsic :: iso_c_binding
  use ferry_constants, only: FERRY_SUCCESS, FERRY_ERR_ARG, FERRY_ERR_ARG_SIZE, &
    FERRY_TYPE_FLOAT64, FERRY_TYPE_FLOAT32, FERRY_TYPE_INT32, FERRY_TYPE_INT64
  use ferry_argument_error, only: fail => ferry_record_argument_error
  use ferry_c_arrays, only: address, type_names
  implicit none
  private

  !> A time-series buffer (ferry_buffer* in C) and the values of one step of this
  !> requester rank's box (what load expects; 0 on worker ranks).
  type, public :: ferry_buffer
    type(c_ptr) :: ptr = c_null_ptr
    integer(c_int64_t) :: values = 0
  end type ferry_buffer

  !> One worker group's reader (ferry_buffer_reader* in C), the values of one step of
  !> this rank's box, the number of steps the last read returned, and the buffer's
  !> FERRY_TYPE_* (what read expects of its out array).
  type, public :: ferry_buffer_reader
    type(c_ptr) :: ptr = c_null_ptr
    integer(c_int64_t) :: values = 0
    integer(c_int64_t) :: last_steps = 0
    integer(c_int) :: type = -1
  end type ferry_buffer_reader

  public :: ferry_buffer_expose, ferry_buffer_connect, ferry_buffer_load, ferry_buffer_close
  public :: ferry_buffer_get_capacity, ferry_buffer_attach, ferry_buffer_reader_read
  public :: ferry_buffer_reader_get_steps, ferry_buffer_reader_done
  public :: ferry_buffer_reader_destroy, ferry_buffer_free, ferry_buffer_destroy

  !> Reads into an array of any rank of real(8), real(4), integer(4) or integer(8),
  !> matching the buffer's type.
  interface ferry_buffer_reader_read
    module procedure reader_read_float64, reader_read_float32, reader_read_int32, &
      reader_read_int64
  end interface ferry_buffer_reader_read

  interface
    function c_expose(parent, ndims, shape, start, end, type, capacity_unit, capacity, mode, &
                      buffer) bind(C, name='ferry_buffer_expose_f') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      integer(c_int), value :: parent, ndims, type, capacity_unit, mode
      integer(c_int64_t), intent(in) :: shape(*), start(*), end(*)
      integer(c_int64_t), value :: capacity
      type(c_ptr), intent(out) :: buffer
      integer(c_int) :: ierr
    end function c_expose
    function c_connect(parent, group, buffer) bind(C, name='ferry_buffer_connect_f') &
        result(ierr)
      import :: c_int, c_ptr
      integer(c_int), value :: parent, group
      type(c_ptr), intent(out) :: buffer
      integer(c_int) :: ierr
    end function c_connect
    function c_load(buffer, data, step) bind(C, name='ferry_buffer_load') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: buffer, data
      integer(c_int64_t), value :: step
      integer(c_int) :: ierr
    end function c_load
    function c_close(buffer) bind(C, name='ferry_buffer_close') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: buffer
      integer(c_int) :: ierr
    end function c_close
    function c_get_capacity(buffer, steps) bind(C, name='ferry_buffer_get_capacity') &
        result(ierr)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: buffer
      integer(c_int64_t), intent(out) :: steps
      integer(c_int) :: ierr
    end function c_get_capacity
    function c_get_type(buffer, type) bind(C, name='ferry_buffer_get_type') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: buffer
      integer(c_int), intent(out) :: type
      integer(c_int) :: ierr
    end function c_get_type
    function c_attach(buffer, worker_comm, ndims, start, end, reader) &
        bind(C, name='ferry_buffer_attach_f') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: buffer
      integer(c_int), value :: worker_comm, ndims
      integer(c_int64_t), intent(in) :: start(*), end(*)
      type(c_ptr), intent(out) :: reader
      integer(c_int) :: ierr
    end function c_attach
    function c_read(reader, out, max_steps, first_step, n_steps, lost_steps) &
        bind(C, name='ferry_buffer_reader_read') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: reader, out
      integer(c_int64_t), value :: max_steps
      integer(c_int64_t), intent(out) :: first_step, n_steps, lost_steps
      integer(c_int) :: ierr
    end function c_read
    function c_get_steps(reader, steps) bind(C, name='ferry_buffer_reader_get_steps') &
        result(ierr)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: reader
      integer(c_int64_t), intent(out) :: steps(*)
      integer(c_int) :: ierr
    end function c_get_steps
    function c_values_per_step(reader, values) &
        bind(C, name='ferry_buffer_reader_values_per_step') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: reader
      integer(c_int64_t), intent(out) :: values
      integer(c_int) :: ierr
    end function c_values_per_step
    function c_done(reader) bind(C, name='ferry_buffer_reader_done') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: reader
      integer(c_int) :: ierr
    end function c_done
    function c_reader_destroy(reader) bind(C, name='ferry_buffer_reader_destroy') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: reader
      integer(c_int) :: ierr
    end function c_reader_destroy
    function c_free(buffer) bind(C, name='ferry_buffer_free') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: buffer
      integer(c_int) :: ierr
    end function c_free
    function c_destroy(buffer) bind(C, name='ferry_buffer_destroy') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: buffer
      integer(c_int) :: ierr
    end function c_destroy
  end interface

contains

  !> Collective over comm (the parent; worker ranks call ferry_buffer_connect): this
  !> rank holds the section lower(:):upper(:) of a global array of extents shape(:)
  !> (1 to 3 dimensions, Fortran order); upper < lower in some dimension for an empty
  !> box. type: FERRY_TYPE_*; capacity in capacity_unit (FERRY_BUFFER_STEPS or
  !> FERRY_BUFFER_BYTES, per requester rank); mode: FERRY_BUFFER_LOSSLESS or _LOSSY.
  !> Errors are the same on every rank of comm.
  subroutine ferry_buffer_expose(comm, shape, lower, upper, type, capacity_unit, capacity, &
                                 mode, buffer, ierr)
    integer, intent(in) :: comm, type, capacity_unit, mode
    integer(c_int64_t), intent(in) :: shape(:), lower(:), upper(:), capacity
    type(ferry_buffer), intent(out) :: buffer
    integer, intent(out) :: ierr
    integer(c_int64_t), allocatable :: c_start(:), c_end(:)
    call c_box(lower, upper, size(shape), c_start, c_end)
    ierr = c_expose(int(comm, c_int), int(size(shape), c_int), shape(size(shape):1:-1), &
                    c_start, c_end, int(type, c_int), int(capacity_unit, c_int), capacity, &
                    int(mode, c_int), buffer%ptr)
    call explain_box(lower, upper, size(shape), 'ferry_buffer_expose', ierr)
    if (ierr == FERRY_SUCCESS) buffer%values = product(max(0_c_int64_t, upper - lower + 1))
  end subroutine ferry_buffer_expose

  !> Collective over comm (the parent, with the requesters' expose): this rank is a
  !> worker of group (0, 1, ...).
  subroutine ferry_buffer_connect(comm, group, buffer, ierr)
    integer, intent(in) :: comm, group
    type(ferry_buffer), intent(out) :: buffer
    integer, intent(out) :: ierr
    ierr = c_connect(int(comm, c_int), int(group, c_int), buffer%ptr)
  end subroutine ferry_buffer_connect

  !> Requester ranks, not collective: copies data, this rank's box of `step` (an
  !> array of any rank with the box's number of values), into the next slot. Steps
  !> strictly increase; lossless mode may wait for the slowest worker group.
  subroutine ferry_buffer_load(buffer, data, step, ierr)
    type(ferry_buffer), intent(in) :: buffer
    type(*), dimension(..), intent(in), target :: data
    integer(c_int64_t), intent(in) :: step
    integer, intent(out) :: ierr
    character(len=200) :: message
    if (c_associated(buffer%ptr) .and. buffer%values > 0) then
      if (size(data, kind=c_int64_t) /= buffer%values) then
        write (message, '(a,i0,a,i0,a)') 'the array has ', size(data, kind=c_int64_t), &
          ' values, expected ', buffer%values, ' (the box given to ferry_buffer_expose)'
        call fail('ferry_buffer_load', FERRY_ERR_ARG_SIZE, trim(message), ierr)
        return
      end if
      if (.not. is_contiguous(data)) then
        call fail('ferry_buffer_load', FERRY_ERR_ARG, 'the array is not contiguous. Pass a ' &
                  // 'whole array or a contiguous section', ierr)
        return
      end if
    end if
    ierr = c_load(buffer%ptr, address(data), step)
  end subroutine ferry_buffer_load

  !> Collective over the requester ranks: no more steps will come.
  subroutine ferry_buffer_close(buffer, ierr)
    type(ferry_buffer), intent(in) :: buffer
    integer, intent(out) :: ierr
    ierr = c_close(buffer%ptr)
  end subroutine ferry_buffer_close

  !> Slots of every requester rank's ring. Not collective.
  subroutine ferry_buffer_get_capacity(buffer, steps, ierr)
    type(ferry_buffer), intent(in) :: buffer
    integer(c_int64_t), intent(out) :: steps
    integer, intent(out) :: ierr
    ierr = c_get_capacity(buffer%ptr, steps)
  end subroutine ferry_buffer_get_capacity

  !> Collective over comm, exactly the ranks of one worker group: each reads the
  !> section lower(:):upper(:) of the global array. Errors are the same on every rank
  !> of the group.
  subroutine ferry_buffer_attach(buffer, comm, lower, upper, reader, ierr)
    type(ferry_buffer), intent(in) :: buffer
    integer, intent(in) :: comm
    integer(c_int64_t), intent(in) :: lower(:), upper(:)
    type(ferry_buffer_reader), intent(out) :: reader
    integer, intent(out) :: ierr
    integer(c_int64_t), allocatable :: c_start(:), c_end(:)
    call c_box(lower, upper, size(lower), c_start, c_end)
    ierr = c_attach(buffer%ptr, int(comm, c_int), int(size(lower), c_int), c_start, c_end, &
                    reader%ptr)
    call explain_box(lower, upper, size(lower), 'ferry_buffer_attach', ierr)
    if (ierr == FERRY_SUCCESS) ierr = c_values_per_step(reader%ptr, reader%values)
    if (ierr == FERRY_SUCCESS) ierr = c_get_type(buffer%ptr, reader%type)
  end subroutine ferry_buffer_attach

  !> Collective over the group, the same max_steps (>= 1) on every rank: waits for
  !> new steps, then writes up to max_steps of them into out (contiguous, of the
  !> buffer's type, room for max_steps steps of the box: e.g. out(box extents...,
  !> max_steps)). n_steps == 0 means the stream ended; lost_steps counts steps
  !> skipped (lossy mode). This is the read behind every specific of the generic
  !> ferry_buffer_reader_read; `array_type` is the FERRY_TYPE_* of out.
  subroutine read_any(reader, out, array_type, max_steps, first_step, n_steps, lost_steps, &
                      ierr)
    type(ferry_buffer_reader), intent(inout) :: reader
    type(*), dimension(..), intent(inout), target :: out
    integer, intent(in) :: array_type
    integer(c_int64_t), intent(in) :: max_steps
    integer(c_int64_t), intent(out) :: first_step, n_steps, lost_steps
    integer, intent(out) :: ierr
    character(len=200) :: message
    first_step = 0
    n_steps = 0
    lost_steps = 0
    if (reader%values > 0 .and. reader%type >= 0 .and. array_type /= reader%type) then
      call agreed_failure(reader, max_steps, 'out is ' // trim(type_names(array_type)) // &
                          ', expected ' // trim(type_names(reader%type)) // ', the type ' // &
                          'of the buffer. Pass an array of the type given to ' // &
                          'ferry_buffer_expose', ierr)
      return
    end if
    if (reader%values > 0 .and. size(out, kind=c_int64_t) < max_steps * reader%values) then
      write (message, '(a,i0,a,i0,a,i0,a)') 'out has ', size(out, kind=c_int64_t), &
        ' values, expected room for ', max_steps, ' steps of ', reader%values, ' values'
      call agreed_failure(reader, max_steps, trim(message), ierr)
      return
    end if
    if (reader%values > 0 .and. .not. is_contiguous(out)) then
      call agreed_failure(reader, max_steps, 'out is not contiguous. Pass a whole array ' // &
                          'or a contiguous section', ierr)
      return
    end if
    ierr = c_read(reader%ptr, address(out), max_steps, first_step, n_steps, lost_steps)
    reader%last_steps = n_steps
  end subroutine read_any

  !> The step numbers of the last read, in steps(1:n_steps). Not collective.
  subroutine ferry_buffer_reader_get_steps(reader, steps, ierr)
    type(ferry_buffer_reader), intent(in) :: reader
    integer(c_int64_t), intent(out) :: steps(:)
    integer, intent(out) :: ierr
    character(len=120) :: message
    if (size(steps, kind=c_int64_t) < reader%last_steps) then
      write (message, '(a,i0,a,i0,a)') 'steps has ', size(steps), ' elements, the last read ', &
        reader%last_steps, ' steps'
      call fail('ferry_buffer_reader_get_steps', FERRY_ERR_ARG_SIZE, trim(message), ierr)
      return
    end if
    ierr = c_get_steps(reader%ptr, steps)
  end subroutine ferry_buffer_reader_get_steps

  !> Collective over the group: detaches; a lossless requester stops waiting for it.
  subroutine ferry_buffer_reader_done(reader, ierr)
    type(ferry_buffer_reader), intent(in) :: reader
    integer, intent(out) :: ierr
    ierr = c_done(reader%ptr)
  end subroutine ferry_buffer_reader_done

  !> Frees the reader; not collective, never waits.
  subroutine ferry_buffer_reader_destroy(reader, ierr)
    type(ferry_buffer_reader), intent(inout) :: reader
    integer, intent(out) :: ierr
    ierr = c_reader_destroy(reader%ptr)
    reader%values = 0
    reader%last_steps = 0
    reader%type = -1
  end subroutine ferry_buffer_reader_destroy

  !> Collective over the parent, idempotent: frees the buffer's window once every rank
  !> is done with it (the requester closes first if it has not). Call
  !> ferry_buffer_reader_done before.
  subroutine ferry_buffer_free(buffer, ierr)
    type(ferry_buffer), intent(in) :: buffer
    integer, intent(out) :: ierr
    ierr = c_free(buffer%ptr)
  end subroutine ferry_buffer_free

  !> Frees the buffer; not collective, never waits. Without ferry_buffer_free first,
  !> its window stays until MPI_Finalize.
  subroutine ferry_buffer_destroy(buffer, ierr)
    type(ferry_buffer), intent(inout) :: buffer
    integer, intent(out) :: ierr
    ierr = c_destroy(buffer%ptr)
    buffer%values = 0
  end subroutine ferry_buffer_destroy

  ! The C box of a Fortran section: dimensions reversed, 0-based, end exclusive, of
  ! ndims values each. Sections of another length become a box C rejects on every rank
  ! (explain_box then names the cause on this rank).
  subroutine c_box(lower, upper, ndims, c_start, c_end)
    integer(c_int64_t), intent(in) :: lower(:), upper(:)
    integer, intent(in) :: ndims
    integer(c_int64_t), allocatable, intent(out) :: c_start(:), c_end(:)
    if (size(lower) /= ndims .or. size(upper) /= ndims) then
      allocate (c_start(ndims), c_end(ndims), source=-1_c_int64_t)
      return
    end if
    c_start = lower(ndims:1:-1) - 1
    c_end = max(upper(ndims:1:-1), c_start)
  end subroutine c_box

  ! After a failed call with a section of the wrong length: this rank's message says so.
  subroutine explain_box(lower, upper, ndims, routine, ierr)
    integer(c_int64_t), intent(in) :: lower(:), upper(:)
    integer, intent(in) :: ndims
    character(len=*), intent(in) :: routine
    integer, intent(inout) :: ierr
    character(len=160) :: message
    integer :: code
    if (ierr == FERRY_SUCCESS .or. (size(lower) == ndims .and. size(upper) == ndims)) return
    write (message, '(a,i0,a,i0,a,i0,a)') 'lower has ', size(lower), ' and upper ', &
      size(upper), ' elements, expected ', ndims, ' each (one per dimension)'
    code = ierr
    call fail(routine, code, trim(message), ierr)
  end subroutine explain_box

  ! A read with a bad out on this rank: C is called with NULL, so that every rank of
  ! the group fails alike, and this rank's own message replaces C's.
  subroutine agreed_failure(reader, max_steps, message, ierr)
    type(ferry_buffer_reader), intent(inout) :: reader
    integer(c_int64_t), intent(in) :: max_steps
    character(len=*), intent(in) :: message
    integer, intent(out) :: ierr
    integer(c_int64_t) :: first_step, n_steps, lost_steps
    integer :: code
    code = c_read(reader%ptr, c_null_ptr, max_steps, first_step, n_steps, lost_steps)
    reader%last_steps = 0
    call fail('ferry_buffer_reader_read', code, message, ierr)
  end subroutine agreed_failure

  ! One read specific per Fortran type.
#define FERRY_ELEMENT real(c_double)
#define FERRY_CODE FERRY_TYPE_FLOAT64
#define FERRY_READ reader_read_float64
#include "buffer_read.inc"
#undef FERRY_ELEMENT
#undef FERRY_CODE
#undef FERRY_READ

#define FERRY_ELEMENT real(c_float)
#define FERRY_CODE FERRY_TYPE_FLOAT32
#define FERRY_READ reader_read_float32
#include "buffer_read.inc"
#undef FERRY_ELEMENT
#undef FERRY_CODE
#undef FERRY_READ

#define FERRY_ELEMENT integer(c_int32_t)
#define FERRY_CODE FERRY_TYPE_INT32
#define FERRY_READ reader_read_int32
#include "buffer_read.inc"
#undef FERRY_ELEMENT
#undef FERRY_CODE
#undef FERRY_READ

#define FERRY_ELEMENT integer(c_int64_t)
#define FERRY_CODE FERRY_TYPE_INT64
#define FERRY_READ reader_read_int64
#include "buffer_read.inc"
#undef FERRY_ELEMENT
#undef FERRY_CODE
#undef FERRY_READ

end module ferry_buffer_mod
