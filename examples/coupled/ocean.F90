! The demo's ocean (Fortran) on a 5-degree longitude-latitude grid with a rectangular
! continent (land masked): every hour it reads the averaged fluxes (regridded from the
! atmosphere's grid, 0 on land) and puts its sea surface temperature. In the first run (start 0, no restart file yet) it also puts
! the SST at start - lag, the value the atmosphere receives at time 0.
!
!   mpiexec -n 2 atmosphere CONFIG : -n 1 ocean CONFIG START LENGTH : ...
program ocean
  use, intrinsic :: iso_fortran_env, only: error_unit, int32, int64, real64
  use mpi
  use ferry
  implicit none

  integer(int64), parameter :: nx = 72, ny = 36
  real(real64), parameter :: step = 3600, lag = 3600, pi = 3.14159265358979323846_real64
  type(ferry_coupler) :: coupler
  type(ferry_layout) :: layout
  integer :: ierr, comm, rank, nranks, grid, part, sst_field, fluxes_field, status
  integer(int64) :: n, i
  integer(int64), allocatable :: ids(:)
  integer(int32), allocatable :: mask(:)
  real(real64), allocatable :: sst(:), fluxes(:, :), lon(:), lat(:)
  real(real64) :: start, length, time
  character(len=512) :: config, arg

  call MPI_Init(ierr)
  call get_command_argument(1, config)
  call get_command_argument(2, arg)
  read (arg, *) start
  call get_command_argument(3, arg)
  read (arg, *) length

  call ferry_coupler_create(MPI_COMM_WORLD, ['ocean'], trim(config), coupler, ierr)
  call check(ierr)
  call ferry_coupler_local_comm(coupler, 'ocean', comm, ierr)
  call MPI_Comm_rank(comm, rank, ierr)
  call MPI_Comm_size(comm, nranks, ierr)
  call ferry_coupler_def_grid(coupler, 'ocean', 'lonlat', nx, ny, grid, ierr)
  call ferry_layout_create_orange(nx, ny, nranks, rank, layout, ierr)   ! latitude bands
  call check(ierr)
  call ferry_coupler_def_partition(coupler, grid, 'bands', layout, part, ierr)
  call ferry_layout_local_size(layout, n, ierr)
  allocate (ids(n), sst(n), fluxes(2, n), lon(n), lat(n), mask(n))
  call ferry_layout_get_ids(layout, ids, ierr)     ! 0-based global ids
  lon = 2.5_real64 + 5 * real(mod(ids, nx), real64)
  lat = -87.5_real64 + 5 * real(ids / nx, real64)
  ! The continent: the box the weight file's land mask covers (run_demo.sh).
  mask = merge(0, 1, lon > 100 .and. lon < 140 .and. lat > -30 .and. lat < 30)
  call ferry_coupler_set_coordinates(coupler, part, lon, lat, ierr)
  call check(ierr)
  call ferry_coupler_set_mask(coupler, part, mask, ierr)
  call check(ierr)
  call ferry_coupler_def_field(coupler, part, 'sst', FERRY_FIELD_OUT, FERRY_TYPE_FLOAT64, 1, &
                               sst_field, ierr)
  call ferry_coupler_def_field(coupler, part, 'fluxes_in', FERRY_FIELD_IN, FERRY_TYPE_FLOAT64, 2, &
                               fluxes_field, ierr)
  call check(ierr)
  call ferry_coupler_enddef(coupler, ierr)
  call check(ierr)

  fluxes = 0

  if (start == 0) then                             ! no restart file in the first run
    call compute_sst(start - lag)
    call ferry_coupler_put(coupler, sst_field, start - lag, sst, status, ierr)
    call check(ierr)
  end if
  time = start
  do while (time < start + length)
    call ferry_coupler_get(coupler, fluxes_field, time, fluxes, status, ierr)
    call check(ierr)
    call compute_sst(time)
    call ferry_coupler_put(coupler, sst_field, time, sst, status, ierr)
    call check(ierr)
    time = time + step
  end do

  call ferry_coupler_finalize(coupler, ierr)
  call check(ierr)
  call ferry_coupler_destroy(coupler, ierr)
  call ferry_layout_destroy(layout, ierr)
  call MPI_Finalize(ierr)

contains

  ! SST: a latitude profile, a slow oscillation and the last averaged heat flux.
  subroutine compute_sst(t)
    real(real64), intent(in) :: t
    do i = 1, n
      sst(i) = 285 + 10 * cos(lat(i) * pi / 180) + 0.05_real64 * fluxes(1, i) &
               + 0.5_real64 * sin(2 * pi * t / (4 * 86400))
    end do
  end subroutine compute_sst

  ! A failed call ends the whole job: the other ranks may be waiting for this one.
  subroutine check(ierr)
    integer, intent(in) :: ierr
    integer :: ignored
    if (ierr == FERRY_SUCCESS) return
    write (error_unit, '(a)') 'ferry: ' // ferry_error_message()
    call MPI_Abort(MPI_COMM_WORLD, ierr, ignored)
  end subroutine check
end program ocean
