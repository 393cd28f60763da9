! A MAPPING entry read from a small weight file, through mod_oasis. Component "ocn"
! (the first N1 world ranks) puts FOUT, a real(8) field of a 4 x 3 grid, to "atm" (the
! others), which gets FIN on a 3 x 2 grid, every 600 s of a 2400 s run; each side in
! blocks over its ranks (APPLE). The weight file w.nc (made by the test) has num_wgts
! columns: in column c, target point j (1-based) takes c / 2 of source point 2j - 1
! and c / 4 of source point 2j. Two of its 14 links lie outside the grids (link 7:
! source 13 -> target 1; link 14: source 1 -> target 7): the namcouple's $NWGTOPT
! says what becomes of them (ignore_bad_index and the others: left out).
! usage: mapping_pair N1 G
!   the ocean puts fld1 = id + t / 600 and, as fld2 .. fld(G+1), the gradients
!   fldk = k * fld1 (G = 0: the field alone). With num_wgts = G + 1 the atmosphere
!   gets, at every point and step, the sum over the columns c of c * c * (fld1(2j - 1)
!   / 2 + fld1(2j) / 4), exact in binary.
! Prints "mapping pair: every value and kinfo as expected" on world rank 0.
program mapping_pair
  use mod_oasis
  use mpi
  implicit none
  integer, parameter :: source_points = 12, target_points = 6, dt = 600, steps = 4
  character(len=8) :: arg
  character(len=3) :: component
  integer :: n1, gradients, ierror, compid, local, rank, nranks, world_rank, part, t, k, c
  integer :: kinfo, failures, points, first, count, var, nodims(2)
  integer, allocatable :: ids(:)
  double precision, allocatable :: f(:), expected(:)

  call get_command_argument(1, arg)
  read (arg, *) n1
  call get_command_argument(2, arg)
  read (arg, *) gradients
  call mpi_init(ierror)
  call mpi_comm_rank(MPI_COMM_WORLD, world_rank, ierror)
  component = 'atm'
  if (world_rank < n1) component = 'ocn'
  call oasis_init_comp(compid, component, ierror)
  call oasis_get_localcomm(local, ierror)
  call mpi_comm_rank(local, rank, ierror)
  call mpi_comm_size(local, nranks, ierror)
  points = merge(source_points, target_points, component == 'ocn')
  first = rank * points / nranks
  count = (rank + 1) * points / nranks - first
  ids = [(first + k, k = 1, count)]
  call oasis_def_partition(part, [1, first, count], ierror, points)
  nodims = [1, 1]
  if (component == 'ocn') then
    call oasis_def_var(var, 'FOUT', part, nodims, OASIS_Out, [1], OASIS_Double, ierror)
  else
    call oasis_def_var(var, 'FIN', part, nodims, OASIS_In, [1], OASIS_Double, ierror)
  end if
  call oasis_enddef(ierror)
  if (ierror /= OASIS_Ok) call oasis_abort(compid, 'mapping_pair', 'oasis_enddef failed')
  failures = 0
  allocate (f(count), expected(count))
  do k = 1, steps
    t = (k - 1) * dt
    if (component == 'ocn') then
      f = ids + t / 600
      select case (gradients)
      case (0)
        call oasis_put(var, t, f, kinfo)
      case (1)
        call oasis_put(var, t, f, kinfo, 2 * f)
      case default
        call oasis_put(var, t, f, kinfo, 2 * f, 3 * f)
      end select
      if (kinfo == OASIS_Error) call oasis_abort(compid, 'mapping_pair', 'oasis_put failed')
      call expect(kinfo == OASIS_Sent, 'FOUT kinfo')
    else
      f = -1
      call oasis_get(var, t, f, kinfo)
      if (kinfo == OASIS_Error) call oasis_abort(compid, 'mapping_pair', 'oasis_get failed')
      call expect(kinfo == OASIS_Recvd, 'FIN kinfo')
      expected = 0
      do c = 1, gradients + 1
        expected = expected + c * c * ((2 * ids - 1 + t / 600) / 2d0 + (2 * ids + t / 600) / 4d0)
      end do
      call expect(all(f == expected), 'FIN values')
    end if
  end do
  call mpi_allreduce(MPI_IN_PLACE, failures, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierror)
  call oasis_terminate(ierror)
  if (world_rank == 0) then
    if (failures == 0) then
      print '(a)', 'mapping pair: every value and kinfo as expected'
    else
      print '(a,i0,a)', 'mapping pair: ', failures, ' checks failed'
    end if
  end if
  call mpi_finalize(ierror)
  if (failures /= 0) error stop 1

contains

  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (ok) return
    failures = failures + 1
    write (0, '(a,a,a,i0,a,i0,a,i0)') 'mapping pair: ', what, ' wrong on rank ', rank, &
      ' at t = ', t, ', kinfo ', kinfo
  end subroutine expect

end program mapping_pair
