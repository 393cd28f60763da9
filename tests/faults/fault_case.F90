! The Fortran twin of fault_case.cpp's case "throw": a coupled run in which rank 1 fails
! in its own code and destroys its coupler without finalize, as a model's error path does.
!
!   fault_case_fortran ENGINE WATCHDOG
!
! Component atm runs on every rank but the last, ocn on the last; atm puts field t every
! 600 s of a 3600 s run, ocn gets it. At 1200 s rank 1 gives up: ferry_coupler_destroy
! tells every other rank at once, whose next call returns an error naming rank 1. Each
! rank prints "fault-case rank R: <what happened>", then calls MPI_Finalize and stops with
! status 1 (the ordinary end of a model that caught the error).
program fault_case_fortran
  use, intrinsic :: iso_fortran_env, only: int64, output_unit, real64
  use mpi
  use ferry
  implicit none

  integer(int64), parameter :: points = 60
  real(real64), parameter :: period = 600
  type(ferry_coupler) :: c
  type(ferry_layout) :: layout
  integer :: rank, nranks, ierr, grid, part, field, status, step, unit
  integer(int64) :: n
  integer(int64), allocatable :: ids(:)
  real(real64), allocatable :: values(:)
  real(real64) :: t
  logical :: atm
  character(len=32) :: engine, watchdog
  character(len=64) :: path

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call get_command_argument(1, engine)
  call get_command_argument(2, watchdog)
  atm = rank < nranks - 1

  ! One file per engine: the cases of several engines may run at once.
  path = 'fault_case_fortran_' // trim(engine) // '.yaml'
  if (rank == 0) then
    open (newunit=unit, file=trim(path), status='replace', action='write')
    write (unit, '(a)') 'version: 1', 'run: {start: 0, length: 3600}', &
      'output: {directory: ., timers: false}', &
      'watchdog: {timeout: ' // trim(watchdog) // ', collective_timeout: 60}', 'exchanges:', &
      '  - name: sst', '    source: {component: atm, field: t}', &
      '    target: {component: ocn, field: t_in}', '    period: 600', &
      '    engine: ' // trim(engine)
    close (unit)
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierr)

  call ferry_coupler_create(MPI_COMM_WORLD, [merge('atm', 'ocn', atm)], trim(path), c, ierr)
  if (atm) then
    call ferry_layout_create_block(points, nranks - 1, rank, layout, ierr)
    call ferry_coupler_def_grid(c, 'atm', 'g', points, 1_int64, grid, ierr)
    call ferry_coupler_def_partition(c, grid, 'p', layout, part, ierr)
    call ferry_coupler_def_field(c, part, 't', FERRY_FIELD_OUT, FERRY_TYPE_FLOAT64, 1, field, ierr)
  else
    call ferry_layout_create_round_robin(points, 1, 0, layout, ierr)
    call ferry_coupler_def_grid(c, 'ocn', 'g', points, 1_int64, grid, ierr)
    call ferry_coupler_def_partition(c, grid, 'p', layout, part, ierr)
    call ferry_coupler_def_field(c, part, 't_in', FERRY_FIELD_IN, FERRY_TYPE_FLOAT64, 1, field, ierr)
  end if
  call check('set-up')
  call ferry_layout_local_size(layout, n, ierr)
  allocate (ids(n), values(n))
  call ferry_layout_get_ids(layout, ids, ierr)
  call ferry_coupler_enddef(c, ierr)
  call check('enddef')

  do step = 0, 5
    t = period * step
    if (rank == 1 .and. step == 2) then
      call ferry_coupler_destroy(c, ierr)  ! the model's error path: no finalize
      call finish('injected failure on rank 1')
    end if
    if (atm) then
      values = 4.0_real64 * real(ids, real64) + step
      call ferry_coupler_put(c, field, t, values, status, ierr)
    else
      call ferry_coupler_get(c, field, t, values, status, ierr)
    end if
    call check('step')
  end do
  call ferry_coupler_finalize(c, ierr)
  call check('finalize')
  call finish('ok')

contains

  ! After a failed call: prints the error, frees the coupler (never waits) and stops.
  subroutine check(what)
    character(len=*), intent(in) :: what
    if (ierr == FERRY_SUCCESS) return
    call ferry_coupler_destroy(c, ierr)
    call finish(what // ': ' // ferry_error_message())
  end subroutine check

  subroutine finish(message)
    character(len=*), intent(in) :: message
    integer :: done
    write (*, '(a,i0,a)') 'fault-case rank ', rank, ': ' // message
    flush (output_unit)
    call MPI_Finalize(done)
    if (message /= 'ok') error stop 1
    stop
  end subroutine finish

end program fault_case_fortran
