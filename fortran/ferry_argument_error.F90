! module ferry_argument_error: how ferry's Fortran modules record an argument error
! they find themselves, as the C API records its own, so that ferry_error_message()
! gives its text; before a collective call, the error is agreed over its ranks. For
! the modules of ferry; programs have no use for it.
module ferry_argument_error
  use, intrinsic :: iso_c_binding, only: c_char, c_int, c_null_char
  implicit none
  private
  public :: ferry_record_argument_error, ferry_agree_argument_error

  interface
    function c_record_error(routine, code, message) bind(C, name='ferry_record_error_f') &
        result(ierr)
      import :: c_char, c_int
      character(kind=c_char), intent(in) :: routine(*), message(*)
      integer(c_int), value :: code
      integer(c_int) :: ierr
    end function c_record_error
    function c_agree_error(comm, routine, code, problem, rest) &
        bind(C, name='ferry_agree_argument_error_f') result(ierr)
      import :: c_char, c_int
      integer(c_int), value :: comm, code
      character(kind=c_char), intent(in) :: routine(*), problem(*), rest(*)
      integer(c_int) :: ierr
    end function c_agree_error
  end interface

contains

  !> Keeps "routine: message" as the last error and sets ierr to code.
  subroutine ferry_record_argument_error(routine, code, message, ierr)
    character(len=*), intent(in) :: routine, message
    integer, intent(in) :: code
    integer, intent(out) :: ierr
    ierr = c_record_error(routine // c_null_char, int(code, c_int), message // c_null_char)
  end subroutine ferry_record_argument_error

  !> Collective over comm (an integer handle), before a collective C call whose
  !> arguments this rank has checked: code is FERRY_SUCCESS or the error found here.
  !> If any rank found one, every rank gets the code and the message of the lowest
  !> failing rank as its ierr and last error, "routine: <problem> on rank R<rest>";
  !> else ierr is FERRY_SUCCESS. One MPI_Allreduce when no rank failed.
  subroutine ferry_agree_argument_error(comm, routine, code, problem, rest, ierr)
    integer, intent(in) :: comm, code
    character(len=*), intent(in) :: routine, problem, rest
    integer, intent(out) :: ierr
    ierr = c_agree_error(int(comm, c_int), routine // c_null_char, int(code, c_int), &
                         problem // c_null_char, rest // c_null_char)
  end subroutine ferry_agree_argument_error

end module ferry_argument_error
