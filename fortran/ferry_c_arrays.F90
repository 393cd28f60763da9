! module ferry_c_arrays: how ferry's Fortran modules hand arrays to the C API. For the
! modules of ferry; programs have no use for it.
module ferry_c_arrays
  use, intrinsic :: iso_c_binding, only: c_ptr, c_null_ptr, c_loc
  implicit none
  private
  public :: address, type_names

  ! The Fortran name of each FERRY_TYPE_* code (0 .. 3), for messages.
  character(len=*), parameter :: type_names(0:3) = &
    [character(len=10) :: 'real(8)', 'real(4)', 'integer(4)', 'integer(8)']

contains

  ! The address C receives for a contiguous array; NULL when it is empty (c_loc needs
  ! an element).
  function address(data) result(p)
    type(*), dimension(..), intent(in), target :: data
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(data) > 0) p = c_loc(data)
  end function address

end module ferry_c_arrays
