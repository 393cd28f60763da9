! The module ferry_buffer_mod from Fortran. The requester (rank 0, or ranks 0 and 1
! with 3 or more ranks) holds bands of columns of a global array a(nx, ny); the other
! ranks are one worker group, each reading a section that crosses the bands. The value
! at a(i, j) of step s is 100 * ((j - 1) * nx + (i - 1)) + s: the 0-based global index
! in C order, where a Fortran a(nx, ny) is the C array [ny][nx]. An integer(4)
! lossless stream and a real(8) lossy one are checked exactly, then the error paths.
! Failures are agreed across ranks, so every rank exits alike.
program buffer_fortran_test
  use, intrinsic :: iso_fortran_env, only: int32, int64, real64
  use mpi
  use ferry
  use ferry_buffer_mod
  use test_checks
  implicit none

  integer(int64), parameter :: nx = 5, ny = 6, steps = 7, max_steps = 3
  integer :: rank, nranks, requesters, group_comm, ierr

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call start_checks()
  if (nranks < 2) then
    call MPI_Finalize(ierr)
    stop 77  ! needs a requester and a worker
  end if
  requesters = merge(2, 1, nranks >= 3)
  call MPI_Comm_split(MPI_COMM_WORLD, merge(1, 0, rank < requesters), rank, group_comm, ierr)

  call test_lossless_int32()
  call test_lossy_real64()
  call test_errors()

  call MPI_Comm_free(group_comm, ierr)
  call finish_checks()

