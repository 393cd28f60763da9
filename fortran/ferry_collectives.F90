! module ferry_collectives_mod: the all-to-all-v and all-reduce algorithms of the
! tuning study (docs/user/tuning.md) as drop-ins for MPI_Alltoallv and
! MPI_Allreduce(MPI_SUM), set up once and executed many times, and the algorithm
! `ferry tune kernels` recorded as this machine's fastest, for Fortran 2018 over the C
! API (ferry/collectives.h). Named _mod because its types are ferry_alltoallv and
! ferry_allreduce, as in C. The constants FERRY_ALLTOALLV_*, FERRY_ALLREDUCE_* and
! FERRY_TYPE_* come with module ferry.
!
! As in module ferry: routines end with `integer, intent(out) :: ierr` and
! communicators are integer handles. Counts and displacements are those of
! MPI_Alltoallv: integer(c_int), one per rank of comm, in values, the displacements
! 0-based. The values are 1-D arrays of real(8), real(4), integer(4) or integer(8), the
! type given to create (generic execute); a section that is not contiguous is copied
! in and out by the compiler. An all-reduce sums in place with one array,
! ferry_allreduce_execute(allreduce, values, ierr), never with one array passed as
! both send and recv (Fortran forbids that aliasing).
!
! Creation is collective and agrees on its errors: a wrong argument on one rank fails
! every rank alike (create of an all-to-all-v checks the length of its count arrays
! with one MPI_Allreduce more). execute costs what the algorithm costs: it checks its
! arrays on this rank only (their type, and room for what the counts and
! displacements reach, or for count values), without communication. A rank whose
! arrays fail these checks still takes part in the collective, with stand-in values,
! and leaves its arrays as they were, so that no other rank waits for it; it alone gets
! the error, the others FERRY_SUCCESS and, in place of its values, NaN (floating types)
! or 0 (integer types).
module ferry_collectives_mod
  use, intrinsic :: iso_c_binding
  use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
  use ferry_constants, only: FERRY_SUCCESS, FERRY_ERR_ARG, FERRY_TYPE_FLOAT64, &
    FERRY_TYPE_FLOAT32, FERRY_TYPE_INT32, FERRY_TYPE_INT64
  use ferry_argument_error, only: fail => ferry_record_argument_error
  use ferry_argument_checks, only: room
  use ferry_c_arrays, only: address, type_names
  use ferry_collective_checks, only: array_check, check_count, agree_checks
  implicit none
  private

  !> An all-to-all-v (ferry_alltoallv* in C), its FERRY_TYPE_*, and the values its
  !> send and recv arrays must hold on this rank: the end of the farthest non-empty
  !> block, max(displs + counts).
  type, public :: ferry_alltoallv
    type(c_ptr) :: ptr = c_null_ptr
    integer :: type = -1
    integer(c_int64_t) :: send_values = 0
    integer(c_int64_t) :: recv_values = 0
  end type ferry_alltoallv

  !> An all-reduce (ferry_allreduce* in C), its FERRY_TYPE_* and its count of values.
  type, public :: ferry_allreduce
    type(c_ptr) :: ptr = c_null_ptr
    integer :: type = -1
    integer(c_int64_t) :: count = 0
  end type ferry_allreduce

  public :: ferry_alltoallv_tuned_algorithm, ferry_allreduce_tuned_algorithm
  public :: ferry_alltoallv_create, ferry_alltoallv_execute, ferry_alltoallv_get_algorithm
  public :: ferry_alltoallv_destroy
  public :: ferry_allreduce_create, ferry_allreduce_execute, ferry_allreduce_get_algorithm
  public :: ferry_allreduce_destroy

  !> Collective: MPI_Alltoallv of send into recv, 1-D arrays of the alltoallv's type.
  interface ferry_alltoallv_execute
    module procedure alltoallv_execute_float64, alltoallv_execute_float32, &
      alltoallv_execute_int32, alltoallv_execute_int64
  end interface ferry_alltoallv_execute

  !> Collective: (allreduce, send, recv, ierr) sums send over all ranks into recv;
  !> (allreduce, values, ierr) sums values in place. 1-D arrays of the allreduce's type.
  interface ferry_allreduce_execute
    module procedure allreduce_execute_float64, allreduce_execute_float32, &
      allreduce_execute_int32, allreduce_execute_int64, allreduce_in_place_float64, &
      allreduce_in_place_float32, allreduce_in_place_int32, allreduce_in_place_int64
  end interface ferry_allreduce_execute

  ! The C API, and the shims of ferry_collectives_f.cpp (suffix _f) for the calls that
  ! take a communicator.
  interface
    function c_comm_size(comm) bind(C, name='ferry_comm_size_f') result(ranks)
      import :: c_int
      integer(c_int), value :: comm
      integer(c_int) :: ranks
    end function c_comm_size
    function c_alltoallv_tuned(comm, cache, block_bytes, fallback, algorithm) &
        bind(C, name='ferry_alltoallv_tuned_algorithm_f') result(ierr)
      import :: c_char, c_int, c_int64_t
      integer(c_int), value :: comm, fallback
      character(kind=c_char), intent(in) :: cache(*)
      integer(c_int64_t), value :: block_bytes
      integer(c_int), intent(inout) :: algorithm
      integer(c_int) :: ierr
    end function c_alltoallv_tuned
    function c_allreduce_tuned(comm, cache, vector_bytes, fallback, algorithm) &
        bind(C, name='ferry_allreduce_tuned_algorithm_f') result(ierr)
      import :: c_char, c_int, c_int64_t
      integer(c_int), value :: comm, fallback
      character(kind=c_char), intent(in) :: cache(*)
      integer(c_int64_t), value :: vector_bytes
      integer(c_int), intent(inout) :: algorithm
      integer(c_int) :: ierr
    end function c_allreduce_tuned

    function c_alltoallv_create(comm, algorithm, type, send_counts, send_displs, recv_counts, &
                                recv_displs, alltoallv) &
        bind(C, name='ferry_alltoallv_create_f') result(ierr)
      import :: c_int, c_ptr
      integer(c_int), value :: comm, algorithm, type
      integer(c_int), intent(in) :: send_counts(*), send_displs(*), recv_counts(*)
      integer(c_int), intent(in) :: recv_displs(*)
      type(c_ptr), intent(out) :: alltoallv
      integer(c_int) :: ierr
    end function c_alltoallv_create
    function c_alltoallv_execute(alltoallv, send, recv) &
        bind(C, name='ferry_alltoallv_execute') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: alltoallv, send, recv
      integer(c_int) :: ierr
    end function c_alltoallv_execute
    function c_alltoallv_get_algorithm(alltoallv, algorithm) &
        bind(C, name='ferry_alltoallv_get_algorithm') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: alltoallv
      integer(c_int), intent(inout) :: algorithm
      integer(c_int) :: ierr
    end function c_alltoallv_get_algorithm
    function c_alltoallv_destroy(alltoallv) bind(C, name='ferry_alltoallv_destroy') &
        result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: alltoallv
      integer(c_int) :: ierr
    end function c_alltoallv_destroy

    function c_allreduce_create(comm, algorithm, type, count, allreduce) &
        bind(C, name='ferry_allreduce_create_f') result(ierr)
      import :: c_int, c_ptr
      integer(c_int), value :: comm, algorithm, type, count
      type(c_ptr), intent(out) :: allreduce
      integer(c_int) :: ierr
    end function c_allreduce_create
    function c_allreduce_execute(allreduce, send, recv) &
        bind(C, name='ferry_allreduce_execute') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: allreduce, send, recv
      integer(c_int) :: ierr
    end function c_allreduce_execute
    function c_allreduce_get_algorithm(allreduce, algorithm) &
        bind(C, name='ferry_allreduce_get_algorithm') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: allreduce
      integer(c_int), intent(inout) :: algorithm
      integer(c_int) :: ierr
    end function c_allreduce_get_algorithm
    function c_allreduce_destroy(allreduce) bind(C, name='ferry_allreduce_destroy') &
        result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: allreduce
      integer(c_int) :: ierr
    end function c_allreduce_destroy
  end interface

