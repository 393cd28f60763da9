! The constants of OASIS3-MCT 4.0's mod_oasis_parameters (User Guide, chapter 2).
module mod_oasis_parameters
  use mod_oasis_kinds
  implicit none
  public
  integer(ip_intwp_p), parameter :: OASIS_Ok = 0
  integer(ip_intwp_p), parameter :: OASIS_Success = 0
  ! What a routine returns in ierror/kinfo when it fails (the message is on stderr).
  integer(ip_intwp_p), parameter :: OASIS_Error = -10
  integer(ip_intwp_p), parameter :: OASIS_NotDef = -2
  integer(ip_intwp_p), parameter :: OASIS_Var_Uncpl = -1
  integer(ip_intwp_p), parameter :: OASIS_Out = 20
  integer(ip_intwp_p), parameter :: OASIS_In = 21
  integer(ip_intwp_p), parameter :: OASIS_InOut = 2
  integer(ip_intwp_p), parameter :: OASIS_Recvd = 3
  integer(ip_intwp_p), parameter :: OASIS_Sent = 4
  integer(ip_intwp_p), parameter :: OASIS_LocTrans = 5
  integer(ip_intwp_p), parameter :: OASIS_ToRest = 6
  integer(ip_intwp_p), parameter :: OASIS_Output = 7
  integer(ip_intwp_p), parameter :: OASIS_SentOut = 8
  integer(ip_intwp_p), parameter :: OASIS_ToRestOut = 9
  integer(ip_intwp_p), parameter :: OASIS_FromRest = 10
  integer(ip_intwp_p), parameter :: OASIS_Input = 11
  integer(ip_intwp_p), parameter :: OASIS_RecvOut = 12
  integer(ip_intwp_p), parameter :: OASIS_FromRestOut = 13
  integer(ip_intwp_p), parameter :: OASIS_Waitgroup = 14
  integer(ip_intwp_p), parameter :: OASIS_Real = 4
  integer(ip_intwp_p), parameter :: OASIS_Double = 8
  ! The OASIS3 names (mod_prism) of the same values.
  integer(ip_intwp_p), parameter :: PRISM_Ok = OASIS_Ok
  integer(ip_intwp_p), parameter :: PRISM_Success = OASIS_Success
  integer(ip_intwp_p), parameter :: PRISM_Out = OASIS_Out
  integer(ip_intwp_p), parameter :: PRISM_In = OASIS_In
  integer(ip_intwp_p), parameter :: PRISM_Recvd = OASIS_Recvd
  integer(ip_intwp_p), parameter :: PRISM_Sent = OASIS_Sent
  integer(ip_intwp_p), parameter :: PRISM_LocTrans = OASIS_LocTrans
  integer(ip_intwp_p), parameter :: PRISM_ToRest = OASIS_ToRest
  integer(ip_intwp_p), parameter :: PRISM_Output = OASIS_Output
  integer(ip_intwp_p), parameter :: PRISM_SentOut = OASIS_SentOut
  integer(ip_intwp_p), parameter :: PRISM_ToRestOut = OASIS_ToRestOut
  integer(ip_intwp_p), parameter :: PRISM_FromRest = OASIS_FromRest
  integer(ip_intwp_p), parameter :: PRISM_Input = OASIS_Input
  integer(ip_intwp_p), parameter :: PRISM_RecvOut = OASIS_RecvOut
  integer(ip_intwp_p), parameter :: PRISM_FromRestOut = OASIS_FromRestOut
  integer(ip_intwp_p), parameter :: PRISM_Real = OASIS_Real
  integer(ip_intwp_p), parameter :: PRISM_Double = OASIS_Double
end module mod_oasis_parameters
