! module ferry_collective_checks: how ferry's Fortran modules check the arrays of a
! collective call (ferry_regrid_mod, ferry_conservation_mod). Each check notes the
! first problem found on this rank in an array_check; agree_checks then agrees on it
! over the communicator before the C call, so that a wrong array on one rank fails
! the call on every rank with FERRY_ERR_ARG_SIZE and the same message. For the
! modules of ferry; programs have no use for it.
module ferry_collective_checks
  use, intrinsic :: iso_c_binding, only: c_int64_t
  use ferry_constants, only: FERRY_SUCCESS, FERRY_ERR_ARG_SIZE
  use ferry_errors, only: ferry_error_message
  use ferry_layout_mod, only: ferry_layout, ferry_layout_local_size
  use ferry_argument_error, only: ferry_agree_argument_error
  implicit none
  private
  public :: array_check, check_count, check_per_point, check_shape, layout_points, agree_checks

  !> The first problem found with the arrays of a collective call on this rank (code
  !> FERRY_SUCCESS if none), in the words of ferry_agree_argument_error: the message
  !> is problem, " on rank R", then rest.
  type :: array_check
    integer :: code = FERRY_SUCCESS
    character(len=200) :: problem = ''
    character(len=300) :: rest = ''
  end type array_check

contains

  !> Notes that array `name` has `actual` elements instead of `expected` (`why`),
  !> unless an earlier problem was found.
  subroutine check_count(check, name, actual, expected, why)
    type(array_check), intent(inout) :: check
    character(len=*), intent(in) :: name, why
    integer(c_int64_t), intent(in) :: actual, expected
    if (check%code /= FERRY_SUCCESS .or. actual == expected) return
    check%code = FERRY_ERR_ARG_SIZE
    write (check%problem, '(a,a,i0,a)') name, ' has ', actual, ' elements'
    write (check%rest, '(a,i0,a)') ', expected ', expected, why
  end subroutine check_count

  !> check_count for an array of one value per point of the layout of grid `side`
  !> ('src' or 'dst'), which has n points on this rank.
  subroutine check_per_point(check, name, actual, n, side)
    type(array_check), intent(inout) :: check
    character(len=*), intent(in) :: name, side
    integer(c_int64_t), intent(in) :: actual, n
    call check_count(check, name, actual, n, ', the local size of layout ' // side // &
                     '. Give one value per point of the layout, in layout order')
  end subroutine check_per_point

  !> Notes that the 2-D array `name` has the shape `extents` instead of `expected`
  !> (`why`, after "expected (m, n)"), unless an earlier problem was found.
  subroutine check_shape(check, name, extents, expected, why)
    type(array_check), intent(inout) :: check
    character(len=*), intent(in) :: name, why
    integer(c_int64_t), intent(in) :: extents(2), expected(2)
    if (check%code /= FERRY_SUCCESS .or. all(extents == expected)) return
    check%code = FERRY_ERR_ARG_SIZE
    write (check%problem, '(a,a,i0,a,i0,a)') name, ' has the shape (', extents(1), ', ', &
      extents(2), ')'
    write (check%rest, '(a,i0,a,i0,a,a)') ', expected (', expected(1), ', ', expected(2), ')', &
      why
  end subroutine check_shape

  !> This rank's number of points of the layout of grid `side` ('src' or 'dst'); a
  !> layout that cannot be read is the problem found.
  subroutine layout_points(check, side, layout, points)
    type(array_check), intent(inout) :: check
    character(len=*), intent(in) :: side
    type(ferry_layout), intent(in) :: layout
    integer(c_int64_t), intent(out) :: points
    integer :: ierr
    points = 0
    call ferry_layout_local_size(layout, points, ierr)
    if (check%code /= FERRY_SUCCESS .or. ierr == FERRY_SUCCESS) return
    check%code = ierr
    check%problem = 'the layout ' // side
    check%rest = ' is not usable: ' // ferry_error_message()
  end subroutine layout_points

  !> Collective over comm: agrees on the problems the ranks found (one MPI_Allreduce
  !> when there are none). ierr: FERRY_SUCCESS, or on every rank the code and message
  !> of the lowest failing rank, "routine: <problem> on rank R<rest>".
  subroutine agree_checks(comm, routine, check, ierr)
    integer, intent(in) :: comm
    character(len=*), intent(in) :: routine
    type(array_check), intent(in) :: check
    integer, intent(out) :: ierr
    call ferry_agree_argument_error(comm, routine, check%code, trim(check%problem), &
                                    trim(check%rest), ierr)
  end subroutine agree_checks

end module ferry_collective_checks