contains

  ! ---- The tuning cache ----

  !> Collective over comm; cache and block_bytes the same on every rank. algorithm gets
  !> the FERRY_ALLTOALLV_* that `ferry tune kernels` recorded in the tuning cache file
  !> cache for this number of ranks and the size class of block_bytes (the bytes one
  !> rank sends one rank), or fallback if cache is '', has no such entry or names an
  !> algorithm this ferry lacks (rank 0 reads the file; its problems are logged, never
  !> returned). An unknown fallback or negative block_bytes: FERRY_ERR_ARG on every
  !> rank, and algorithm = fallback.
  subroutine ferry_alltoallv_tuned_algorithm(comm, cache, block_bytes, fallback, algorithm, &
                                             ierr)
    integer, intent(in) :: comm, fallback
    character(len=*), intent(in) :: cache
    integer(c_int64_t), intent(in) :: block_bytes
    integer, intent(out) :: algorithm
    integer, intent(out) :: ierr
    integer(c_int) :: chosen
    chosen = int(fallback, c_int)
    ierr = c_alltoallv_tuned(int(comm, c_int), trim(cache) // c_null_char, block_bytes, &
                             int(fallback, c_int), chosen)
    algorithm = chosen
  end subroutine ferry_alltoallv_tuned_algorithm

  !> The same for an all-reduce of a vector of vector_bytes bytes: a FERRY_ALLREDUCE_*.
  subroutine ferry_allreduce_tuned_algorithm(comm, cache, vector_bytes, fallback, algorithm, &
                                             ierr)
    integer, intent(in) :: comm, fallback
    character(len=*), intent(in) :: cache
    integer(c_int64_t), intent(in) :: vector_bytes
    integer, intent(out) :: algorithm
    integer, intent(out) :: ierr
    integer(c_int) :: chosen
    chosen = int(fallback, c_int)
    ierr = c_allreduce_tuned(int(comm, c_int), trim(cache) // c_null_char, vector_bytes, &
                             int(fallback, c_int), chosen)
    algorithm = chosen
  end subroutine ferry_allreduce_tuned_algorithm

  ! ---- All-to-all-v ----

  !> Collective over comm (duplicated: the caller may free it); algorithm
  !> (FERRY_ALLTOALLV_*) and type (FERRY_TYPE_*) the same on every rank. An
  !> all-to-all-v with the counts and displacements of MPI_Alltoallv, one per rank of
  !> comm (copied). Errors, on every rank alike: FERRY_ERR_ARG_SIZE for count arrays
  !> of another length than the size of comm, or recv_counts(s + 1) on one rank that
  !> is not send_counts(rank + 1) on rank s; FERRY_ERR_ARG for a negative count or
  !> displacement or an unknown constant.
  subroutine ferry_alltoallv_create(comm, algorithm, type, send_counts, send_displs, &
                                    recv_counts, recv_displs, alltoallv, ierr)
    integer, intent(in) :: comm, algorithm, type
    integer(c_int), intent(in) :: send_counts(:), send_displs(:), recv_counts(:), recv_displs(:)
    type(ferry_alltoallv), intent(out) :: alltoallv
    integer, intent(out) :: ierr
    character(len=*), parameter :: per_rank = ', one per rank of comm (MPI_Comm_size)'
    type(array_check) :: check
    integer(c_int64_t) :: ranks
    ranks = c_comm_size(int(comm, c_int))
    if (ranks > 0) then  ! else comm is MPI_COMM_NULL, which C reports
      call check_count(check, 'send_counts', size(send_counts, kind=c_int64_t), ranks, per_rank)
      call check_count(check, 'send_displs', size(send_displs, kind=c_int64_t), ranks, per_rank)
      call check_count(check, 'recv_counts', size(recv_counts, kind=c_int64_t), ranks, per_rank)
      call check_count(check, 'recv_displs', size(recv_displs, kind=c_int64_t), ranks, per_rank)
      call agree_checks(comm, 'ferry_alltoallv_create', check, ierr)
      if (ierr /= FERRY_SUCCESS) return
    end if
    ierr = c_alltoallv_create(int(comm, c_int), int(algorithm, c_int), int(type, c_int), &
                              send_counts, send_displs, recv_counts, recv_displs, alltoallv%ptr)
    if (ierr /= FERRY_SUCCESS) return
    alltoallv%type = type
    alltoallv%send_values = reach(send_counts, send_displs)
    alltoallv%recv_values = reach(recv_counts, recv_displs)
  end subroutine ferry_alltoallv_create

  ! The values an array must hold for blocks of counts values at displs: the end of
  ! the farthest non-empty block.
  pure integer(c_int64_t) function reach(counts, displs)
    integer(c_int), intent(in) :: counts(:), displs(:)
    reach = max(0_c_int64_t, maxval(int(displs, c_int64_t) + counts, mask=counts > 0))
  end function reach

  ! The execute behind every specific of ferry_alltoallv_execute: sends block d of send
  ! (send_displs(d + 1) values in) to rank d and receives rank s's block into recv at
  ! recv_displs(s + 1), what MPI_Alltoallv delivers whatever the algorithm; recv
  ! outside the blocks is left alone. send and recv must not overlap. array_type is
  ! the FERRY_TYPE_* of the caller's arrays.
  subroutine alltoallv_any(alltoallv, send, recv, array_type, ierr)
    type(ferry_alltoallv), intent(in) :: alltoallv
    type(*), dimension(..), intent(in), target :: send
    type(*), dimension(..), intent(inout), target :: recv
    integer, intent(in) :: array_type
    integer, intent(out) :: ierr
    integer(c_int64_t), allocatable, target :: poison(:), ignored(:)
    integer :: code
    if (arrays_fit(alltoallv%ptr, alltoallv%type, array_type, 'ferry_alltoallv_execute', &
                   'send', size(send, kind=c_int64_t), alltoallv%send_values, &
                   'recv', size(recv, kind=c_int64_t), alltoallv%recv_values, ierr)) then
      ierr = c_alltoallv_execute(alltoallv%ptr, address(send), address(recv))
      return
    end if
    ! This rank takes part with stand-in values, so that the other ranks do not wait
    ! for it, and keeps the error found.
    call stand_in(alltoallv%send_values, alltoallv%type, poison)
    allocate (ignored(max(alltoallv%recv_values, 1_c_int64_t)))
    code = c_alltoallv_execute(alltoallv%ptr, c_loc(poison), c_loc(ignored))
    if (code /= FERRY_SUCCESS) ierr = code
  end subroutine alltoallv_any

  ! What a rank whose arrays failed the checks sends in their place: `values` values of
  ! the FERRY_TYPE_* `type` (8 bytes each, enough for any type), quiet NaNs for the
  ! floating types, so that the other ranks' results show the missing values, and 0 for
  ! the integer types.
  subroutine stand_in(values, type, poison)
    integer(c_int64_t), intent(in) :: values
    integer, intent(in) :: type
    integer(c_int64_t), allocatable, intent(out) :: poison(:)
    integer(c_int64_t) :: pattern
    pattern = 0
    if (type == FERRY_TYPE_FLOAT64) pattern = transfer(ieee_value(0.0_c_double, ieee_quiet_nan), &
                                                       pattern)
    if (type == FERRY_TYPE_FLOAT32) pattern = transfer(spread(ieee_value(0.0_c_float, &
                                                       ieee_quiet_nan), 1, 2), pattern)
    allocate (poison(max(values, 1_c_int64_t)), source=pattern)
  end subroutine stand_in

  !> Not collective: the FERRY_ALLTOALLV_* it runs.
  subroutine ferry_alltoallv_get_algorithm(alltoallv, algorithm, ierr)
    type(ferry_alltoallv), intent(in) :: alltoallv
    integer, intent(out) :: algorithm
    integer, intent(out) :: ierr
    integer(c_int) :: got
    got = -1
    ierr = c_alltoallv_get_algorithm(alltoallv%ptr, got)
    algorithm = got
  end subroutine ferry_alltoallv_get_algorithm

  !> Frees the all-to-all-v; the handle is left as a new one.
  subroutine ferry_alltoallv_destroy(alltoallv, ierr)
    type(ferry_alltoallv), intent(inout) :: alltoallv
    integer, intent(out) :: ierr
    ierr = c_alltoallv_destroy(alltoallv%ptr)
    alltoallv = ferry_alltoallv()
  end subroutine ferry_alltoallv_destroy

  ! ---- All-reduce ----

  !> Collective over comm (duplicated); algorithm (FERRY_ALLREDUCE_*), type
  !> (FERRY_TYPE_*) and count (>= 0) the same on every rank, else FERRY_ERR_ARG on
  !> every rank. A sum over all ranks of count values.
  subroutine ferry_allreduce_create(comm, algorithm, type, count, allreduce, ierr)
    integer, intent(in) :: comm, algorithm, type, count
    type(ferry_allreduce), intent(out) :: allreduce
    integer, intent(out) :: ierr
    ierr = c_allreduce_create(int(comm, c_int), int(algorithm, c_int), int(type, c_int), &
                              int(count, c_int), allreduce%ptr)
    if (ierr /= FERRY_SUCCESS) return
    allreduce%type = type
    allreduce%count = count
  end subroutine ferry_allreduce_create

  ! The execute behind every specific of ferry_allreduce_execute: recv(1:count) = the
  ! element-wise sum over all ranks of send(1:count), the same bits on every rank; in
  ! place without send. Integer sums equal MPI_Allreduce's; floating sums may differ
  ! from it in the last bits (another order), but not between runs. array_type is the
  ! FERRY_TYPE_* of the caller's arrays.
  subroutine allreduce_any(allreduce, recv, array_type, ierr, send)
    type(ferry_allreduce), intent(in) :: allreduce
    type(*), dimension(..), intent(inout), target :: recv
    integer, intent(in) :: array_type
    integer, intent(out) :: ierr
    type(*), dimension(..), intent(in), target, optional :: send
    character(len=*), parameter :: routine = 'ferry_allreduce_execute'
    integer(c_int64_t), allocatable, target :: poison(:)
    integer(c_int64_t) :: n
    integer :: code
    logical :: ok
    n = size(recv, kind=c_int64_t)
    if (present(send)) then
      ok = arrays_fit(allreduce%ptr, allreduce%type, array_type, routine, 'send', &
                      size(send, kind=c_int64_t), allreduce%count, 'recv', n, allreduce%count, &
                      ierr)
      if (ok) ierr = c_allreduce_execute(allreduce%ptr, address(send), address(recv))
    else
      ok = arrays_fit(allreduce%ptr, allreduce%type, array_type, routine, 'values', n, &
                      allreduce%count, 'values', n, allreduce%count, ierr)
      if (ok) ierr = c_allreduce_execute(allreduce%ptr, address(recv), address(recv))
    end if
    if (ok) return
    ! This rank adds stand-in values, so that the other ranks do not wait for it, and
    ! keeps the error found.
    call stand_in(allreduce%count, allreduce%type, poison)
    code = c_allreduce_execute(allreduce%ptr, c_loc(poison), c_loc(poison))
    if (code /= FERRY_SUCCESS) ierr = code
  end subroutine allreduce_any

  !> Not collective: the FERRY_ALLREDUCE_* it runs.
  subroutine ferry_allreduce_get_algorithm(allreduce, algorithm, ierr)
    type(ferry_allreduce), intent(in) :: allreduce
    integer, intent(out) :: algorithm
    integer, intent(out) :: ierr
    integer(c_int) :: got
    got = -1
    ierr = c_allreduce_get_algorithm(allreduce%ptr, got)
    algorithm = got
  end subroutine ferry_allreduce_get_algorithm

  !> Frees the all-reduce; the handle is left as a new one.
  subroutine ferry_allreduce_destroy(allreduce, ierr)
    type(ferry_allreduce), intent(inout) :: allreduce
    integer, intent(out) :: ierr
    ierr = c_allreduce_destroy(allreduce%ptr)
    allreduce = ferry_allreduce()
  end subroutine ferry_allreduce_destroy

  ! ---- Checks of execute's arrays (this rank only) ----

  ! True if this rank's arrays suit a collective of `type` made (ptr associated):
  ! array_type is that type, and arrays of send_size and recv_size values have room for
  ! send_needed and recv_needed; else records the first problem. A handle that was never
  ! made is left to C.
  logical function arrays_fit(ptr, type, array_type, routine, send_name, send_size, &
                              send_needed, recv_name, recv_size, recv_needed, ierr) result(ok)
    type(c_ptr), intent(in) :: ptr
    integer, intent(in) :: type, array_type
    character(len=*), intent(in) :: routine, send_name, recv_name
    integer(c_int64_t), intent(in) :: send_size, send_needed, recv_size, recv_needed
    integer, intent(out) :: ierr
    ok = .true.
    ierr = FERRY_SUCCESS
    if (.not. c_associated(ptr)) return
    if (array_type /= type) then
      call fail(routine, FERRY_ERR_ARG, 'the arrays are ' // trim(type_names(array_type)) // &
                ', expected ' // trim(type_names(type)) // ', the type given to create. ' // &
                'Pass arrays of that type', ierr)
      ok = .false.
      return
    end if
    ok = room(send_size, send_needed, routine, send_name, ierr)
    if (ok) ok = room(recv_size, recv_needed, routine, recv_name, ierr)
  end function arrays_fit

  ! ---- The specifics, one set per Fortran type ----

