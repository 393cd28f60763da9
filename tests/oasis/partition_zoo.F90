! The partition zoo: component "src" (the first N1 world ranks) sends, "dst" (the
! others) receives, each on a 12 x 8 grid cut by the OASIS partition form its argument
! names (serial, apple, box, orange, points; apple leaves world-rank 1 of a component
! of 3 or more ranks empty, and the last rank takes the rest). Every received value is
! checked against the formula of its global index, and every kinfo against the table
! the namcouple (namcouple_zoo beside it) and UG2 give:
!   F1   period 1200, EXPORTED, real(8)                   put Sent/Ok, get Recvd/Ok
!   F2   period 1200, LAG=+600, LOCTRANS AVERAGE, EXPOUT, real(4) bundle of 2,
!        $NNOREST (the first value is zero)               put LocTrans/SentOut/ToRestOut,
!                                                          get RecvOut/Ok
!   F3   OUTPUT period 1800, LOCTRANS T_MAX                put Output/LocTrans
!   F4:F5 one entry (grouped), period 600, SEQ=2           put Waitgroup then Sent, get Recvd
!   F6   period 1200, LOCTRANS ACCUMUL, BLASOLD x2 +1.5, BLASNEW x0.5 -3, CHECKIN,
!        CHECKOUT, real(4) bundle of 2: the sum of the period's puts, scaled once
!                                                          put Sent/LocTrans, get Recvd/Ok
!   F7   period 1200, BLASOLD x0.1 +273.15, BLASNEW x3, real(8): OASIS's formula to the
!        last bit                                          put Sent/Ok, get Recvd/Ok
! and oasis_get_multi_intracomm's communicator of both components and root ranks.
! usage: partition_zoo N1 SRC_FORM DST_FORM
program partition_zoo
  use mod_oasis
  use mpi
  implicit none
  integer, parameter :: nx = 12, ny = 8, steps = 6, dt = 600
  character(len=16) :: arg, form
  character(len=8) :: component
  integer :: n1, ierror, compid, local, rank, nranks, world_rank, part, t, k, i, kinfo, failures
  integer :: v1, v2, v3, v4, v5, v6, v7
  integer, allocatable :: ig_paral(:), ids(:)
  integer :: nodims(2)
  double precision, allocatable :: f1(:), f4(:), f5(:), f7(:)
  real, allocatable :: f2(:, :), f6(:, :)
  ! kinfo tables, by step (dates 0, 600, ..., 3000)
  integer, parameter :: put1(steps) = [OASIS_Sent, OASIS_Ok, OASIS_Sent, OASIS_Ok, OASIS_Sent, OASIS_Ok]
  integer, parameter :: get1(steps) = [OASIS_Recvd, OASIS_Ok, OASIS_Recvd, OASIS_Ok, OASIS_Recvd, OASIS_Ok]
  integer, parameter :: put2(steps) = [OASIS_LocTrans, OASIS_SentOut, OASIS_LocTrans, OASIS_SentOut, &
                                       OASIS_LocTrans, OASIS_ToRestOut]
  integer, parameter :: get2(steps) = [OASIS_RecvOut, OASIS_Ok, OASIS_RecvOut, OASIS_Ok, OASIS_RecvOut, OASIS_Ok]
  integer, parameter :: put3(steps) = [OASIS_Output, OASIS_LocTrans, OASIS_LocTrans, OASIS_Output, &
                                       OASIS_LocTrans, OASIS_LocTrans]
  integer, parameter :: put6(steps) = [OASIS_Sent, OASIS_LocTrans, OASIS_Sent, OASIS_LocTrans, &
                                       OASIS_Sent, OASIS_LocTrans]

  call get_command_argument(1, arg)
  read (arg, *) n1
  call mpi_init(ierror)
  call mpi_comm_rank(MPI_COMM_WORLD, world_rank, ierror)
  component = 'dst'
  if (world_rank < n1) component = 'src'
  call get_command_argument(merge(2, 3, component == 'src'), form)
  call oasis_init_comp(compid, component, ierror)
  call oasis_get_localcomm(local, ierror)
  call mpi_comm_rank(local, rank, ierror)
  call mpi_comm_size(local, nranks, ierror)
  call partition(trim(form), rank, nranks, ig_paral, ids)
  call oasis_def_partition(part, ig_paral, ierror, nx * ny)
  failures = 0
  allocate (f1(size(ids)), f4(size(ids)), f5(size(ids)), f7(size(ids)), f2(size(ids), 2), &
            f6(size(ids), 2))
  if (component == 'src') then
    nodims = [1, 1]
    call oasis_def_var(v1, 'F1S', part, nodims, OASIS_Out, [1], OASIS_Real, ierror)
    call oasis_def_var(v3, 'F3S', part, nodims, OASIS_Out, [1], OASIS_Real, ierror)
    call oasis_def_var(v4, 'F4S', part, nodims, OASIS_Out, [1], OASIS_Real, ierror)
    call oasis_def_var(v5, 'F5S', part, nodims, OASIS_Out, [1], OASIS_Real, ierror)
    call oasis_def_var(v7, 'F7S', part, nodims, OASIS_Out, [1], OASIS_Double, ierror)
    nodims = [1, 2]
    call oasis_def_var(v2, 'F2S', part, nodims, OASIS_Out, [1], OASIS_Real, ierror)
    call oasis_def_var(v6, 'F6S', part, nodims, OASIS_Out, [1], OASIS_Real, ierror)
  else
    nodims = [1, 1]
    call oasis_def_var(v1, 'F1D', part, nodims, OASIS_In, [1], OASIS_Real, ierror)
    call oasis_def_var(v4, 'F4D', part, nodims, OASIS_In, [1], OASIS_Real, ierror)
    call oasis_def_var(v5, 'F5D', part, nodims, OASIS_In, [1], OASIS_Real, ierror)
    call oasis_def_var(v7, 'F7D', part, nodims, OASIS_In, [1], OASIS_Double, ierror)
    nodims = [1, 2]
    call oasis_def_var(v2, 'F2D', part, nodims, OASIS_In, [1], OASIS_Real, ierror)
    call oasis_def_var(v6, 'F6D', part, nodims, OASIS_In, [1], OASIS_Real, ierror)
    ! A field the namcouple does not name gets id -1.
    call oasis_def_var(v3, 'UNUSED', part, nodims, OASIS_In, [1], OASIS_Real, ierror)
    call expect(v3 == -1, 'var_id of a field the namcouple does not name')
  end if
  call oasis_enddef(ierror)
  call expect(ierror == OASIS_Ok, 'oasis_enddef')
  do k = 1, steps
    t = (k - 1) * dt
    if (component == 'src') then
      f1 = values(t, 0)
      f4 = f1 + 0.25d0
      f5 = f1 + 0.5d0
      do i = 1, 2
        f2(:, i) = real(values(t, i))
      end do
      call oasis_put_inquire(v1, t, kinfo)
      call expect(kinfo == put1(k), 'oasis_put_inquire F1S')
      call oasis_put(v1, t, f1, kinfo)
      call expect(kinfo == put1(k), 'oasis_put F1S')
      call oasis_put(v2, t, f2, kinfo)
      call expect(kinfo == put2(k), 'oasis_put F2S')
      call oasis_put(v3, t, f1, kinfo)
      call expect(kinfo == put3(k), 'oasis_put F3S')
      call oasis_put(v4, t, f4, kinfo)
      call expect(kinfo == OASIS_Waitgroup, 'oasis_put F4S')
      call oasis_put(v5, t, f5, kinfo)
      call expect(kinfo == OASIS_Sent, 'oasis_put F5S')
      do i = 1, 2
        f6(:, i) = real(values(t, i))
      end do
      call oasis_put(v6, t, f6, kinfo)
      call expect(kinfo == put6(k), 'oasis_put F6S')
      call oasis_put(v7, t, f1, kinfo)
      call expect(kinfo == put1(k), 'oasis_put F7S')
    else
      f1 = -1
      f2 = -1
      call oasis_get(v1, t, f1, kinfo)
      call expect(kinfo == get1(k), 'oasis_get F1D')
      if (kinfo == OASIS_Recvd) call expect(all(f1 == values(t, 0)), 'F1D values')
      call oasis_get(v2, t, f2, kinfo)
      call expect(kinfo == get2(k), 'oasis_get F2D')
      ! The value for t: the average of the puts at t - 1200 and t - 600; zero at 0.
      if (kinfo == OASIS_RecvOut .and. t == 0) call expect(all(f2 == 0), 'F2D first value (zero)')
      if (kinfo == OASIS_RecvOut .and. t > 0) then
        do i = 1, 2
          call expect(all(f2(:, i) == real(0.5d0 * (values(t - 1200, i) + values(t - 600, i)))), &
                      'F2D values')
        end do
      end if
      call oasis_get(v4, t, f4, kinfo)
      call expect(kinfo == OASIS_Recvd, 'oasis_get F4D')
      call oasis_get(v5, t, f5, kinfo)
      call expect(kinfo == OASIS_Recvd, 'oasis_get F5D')
      call expect(all(f4 == values(t, 0) + 0.25d0), 'F4D values')
      call expect(all(f5 == values(t, 0) + 0.5d0), 'F5D values')
      f6 = -1
      f7 = -1
      call oasis_get(v6, t, f6, kinfo)
      call expect(kinfo == get1(k), 'oasis_get F6D')
      ! BLASOLD on the sum of the puts at t - 600 and t (at 0: the put at 0), then BLASNEW;
      ! integers and halves: exact in real(4) at every step.
      if (kinfo == OASIS_Recvd) then
        do i = 1, 2
          f7 = values(t, i)
          if (t > 0) f7 = f7 + values(t - 600, i)
          call expect(all(f6(:, i) == real((f7 * 2 + 1.5d0) * 0.5d0 - 3)), 'F6D values')
        end do
      end if
      call oasis_get(v7, t, f7, kinfo)
      call expect(kinfo == get1(k), 'oasis_get F7D')
      if (kinfo == OASIS_Recvd) &
        call expect(all(f7 == (values(t, 0) * 0.1d0 + 273.15d0) * 3.0d0), 'F7D values')
    end if
  end do
  call check_multi_intracomm()
  call mpi_allreduce(MPI_IN_PLACE, failures, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierror)
  call oasis_terminate(ierror)
  if (world_rank == 0) then
    if (failures == 0) then
      print '(a)', 'partition zoo: every value and every kinfo as expected'
    else
      print '(a,i0,a)', 'partition zoo: ', failures, ' checks failed'
    end if
  end if
  call mpi_finalize(ierror)
  if (failures /= 0) error stop 1

