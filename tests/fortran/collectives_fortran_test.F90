! The module ferry_collectives_mod from Fortran.
!
! - ferry_alltoallv_execute with every algorithm, real(8) and integer(4): rank s sends
!   mod(s + 2 d, 3) values to rank d (zero counts included), at displacements with a
!   gap of one value after each block; every value received equals its formula of
!   (source, destination, index), the gaps keep their sentinel, MPI_Alltoallv delivers
!   the same, and so does a strided (not contiguous) recv section.
! - ferry_allreduce_execute with every algorithm, real(8) (integer values, so every
!   order is exact) and integer(8), out of place (recv longer than count: the rest is
!   left alone) and in place: the exact sums on every rank.
! - Every algorithm with nothing to move or sum, and empty arrays.
! - The tuning cache: no cache gives the fallback; a cache line in the format of
!   `ferry tune kernels` gives its algorithm for its size class only.
! - Error codes of create and the tuning cache, five of them from a wrong argument on
!   the last rank only, which every rank must report alike; errors of execute, found on
!   one rank only: that rank alone fails, still taking part, and the others finish the
!   call with NaN for its values, after which the handles work as before.
! Failures are agreed across ranks, so every rank exits alike.
program collectives_fortran_test
  use, intrinsic :: iso_c_binding, only: c_associated, c_int
  use, intrinsic :: ieee_arithmetic, only: ieee_is_nan
  use, intrinsic :: iso_fortran_env, only: int32, int64, real32, real64
  use mpi
  use ferry
  use ferry_collectives_mod
  use test_checks
  implicit none

  integer, parameter :: gap = 1, count = 5
  real(real64), parameter :: sentinel = -1

  ! This rank's counts and displacements (values), as MPI_Alltoallv takes them, and
  ! the lengths of its send and recv arrays.
  type :: blocks
    integer(c_int), allocatable :: send_counts(:), send_displs(:)
    integer(c_int), allocatable :: recv_counts(:), recv_displs(:)
    integer :: send_total = 0, recv_total = 0
  end type blocks

  integer :: rank, nranks, ierr
  logical :: last

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call start_checks()
  last = rank == nranks - 1

  call test_alltoallv()
  call test_allreduce()
  call test_nothing()
  call test_tuning_cache()
  call test_create_errors()
  call test_alltoallv_execute_errors()
  call test_allreduce_execute_errors()
  call finish_checks()

