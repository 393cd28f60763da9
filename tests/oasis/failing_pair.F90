! Two components, "ocean" (world rank 0) and "atmos" (the others), exchanging one field
! every step; then one rank fails as the first argument says: "abort" (world rank 1
! calls oasis_abort at step 3) or "kill" (world rank 1 ends itself with SIGKILL at step
! 3). The others wait in oasis_get or oasis_put: the run must end, never hang.
program failing_pair
  use mod_oasis
  use mpi
  implicit none
  character(len=16) :: failure, component
  integer :: compid, ierror, local, rank, size, world_rank, part, var, kinfo, step, n
  integer :: ig_paral(3), nodims(2), shape(1)
  double precision, allocatable :: field(:)

  call get_command_argument(1, failure)
  call mpi_init(ierror)
  call mpi_comm_rank(MPI_COMM_WORLD, world_rank, ierror)
  component = 'atmos'
  if (world_rank == 0) component = 'ocean'
  call oasis_init_comp(compid, trim(component), ierror)
  call oasis_get_localcomm(local, ierror)
  call mpi_comm_rank(local, rank, ierror)
  call mpi_comm_size(local, size, ierror)
  n = 100 / size
  ig_paral = [1, rank * n, n]
  if (rank == size - 1) ig_paral(3) = 100 - rank * n
  call oasis_def_partition(part, ig_paral, ierror)
  nodims = [1, 1]
  shape = [ig_paral(3)]
  if (component == 'ocean') then
    call oasis_def_var(var, 'FOUT', part, nodims, OASIS_Out, shape, OASIS_Real, ierror)
  else
    call oasis_def_var(var, 'FIN', part, nodims, OASIS_In, shape, OASIS_Real, ierror)
  end if
  call oasis_enddef(ierror)
  allocate (field(ig_paral(3)))
  field = 1.0d0
  do step = 0, 9
    if (step == 3 .and. world_rank == 1) then
      if (failure == 'abort') call oasis_abort(compid, 'failing_pair', 'stopping on purpose at step 3')
      if (failure == 'kill') call execute_command_line('kill -9 $PPID')
    end if
    if (component == 'ocean') then
      call oasis_put(var, step * 600, field, kinfo)
    else
      call oasis_get(var, step * 600, field, kinfo)
    end if
    if (kinfo < 0) call oasis_abort(compid, 'failing_pair', 'a put or get failed')
  end do
  call oasis_terminate(ierror)
  call mpi_finalize(ierror)
end program failing_pair
