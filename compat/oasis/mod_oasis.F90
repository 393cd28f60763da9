! mod_oasis: OASIS3-MCT 4.0's Fortran API (User Guide, chapter 2) over ferry's
! coupler. Programs written for OASIS3-MCT compile against it unchanged; every routine
! calls the C functions of ferry_oasis.h, which hold the run's state.
module mod_oasis
  use, intrinsic :: iso_c_binding
  use mod_oasis_kinds
  use mod_oasis_parameters
  implicit none
  private
  public :: oasis_init_comp, oasis_get_localcomm, oasis_create_couplcomm, oasis_set_couplcomm, &
            oasis_get_intracomm, oasis_get_multi_intracomm, oasis_get_intercomm, oasis_def_partition, oasis_def_var, &
            oasis_enddef, oasis_put, oasis_get, oasis_put_inquire, oasis_get_ncpl, &
            oasis_get_freqs, oasis_get_debug, oasis_set_debug, oasis_start_grids_writing, &
            oasis_write_grid, oasis_write_corner, oasis_write_mask, oasis_write_area, &
            oasis_write_frac, oasis_write_angle, oasis_terminate_grids_writing, &
            oasis_terminate, oasis_abort
  ! What a program that uses mod_oasis also sees: the kinds and the parameters.
  public :: ip_single_p, ip_double_p, ip_realwp_p, ip_i2_p, ip_i4_p, ip_i8_p, ip_intwp_p, &
            ip_r4_p, ip_r8_p, ic_lvar, ic_med, ic_long
  public :: OASIS_Ok, OASIS_Success, OASIS_Error, OASIS_NotDef, OASIS_Var_Uncpl, OASIS_Out, &
            OASIS_In, OASIS_InOut, OASIS_Recvd, OASIS_Sent, OASIS_LocTrans, OASIS_ToRest, &
            OASIS_Output, OASIS_SentOut, OASIS_ToRestOut, OASIS_FromRest, OASIS_Input, &
            OASIS_RecvOut, OASIS_FromRestOut, OASIS_Waitgroup, OASIS_Real, OASIS_Double
  public :: PRISM_Ok, PRISM_Success, PRISM_Out, PRISM_In, PRISM_Recvd, PRISM_Sent, &
            PRISM_LocTrans, PRISM_ToRest, PRISM_Output, PRISM_SentOut, PRISM_ToRestOut, &
            PRISM_FromRest, PRISM_Input, PRISM_RecvOut, PRISM_FromRestOut, PRISM_Real, &
            PRISM_Double

  !> oasis_put(var_id, date, fld1, kinfo [, fld2, fld3, fld4, fld5] [, write_restart])
  interface oasis_put
    module procedure put_r4, put_r8
  end interface oasis_put
  !> oasis_get(var_id, date, fld, kinfo)
  interface oasis_get
    module procedure get_r4, get_r8
  end interface oasis_get
  interface flatten
    module procedure flatten_r4, flatten_r8
  end interface flatten
  interface unflatten
    module procedure unflatten_r4, unflatten_r8
  end interface unflatten
  interface oasis_write_grid
    module procedure write_grid_r4, write_grid_r8
  end interface oasis_write_grid
  interface oasis_write_corner
    module procedure write_corner_r4, write_corner_r8
  end interface oasis_write_corner
  interface oasis_write_area
    module procedure write_area_r4, write_area_r8
  end interface oasis_write_area
  interface oasis_write_frac
    module procedure write_frac_r4, write_frac_r8
  end interface oasis_write_frac
  interface oasis_write_angle
    module procedure write_angle_r4, write_angle_r8
  end interface oasis_write_angle

  interface
    integer(c_int) function c_init_comp(compid, name, coupled, has_world, world) &
        bind(C, name='ferry_oasis_init_comp')
      import :: c_int, c_char
      integer(c_int), intent(out) :: compid
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), value :: coupled, has_world, world
    end function c_init_comp
    integer(c_int) function c_get_localcomm(comm) bind(C, name='ferry_oasis_get_localcomm')
      import :: c_int
      integer(c_int), intent(out) :: comm
    end function c_get_localcomm
    integer(c_int) function c_create_couplcomm(icpl, local, coupl) &
        bind(C, name='ferry_oasis_create_couplcomm')
      import :: c_int
      integer(c_int), value :: icpl, local
      integer(c_int), intent(out) :: coupl
    end function c_create_couplcomm
    integer(c_int) function c_set_couplcomm(coupl) bind(C, name='ferry_oasis_set_couplcomm')
      import :: c_int
      integer(c_int), value :: coupl
    end function c_set_couplcomm
    integer(c_int) function c_get_intracomm(comm, other) bind(C, name='ferry_oasis_get_intracomm')
      import :: c_int, c_char
      integer(c_int), intent(out) :: comm
      character(kind=c_char), intent(in) :: other(*)
    end function c_get_intracomm
    integer(c_int) function c_get_multi_intracomm(comm, count, names, root_ranks) &
        bind(C, name='ferry_oasis_get_multi_intracomm')
      import :: c_int, c_ptr
      integer(c_int), intent(out) :: comm
      integer(c_int), value :: count
      type(c_ptr), intent(in) :: names(*)
      integer(c_int), intent(out) :: root_ranks(*)
    end function c_get_multi_intracomm
    integer(c_int) function c_get_intercomm(comm, other) bind(C, name='ferry_oasis_get_intercomm')
      import :: c_int, c_char
      integer(c_int), intent(out) :: comm
      character(kind=c_char), intent(in) :: other(*)
    end function c_get_intercomm
    integer(c_int) function c_def_partition(part_id, ig_paral, length, isize, name) &
        bind(C, name='ferry_oasis_def_partition')
      import :: c_int, c_char
      integer(c_int), intent(out) :: part_id
      integer(c_int), intent(in) :: ig_paral(*)
      integer(c_int), value :: length, isize
      character(kind=c_char), intent(in) :: name(*)
    end function c_def_partition
    integer(c_int) function c_def_var(var_id, name, part_id, bundle, kinout, var_type) &
        bind(C, name='ferry_oasis_def_var')
      import :: c_int, c_char
      integer(c_int), intent(out) :: var_id
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), value :: part_id, bundle, kinout, var_type
    end function c_def_var
    integer(c_int) function c_enddef() bind(C, name='ferry_oasis_enddef')
      import :: c_int
    end function c_enddef
    integer(c_int) function c_var_shape(var_id, points, bundle) bind(C, name='ferry_oasis_var_shape')
      import :: c_int, c_long_long
      integer(c_int), value :: var_id
      integer(c_long_long), intent(out) :: points
      integer(c_int), intent(out) :: bundle
    end function c_var_shape
    integer(c_int) function c_put(var_id, date, fields, nfields, write_restart, kinfo) &
        bind(C, name='ferry_oasis_put')
      import :: c_int, c_ptr
      integer(c_int), value :: var_id, date, nfields, write_restart
      type(c_ptr), intent(in) :: fields(*)
      integer(c_int), intent(out) :: kinfo
    end function c_put
    integer(c_int) function c_get(var_id, date, field, kinfo) bind(C, name='ferry_oasis_get')
      import :: c_int, c_ptr
      integer(c_int), value :: var_id, date
      type(c_ptr), value :: field
      integer(c_int), intent(out) :: kinfo
    end function c_get
    integer(c_int) function c_put_inquire(var_id, date, kinfo) bind(C, name='ferry_oasis_put_inquire')
      import :: c_int
      integer(c_int), value :: var_id, date
      integer(c_int), intent(out) :: kinfo
    end function c_put_inquire
    integer(c_int) function c_get_ncpl(var_id, ncpl) bind(C, name='ferry_oasis_get_ncpl')
      import :: c_int
      integer(c_int), value :: var_id
      integer(c_int), intent(out) :: ncpl
    end function c_get_ncpl
    integer(c_int) function c_get_freqs(var_id, mop, ncpl, freqs) bind(C, name='ferry_oasis_get_freqs')
      import :: c_int
      integer(c_int), value :: var_id, mop, ncpl
      integer(c_int), intent(out) :: freqs(*)
    end function c_get_freqs
    integer(c_int) function c_get_debug(level) bind(C, name='ferry_oasis_get_debug')
      import :: c_int
      integer(c_int), intent(out) :: level
    end function c_get_debug
    integer(c_int) function c_set_debug(level) bind(C, name='ferry_oasis_set_debug')
      import :: c_int
      integer(c_int), value :: level
    end function c_set_debug
    integer(c_int) function c_start_grids_writing(flag) bind(C, name='ferry_oasis_start_grids_writing')
      import :: c_int
      integer(c_int), intent(out) :: flag
    end function c_start_grids_writing
    integer(c_int) function c_write_grid_data(grid, nx, ny, kind, nc, a, b, mask, count, part_id) &
        bind(C, name='ferry_oasis_write_grid_data')
      import :: c_int, c_char, c_double, c_long_long
      character(kind=c_char), intent(in) :: grid(*)
      integer(c_int), value :: nx, ny, kind, nc, part_id
      real(c_double), intent(in) :: a(*), b(*)
      integer(c_int), intent(in) :: mask(*)
      integer(c_long_long), value :: count
    end function c_write_grid_data
    integer(c_int) function c_terminate_grids_writing() &
        bind(C, name='ferry_oasis_terminate_grids_writing')
      import :: c_int
    end function c_terminate_grids_writing
    integer(c_int) function c_terminate() bind(C, name='ferry_oasis_terminate')
      import :: c_int
    end function c_terminate
    subroutine c_abort(compid, routine, message, rcode) bind(C, name='ferry_oasis_abort')
      import :: c_int, c_char
      integer(c_int), value :: compid, rcode
      character(kind=c_char), intent(in) :: routine(*), message(*)
    end subroutine c_abort
  end interface