contains

  ! Both components with a blank name between them: "dst" (numbered first, by name),
  ! then "src", each in its local rank order. A list without another component is an
  ! error (on every rank, before any communication).
  subroutine check_multi_intracomm()
    integer :: joined, joined_rank, joined_size, world_size, roots(3), lonely(1)
    call mpi_comm_size(MPI_COMM_WORLD, world_size, ierror)
    call oasis_get_multi_intracomm(joined, [character(len=5) :: 'src', ' ', 'dst'], roots, kinfo)
    call expect(kinfo == OASIS_Ok, 'oasis_get_multi_intracomm kinfo')
    call expect(all(roots == [world_size - n1, -1, 0]), 'oasis_get_multi_intracomm root_ranks')
    call mpi_comm_size(joined, joined_size, ierror)
    call mpi_comm_rank(joined, joined_rank, ierror)
    call expect(joined_size == world_size, 'oasis_get_multi_intracomm size')
    call expect(joined_rank == rank + merge(world_size - n1, 0, component == 'src'), &
                'oasis_get_multi_intracomm rank')
    call mpi_comm_free(joined, ierror)
    call oasis_get_multi_intracomm(joined, [component], lonely, kinfo)
    call expect(kinfo == OASIS_Error, 'oasis_get_multi_intracomm of one component')
  end subroutine check_multi_intracomm

  ! The values of field member m at this rank's ids at time t: g + 100 m + t / 600 at
  ! global id g (0-based), integers exact in real(4), halves in averages.
  function values(t, m)
    integer, intent(in) :: t, m
    double precision :: values(size(ids))
    values = ids + 100 * m + t / 600
  end function values

  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (ok) return
    failures = failures + 1
    write (0, '(a,a,a,a,a,i0,a,i0,a,i0)') 'partition zoo: ', what, ' wrong on ', trim(component), &
      ' rank ', rank, ' at t = ', t, ', kinfo ', kinfo
  end subroutine expect

  ! ig_paral of `form` for `rank` of `parts`, and the 0-based ids it holds in order.
  subroutine partition(form, rank, parts, ig_paral, ids)
    character(len=*), intent(in) :: form
    integer, intent(in) :: rank, parts
    integer, allocatable, intent(out) :: ig_paral(:), ids(:)
    integer :: rows, first, count, j, n, holders, me
    ! apple/box: rows dealt to the holders (world rank 1 holds none with 3+ ranks)
    holders = parts
    me = rank
    if (parts >= 3) then
      holders = parts - 1
      if (rank == 1) me = -1
      if (rank > 1) me = rank - 1
    end if
    select case (form)
    case ('serial')
      n = 0
      if (rank == 0) n = nx * ny
      ig_paral = [0, 0, n]
      ids = [(j, j = 0, n - 1)]
    case ('apple', 'box')
      rows = ny / holders
      first = me * rows
      count = rows
      if (me == holders - 1) count = ny - first
      if (me < 0) count = 0
      if (me < 0) first = 0
      if (form == 'apple') then
        ig_paral = [1, first * nx, count * nx]
      else
        ig_paral = [2, first * nx, nx, count, nx]
      end if
      ids = [(j, j = first * nx, (first + count) * nx - 1)]
    case ('orange')
      ! rows j with j mod parts == rank, one segment each
      n = 0
      do j = rank, ny - 1, parts
        n = n + 1
      end do
      allocate (ig_paral(2 + 2 * n), ids(0))
      ig_paral(1:2) = [3, n]
      n = 0
      do j = rank, ny - 1, parts
        ig_paral(3 + 2 * n:4 + 2 * n) = [j * nx, nx]
        ids = [ids, (j * nx + count, count = 0, nx - 1)]
        n = n + 1
      end do
    case ('points')
      ! round robin, 1-based indices, in decreasing order
      ids = [((nx * ny - 1 - j), j = 0, nx * ny - 1)]
      ids = pack(ids, mod(ids, parts) == rank)
      ig_paral = [4, size(ids), ids + 1]
    case default
      write (0, *) 'partition zoo: unknown form ', form
      error stop 2
    end select
  end subroutine partition

end program partition_zoo