#define FERRY_ELEMENT real(c_double)
#define FERRY_CODE FERRY_TYPE_FLOAT64
#define FERRY_EXECUTE_ALLTOALLV alltoallv_execute_float64
#define FERRY_EXECUTE_ALLREDUCE allreduce_execute_float64
#define FERRY_EXECUTE_IN_PLACE allreduce_in_place_float64
#include "collectives_execute.inc"
#undef FERRY_ELEMENT
#undef FERRY_CODE
#undef FERRY_EXECUTE_ALLTOALLV
#undef FERRY_EXECUTE_ALLREDUCE
#undef FERRY_EXECUTE_IN_PLACE

#define FERRY_ELEMENT real(c_float)
#define FERRY_CODE FERRY_TYPE_FLOAT32
#define FERRY_EXECUTE_ALLTOALLV alltoallv_execute_float32
#define FERRY_EXECUTE_ALLREDUCE allreduce_execute_float32
#define FERRY_EXECUTE_IN_PLACE allreduce_in_place_float32
#include "collectives_execute.inc"
#undef FERRY_ELEMENT
#undef FERRY_CODE
#undef FERRY_EXECUTE_ALLTOALLV
#undef FERRY_EXECUTE_ALLREDUCE
#undef FERRY_EXECUTE_IN_PLACE

