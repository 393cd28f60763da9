! module ferry_layout_mod: layouts, which global ids a rank holds (docs/user/concepts.md),
! over the C API (ferry/ferry.h) through iso_c_binding. Not collective. Named _mod
! because its type is ferry_layout, as in C.
!
! As in module ferry (ferry.F90), every routine has the name of its C function and
! ends with `integer, intent(out) :: ierr`: FERRY_SUCCESS or a FERRY_ERR_* code, whose
! text ferry_error_message() gives.
module ferry_layout_mod
  use, intrinsic :: iso_c_binding
  use ferry_argument_error, only: fail => ferry_record_argument_error
  use ferry_constants, only: FERRY_SUCCESS, FERRY_ERR_ARG_SIZE
  implicit none
  private

  !> A layout: which global ids this rank holds (ferry_layout* in C).
  type, public :: ferry_layout
    type(c_ptr) :: ptr = c_null_ptr
  end type ferry_layout

  public :: ferry_layout_create_block, ferry_layout_create_box, ferry_layout_create_orange
  public :: ferry_layout_create_round_robin, ferry_layout_create_points
  public :: ferry_layout_create_random, ferry_layout_create_none
  public :: ferry_layout_local_size, ferry_layout_global_size, ferry_layout_get_ids
  public :: ferry_layout_destroy

  ! The C API.
  interface
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
  end interface

contains

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

end module ferry_layout_mod
