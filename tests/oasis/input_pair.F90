! INPUT entries: component "atm" gets two fields of a 6 x 4 grid that the namcouple
! reads from files, every 1200 s of a 3600 s run with a get every 600 s:
!   FSST (real(8)) from fsst.nc (a double variable, double times),
!   FALB (real(4)) from falb.nc (a float variable, int times),
!   FBUN (real(8) bundle of 2) from fbun.nc (variables FBUN.001 and FBUN.002).
! The files hold records at times 1200, 0, 600 and 2400 (in that order) with the
! values id + time (id the 1-based global index), plus 10000 k for bundle member k. At 0, 1200 and 2400 a get returns
! OASIS_Input and the record of that time; at 600, 1800 and 3000 it returns OASIS_Ok
! and leaves the array as it was (the record at 600 is not read). The points go to the
! ranks in turn, in reverse order (a POINTS partition).
! With the argument "skip", rank 1 does not get FSST at 1200, an input date: the other
! ranks read their points alone (no rank waits for another) and rank 1 keeps the
! record of 0 until 2400.
! usage: input_pair [skip]  (any number of ranks; a rank of 4 or more holds no point)
! Prints "input pair: every value and kinfo as expected" on rank 0.
program input_pair
  use mod_oasis
  use mpi
  implicit none
  integer, parameter :: nx = 6, ny = 4, dt = 600, steps = 6
  integer :: ierror, compid, local, rank, nranks, part, t, k, kinfo, failures
  integer :: sst, alb, bun, nodims(2)
  integer, allocatable :: ids(:), every(:)
  double precision, allocatable :: f(:), h(:, :)
  real, allocatable :: g(:)
  double precision :: last, last_sst
  character(len=8) :: mode
  logical :: skipping

  call oasis_init_comp(compid, 'atm', ierror)
  call oasis_get_localcomm(local, ierror)
  call mpi_comm_rank(local, rank, ierror)
  call mpi_comm_size(local, nranks, ierror)
  every = [(k, k = nx * ny, 1, -1)]
  ids = pack(every, mod(every - 1, min(nranks, 4)) == rank)
  call get_command_argument(1, mode)
  skipping = mode == 'skip' .and. rank == 1
  call oasis_def_partition(part, [4, size(ids), ids], ierror, nx * ny)
  nodims = [1, 1]
  call oasis_def_var(sst, 'FSST', part, nodims, OASIS_In, [1], OASIS_Double, ierror)
  call oasis_def_var(alb, 'FALB', part, nodims, OASIS_In, [1], OASIS_Real, ierror)
  call oasis_def_var(bun, 'FBUN', part, [1, 2], OASIS_In, [1], OASIS_Double, ierror)
  call oasis_enddef(ierror)
  if (ierror /= OASIS_Ok) call oasis_abort(compid, 'input_pair', 'oasis_enddef failed')
  failures = 0
  allocate (f(size(ids)), g(size(ids)), h(size(ids), 2))
  f = -1
  g = -1
  h = -1
  last = -1
  last_sst = -1
  do k = 1, steps
    t = (k - 1) * dt
    if (.not. (skipping .and. t == 1200)) then
      call oasis_get(sst, t, f, kinfo)
      if (kinfo == OASIS_Error) call oasis_abort(compid, 'input_pair', 'oasis_get of FSST failed')
      call expect(kinfo == merge(OASIS_Input, OASIS_Ok, mod(t, 1200) == 0), 'FSST kinfo')
      if (mod(t, 1200) == 0) last_sst = t
    end if
    call oasis_get(alb, t, g, kinfo)
    if (kinfo == OASIS_Error) call oasis_abort(compid, 'input_pair', 'oasis_get of FALB failed')
    call expect(kinfo == merge(OASIS_Input, OASIS_Ok, mod(t, 1200) == 0), 'FALB kinfo')
    call oasis_get(bun, t, h, kinfo)
    if (kinfo == OASIS_Error) call oasis_abort(compid, 'input_pair', 'oasis_get of FBUN failed')
    call expect(kinfo == merge(OASIS_Input, OASIS_Ok, mod(t, 1200) == 0), 'FBUN kinfo')
    if (mod(t, 1200) == 0) last = t
    call expect(all(f == ids + last_sst), 'FSST values')
    call expect(all(g == real(ids + last)), 'FALB values')
    call expect(all(h(:, 1) == ids + last + 10000) .and. all(h(:, 2) == ids + last + 20000), &
                'FBUN values')
  end do
  call mpi_allreduce(MPI_IN_PLACE, failures, 1, MPI_INTEGER, MPI_SUM, local, ierror)
  call oasis_terminate(ierror)
  if (rank == 0) then
    if (failures == 0) then
      print '(a)', 'input pair: every value and kinfo as expected'
    else
      print '(a,i0,a)', 'input pair: ', failures, ' checks failed'
    end if
  end if
  if (failures /= 0) error stop 1

contains

  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (ok) return
    failures = failures + 1
    write (0, '(a,a,a,i0,a,i0,a,i0)') 'input pair: ', what, ' wrong on rank ', rank, &
      ' at t = ', t, ', kinfo ', kinfo
  end subroutine expect

end program input_pair