contains

  ! ---- All-to-all-v ----

  ! The values rank `from` sends rank `to`, and the j-th of them (0-based).
  integer function send_count(from, to)
    integer, intent(in) :: from, to
    send_count = mod(from + 2 * to, 3)
  end function send_count

  real(real64) function value(from, to, j)
    integer, intent(in) :: from, to, j
    value = 1000.0_real64 * from + 10 * to + j
  end function value

  ! This rank's blocks, with a gap of `gap` values after each.
  function make_blocks() result(b)
    type(blocks) :: b
    integer :: r
    allocate (b%send_counts(nranks), b%send_displs(nranks), b%recv_counts(nranks), &
              b%recv_displs(nranks))
    do r = 1, nranks
      b%send_counts(r) = send_count(rank, r - 1)
      b%send_displs(r) = b%send_total
      b%send_total = b%send_total + b%send_counts(r) + gap
      b%recv_counts(r) = send_count(r - 1, rank)
      b%recv_displs(r) = b%recv_total
      b%recv_total = b%recv_total + b%recv_counts(r) + gap
    end do
  end function make_blocks

  subroutine test_alltoallv()
    integer, parameter :: types(2) = [FERRY_TYPE_FLOAT64, FERRY_TYPE_INT32]
    type(blocks) :: b
    type(ferry_alltoallv) :: a
    real(real64), allocatable :: send(:), got(:), reference(:), wide(:, :)
    character(len=40) :: label
    integer :: t, algorithm, got_algorithm, d, j
    b = make_blocks()
    allocate (send(b%send_total), got(b%recv_total), reference(b%recv_total))
    send = sentinel
    do d = 1, nranks
      do j = 1, b%send_counts(d)
        send(b%send_displs(d) + j) = value(rank, d - 1, j - 1)
      end do
    end do
    do t = 1, size(types)
      do algorithm = FERRY_ALLTOALLV_MPI, FERRY_ALLTOALLV_BRUCK
        write (label, '(a,i0,a,i0)') 'alltoallv type ', types(t), ' algorithm ', algorithm
        call ferry_alltoallv_create(MPI_COMM_WORLD, algorithm, types(t), b%send_counts, &
                                    b%send_displs, b%recv_counts, b%recv_displs, a, ierr)
        call expect_ok(ierr, trim(label) // ': create')
        call ferry_alltoallv_get_algorithm(a, got_algorithm, ierr)
        call expect(ierr == FERRY_SUCCESS .and. got_algorithm == algorithm, &
                    trim(label) // ': get_algorithm')
        call transpose(a, types(t), b, send, got, reference)
        call expect_received(b, got, trim(label))
        call expect(all(got == reference), trim(label) // ': not what MPI_Alltoallv delivers')
        if (types(t) == FERRY_TYPE_FLOAT64) then
          ! recv as a strided section: the compiler copies it in and out.
          allocate (wide(2, b%recv_total), source=sentinel)
          call ferry_alltoallv_execute(a, send, wide(1, :), ierr)
          call expect_ok(ierr, trim(label) // ': strided recv')
          call expect(all(wide(1, :) == got) .and. all(wide(2, :) == sentinel), &
                      trim(label) // ': strided recv differs')
          deallocate (wide)
        end if
        call ferry_alltoallv_destroy(a, ierr)
        call expect(ierr == FERRY_SUCCESS .and. .not. c_associated(a%ptr), &
                    trim(label) // ': destroy clears the handle')
      end do
    end do
  end subroutine test_alltoallv

  ! ferry's all-to-all-v and MPI_Alltoallv of send (values of `type`, held as real(8))
  ! in arrays of that type (real(8) or integer(4)): got and reference, as real(8), the
  ! arrays received into holding the sentinel before.
  subroutine transpose(a, type, b, send, got, reference)
    type(ferry_alltoallv), intent(in) :: a
    integer, intent(in) :: type
    type(blocks), intent(in) :: b
    real(real64), intent(in) :: send(:)
    real(real64), intent(out) :: got(:), reference(:)
    real(real64), allocatable :: recv(:)
    integer(int32), allocatable :: send4(:), recv4(:)
    if (type == FERRY_TYPE_FLOAT64) then
      allocate (recv(size(got)), source=sentinel)
      call ferry_alltoallv_execute(a, send, recv, ierr)
      call expect_ok(ierr, 'alltoallv execute, real(8)')
      got = recv
      recv = sentinel
      call MPI_Alltoallv(send, b%send_counts, b%send_displs, MPI_REAL8, recv, b%recv_counts, &
                         b%recv_displs, MPI_REAL8, MPI_COMM_WORLD, ierr)
      reference = recv
    else
      allocate (send4, source=int(send, int32))
      allocate (recv4(size(got)), source=int(sentinel, int32))
      call ferry_alltoallv_execute(a, send4, recv4, ierr)
      call expect_ok(ierr, 'alltoallv execute, integer(4)')
      got = recv4
      recv4 = int(sentinel, int32)
      call MPI_Alltoallv(send4, b%send_counts, b%send_displs, MPI_INTEGER4, recv4, &
                         b%recv_counts, b%recv_displs, MPI_INTEGER4, MPI_COMM_WORLD, ierr)
      reference = recv4
    end if
  end subroutine transpose

  ! got holds each rank's block by the formula and the sentinel in the gaps.
  subroutine expect_received(b, got, label)
    type(blocks), intent(in) :: b
    real(real64), intent(in) :: got(:)
    character(len=*), intent(in) :: label
    character(len=80) :: what
    integer :: s, at, n, j
    do s = 0, nranks - 1
      at = b%recv_displs(s + 1)
      n = b%recv_counts(s + 1)
      write (what, '(a,a,i0)') label, ': the block from rank ', s
      call expect(all(got(at + 1:at + n) == [(value(s, rank, j), j = 0, n - 1)]), &
                  trim(what) // ' is not the formula')
      if (at + n < size(got)) &
        call expect(got(at + n + 1) == sentinel, trim(what) // ': the gap after it was written')
    end do
  end subroutine expect_received

  ! ---- All-reduce ----

  subroutine test_allreduce()
    type(ferry_allreduce) :: doubles, integers
    real(real64) :: x(count), y(count), total(count + 1), want(count)
    integer(int64) :: k(count), l(count), ksum(count + 1), want_k(count)
    integer(int64) :: p
    character(len=40) :: label
    integer :: algorithm, got, i
    p = nranks
    do i = 1, count
      x(i) = 3.0_real64 * rank + (i - 1) - 1e12_real64
      k(i) = rank * 1000000007_int64 + (i - 1)
      want(i) = 3.0_real64 * real(p * (p - 1) / 2, real64) + &
                real(p, real64) * ((i - 1) - 1e12_real64)
      want_k(i) = p * (p - 1) / 2 * 1000000007_int64 + p * (i - 1)
    end do
    do algorithm = FERRY_ALLREDUCE_MPI, FERRY_ALLREDUCE_RING
      write (label, '(a,i0)') 'allreduce algorithm ', algorithm
      call ferry_allreduce_create(MPI_COMM_WORLD, algorithm, FERRY_TYPE_FLOAT64, count, doubles, &
                                  ierr)
      call expect_ok(ierr, trim(label) // ': create real(8)')
      call ferry_allreduce_create(MPI_COMM_WORLD, algorithm, FERRY_TYPE_INT64, count, integers, &
                                  ierr)
      call expect_ok(ierr, trim(label) // ': create integer(8)')
      call ferry_allreduce_get_algorithm(doubles, got, ierr)
      call expect(ierr == FERRY_SUCCESS .and. got == algorithm, trim(label) // ': get_algorithm')

      total = sentinel
      call ferry_allreduce_execute(doubles, x, total, ierr)
      call expect_ok(ierr, trim(label) // ': real(8) out of place')
      call expect(all(total(:count) == want) .and. total(count + 1) == sentinel, &
                  trim(label) // ': real(8) sums out of place')
      y = x
      call ferry_allreduce_execute(doubles, y, ierr)
      call expect_ok(ierr, trim(label) // ': real(8) in place')
      call expect(all(y == want), trim(label) // ': real(8) sums in place')

      ksum = -1
      call ferry_allreduce_execute(integers, k, ksum, ierr)
      call expect_ok(ierr, trim(label) // ': integer(8) out of place')
      call expect(all(ksum(:count) == want_k) .and. ksum(count + 1) == -1, &
                  trim(label) // ': integer(8) sums out of place')
      l = k
      call ferry_allreduce_execute(integers, l, ierr)
      call expect_ok(ierr, trim(label) // ': integer(8) in place')
      call expect(all(l == want_k), trim(label) // ': integer(8) sums in place')

      call ferry_allreduce_destroy(doubles, ierr)
      call expect(ierr == FERRY_SUCCESS .and. .not. c_associated(doubles%ptr), &
                  trim(label) // ': destroy clears the handle')
      call ferry_allreduce_destroy(integers, ierr)
    end do
  end subroutine test_allreduce

  ! Every algorithm moves and sums nothing with empty arrays (C receives NULL).
  subroutine test_nothing()
    type(ferry_alltoallv) :: a
    type(ferry_allreduce) :: r
    integer(c_int) :: zeros(nranks)
    real(real64) :: none(0), nothing(0)
    integer :: algorithm
    zeros = 0
    do algorithm = FERRY_ALLTOALLV_MPI, FERRY_ALLTOALLV_BRUCK
      call ferry_alltoallv_create(MPI_COMM_WORLD, algorithm, FERRY_TYPE_FLOAT64, zeros, zeros, &
                                  zeros, zeros, a, ierr)
      call expect_ok(ierr, 'alltoallv of nothing: create')
      call ferry_alltoallv_execute(a, none, nothing, ierr)
      call expect_ok(ierr, 'alltoallv of nothing: execute')
      call ferry_alltoallv_destroy(a, ierr)
    end do
    do algorithm = FERRY_ALLREDUCE_MPI, FERRY_ALLREDUCE_RING
      call ferry_allreduce_create(MPI_COMM_WORLD, algorithm, FERRY_TYPE_FLOAT64, 0, r, ierr)
      call expect_ok(ierr, 'allreduce of nothing: create')
      call ferry_allreduce_execute(r, none, nothing, ierr)
      call expect_ok(ierr, 'allreduce of nothing: execute')
      call ferry_allreduce_execute(r, none, ierr)
      call expect_ok(ierr, 'allreduce of nothing: execute in place')
      call ferry_allreduce_destroy(r, ierr)
    end do
  end subroutine test_nothing

  ! ---- The tuning cache ----

  ! The first line of the MPI library's version, as the tuning cache keys it.
  function mpi_library() result(line)
    character(len=:), allocatable :: line
    character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: text
    integer :: length, i
    call MPI_Get_library_version(text, length, ierr)
    line = text(:length)
    i = index(line, achar(10))
    if (i > 0) line = line(:i - 1)
    line = trim(line)
    do i = 1, len(line)
      if (line(i:i) == '|') line(i:i) = '/'
    end do
  end function mpi_library

  subroutine test_tuning_cache()
    character(len=40) :: path
    character(len=80) :: what
    integer :: unit, algorithm, c
    ! Cases: alltoallv?, bytes, expected.
    logical, parameter :: alltoallv(4) = [.true., .true., .false., .false.]
    integer(int64), parameter :: bytes(4) = [40, 200, 130, 100]
    integer, parameter :: expected(4) = [FERRY_ALLTOALLV_SWAP, FERRY_ALLTOALLV_MPI, &
                                         FERRY_ALLREDUCE_HALVING, FERRY_ALLREDUCE_RING]
    call ferry_alltoallv_tuned_algorithm(MPI_COMM_WORLD, '', 64_int64, FERRY_ALLTOALLV_BRUCK, &
                                         algorithm, ierr)
    call expect(ierr == FERRY_SUCCESS .and. algorithm == FERRY_ALLTOALLV_BRUCK, &
                'no cache gives the fallback')

    ! One entry per operation, for the size classes 32 (32..127 bytes) and 128.
    write (path, '(a,i0,a)') 'ferry_collectives_fortran_np', nranks, '.txt'
    if (rank == 0) then
      open (newunit=unit, file=trim(path), status='replace', action='write')
      write (unit, '(a)') 'ferry-tuning-cache 1'
      write (unit, '(a,i0,a)') 'ranks=', nranks, ' tuned=alltoallv bytes=32 mpi=' // &
        mpi_library() // ' | swap | mpi=2e-06 swap=1e-06'
      write (unit, '(a,i0,a)') 'ranks=', nranks, ' tuned=allreduce bytes=128 mpi=' // &
        mpi_library() // ' | halving | mpi=2e-06 halving=1e-06'
      close (unit)
    end if
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    do c = 1, size(bytes)
      algorithm = -1
      if (alltoallv(c)) then
        call ferry_alltoallv_tuned_algorithm(MPI_COMM_WORLD, path, bytes(c), &
                                             FERRY_ALLTOALLV_MPI, algorithm, ierr)
      else
        call ferry_allreduce_tuned_algorithm(MPI_COMM_WORLD, path, bytes(c), &
                                             FERRY_ALLREDUCE_RING, algorithm, ierr)
      end if
      write (what, '(a,i0,a,i0,a,i0,a,i0)') 'tuning cache case ', c, ' (', bytes(c), &
        ' bytes): got ', algorithm, ', expected ', expected(c)
      call expect(ierr == FERRY_SUCCESS .and. algorithm == expected(c), trim(what))
    end do
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    if (rank == 0) then
      open (newunit=unit, file=trim(path), status='old')
      close (unit, status='delete')
    end if
  end subroutine test_tuning_cache

  ! ---- Errors ----

  subroutine test_create_errors()
    type(blocks) :: b
    type(ferry_alltoallv) :: a
    type(ferry_allreduce) :: r
    integer(c_int), allocatable :: displs(:)
    integer :: algorithm
    character(len=16) :: last_rank
    write (last_rank, '(a,i0)') 'on rank ', nranks - 1
    b = make_blocks()
    call ferry_alltoallv_create(MPI_COMM_WORLD, 7, FERRY_TYPE_FLOAT64, b%send_counts, &
                                b%send_displs, b%recv_counts, b%recv_displs, a, ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'unknown algorithm 7', 'unknown algorithm')
    call ferry_allreduce_create(MPI_COMM_WORLD, FERRY_ALLREDUCE_MPI, 9, count, r, ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'unknown type 9', 'unknown type')
    call ferry_allreduce_tuned_algorithm(MPI_COMM_WORLD, '', 8_int64, 4, algorithm, ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'unknown fallback 4', 'unknown fallback')
    call expect(algorithm == 4, 'a failed tuned_algorithm gives the fallback')
    call ferry_alltoallv_tuned_algorithm(MPI_COMM_WORLD, '', -1_int64, FERRY_ALLTOALLV_MPI, &
                                         algorithm, ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'bytes is -1', 'negative bytes')

    ! The last rank only: a count array one short, a negative displacement, an
    ! algorithm or a count that differs.
    call ferry_alltoallv_create(MPI_COMM_WORLD, FERRY_ALLTOALLV_RING, FERRY_TYPE_FLOAT64, &
                                b%send_counts, b%send_displs, &
                                b%recv_counts(:merge(nranks - 1, nranks, last)), &
                                b%recv_displs, a, ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'recv_counts has ', 'short recv_counts')
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, trim(last_rank) // ', expected ', &
                      'short recv_counts: the last rank is named')
    displs = b%send_displs
    if (last) displs(1) = -1
    call ferry_alltoallv_create(MPI_COMM_WORLD, FERRY_ALLTOALLV_SWAP, FERRY_TYPE_FLOAT64, &
                                b%send_counts, displs, b%recv_counts, b%recv_displs, a, ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'send_displs[0] is -1', 'negative displacement')
    if (nranks > 1) then
      call ferry_allreduce_create(MPI_COMM_WORLD, &
                                  merge(FERRY_ALLREDUCE_RING, FERRY_ALLREDUCE_MPI, last), &
                                  FERRY_TYPE_INT64, count, r, ierr)
      call expect_error(ierr, FERRY_ERR_ARG, &
                        'the ranks pass different algorithm (from mpi to ring)', &
                        'algorithm differs on the last rank')
      call ferry_allreduce_create(MPI_COMM_WORLD, FERRY_ALLREDUCE_MPI, FERRY_TYPE_INT64, &
                                  merge(count + 1, count, last), r, ierr)
      call expect_error(ierr, FERRY_ERR_ARG, 'the ranks pass different count (from 5 to 6)', &
                        'count differs on the last rank')
    end if
    ! What rank 0 expects from the last rank is not what that rank sends.
    if (rank == 0) b%recv_counts(nranks) = b%recv_counts(nranks) + 1
    call ferry_alltoallv_create(MPI_COMM_WORLD, FERRY_ALLTOALLV_BRUCK, FERRY_TYPE_INT32, &
                                b%send_counts, b%send_displs, b%recv_counts, b%recv_displs, a, &
                                ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'expects recv_counts[', 'inconsistent counts')
    call expect(.not. c_associated(a%ptr) .and. .not. c_associated(r%ptr), &
                'a failed create leaves the handle unset')
  end subroutine test_create_errors

  ! One value from every rank to every rank: a wrong array on the last rank fails it
  ! alone; it still takes part, so the others get NaN from it.
  subroutine test_alltoallv_execute_errors()
    type(ferry_alltoallv) :: a, never
    integer(c_int) :: ones(nranks), displs(nranks)
    real(real64) :: send(nranks), recv(nranks), want(nranks)
    real(real32) :: send4(nranks), recv4(nranks)
    integer :: d
    ones = 1
    displs = [(d, d = 0, nranks - 1)]
    send = [(value(rank, d, 0), d = 0, nranks - 1)]
    want = [(value(d, rank, 0), d = 0, nranks - 1)]
    call ferry_alltoallv_execute(never, send, recv, ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'alltoallv is NULL', 'execute without a handle')
    call ferry_alltoallv_create(MPI_COMM_WORLD, FERRY_ALLTOALLV_RING, FERRY_TYPE_FLOAT64, ones, &
                                displs, ones, displs, a, ierr)
    call expect_ok(ierr, 'alltoallv of ones: create')
    call expect(a%send_values == nranks .and. a%recv_values == nranks, &
                'alltoallv of ones: what the blocks reach')

    recv = sentinel
    call ferry_alltoallv_execute(a, send, recv(:merge(nranks - 1, nranks, last)), ierr)
    if (last) then
      call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'recv has ', 'short recv on the last rank')
      call expect(all(recv == sentinel), 'a short recv was written')
    else
      call expect_ok(ierr, 'the others finish the call')
      call expect(all(recv(:nranks - 1) == want(:nranks - 1)) .and. &
                  ieee_is_nan(recv(nranks)), 'the others get NaN from a rank that failed')
    end if
    send4 = real(send, real32)
    recv4 = real(sentinel, real32)
    call ferry_alltoallv_execute(a, send4, recv4, ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'the arrays are real(4), expected real(8)', &
                      'real(4) arrays for real(8)')
    call expect(all(recv4 == real(sentinel, real32)), 'arrays of the wrong type were written')

    recv = sentinel
    call ferry_alltoallv_execute(a, send, recv, ierr)
    call expect_ok(ierr, 'alltoallv of ones after the errors')
    call expect(all(recv == want), 'alltoallv of ones after the errors: values')
    call ferry_alltoallv_destroy(a, ierr)
  end subroutine test_alltoallv_execute_errors

  ! count values summed: a short send on the last rank fails it alone; it still takes
  ! part, with NaN, so the others' sums are NaN.
  subroutine test_allreduce_execute_errors()
    type(ferry_allreduce) :: r
    real(real64) :: x(count), total(count)
    real(real32) :: x4(count)
    integer(int64) :: p
    p = nranks
    call ferry_allreduce_create(MPI_COMM_WORLD, FERRY_ALLREDUCE_HALVING, FERRY_TYPE_FLOAT64, &
                                count, r, ierr)
    call expect_ok(ierr, 'allreduce: create')
    x = rank + 1
    total = sentinel
    call ferry_allreduce_execute(r, x(:merge(count - 1, count, last)), total, ierr)
    if (last) then
      call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'send has 4 elements, expected 5 or more', &
                        'short send on the last rank')
      call expect(all(total == sentinel), 'a failed execute wrote recv')
    else
      call expect_ok(ierr, 'the others finish the sum')
      call expect(all(ieee_is_nan(total)), 'the others sum NaN from the rank that failed')
    end if
    x4 = 1
    call ferry_allreduce_execute(r, x4, ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'the arrays are real(4), expected real(8)', &
                      'real(4) values in place for real(8)')
    call expect(all(x4 == 1), 'values of the wrong type were summed')
    call ferry_allreduce_execute(r, x(:count - 1), ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'values has 4 elements', 'short values in place')

    call ferry_allreduce_execute(r, x, ierr)
    call expect_ok(ierr, 'allreduce after the errors')
    call expect(all(x == real(p * (p + 1) / 2, real64)), 'allreduce after the errors: sums')
    call ferry_allreduce_destroy(r, ierr)
  end subroutine test_allreduce_execute_errors

end program collectives_fortran_test