contains

  ! A Fortran string as C's: without trailing blanks, NUL-terminated.
  function c_text(s) result(c)
    character(len=*), intent(in) :: s
    character(kind=c_char, len=len_trim(s) + 1) :: c
    c = trim(s)//c_null_char
  end function c_text

  subroutine oasis_init_comp(compid, comp_name, ierror, coupled, commworld)
    integer(ip_i4_p), intent(out) :: compid
    character(len=*), intent(in) :: comp_name
    integer(ip_i4_p), intent(out) :: ierror
    logical, intent(in), optional :: coupled
    integer(ip_i4_p), intent(in), optional :: commworld
    integer(c_int) :: couples, has_world, world
    couples = 1
    if (present(coupled)) then
      if (.not. coupled) couples = 0
    end if
    has_world = 0
    world = 0
    if (present(commworld)) then
      has_world = 1
      world = commworld
    end if
    ierror = c_init_comp(compid, c_text(comp_name), couples, has_world, world)
  end subroutine oasis_init_comp

  subroutine oasis_get_localcomm(local_comm, ierror)
    integer(ip_i4_p), intent(out) :: local_comm, ierror
    ierror = c_get_localcomm(local_comm)
  end subroutine oasis_get_localcomm

  subroutine oasis_create_couplcomm(icpl, local_comm, coupl_comm, kinfo)
    integer(ip_i4_p), intent(in) :: icpl, local_comm
    integer(ip_i4_p), intent(out) :: coupl_comm
    integer(ip_i4_p), intent(out), optional :: kinfo
    integer(c_int) :: status
    status = c_create_couplcomm(icpl, local_comm, coupl_comm)
    if (present(kinfo)) kinfo = status
  end subroutine oasis_create_couplcomm

  subroutine oasis_set_couplcomm(coupl_comm, kinfo)
    integer(ip_i4_p), intent(in) :: coupl_comm
    integer(ip_i4_p), intent(out), optional :: kinfo
    integer(c_int) :: status
    status = c_set_couplcomm(coupl_comm)
    if (present(kinfo)) kinfo = status
  end subroutine oasis_set_couplcomm

  subroutine oasis_get_intracomm(new_comm, cdnam, kinfo)
    integer(ip_i4_p), intent(out) :: new_comm
    character(len=*), intent(in) :: cdnam
    integer(ip_i4_p), intent(out), optional :: kinfo
    integer(c_int) :: status
    status = c_get_intracomm(new_comm, c_text(cdnam))
    if (present(kinfo)) kinfo = status
  end subroutine oasis_get_intracomm

  ! An intracommunicator of the processes of the components cdnam (this one among
  ! them; blank names skipped); root_ranks(k): the rank in it of cdnam(k)'s first process.
  subroutine oasis_get_multi_intracomm(new_comm, cdnam, root_ranks, kinfo)
    integer(ip_i4_p), intent(out) :: new_comm
    character(len=*), intent(in) :: cdnam(:)
    integer(ip_i4_p), intent(out) :: root_ranks(:)
    integer(ip_i4_p), intent(out), optional :: kinfo
    character(kind=c_char, len=len(cdnam) + 1), allocatable, target :: names(:)
    type(c_ptr), allocatable :: pointers(:)
    integer(c_int) :: status
    integer :: k
    status = OASIS_Error
    if (size(root_ranks) /= size(cdnam)) then
      write (0, '(a,i0,a,i0,a)') 'oasis_get_multi_intracomm: root_ranks holds ', size(root_ranks), &
        ' values for ', size(cdnam), ' component names; give one per name'
    else
      allocate (names(size(cdnam)), pointers(size(cdnam)))
      do k = 1, size(cdnam)
        names(k) = trim(cdnam(k))//c_null_char
        pointers(k) = c_loc(names(k))
      end do
      status = c_get_multi_intracomm(new_comm, size(cdnam), pointers, root_ranks)
    end if
    if (present(kinfo)) kinfo = status
  end subroutine oasis_get_multi_intracomm

  subroutine oasis_get_intercomm(new_comm, cdnam, kinfo)
    integer(ip_i4_p), intent(out) :: new_comm
    character(len=*), intent(in) :: cdnam
    integer(ip_i4_p), intent(out), optional :: kinfo
    integer(c_int) :: status
    status = c_get_intercomm(new_comm, c_text(cdnam))
    if (present(kinfo)) kinfo = status
  end subroutine oasis_get_intercomm

  subroutine oasis_def_partition(il_part_id, ig_paral, ierror, isize, name)
    integer(ip_i4_p), intent(out) :: il_part_id
    integer(ip_i4_p), intent(in) :: ig_paral(:)
    integer(ip_i4_p), intent(out) :: ierror
    integer(ip_i4_p), intent(in), optional :: isize
    character(len=*), intent(in), optional :: name
    integer(c_int) :: total
    total = 0
    if (present(isize)) total = isize
    if (present(name)) then
      ierror = c_def_partition(il_part_id, ig_paral, size(ig_paral), total, c_text(name))
    else
      ierror = c_def_partition(il_part_id, ig_paral, size(ig_paral), total, c_text(''))
    end if
  end subroutine oasis_def_partition

  subroutine oasis_def_var(var_id, name, il_part_id, var_nodims, kinout, var_actual_shape, &
                           var_type, ierror)
    integer(ip_i4_p), intent(out) :: var_id
    character(len=*), intent(in) :: name
    integer(ip_i4_p), intent(in) :: il_part_id
    integer(ip_i4_p), intent(in) :: var_nodims(2)
    integer(ip_i4_p), intent(in) :: kinout
    integer(ip_i4_p), intent(in) :: var_actual_shape(:)  ! not used, as in OASIS3-MCT
    integer(ip_i4_p), intent(in) :: var_type
    integer(ip_i4_p), intent(out) :: ierror
    ierror = c_def_var(var_id, c_text(name), il_part_id, var_nodims(2), kinout, var_type)
  end subroutine oasis_def_var

  subroutine oasis_enddef(ierror)
    integer(ip_i4_p), intent(out) :: ierror
    ierror = c_enddef()
  end subroutine oasis_enddef

  ! True if an array of `values` values fits variable var_id on this rank (points x
  ! bundle); else writes why and returns false.
  logical function array_fits(var_id, routine, values)
    integer(ip_i4_p), intent(in) :: var_id
    character(len=*), intent(in) :: routine
    integer(c_long_long), intent(in) :: values
    integer(c_long_long) :: points
    integer(c_int) :: bundle
    array_fits = .false.
    if (c_var_shape(var_id, points, bundle) /= OASIS_Ok) return
    if (values /= points * bundle) then
      write (0, '(a,a,i0,a,i0,a,i0,a,i0,a)') routine, ': the array for var_id ', var_id, &
        ' holds ', values, ' values; the partition has ', points, ' points on this process, x ', &
        bundle, ' bundle fields. Pass the values of this process''s points'
      return
    end if
    array_fits = .true.
  end function array_fits

