! Restart files written by one run and read back by the next. Component "ocn" (the
! first N1 world ranks) puts two real(8) fields of a 12 x 8 grid (in APPLE blocks) to
! "atm" (the others). In a component of 2 ranks or more, the first rank holds no point
! and skips its puts and gets, as OASIS allows:
!   FOUT -> FIN  period 600, LAG=+600, restart file r1.nc, EXPOUT
!   GOUT -> GIN  period 1200, LOCTRANS AVERAGE, restart file r2.nc
! usage: restart_pair N1 write|read|continue
!   write: puts v(t) = id + t / 1000 at t = 0, 600, 1200, 1800, with write_restart at
!          t = 1200 (FOUT: a coupling time, so the value sent goes to
!          TC000001200_r1.nc) and at t = 600 (GOUT: between coupling times, so its
!          accumulation, v(600) and a count of 1, goes to TA000000600_r2.nc).
!   read:  its namcouple names those two files as the restart files, and the ocean
!          puts w(t) = 1000 + id + t / 1000. At t = 0 the atmosphere must get FIN =
!          v(1200) and GIN = (v(600) + w(0)) / 2, to the last bit.
!   continue: its namcouple names the restart files the write run left at its end, r1.nc
!          (FOUT = v(1800), for 2400) and r2.nc (GOUT's accumulation of v(1800)); the
!          ocean puts w(t) as in read. At t = 0 the atmosphere must get FIN = v(1800)
!          and GIN = (v(1800) + w(0)) / 2, to the last bit.
! Prints "restart pair: every value and kinfo as expected" on world rank 0.
program restart_pair
  use mod_oasis
  use mpi
  implicit none
  integer, parameter :: nx = 12, ny = 8, dt = 600, steps = 4
  character(len=8) :: arg, mode
  character(len=3) :: component
  integer :: n1, ierror, compid, local, rank, nranks, world_rank, part, t, k, kinfo, failures
  integer :: first, count, fid, gid, nodims(2), holders
  logical :: holds
  integer, allocatable :: ids(:)
  double precision, allocatable :: f(:), g(:)

  call get_command_argument(1, arg)
  read (arg, *) n1
  call get_command_argument(2, mode)
  call mpi_init(ierror)
  call mpi_comm_rank(MPI_COMM_WORLD, world_rank, ierror)
  component = 'atm'
  if (world_rank < n1) component = 'ocn'
  call oasis_init_comp(compid, component, ierror)
  call oasis_get_localcomm(local, ierror)
  call mpi_comm_rank(local, rank, ierror)
  call mpi_comm_size(local, nranks, ierror)
  ! The points in blocks over the ranks that hold them: every rank but the first of 2 or more.
  holders = max(nranks - 1, 1)
  holds = nranks == 1 .or. rank > 0
  first = 0
  count = 0
  if (holds) then
    first = (rank - (nranks - holders)) * (nx * ny / holders)
    count = nx * ny / holders
    if (rank == nranks - 1) count = nx * ny - first
  end if
  ids = [(first + k, k = 0, count - 1)]
  call oasis_def_partition(part, [1, first, count], ierror, nx * ny)
  nodims = [1, 1]
  if (component == 'ocn') then
    call oasis_def_var(fid, 'FOUT', part, nodims, OASIS_Out, [1], OASIS_Double, ierror)
    call oasis_def_var(gid, 'GOUT', part, nodims, OASIS_Out, [1], OASIS_Double, ierror)
  else
    call oasis_def_var(fid, 'FIN', part, nodims, OASIS_In, [1], OASIS_Double, ierror)
    call oasis_def_var(gid, 'GIN', part, nodims, OASIS_In, [1], OASIS_Double, ierror)
  end if
  call oasis_enddef(ierror)
  if (ierror /= OASIS_Ok) call oasis_abort(compid, 'restart_pair', 'oasis_enddef failed')
  failures = 0
  allocate (f(count), g(count))
  do k = 1, steps
    t = (k - 1) * dt
    if (.not. holds) cycle
    if (component == 'ocn') then
      if (mode == 'write') then
        call oasis_put(fid, t, v(t), kinfo, write_restart=(t == 1200))
        call expect(kinfo == merge(OASIS_ToRestOut, OASIS_SentOut, t == 1800), 'FOUT kinfo')
        call oasis_put(gid, t, v(t), kinfo, write_restart=(t == 600))
      else
        call oasis_put(fid, t, 1000 + v(t), kinfo)
        call oasis_put(gid, t, 1000 + v(t), kinfo)
      end if
      call expect(kinfo == merge(OASIS_Sent, OASIS_LocTrans, mod(t, 1200) == 0), 'GOUT kinfo')
    else
      call oasis_get(fid, t, f, kinfo)
      call expect(kinfo == OASIS_RecvOut, 'FIN kinfo')
      call oasis_get(gid, t, g, kinfo)
      call expect(kinfo == merge(OASIS_Recvd, OASIS_Ok, mod(t, 1200) == 0), 'GIN kinfo')
      if (mode == 'read' .and. t == 0) then
        call expect(all(f == v(1200)), 'FIN from TC000001200_r1.nc')
        call expect(all(g == (v(600) + (1000 + v(0))) * 0.5d0), 'GIN from TA000000600_r2.nc')
      else if (mode == 'continue' .and. t == 0) then
        call expect(all(f == v(1800)), 'FIN from r1.nc')
        call expect(all(g == (v(1800) + (1000 + v(0))) * 0.5d0), 'GIN from r2.nc')
      end if
    end if
  end do
  call mpi_allreduce(MPI_IN_PLACE, failures, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierror)
  call oasis_terminate(ierror)
  if (world_rank == 0) then
    if (failures == 0) then
      print '(a)', 'restart pair: every value and kinfo as expected'
    else
      print '(a,i0,a)', 'restart pair: ', failures, ' checks failed'
    end if
  end if
  call mpi_finalize(ierror)
  if (failures /= 0) error stop 1

contains

  function v(time)
    integer, intent(in) :: time
    double precision :: v(size(ids))
    v = ids + time / 1000d0
  end function v

  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (ok) return
    failures = failures + 1
    write (0, '(a,a,a,a,a,i0,a,i0,a,i0)') 'restart pair (', trim(mode), '): ', what, &
      ' wrong on rank ', rank, ' at t = ', t, ', kinfo ', kinfo
  end subroutine expect

end program restart_pair
