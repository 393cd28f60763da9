! Moves a real(8) field with 2 values per point from a block layout to a round-robin
! layout through the installed module and checks every value. Exit code: 0 if every
! rank got the right values, 1 otherwise, the same on all ranks.
program fortran_consumer
  use, intrinsic :: iso_c_binding, only: c_loc
  use, intrinsic :: iso_fortran_env, only: int64, real64
  use mpi
  use ferry
  implicit none

  integer(int64), parameter :: n = 1000
  type(ferry_layout) :: src, dst
  type(ferry_exchange) :: exchange
  integer(int64) :: src_n, dst_n
  integer(int64), allocatable :: src_ids(:), dst_ids(:)
  real(real64), allocatable, target :: out(:, :), in(:, :)
  integer :: rank, nranks, field, wrong, total, ierr

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)

  call ferry_layout_create_block(n, nranks, rank, src, ierr)
  call check(ierr)
  call ferry_layout_create_round_robin(n, nranks, rank, dst, ierr)
  call check(ierr)
  call ferry_layout_local_size(src, src_n, ierr)
  call ferry_layout_local_size(dst, dst_n, ierr)
  allocate (src_ids(src_n), dst_ids(dst_n), out(2, src_n), in(2, dst_n))
  call ferry_layout_get_ids(src, src_ids, ierr)
  call check(ierr)
  call ferry_layout_get_ids(dst, dst_ids, ierr)
  call check(ierr)

  call ferry_exchange_create(MPI_COMM_WORLD, src, dst, 'default', exchange, ierr)
  call check(ierr)
  call ferry_exchange_add_field(exchange, FERRY_TYPE_FLOAT64, 2, field, ierr)
  call check(ierr)
  call ferry_exchange_setup(exchange, ierr)
  call check(ierr)
  out(1, :) = 10 * src_ids
  out(2, :) = 10 * src_ids + 1
  in = -1
  call ferry_exchange_execute(exchange, [c_loc(out)], [c_loc(in)], ierr)
  call check(ierr)
  wrong = count(nint(in(1, :)) /= 10 * dst_ids) + count(nint(in(2, :)) /= 10 * dst_ids + 1)

  call ferry_exchange_destroy(exchange, ierr)
  call ferry_layout_destroy(src, ierr)
  call ferry_layout_destroy(dst, ierr)
  call MPI_Allreduce(wrong, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a,a,a,i0,a,i0)', 'ferry ', ferry_version(), &
    ' Fortran consumer: wrong values ', total, ' on ranks ', nranks
  call MPI_Finalize(ierr)
  if (total > 0) stop 1

contains

  ! A failed call stops this rank with its message; mpiexec then ends the others.
  subroutine check(ierr)
    integer, intent(in) :: ierr
    if (ierr /= FERRY_SUCCESS) error stop 'ferry: ' // ferry_error_message()
  end subroutine check
end program fortran_consumer