#define OASIS_KIND c_float
#define OASIS_PUT put_r4
#define OASIS_GET get_r4
#define FLATTEN_NAME flatten_r4
#define UNFLATTEN_NAME unflatten_r4
#include "oasis_put_get.inc"
#undef OASIS_KIND
#undef OASIS_PUT
#undef OASIS_GET
#undef FLATTEN_NAME
#undef UNFLATTEN_NAME
#define OASIS_KIND c_double
#define OASIS_PUT put_r8
#define OASIS_GET get_r8
#define FLATTEN_NAME flatten_r8
#define UNFLATTEN_NAME unflatten_r8
#include "oasis_put_get.inc"
#undef OASIS_KIND
#undef OASIS_PUT
#undef OASIS_GET
#undef FLATTEN_NAME
#undef UNFLATTEN_NAME

  subroutine oasis_put_inquire(var_id, date, kinfo)
    integer(ip_i4_p), intent(in) :: var_id, date
    integer(ip_i4_p), intent(out) :: kinfo
    integer(c_int) :: done
    kinfo = OASIS_Error
    if (c_put_inquire(var_id, date, done) == OASIS_Ok) kinfo = done
  end subroutine oasis_put_inquire

  subroutine oasis_get_ncpl(var_id, ncpl, kinfo)
    integer(ip_i4_p), intent(in) :: var_id
    integer(ip_i4_p), intent(out) :: ncpl, kinfo
    kinfo = c_get_ncpl(var_id, ncpl)
  end subroutine oasis_get_ncpl

  subroutine oasis_get_freqs(var_id, mop, ncpl, cpl_freqs, kinfo)
    integer(ip_i4_p), intent(in) :: var_id, mop, ncpl
    integer(ip_i4_p), intent(out) :: cpl_freqs(ncpl)
    integer(ip_i4_p), intent(out) :: kinfo
    kinfo = c_get_freqs(var_id, mop, ncpl, cpl_freqs)
  end subroutine oasis_get_freqs

  subroutine oasis_get_debug(debug_value)
    integer(ip_i4_p), intent(out) :: debug_value
    integer(c_int) :: status
    status = c_get_debug(debug_value)
  end subroutine oasis_get_debug

  subroutine oasis_set_debug(debug_value)
    integer(ip_i4_p), intent(in) :: debug_value
    integer(c_int) :: status
    status = c_set_debug(debug_value)
  end subroutine oasis_set_debug

  subroutine oasis_start_grids_writing(flag)
    integer(ip_i4_p), intent(out) :: flag
    integer(c_int) :: status
    status = c_start_grids_writing(flag)
  end subroutine oasis_start_grids_writing

  ! Hands one kind of grid data to the C side (kind: see ferry_oasis.h).
  subroutine write_data(cgrid, nx, ny, kind, nc, a, b, mask, part_id)
    character(len=*), intent(in) :: cgrid
    integer(ip_i4_p), intent(in) :: nx, ny, kind, nc
    real(c_double), intent(in) :: a(:), b(:)
    integer(c_int), intent(in) :: mask(:)
    integer(ip_i4_p), intent(in), optional :: part_id
    integer(c_int) :: part, status
    integer(c_long_long) :: count
    part = 0
    if (present(part_id)) part = part_id
    count = max(size(a, kind=c_long_long), size(mask, kind=c_long_long))
    status = c_write_grid_data(c_text(cgrid), nx, ny, kind, nc, a, b, mask, count, part)
  end subroutine write_data

  subroutine write_grid_r8(cgrid, nx, ny, lon, lat, partid)
    character(len=*), intent(in) :: cgrid
    integer(ip_i4_p), intent(in) :: nx, ny
    real(c_double), intent(in) :: lon(:, :), lat(:, :)
    integer(ip_i4_p), intent(in), optional :: partid
    call write_data(cgrid, nx, ny, 0, 1, reshape(lon, [size(lon)]), reshape(lat, [size(lat)]), &
                    [integer(c_int) ::], partid)
  end subroutine write_grid_r8

  subroutine write_grid_r4(cgrid, nx, ny, lon, lat, partid)
    character(len=*), intent(in) :: cgrid
    integer(ip_i4_p), intent(in) :: nx, ny
    real(c_float), intent(in) :: lon(:, :), lat(:, :)
    integer(ip_i4_p), intent(in), optional :: partid
    call write_grid_r8(cgrid, nx, ny, real(lon, c_double), real(lat, c_double), partid)
  end subroutine write_grid_r4

  subroutine write_corner_r8(cgrid, nx, ny, nc, clon, clat, partid)
    character(len=*), intent(in) :: cgrid
    integer(ip_i4_p), intent(in) :: nx, ny, nc
    real(c_double), intent(in) :: clon(:, :, :), clat(:, :, :)
    integer(ip_i4_p), intent(in), optional :: partid
    call write_data(cgrid, nx, ny, 1, nc, reshape(clon, [size(clon)]), reshape(clat, [size(clat)]), &
                    [integer(c_int) ::], partid)
  end subroutine write_corner_r8

  subroutine write_corner_r4(cgrid, nx, ny, nc, clon, clat, partid)
    character(len=*), intent(in) :: cgrid
    integer(ip_i4_p), intent(in) :: nx, ny, nc
    real(c_float), intent(in) :: clon(:, :, :), clat(:, :, :)
    integer(ip_i4_p), intent(in), optional :: partid
    call write_corner_r8(cgrid, nx, ny, nc, real(clon, c_double), real(clat, c_double), partid)
  end subroutine write_corner_r4

  subroutine oasis_write_mask(cgrid, nx, ny, mask, partid)
    character(len=*), intent(in) :: cgrid
    integer(ip_i4_p), intent(in) :: nx, ny
    integer(ip_i4_p), intent(in) :: mask(:, :)
    integer(ip_i4_p), intent(in), optional :: partid
    real(c_double) :: none(0)
    call write_data(cgrid, nx, ny, 2, 1, none, none, int(reshape(mask, [size(mask)]), c_int), partid)
  end subroutine oasis_write_mask

