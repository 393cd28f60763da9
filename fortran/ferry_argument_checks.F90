! module ferry_argument_checks: checks of array arguments shared by the Fortran
! modules over the C API (ferry_halo_mod, ferry_regrid_mod, ...), returning the
! error codes of ferry_constants. For the modules of ferry; programs have no use for it.
module ferry_argument_checks
  use, intrinsic :: iso_c_binding, only: c_int64_t
  use ferry_constants, only: FERRY_SUCCESS, FERRY_ERR_ARG_SIZE
  use ferry_argument_error, only: fail => ferry_record_argument_error
  implicit none
  private
  public :: room

contains

  ! True if an array of `size` elements has room for `needed`; else records the error.
  logical function room(size, needed, routine, what, ierr)
    integer(c_int64_t), intent(in) :: size, needed
    character(len=*), intent(in) :: routine, what
    integer, intent(out) :: ierr
    character(len=160) :: message
    room = size >= needed
    ierr = FERRY_SUCCESS
    if (room) return
    write (message, '(a,a,i0,a,i0,a)') what, ' has ', size, ' elements, expected ', needed, &
      ' or more'
    call fail(routine, FERRY_ERR_ARG_SIZE, trim(message), ierr)
  end function room

end module ferry_argument_checks
