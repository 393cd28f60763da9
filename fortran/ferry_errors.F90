! module ferry_errors: the text of errors and the library's version, over the C API
! (ferry/ferry.h) through iso_c_binding.
module ferry_errors
  use, intrinsic :: iso_c_binding
  use ferry_c_arrays, only: fortran_string
  implicit none
  private

  public :: ferry_error_message, ferry_error_string, ferry_version

  ! The C API.
  interface
    function c_last_error_message() bind(C, name='ferry_last_error_message') result(p)
      import :: c_ptr
      type(c_ptr) :: p
    end function c_last_error_message
    function c_error_string(code) bind(C, name='ferry_error_string') result(p)
      import :: c_ptr, c_int
      integer(c_int), value :: code
      type(c_ptr) :: p
    end function c_error_string
    function c_version() bind(C, name='ferry_version') result(p)
      import :: c_ptr
      type(c_ptr) :: p
    end function c_version
  end interface

contains

  !> The text of the last error raised on this thread ('' if none).
  function ferry_error_message() result(message)
    character(len=:), allocatable :: message
    message = fortran_string(c_last_error_message())
  end function ferry_error_message

  !> The generic text of an error code.
  function ferry_error_string(code) result(text)
    integer, intent(in) :: code
    character(len=:), allocatable :: text
    text = fortran_string(c_error_string(int(code, c_int)))
  end function ferry_error_string

  !> The version of the library, e.g. '0.1.0'.
  function ferry_version() result(version)
    character(len=:), allocatable :: version
    version = fortran_string(c_version())
  end function ferry_version

end module ferry_errors
