! module ferry: ferry for Fortran 2018, over the C API (ferry/ferry.h) through
! iso_c_binding. `use ferry` gives the constants (ferry_constants), errors and version
! (ferry_errors), layouts (ferry_layout_mod), exchanges (ferry_exchange_mod), the
! coupler (ferry_coupler_mod) and its time-series buffers (ferry_coupler_buffers): one
! module per concept, each usable on its own. The halo, regridding, conservation,
! standalone buffer and collective modules are used by name (ferry_halo_mod, ...).
!
! Every routine has the name of its C function and ends with `integer, intent(out) ::
! ierr`: FERRY_SUCCESS or a FERRY_ERR_* code, whose text ferry_error_message() gives.
! No routine stops the program: the caller decides what a failure means.
! Conventions (docs/user/fortran.md): communicators are integer handles (the `mpi`
! module), sizes and global ids are integer(int64), global ids are 0-based as in C,
! arrays handed to ferry are contiguous.
module ferry
  use ferry_constants
  use ferry_errors
  use ferry_layout_mod
  use ferry_exchange_mod
  use ferry_coupler_mod
  use ferry_coupler_buffers
  implicit none
  public
end module ferry
