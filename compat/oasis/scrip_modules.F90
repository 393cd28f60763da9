! The modules kinds_mod and constants of the SCRIP library that OASIS3-MCT links
! into every coupled program (libscrip): programs written for OASIS use them (its
! test_interpolation example does), so the drop-in provides them too. OASIS
! computes in double precision: real_kind is double here.
module kinds_mod
  implicit none
  public
  integer, parameter :: char_len = 80
  integer, parameter :: int_kind = kind(1)
  integer, parameter :: log_kind = kind(.true.)
  integer, parameter :: dbl_kind = selected_real_kind(13)
  integer, parameter :: real_kind = dbl_kind
end module kinds_mod

module constants
  use kinds_mod
  implicit none
  public
  real(kind=dbl_kind), parameter :: zero = 0.0_dbl_kind, one = 1.0_dbl_kind, &
                                    two = 2.0_dbl_kind, three = 3.0_dbl_kind, &
                                    four = 4.0_dbl_kind, half = 0.5_dbl_kind, &
                                    quart = 0.25_dbl_kind, bignum = 1.e+20_dbl_kind, &
                                    tiny = 1.e-14_dbl_kind, pi = 3.14159265359_dbl_kind, &
                                    pi2 = two * pi, pih = half * pi
end module constants
