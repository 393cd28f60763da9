! module ferry_exchange_mod: exchanges, a plan between two layouts bound to an engine
! and a set of fields (docs/user/concepts.md), over the C API (ferry/ferry.h) through
! iso_c_binding. Named _mod because its type is ferry_exchange, as in C.
!
! As in module ferry (ferry.F90), every routine has the name of its C function and
! ends with `integer, intent(out) :: ierr`: FERRY_SUCCESS or a FERRY_ERR_* code, whose
! text ferry_error_message() gives.
module ferry_exchange_mod
  use, intrinsic :: iso_c_binding
  use ferry_argument_error, only: fail => ferry_record_argument_error
  use ferry_c_arrays, only: fortran_string
  use ferry_constants, only: FERRY_SUCCESS, FERRY_ERR_ARG_SIZE, FERRY_ERR_ARG_RANGE
  use ferry_layout_mod, only: ferry_layout
  implicit none
  private

  !> An exchange (ferry_exchange* in C), and how many fields were added to it:
  !> the length execute and begin expect for their src and dst arrays.
  type, public :: ferry_exchange
    type(c_ptr) :: ptr = c_null_ptr
    integer :: fields = 0
  end type ferry_exchange

  public :: ferry_exchange_create, ferry_exchange_add_field, ferry_exchange_set_option
  public :: ferry_exchange_setup, ferry_exchange_execute, ferry_exchange_begin
  public :: ferry_exchange_end, ferry_exchange_get_engine, ferry_exchange_close
  public :: ferry_exchange_destroy, ferry_exchange_destination_field

  !> Moves every field (or, with mask, those whose mask is .true.): src(f) and dst(f)
  !> are c_loc() of field f's arrays, f = 1 .. exchange%fields in add_field order.
  interface ferry_exchange_execute
    module procedure exchange_execute, exchange_execute_masked
  end interface ferry_exchange_execute
  !> Starts the same move; ferry_exchange_end completes it.
  interface ferry_exchange_begin
    module procedure exchange_begin, exchange_begin_masked
  end interface ferry_exchange_begin

  ! The C API, and the shim of ferry_f.cpp (suffix _f) that takes an integer communicator.
  interface
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
    function c_exchange_destination_field(exchange, field, memory) &
        bind(C, name='ferry_exchange_destination_field') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: exchange
      integer(c_int), value :: field
      type(c_ptr), intent(out) :: memory
      integer(c_int) :: ierr
    end function c_exchange_destination_field
    function c_exchange_get_engine(exchange, engine) &
        bind(C, name='ferry_exchange_get_engine') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: exchange
      type(c_ptr), intent(out) :: engine
      integer(c_int) :: ierr
    end function c_exchange_get_engine
    function c_exchange_close(exchange) bind(C, name='ferry_exchange_close') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: exchange
      integer(c_int) :: ierr
    end function c_exchange_close
    function c_exchange_destroy(exchange) bind(C, name='ferry_exchange_destroy') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: exchange
      integer(c_int) :: ierr
    end function c_exchange_destroy
  end interface

contains

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

  !> Not collective; after setup. memory gets memory the engine allocated for field
  !> `field` (1, 2, ... as add_field numbered it) on this rank, laid out as your own
  !> array, or c_null_ptr. The rma engine (and 'auto' for the exchanges it makes with
  !> rma) offers it where a source is on the same node, which then writes each value
  !> straight into it. Pass it as that field's dst pointer to the next execute or
  !> begin (read it through c_f_pointer); ask again before each exchange and do not
  !> write it before: its values stay until the end of the next exchange, and
  !> ferry_exchange_close frees it.
  subroutine ferry_exchange_destination_field(exchange, field, memory, ierr)
    type(ferry_exchange), intent(in) :: exchange
    integer, intent(in) :: field
    type(c_ptr), intent(out) :: memory
    integer, intent(out) :: ierr
    character(len=100) :: message
    memory = c_null_ptr
    if (field < 1 .or. field > exchange%fields) then
      write (message, '(a,i0,a,i0,a)') 'field ', field, ' out of range; the exchange has ', &
        exchange%fields, ' fields (1, 2, ...)'
      call fail('ferry_exchange_destination_field', FERRY_ERR_ARG_RANGE, trim(message), ierr)
      return
    end if
    ierr = c_exchange_destination_field(exchange%ptr, int(field - 1, c_int), memory)
  end subroutine ferry_exchange_destination_field

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

  !> Collective, idempotent: frees what only every rank together can free (the rma
  !> engine's windows); afterwards only get_engine and destroy.
  subroutine ferry_exchange_close(exchange, ierr)
    type(ferry_exchange), intent(in) :: exchange
    integer, intent(out) :: ierr
    ierr = c_exchange_close(exchange%ptr)
  end subroutine ferry_exchange_close

  !> Frees the exchange; not collective, never waits for another rank.
  subroutine ferry_exchange_destroy(exchange, ierr)
    type(ferry_exchange), intent(inout) :: exchange
    integer, intent(out) :: ierr
    ierr = c_exchange_destroy(exchange%ptr)
    exchange%fields = 0
  end subroutine ferry_exchange_destroy

end module ferry_exchange_mod
