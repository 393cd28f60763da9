! module test_checks: the checks of the Fortran test programs. Each failed check is
! printed with the rank; finish_checks agrees on the outcome across ranks, so every
! rank exits alike.
module test_checks
  use, intrinsic :: iso_fortran_env, only: error_unit, int64
  use mpi
  use ferry, only: FERRY_SUCCESS, ferry_error_message, ferry_layout, ferry_layout_local_size, &
    ferry_layout_get_ids
  implicit none
  private
  public :: start_checks, engine_argument, expect, expect_ok, expect_error, finish_checks, &
    layout_ids

  integer :: rank = 0
  integer :: failures = 0

contains

  !> After MPI_Init: the rank printed with each failure.
  subroutine start_checks()
    integer :: ierr
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  end subroutine start_checks

  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (ok) return
    failures = failures + 1
    write (error_unit, '(a,i0,a,a)') '[rank ', rank, '] check failed: ', what
  end subroutine expect

  !> A call that must succeed; on failure prints the library message.
  subroutine expect_ok(code, what)
    integer, intent(in) :: code
    character(len=*), intent(in) :: what
    call expect(code == FERRY_SUCCESS, what // ': ' // ferry_error_message())
  end subroutine expect_ok

  !> A call that must fail with `code` and a message containing `text`.
  subroutine expect_error(got, code, text, what)
    integer, intent(in) :: got, code
    character(len=*), intent(in) :: text, what
    call expect(got == code, what // ': wrong code, message: ' // ferry_error_message())
    call expect(index(ferry_error_message(), text) > 0, what // ': message "' // &
                ferry_error_message() // '" lacks "' // text // '"')
  end subroutine expect_error

  !> Collective: finalises MPI and stops with 1 on every rank if any check failed.
  subroutine finish_checks()
    integer :: total, ierr
    call MPI_Allreduce(failures, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (failures > 0) write (error_unit, '(a,i0,a,i0,a)') '(rank ', rank, ' failed: ', &
      failures, ' checks)'
    call MPI_Finalize(ierr)
    if (total > 0) stop 1
  end subroutine finish_checks

  !> The engine of the argument --engine=NAME; p2p without one.
  function engine_argument() result(name)
    character(len=32) :: name
    character(len=64) :: argument
    integer :: i
    name = 'p2p'
    do i = 1, command_argument_count()
      call get_command_argument(i, argument)
      if (argument(1:9) == '--engine=') name = argument(10:)
    end do
  end function engine_argument

  !> The global ids of this rank's points of `layout`, allocated to its local size.
  subroutine layout_ids(layout, ids)
    type(ferry_layout), intent(in) :: layout
    integer(int64), allocatable, intent(out) :: ids(:)
    integer(int64) :: n
    integer :: ierr
    call ferry_layout_local_size(layout, n, ierr)
    call expect_ok(ierr, 'layout_ids: local size')
    allocate (ids(n))
    call ferry_layout_get_ids(layout, ids, ierr)
    call expect_ok(ierr, 'layout_ids: ids')
  end subroutine layout_ids

end module test_checks