#define FERRY_ELEMENT integer(c_int32_t)
#define FERRY_CODE FERRY_TYPE_INT32
#define FERRY_EXECUTE_ALLTOALLV alltoallv_execute_int32
#define FERRY_EXECUTE_ALLREDUCE allreduce_execute_int32
#define FERRY_EXECUTE_IN_PLACE allreduce_in_place_int32
#include "collectives_execute.inc"
#undef FERRY_ELEMENT
#undef FERRY_CODE
#undef FERRY_EXECUTE_ALLTOALLV
#undef FERRY_EXECUTE_ALLREDUCE
#undef FERRY_EXECUTE_IN_PLACE

#define FERRY_ELEMENT integer(c_int64_t)
#define FERRY_CODE FERRY_TYPE_INT64
#define FERRY_EXECUTE_ALLTOALLV alltoallv_execute_int64
#define FERRY_EXECUTE_ALLREDUCE allreduce_execute_int64
#define FERRY_EXECUTE_IN_PLACE allreduce_in_place_int64
#include "collectives_execute.inc"
#undef FERRY_ELEMENT
#undef FERRY_CODE
#undef FERRY_EXECUTE_ALLTOALLV
#undef FERRY_EXECUTE_ALLREDUCE
#undef FERRY_EXECUTE_IN_PLACE

end module ferry_collectives_mod
