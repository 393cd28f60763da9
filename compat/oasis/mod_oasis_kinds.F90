! The kind parameters of OASIS3-MCT's mod_oasis_kinds, for programs that use them.
module mod_oasis_kinds
  implicit none
  public
  integer, parameter :: ip_single_p = selected_real_kind(6, 37)
  integer, parameter :: ip_double_p = selected_real_kind(12, 307)
  integer, parameter :: ip_realwp_p = ip_double_p
  integer, parameter :: ip_i2_p = selected_int_kind(4)
  integer, parameter :: ip_i4_p = selected_int_kind(9)
  integer, parameter :: ip_i8_p = selected_int_kind(18)
  integer, parameter :: ip_intwp_p = ip_i4_p
  integer, parameter :: ip_r4_p = ip_single_p
  integer, parameter :: ip_r8_p = ip_double_p
  integer, parameter :: ic_lvar = 80   ! length of component and variable names
  integer, parameter :: ic_med = 256
  integer, parameter :: ic_long = 1024
end module mod_oasis_kinds
