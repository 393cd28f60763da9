! module test_checks: the checks of the Fortran test programs. Each failed check is
! printed with the rank; finish_checks agrees on the outcome across ranks, so every
! rank exits alike.
module test_checks
  use, intrinsic :: iso_fortran_env, only: error_unit, int64, real64
  use mpi
  use ferry, only: FERRY_SUCCESS, ferry_error_message, ferry_layout, ferry_layout_local_size, &
    ferry_layout_get_ids
  use ferry_c_arrays, only: address
  use ferry_regrid_mod, only: ferry_weights, ferry_remap, ferry_remap_create, &
    ferry_remap_set_fill_value, ferry_remap_setup, ferry_remap_apply, ferry_remap_destroy
  implicit none
  private
  public :: start_checks, engine_argument, expect, expect_ok, expect_error, finish_checks, &
    layout_ids, remap_once, cell_corners

  integer :: rank = 0
  integer :: failures = 0

contains

  !> After MPI_Init: the rank printed with each failure.
  subroutine start_checks()
    integer :: ierr
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  end subroutine start_checks

  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (ok) return
    failures = failures + 1
    write (error_unit, '(a,i0,a,a)') '[rank ', rank, '] check failed: ', what
  end subroutine expect

  !> A call that must succeed; on failure prints the library message.
  subroutine expect_ok(code, what)
    integer, intent(in) :: code
    character(len=*), intent(in) :: what
    call expect(code == FERRY_SUCCESS, what // ': ' // ferry_error_message())
  end subroutine expect_ok

  !> A call that must fail with `code` and a message containing `text`.
  subroutine expect_error(got, code, text, what)
    integer, intent(in) :: got, code
    character(len=*), intent(in) :: text, what
    call expect(got == code, what // ': wrong code, message: ' // ferry_error_message())
    call expect(index(ferry_error_message(), text) > 0, what // ': message "' // &
                ferry_error_message() // '" lacks "' // text // '"')
  end subroutine expect_error

  !> Collective: finalises MPI and stops with 1 on every rank if any check failed.
  subroutine finish_checks()
    integer :: total, ierr
    call MPI_Allreduce(failures, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (failures > 0) write (error_unit, '(a,i0,a,i0,a)') '(rank ', rank, ' failed: ', &
      failures, ' checks)'
    call MPI_Finalize(ierr)
    if (total > 0) stop 1
  end subroutine finish_checks

  !> The engine of the argument --engine=NAME; p2p without one.
  function engine_argument() result(name)
    character(len=32) :: name
    character(len=64) :: argument
    integer :: i
    name = 'p2p'
    do i = 1, command_argument_count()
      call get_command_argument(i, argument)
      if (argument(1:9) == '--engine=') name = argument(10:)
    end do
  end function engine_argument

  !> The global ids of this rank's points of `layout`, allocated to its local size.
  subroutine layout_ids(layout, ids)
    type(ferry_layout), intent(in) :: layout
    integer(int64), allocatable, intent(out) :: ids(:)
    integer(int64) :: n
    integer :: ierr
    call ferry_layout_local_size(layout, n, ierr)
    call expect_ok(ierr, 'layout_ids: local size')
    allocate (ids(n))
    call ferry_layout_get_ids(layout, ids, ierr)
    call expect_ok(ierr, 'layout_ids: ids')
  end subroutine layout_ids

  !> The corners (west, east, east, west; south, south, north, north) of the cells
  !> `ids` of a regular nx x ny longitude-latitude grid, cell id = j * nx + i.
  subroutine cell_corners(ids, nx, ny, lon, lat)
    integer(int64), intent(in) :: ids(:), nx, ny
    real(real64), allocatable, intent(out) :: lon(:, :), lat(:, :)
    real(real64) :: west, east, south, north
    integer(int64) :: k
    allocate (lon(4, size(ids)), lat(4, size(ids)))
    do k = 1, size(ids)
      west = 360 * real(mod(ids(k), nx), real64) / real(nx, real64)
      east = west + 360 / real(nx, real64)
      south = -90 + 180 * real(ids(k) / nx, real64) / real(ny, real64)
      north = south + 180 / real(ny, real64)
      lon(:, k) = [west, east, east, west]
      lat(:, k) = [south, south, north, north]
    end do
  end subroutine cell_corners

  !> Collective: remaps one real(8) value per point with w from src_layout to
  !> dst_layout on engine, once; rows without links get `fill`.
  subroutine remap_once(w, src_layout, dst_layout, engine, fill, in, out)
    type(ferry_weights), intent(in) :: w
    type(ferry_layout), intent(in) :: src_layout, dst_layout
    character(len=*), intent(in) :: engine
    real(real64), intent(in) :: fill
    real(real64), intent(in), target :: in(:)
    real(real64), intent(out), target :: out(:)
    type(ferry_remap) :: remap
    integer :: ierr
    call ferry_remap_create(MPI_COMM_WORLD, w, src_layout, dst_layout, engine, remap, ierr)
    call ferry_remap_set_fill_value(remap, fill, ierr)
    call ferry_remap_setup(remap, ierr)
    call expect_ok(ierr, 'remap setup')
    out = 0
    call ferry_remap_apply(remap, [address(in)], [address(out)], ierr)
    call expect_ok(ierr, 'remap apply')
    call ferry_remap_destroy(remap, ierr)
  end subroutine remap_once

end module test_checks
