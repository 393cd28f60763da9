! Allocations that fail inside ferry return FERRY_ERR_NO_MEMORY through the Fortran
! module too: a layout too large for this rank, and an exchange whose buffers do not fit
! (the same on every rank). Run under a memory limit (ulimit -v).
program no_memory
  use, intrinsic :: iso_fortran_env, only: int64
  use mpi
  use ferry
  implicit none
  type(ferry_layout) :: huge, src, dst
  type(ferry_exchange) :: exchange
  integer :: rank, nranks, ierr, field, done

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call ferry_layout_create_block(2_int64**34, 1, 0, huge, ierr)
  write (*, '(a,i0,a,i0,a)') 'fault-case rank ', rank, ': layout: code ', ierr, ': ' // &
    ferry_error_message()
  call ferry_layout_create_block(48_int64, nranks, rank, src, ierr)
  call ferry_layout_create_round_robin(48_int64, nranks, rank, dst, ierr)
  call ferry_exchange_create(MPI_COMM_WORLD, src, dst, 'p2p', exchange, ierr)
  call ferry_exchange_add_field(exchange, FERRY_TYPE_FLOAT64, 2**24, field, ierr)
  call ferry_exchange_setup(exchange, ierr)
  write (*, '(a,i0,a,i0,a)') 'fault-case rank ', rank, ': exchange: code ', ierr, ': ' // &
    ferry_error_message()
  call ferry_exchange_destroy(exchange, done)
  call ferry_layout_destroy(src, done)
  call ferry_layout_destroy(dst, done)
  call MPI_Finalize(ierr)
end program no_memory