#define WRITE_R8 write_area_r8
#define WRITE_R4 write_area_r4
#define WRITE_KIND 3
#include "oasis_write_values.inc"
#undef WRITE_R8
#undef WRITE_R4
#undef WRITE_KIND
#define WRITE_R8 write_frac_r8
#define WRITE_R4 write_frac_r4
#define WRITE_KIND 4
#include "oasis_write_values.inc"
#undef WRITE_R8
#undef WRITE_R4
#undef WRITE_KIND
#define WRITE_R8 write_angle_r8
#define WRITE_R4 write_angle_r4
#define WRITE_KIND 5
#include "oasis_write_values.inc"
#undef WRITE_R8
#undef WRITE_R4
#undef WRITE_KIND

  subroutine oasis_terminate_grids_writing()
    integer(c_int) :: status
    status = c_terminate_grids_writing()
  end subroutine oasis_terminate_grids_writing

  subroutine oasis_terminate(ierror)
    integer(ip_i4_p), intent(out) :: ierror
    ierror = c_terminate()
  end subroutine oasis_terminate

  subroutine oasis_abort(id_compid, cd_routine, cd_message, rcode)
    integer(ip_i4_p), intent(in) :: id_compid
    character(len=*), intent(in) :: cd_routine, cd_message
    integer(ip_i4_p), intent(in), optional :: rcode
    integer(c_int) :: code
    code = 1
    if (present(rcode)) code = rcode
    call c_abort(id_compid, c_text(cd_routine), c_text(cd_message), code)
  end subroutine oasis_abort

end module mod_oasis
