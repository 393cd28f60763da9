! module ferry_c_arrays: how ferry's Fortran modules hand arrays to the C API and
! read the strings it returns. For the modules of ferry; programs have no use for it.
module ferry_c_arrays
  use, intrinsic :: iso_c_binding, only: c_char, c_f_pointer, c_loc, c_null_ptr, c_ptr, &
    c_size_t
  implicit none
  private
  public :: address, fortran_string, type_names

  ! The Fortran name of each FERRY_TYPE_* code (0 .. 3), for messages.
  character(len=*), parameter :: type_names(0:3) = &
    [character(len=10) :: 'real(8)', 'real(4)', 'integer(4)', 'integer(8)']

  interface
    function c_strlen(s) bind(C, name='strlen') result(n)
      import :: c_ptr, c_size_t
      type(c_ptr), value :: s
      integer(c_size_t) :: n
    end function c_strlen
  end interface

contains

  ! The address C receives for a contiguous array; NULL when it is empty (c_loc needs
  ! an element).
  function address(data) result(p)
    type(*), dimension(..), intent(in), target :: data
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(data) > 0) p = c_loc(data)
  end function address

  ! A copy of a NUL-terminated C string.
  function fortran_string(p) result(s)
    type(c_ptr), intent(in) :: p
    character(len=:), allocatable :: s
    character(kind=c_char), pointer :: chars(:)
    integer :: i
    call c_f_pointer(p, chars, [c_strlen(p)])
    allocate (character(len=size(chars)) :: s)
    do i = 1, size(chars)
      s(i:i) = chars(i)
    end do
  end function fortran_string

end module ferry_c_arrays