contains

  elemental integer(int64) function value_at(i, j, step)
    integer(int64), intent(in) :: i, j, step
    value_at = 100 * ((j - 1) * nx + (i - 1)) + step
  end function value_at

  ! Requester `rank`'s band: columns lower(2):upper(2), all rows.
  subroutine band(lower, upper)
    integer(int64), intent(out) :: lower(2), upper(2)
    lower = [1_int64, 1 + ny * rank / requesters]
    upper = [nx, ny * (rank + 1) / requesters]
  end subroutine band

  ! Worker `index`'s section: rows 2..nx, columns 2-index .. ny-1+index (crosses the bands).
  subroutine section(index, lower, upper)
    integer, intent(in) :: index
    integer(int64), intent(out) :: lower(2), upper(2)
    integer(int64) :: shift
    shift = mod(index, 2)
    lower = [2_int64, 2 - shift]
    upper = [nx, ny - 1 + shift]
  end subroutine section

  subroutine test_lossless_int32()
    type(ferry_buffer) :: buffer
    type(ferry_buffer_reader) :: reader
    integer(int64) :: lower(2), upper(2), capacity, step, first, n, lost, s, i, j, expected
    integer(int64) :: read_steps(max_steps)
    integer(int32), allocatable :: a(:, :), out(:, :, :)
    if (rank < requesters) then
      call band(lower, upper)
      call ferry_buffer_expose(MPI_COMM_WORLD, [nx, ny], lower, upper, FERRY_TYPE_INT32, &
                               FERRY_BUFFER_STEPS, 2_int64, FERRY_BUFFER_LOSSLESS, buffer, ierr)
      call expect_ok(ierr, 'expose')
      call ferry_buffer_get_capacity(buffer, capacity, ierr)
      call expect(ierr == FERRY_SUCCESS .and. capacity == 2, 'capacity 2')
      allocate (a(lower(1):upper(1), lower(2):upper(2)))
      do step = 10, 10 + steps - 1
        do j = lower(2), upper(2)
          do i = lower(1), upper(1)
            a(i, j) = int(value_at(i, j, step), int32)
          end do
        end do
        call ferry_buffer_load(buffer, a, step, ierr)
        call expect_ok(ierr, 'load')
      end do
      call ferry_buffer_close(buffer, ierr)
      call expect_ok(ierr, 'close')
    else
      call ferry_buffer_connect(MPI_COMM_WORLD, 0, buffer, ierr)
      call expect_ok(ierr, 'connect')
      call section(rank - requesters, lower, upper)
      call ferry_buffer_attach(buffer, group_comm, lower, upper, reader, ierr)
      call expect_ok(ierr, 'attach')
      allocate (out(lower(1):upper(1), lower(2):upper(2), max_steps))
      expected = 10
      do
        call ferry_buffer_reader_read(reader, out, max_steps, first, n, lost, ierr)
        call expect_ok(ierr, 'read')
        if (ierr /= FERRY_SUCCESS .or. n == 0) exit
        call expect(first == expected .and. lost == 0, 'read first step and no loss')
        call ferry_buffer_reader_get_steps(reader, read_steps, ierr)
        call expect_ok(ierr, 'get_steps')
        do s = 1, n
          call expect(read_steps(s) == expected + s - 1, 'step numbers in order')
          do j = lower(2), upper(2)
            do i = lower(1), upper(1)
              call expect(out(i, j, s) == value_at(i, j, read_steps(s)), 'int32 value')
            end do
          end do
        end do
        expected = expected + n
      end do
      call expect(expected == 10 + steps, 'every step read once')
      call ferry_buffer_reader_done(reader, ierr)
      call expect_ok(ierr, 'done')
      call ferry_buffer_reader_destroy(reader, ierr)
      call expect_ok(ierr, 'reader destroy')
    end if
    call ferry_buffer_destroy(buffer, ierr)
    call expect_ok(ierr, 'destroy')
  end subroutine test_lossless_int32

  ! Ten steps go by before the workers read: the ring keeps the newest three, a read of
  ! two steps returns the last two and counts eight lost.
  subroutine test_lossy_real64()
    type(ferry_buffer) :: buffer
    type(ferry_buffer_reader) :: reader
    integer(int64) :: lower(2), upper(2), step, first, n, lost, s, i, j
    integer(int64) :: read_steps(2)
    real(real64), allocatable :: a(:, :), out(:, :, :)
    if (rank < requesters) then
      call band(lower, upper)
      call ferry_buffer_expose(MPI_COMM_WORLD, [nx, ny], lower, upper, FERRY_TYPE_FLOAT64, &
                               FERRY_BUFFER_STEPS, 3_int64, FERRY_BUFFER_LOSSY, buffer, ierr)
      call expect_ok(ierr, 'lossy expose')
      call MPI_Barrier(MPI_COMM_WORLD, ierr)  ! the workers have attached
      allocate (a(lower(1):upper(1), lower(2):upper(2)))
      do step = 0, 9
        do j = lower(2), upper(2)
          do i = lower(1), upper(1)
            a(i, j) = real(value_at(i, j, step), real64)
          end do
        end do
        call ferry_buffer_load(buffer, a, step, ierr)
        call expect_ok(ierr, 'lossy load')
      end do
      call ferry_buffer_close(buffer, ierr)
      call MPI_Barrier(MPI_COMM_WORLD, ierr)
    else
      call ferry_buffer_connect(MPI_COMM_WORLD, 0, buffer, ierr)
      call section(rank - requesters + 1, lower, upper)
      call ferry_buffer_attach(buffer, group_comm, lower, upper, reader, ierr)
      call expect_ok(ierr, 'lossy attach')
      call MPI_Barrier(MPI_COMM_WORLD, ierr)
      call MPI_Barrier(MPI_COMM_WORLD, ierr)
      allocate (out(lower(1):upper(1), lower(2):upper(2), 2))
      call ferry_buffer_reader_read(reader, out, 2_int64, first, n, lost, ierr)
      call expect_ok(ierr, 'lossy read')
      call expect(first == 8 .and. n == 2 .and. lost == 8, 'newest two steps, eight lost')
      call ferry_buffer_reader_get_steps(reader, read_steps, ierr)
      do s = 1, min(n, 2_int64)
        call expect(all(out(:, :, s) == reshape([((real(value_at(i, j, read_steps(s)), real64), &
                    i = lower(1), upper(1)), j = lower(2), upper(2))], shape(out(:, :, s)))), &
                    'real64 values')
      end do
      call ferry_buffer_reader_read(reader, out, 2_int64, first, n, lost, ierr)
      call expect(ierr == FERRY_SUCCESS .and. n == 0, 'end of the stream')
      call ferry_buffer_reader_done(reader, ierr)
      call ferry_buffer_reader_destroy(reader, ierr)
    end if
    call ferry_buffer_destroy(buffer, ierr)
    call expect_ok(ierr, 'lossy destroy')
  end subroutine test_lossy_real64

  subroutine test_errors()
    type(ferry_buffer) :: buffer
    type(ferry_buffer_reader) :: reader
    integer(int64) :: lower(2), upper(2), first, n, lost
    integer(int32), allocatable :: a(:, :), out(:, :, :)
    real(real64), allocatable :: real_out(:, :, :)
    if (rank < requesters) then
      call band(lower, upper)
      call ferry_buffer_expose(MPI_COMM_WORLD, [nx, ny], lower, upper, FERRY_TYPE_INT32, &
                               FERRY_BUFFER_STEPS, 2_int64, FERRY_BUFFER_LOSSLESS, buffer, ierr)
      call expect_ok(ierr, 'expose for errors')
      allocate (a(lower(1):upper(1), lower(2):upper(2)))
      a = 0
      call ferry_buffer_load(buffer, a(:, lower(2):lower(2)), 5_int64, ierr)
      call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'ferry_buffer_load: the array has', 'short load')
      call ferry_buffer_load(buffer, a, 5_int64, ierr)
      call expect_ok(ierr, 'load step 5')
      call ferry_buffer_load(buffer, a, 5_int64, ierr)
      call expect_error(ierr, FERRY_ERR_ARG, 'Steps must strictly increase', 'repeated step')
      call ferry_buffer_close(buffer, ierr)
      call expect_ok(ierr, 'close after errors')
    else
      call ferry_buffer_connect(MPI_COMM_WORLD, 0, buffer, ierr)
      call section(0, lower, upper)
      call ferry_buffer_attach(buffer, group_comm, lower, upper(1:1), reader, ierr)
      call expect_error(ierr, FERRY_ERR_ARG, 'lower has 2 and upper 1 elements', 'short upper')
      call ferry_buffer_attach(buffer, group_comm, lower, [nx + 1, ny], reader, ierr)
      call expect_error(ierr, FERRY_ERR_ARG, 'does not lie in', 'section outside the array')
      call ferry_buffer_attach(buffer, group_comm, lower, upper, reader, ierr)
      call expect_ok(ierr, 'attach after errors')
      allocate (out(lower(1):upper(1), lower(2):upper(2), 2))
      call ferry_buffer_reader_read(reader, out, 3_int64, first, n, lost, ierr)
      call expect_error(ierr, FERRY_ERR_ARG, 'expected room for 3 steps', 'small out')
      allocate (real_out(lower(1):upper(1), lower(2):upper(2), 2))
      call ferry_buffer_reader_read(reader, real_out, 2_int64, first, n, lost, ierr)
      call expect_error(ierr, FERRY_ERR_ARG, &
                        'ferry_buffer_reader_read: out is real(8), expected integer(4)', &
                        'real(8) out for an integer(4) buffer')
      call ferry_buffer_reader_read(reader, out, 2_int64, first, n, lost, ierr)
      call expect(ierr == FERRY_SUCCESS .and. first == 5 .and. n == 1, 'read step 5')
      call ferry_buffer_reader_read(reader, out, 2_int64, first, n, lost, ierr)
      call expect(ierr == FERRY_SUCCESS .and. n == 0, 'end after errors')
      call ferry_buffer_reader_done(reader, ierr)
      call ferry_buffer_reader_destroy(reader, ierr)
    end if
    call ferry_buffer_destroy(buffer, ierr)
    call expect_ok(ierr, 'destroy after errors')
  end subroutine test_errors

end program buffer_fortran_test
