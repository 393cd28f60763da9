! The 1024 x 512, 14-field redistribution of OASIS3-MCT's reference benchmark, through
! mod_oasis: component A (the first half of the ranks) holds BOX partitions (px x 1
! blocks of columns), B (the other half) round-robin POINTS (rank r holds every point g
! with g mod P = r); 14 real(8) fields per coupling step, LAG=0, no transformation, one
! namcouple entry per field (or one grouped entry with "grouped"). The program writes
! its namcouple. Every 10th step checks every received value and is not timed.
! One-way time: the 14 gets of B (max over B's ranks, median over steps); setup:
! oasis_init_comp to the end of oasis_enddef (max over all ranks).
! usage: mpiexec -n 2P oasis_redistribution [NX NY STEPS [grouped]]
program oasis_redistribution
  use mod_oasis
  use mpi
  implicit none
  integer, parameter :: fields = 14
  integer :: nx = 1024, ny = 512, steps = 50
  logical :: grouped
  character(len=32) :: arg
  character(len=8) :: names(fields)
  integer :: ierror, world, wsize, compid, local, rank, nranks, part, f, s, i, kinfo, unit
  integer :: var(fields), timed, bad
  integer, allocatable :: ig_paral(:), ids(:)
  double precision, allocatable :: data(:, :), times(:)
  double precision :: t0, setup, elapsed
  logical :: is_a

  call mpi_init(ierror)
  call mpi_comm_rank(MPI_COMM_WORLD, world, ierror)
  call mpi_comm_size(MPI_COMM_WORLD, wsize, ierror)
  if (command_argument_count() >= 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) steps
  end if
  grouped = .false.
  if (command_argument_count() >= 4) then
    call get_command_argument(4, arg)
    grouped = arg == 'grouped'
  end if
  is_a = world < wsize / 2
  do f = 1, fields
    write (names(f), '(a,i2.2)') 'FLD', f
  end do
  if (world == 0) then
    open (newunit=unit, file='namcouple', status='replace')
    write (unit, '(a)') '$NFIELDS', ' 14', '$RUNTIME', ' 100000000', '$NLOGPRT', ' 0 0', '$STRINGS'
    if (grouped) then
      write (unit, '(a)') join('A') // ' ' // join('B') // ' 1 1 0 r.nc EXPORTED'
      write (unit, '(a)') 'agrd bgrd'
    else
      do f = 1, fields
        write (unit, '(a)') 'A' // trim(names(f)) // ' B' // trim(names(f)) // ' 1 1 0 r.nc EXPORTED', &
          'agrd bgrd'
      end do
    end if
    close (unit)
  end if
  call mpi_barrier(MPI_COMM_WORLD, ierror)

  call mpi_barrier(MPI_COMM_WORLD, ierror)
  t0 = mpi_wtime()
  if (is_a) then
    call oasis_init_comp(compid, 'compa', ierror)
  else
    call oasis_init_comp(compid, 'compb', ierror)
  end if
  call oasis_get_localcomm(local, ierror)
  call mpi_comm_rank(local, rank, ierror)
  call mpi_comm_size(local, nranks, ierror)
  if (is_a) then
    ! columns [x0, x0 + w) of every row
    block
      integer :: x0, w, j
      w = nx / nranks
      x0 = rank * w
      if (rank == nranks - 1) w = nx - x0
      ig_paral = [2, x0, w, ny, nx]
      ids = [((j * nx + x0 + i, i = 0, w - 1), j = 0, ny - 1)]
    end block
  else
    ids = [(i, i = rank, nx * ny - 1, nranks)]
    ig_paral = [4, size(ids), ids + 1]
  end if
  call oasis_def_partition(part, ig_paral, ierror)
  do f = 1, fields
    if (is_a) then
      call oasis_def_var(var(f), 'A' // names(f), part, [1, 1], OASIS_Out, [1], OASIS_Real, ierror)
    else
      call oasis_def_var(var(f), 'B' // names(f), part, [1, 1], OASIS_In, [1], OASIS_Real, ierror)
    end if
  end do
  call oasis_enddef(ierror)
  if (ierror /= OASIS_Ok) call oasis_abort(compid, 'oasis_redistribution', 'oasis_enddef failed')
  setup = mpi_wtime() - t0
  call mpi_allreduce(MPI_IN_PLACE, setup, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierror)

  allocate (data(size(ids), fields), times(steps))
  timed = 0
  bad = 0
  do s = 0, steps - 1
    if (is_a) then
      do f = 1, fields
        data(:, f) = ids * 100d0 + f + s
      end do
    end if
    call mpi_barrier(MPI_COMM_WORLD, ierror)
    t0 = mpi_wtime()
    do f = 1, fields
      if (is_a) then
        call oasis_put(var(f), s, data(:, f), kinfo)
      else
        call oasis_get(var(f), s, data(:, f), kinfo)
      end if
    end do
    elapsed = mpi_wtime() - t0
    if (is_a) elapsed = 0
    call mpi_allreduce(MPI_IN_PLACE, elapsed, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierror)
    if (mod(s, 10) == 9) then
      if (.not. is_a) then
        do f = 1, fields
          if (any(data(:, f) /= ids * 100d0 + f + s)) bad = bad + 1
        end do
      end if
    else
      timed = timed + 1
      times(timed) = elapsed
    end if
  end do
  call mpi_allreduce(MPI_IN_PLACE, bad, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierror)
  call oasis_terminate(ierror)
  if (world == 0) then
    call sort(times(1:timed))
    print '(a,i0,a,i0,a,i0,a,a,a,f9.3,a,f9.1,a,i0)', 'grid ', nx, ' x ', ny, ', ranks per component ', &
      wsize / 2, ', ', merge('1 grouped entry', '14 entries     ', grouped), ': one-way ', &
      1d3 * times((timed + 1) / 2), ' ms, setup ', 1d3 * setup, ' ms, wrong fields ', bad
  end if
  call mpi_finalize(ierror)
  if (bad /= 0) error stop 1

contains

  function join(prefix) result(list)
    character(len=*), intent(in) :: prefix
    character(len=:), allocatable :: list
    integer :: k
    list = prefix // trim(names(1))
    do k = 2, fields
      list = list // ':' // prefix // trim(names(k))
    end do
  end function join

  subroutine sort(a)
    double precision, intent(inout) :: a(:)
    integer :: p, q
    double precision :: x
    do p = 2, size(a)
      x = a(p)
      q = p - 1
      do while (q >= 1)
        if (a(q) <= x) exit
        a(q + 1) = a(q)
        q = q - 1
      end do
      a(q + 1) = x
    end do
  end subroutine sort

end program oasis_redistribution
