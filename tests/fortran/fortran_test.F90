! The module ferry from Fortran: an exchange of a real(8) field with 3 levels and an
! integer(4) field (block -> round robin, execute and masked begin/end), and a coupler
! run of two components ("atm" on the first half of the ranks, "ocn" on the rest; one
! rank runs both) with a configuration written here: put/get every 100 s of arrays of
! rank 1 to 3 and of every supported type, exchanges every 200 and 400 s, a bundle.
! Every value is checked against a function of the global id and time, and the error
! paths give their codes. Then a time-series buffer of the configuration from atm to
! ocn, its values a function of the global id and step, read back exactly, and its
! error paths. Failures are agreed across ranks, so every rank exits alike.
program fortran_test
  use, intrinsic :: iso_c_binding, only: c_associated, c_f_pointer, c_loc, c_ptr
  use, intrinsic :: iso_fortran_env, only: int32, int64, real32, real64
  use mpi
  use ferry
  use test_checks
  implicit none

  integer, parameter :: levels = 3
  integer(int64), parameter :: nx = 12, ny = 5, n = nx * ny
  integer :: rank, nranks, ierr

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call start_checks()

  call test_exchange()
  call test_destination_field()
  call test_coupler()
  call test_coupler_buffer()

  call finish_checks()

contains

  ! What sources send at 0-based global id `id`, time `t`, level `level` (exact).
  elemental real(real64) function value_f64(id, t, level)
    integer(int64), intent(in) :: id
    real(real64), intent(in) :: t
    integer, intent(in) :: level
    value_f64 = 1000.0_real64 * real(id, real64) + t / 100 + 0.125_real64 * level
  end function value_f64

  elemental integer(int32) function value_i32(id, t)
    integer(int64), intent(in) :: id
    real(real64), intent(in) :: t
    value_i32 = int(7 * id + nint(t / 100), int32)
  end function value_i32

  subroutine test_exchange()
    type(ferry_layout) :: src, dst
    type(ferry_exchange) :: ex
    integer(int64) :: src_n, dst_n
    integer(int64), allocatable :: src_ids(:), dst_ids(:)
    real(real64), allocatable, target :: temp(:, :), temp_in(:, :)
    integer(int32), allocatable, target :: flag(:), flag_in(:)
    type(c_ptr) :: sources(2), targets(2)
    character(len=:), allocatable :: engine
    integer :: temp_field, flag_field, l, step

    call ferry_layout_create_block(n, nranks, rank, src, ierr)
    call expect_ok(ierr, 'block')
    call ferry_layout_create_round_robin(n, nranks, rank, dst, ierr)
    call expect_ok(ierr, 'round_robin')
    call ferry_layout_local_size(src, src_n, ierr)
    call ferry_layout_local_size(dst, dst_n, ierr)
    allocate (src_ids(src_n), dst_ids(dst_n))
    call ferry_layout_get_ids(src, src_ids, ierr)
    call expect_ok(ierr, 'get_ids')
    call ferry_layout_get_ids(dst, dst_ids, ierr)
    call expect_ok(ierr, 'get_ids')
    call ferry_layout_get_ids(dst, src_ids(1:0), ierr)
    if (dst_n > 0) call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'Size it with ferry_layout_local_size', &
                                     'get_ids into a short array')

    ! Levels are the first (fastest) dimension: value[point * levels + level] in C.
    allocate (temp(levels, src_n), temp_in(levels, dst_n), flag(src_n), flag_in(dst_n))
    call ferry_exchange_create(MPI_COMM_WORLD, src, dst, 'p2p', ex, ierr)
    call expect_ok(ierr, 'exchange_create')
    call ferry_exchange_add_field(ex, FERRY_TYPE_FLOAT64, levels, temp_field, ierr)
    call ferry_exchange_add_field(ex, FERRY_TYPE_INT32, 1, flag_field, ierr)
    call expect(temp_field == 1 .and. flag_field == 2, 'fields are numbered 1, 2')
    call ferry_exchange_setup(ex, ierr)
    call expect_ok(ierr, 'exchange_setup')
    call ferry_exchange_get_engine(ex, engine, ierr)
    call expect(engine == 'p2p', 'engine is ' // engine)

    sources = [c_loc(temp), c_loc(flag)]
    targets = [c_loc(temp_in), c_loc(flag_in)]
    temp_in = -1
    flag_in = -1
    ! Step 0 moves both fields with execute; step 1 only the levels, with begin/end.
    do step = 0, 1
      do l = 1, levels
        temp(l, :) = value_f64(src_ids, real(step, real64), l)
      end do
      flag = value_i32(src_ids, real(step, real64))
      if (step == 0) then
        call ferry_exchange_execute(ex, sources, targets, ierr)
        call expect_ok(ierr, 'execute')
      else
        call ferry_exchange_begin(ex, sources, targets, [.true., .false.], ierr)
        call expect_ok(ierr, 'begin')
        call ferry_exchange_end(ex, ierr)
        call expect_ok(ierr, 'end')
      end if
      do l = 1, levels
        call expect(all(temp_in(l, :) == value_f64(dst_ids, real(step, real64), l)), &
                    'exchanged real(8) levels')
      end do
      call expect(all(flag_in == value_i32(dst_ids, 0.0_real64)), 'exchanged integer(4)')
    end do

    call ferry_exchange_execute(ex, sources(1:1), targets(1:1), ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'expected 2 (one c_loc() per field', &
                      'execute with one array')
    call ferry_exchange_destroy(ex, ierr)
    call expect_ok(ierr, 'exchange_destroy')
    call ferry_layout_destroy(src, ierr)
    call ferry_layout_destroy(dst, ierr)
  end subroutine test_exchange

  ! The rma engine's memory for the received field, where it offers some (ranks with a
  ! source on their node): three steps into it, every value checked through
  ! c_f_pointer; elsewhere into the caller's array.
  subroutine test_destination_field()
    type(ferry_layout) :: src, dst
    type(ferry_exchange) :: ex
    integer(int64) :: src_n, dst_n
    integer(int64), allocatable :: src_ids(:), dst_ids(:)
    real(real64), allocatable, target :: temp(:), temp_in(:)
    real(real64), pointer :: received(:)
    type(c_ptr) :: memory
    integer :: field, step, offered, anywhere

    call ferry_layout_create_block(n, nranks, rank, src, ierr)
    call ferry_layout_create_round_robin(n, nranks, modulo(rank + 1, nranks), dst, ierr)
    call ferry_layout_local_size(src, src_n, ierr)
    call ferry_layout_local_size(dst, dst_n, ierr)
    allocate (src_ids(src_n), dst_ids(dst_n), temp(src_n), temp_in(dst_n))
    call ferry_layout_get_ids(src, src_ids, ierr)
    call ferry_layout_get_ids(dst, dst_ids, ierr)
    call ferry_exchange_create(MPI_COMM_WORLD, src, dst, 'rma', ex, ierr)
    call ferry_exchange_add_field(ex, FERRY_TYPE_FLOAT64, 1, field, ierr)
    call ferry_exchange_setup(ex, ierr)
    call expect_ok(ierr, 'rma exchange_setup')
    offered = 0
    do step = 0, 2
      temp = value_f64(src_ids, real(step, real64), 1)
      call ferry_exchange_destination_field(ex, field, memory, ierr)
      call expect_ok(ierr, 'destination_field')
      if (c_associated(memory)) then
        offered = offered + 1
      else
        memory = c_loc(temp_in)
      end if
      call ferry_exchange_execute(ex, [c_loc(temp)], [memory], ierr)
      call expect_ok(ierr, 'execute into destination_field memory')
      call c_f_pointer(memory, received, [dst_n])
      call expect(all(received == value_f64(dst_ids, real(step, real64), 1)), &
                  'values received into destination_field memory')
    end do
    call MPI_Allreduce(offered, anywhere, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (nranks > 1) call expect(anywhere > 0, 'rma offered memory on some rank')
    call ferry_exchange_destination_field(ex, 2, memory, ierr)
    call expect_error(ierr, FERRY_ERR_ARG_RANGE, 'field 2 out of range', 'destination_field 2')
    call expect(.not. c_associated(memory), 'no memory for a field out of range')
    call ferry_exchange_close(ex, ierr)
    call ferry_exchange_destroy(ex, ierr)
    call ferry_layout_destroy(src, ierr)
    call ferry_layout_destroy(dst, ierr)
  end subroutine test_destination_field

  subroutine write_config(path)
    character(len=*), intent(in) :: path
    integer :: unit
    character(len=*), parameter :: exchange_names(5) = &
      [character(len=11) :: 'temperature', 'levels', 'flags', 'ids', 'salinity']
    character(len=*), parameter :: fields(5) = &
      [character(len=4) :: 't', 'lev', 'n', 'id', 's']
    integer, parameter :: periods(5) = [200, 200, 400, 200, 200]
    integer :: e
    if (rank /= 0) return
    open (newunit=unit, file=path, status='replace', action='write')
    write (unit, '(a)') 'version: 1', 'run: {start: 0, length: 800}', &
      'components: [atm, ocn]', 'output: {directory: ., timers: false}', &
      'watchdog: {timeout: 30}', 'exchanges:'
    do e = 1, 5
      write (unit, '(a)') '  - name: ' // trim(exchange_names(e)), &
        '    source: {component: atm, field: ' // trim(fields(e)) // '_atm}', &
        '    target: {component: ocn, field: ' // trim(fields(e)) // '_ocn}', &
        '    engine: p2p'
      write (unit, '(a,i0)') '    period: ', periods(e)
    end do
    close (unit)
  end subroutine write_config

  ! Which components this rank runs, its rank and size inside each, and their names:
  ! atm on the first half of the ranks, ocn on the rest, both on a single rank.
  subroutine components(atm, ocn, atm_size, ocn_size, atm_rank, ocn_rank, names, count)
    logical, intent(out) :: atm, ocn
    integer, intent(out) :: atm_size, ocn_size, atm_rank, ocn_rank, count
    character(len=3), intent(out) :: names(2)
    atm_size = merge(1, (nranks + 1) / 2, nranks == 1)
    ocn_size = merge(1, nranks - atm_size, nranks == 1)
    atm = nranks == 1 .or. rank < atm_size
    ocn = nranks == 1 .or. rank >= atm_size
    atm_rank = merge(0, rank, nranks == 1)
    ocn_rank = merge(0, rank - atm_size, nranks == 1)
    count = 0
    if (atm) then
      count = count + 1
      names(count) = 'atm'
    end if
    if (ocn) then
      count = count + 1
      names(count) = 'ocn'
    end if
  end subroutine components

  subroutine test_coupler()
    type(ferry_coupler) :: c
    type(ferry_layout) :: atm_layout, ocn_layout
    logical :: atm, ocn
    integer :: atm_size, ocn_size, atm_rank, ocn_rank, count, grid, part, status, step, l
    integer :: t_atm, lev_atm, n_atm, id_atm, s_atm, t_ocn, lev_ocn, n_ocn, id_ocn, s_ocn
    integer :: local, local_size
    integer(int64) :: na, no, nj, values
    integer(int64), allocatable :: atm_ids(:), ocn_ids(:)
    real(real64), allocatable :: t_out(:, :), lev_out(:, :, :), t_in(:), lev_in(:, :)
    integer(int32), allocatable :: n_out(:), n_in(:)
    integer(int64), allocatable :: id_out(:), id_in(:)
    real(real32), allocatable :: s_out(:, :), s_in(:)
    real(real64) :: t
    character(len=3) :: names(2)
    character(len=40) :: path
    logical :: every200, every400

    na = 0
    nj = 0
    no = 0
    call components(atm, ocn, atm_size, ocn_size, atm_rank, ocn_rank, names, count)

    ! One file per rank count: the tests of several rank counts may run at once.
    write (path, '(a,i0,a)') 'fortran_coupler_np', nranks, '.yaml'
    call write_config(trim(path))
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call ferry_coupler_create(MPI_COMM_WORLD, names(1:count), trim(path), c, ierr)
    call expect_ok(ierr, 'coupler_create')

    if (atm) then
      call ferry_coupler_local_comm(c, 'atm', local, ierr)
      call expect_ok(ierr, 'local_comm')
      call MPI_Comm_size(local, local_size, ierr)
      call expect(local_size == atm_size, 'atm communicator size')
      ! Whole rows of the grid per rank: a local box of nx x nj points.
      call ferry_coupler_def_grid(c, 'atm', 'agrid', nx, ny, grid, ierr)
      call ferry_layout_create_box(nx, ny, 1, atm_size, atm_rank, atm_layout, ierr)
      call ferry_coupler_def_partition(c, grid, 'rows', atm_layout, part, ierr)
      call expect_ok(ierr, 'def_partition atm')
      call test_grid_metadata(c, part, atm_layout)
      call ferry_coupler_def_field(c, part, 't_atm', FERRY_FIELD_OUT, FERRY_TYPE_FLOAT64, 1, t_atm, ierr)
      call ferry_coupler_def_field(c, part, 'lev_atm', FERRY_FIELD_OUT, FERRY_TYPE_FLOAT64, levels, &
                                   lev_atm, ierr)
      call ferry_coupler_def_field(c, part, 'n_atm', FERRY_FIELD_OUT, FERRY_TYPE_INT32, 1, n_atm, ierr)
      call ferry_coupler_def_field(c, part, 'id_atm', FERRY_FIELD_OUT, FERRY_TYPE_INT64, 1, id_atm, ierr)
      call ferry_coupler_def_field(c, part, 's_atm', FERRY_FIELD_OUT, FERRY_TYPE_FLOAT32, 1, s_atm, ierr)
      call expect_ok(ierr, 'def_field atm')
      call ferry_layout_local_size(atm_layout, na, ierr)
      allocate (atm_ids(na))
      call ferry_layout_get_ids(atm_layout, atm_ids, ierr)
      nj = na / nx
    end if
    if (ocn) then
      call ferry_coupler_def_grid(c, 'ocn', 'ogrid', nx, ny, grid, ierr)
      call ferry_layout_create_round_robin(n, ocn_size, ocn_rank, ocn_layout, ierr)
      call ferry_coupler_def_partition(c, grid, 'cyclic', ocn_layout, part, ierr)
      call ferry_coupler_def_field(c, part, 't_ocn', FERRY_FIELD_IN, FERRY_TYPE_FLOAT64, 1, t_ocn, ierr)
      call ferry_coupler_def_field(c, part, 'lev_ocn', FERRY_FIELD_IN, FERRY_TYPE_FLOAT64, levels, &
                                   lev_ocn, ierr)
      call ferry_coupler_def_field(c, part, 'n_ocn', FERRY_FIELD_IN, FERRY_TYPE_INT32, 1, n_ocn, ierr)
      call ferry_coupler_def_field(c, part, 'id_ocn', FERRY_FIELD_IN, FERRY_TYPE_INT64, 1, id_ocn, ierr)
      call ferry_coupler_def_field(c, part, 's_ocn', FERRY_FIELD_IN, FERRY_TYPE_FLOAT32, 1, s_ocn, ierr)
      call expect_ok(ierr, 'def_field ocn')
      call ferry_layout_local_size(ocn_layout, no, ierr)
      allocate (ocn_ids(no))
      call ferry_layout_get_ids(ocn_layout, ocn_ids, ierr)
      call ferry_coupler_field_values(c, lev_ocn, values, ierr)
      call expect(values == levels * no, 'field_values of the bundle')
    end if
    ! Empty on ranks that do not run the component.
    allocate (t_out(nx, nj), lev_out(levels, nx, nj), n_out(na), id_out(na), s_out(nx, nj))
    allocate (t_in(no), lev_in(levels, no), n_in(no), id_in(no), s_in(no))
    call ferry_coupler_enddef(c, ierr)
    call expect_ok(ierr, 'enddef')

    do step = 0, 7
      t = 100.0_real64 * step
      every200 = mod(step, 2) == 0
      every400 = mod(step, 4) == 0
      if (atm) then
        ! Arrays shaped like the model holds them: (nx, nj) and (levels, nx, nj).
        t_out = reshape(value_f64(atm_ids, t, 0), [nx, nj])
        do l = 1, levels
          lev_out(l, :, :) = reshape(value_f64(atm_ids, t, l), [nx, nj])
        end do
        n_out = value_i32(atm_ids, t)
        id_out = atm_ids * 10000000000_int64 + nint(t, int64)
        s_out = reshape(real(atm_ids, real32) + real(t, real32) / 100, [nx, nj])
        call ferry_coupler_put(c, t_atm, t, t_out, status, ierr)
        call expect_ok(ierr, 'put t')
        call expect(status == merge(FERRY_STATUS_SENT, FERRY_STATUS_NOTHING, every200), 'put t status')
        call ferry_coupler_put(c, lev_atm, t, lev_out, status, ierr)
        call expect_ok(ierr, 'put levels')
        call ferry_coupler_put(c, n_atm, t, n_out, status, ierr)
        call expect_ok(ierr, 'put n')
        call expect(status == merge(FERRY_STATUS_SENT, FERRY_STATUS_NOTHING, every400), 'put n status')
        call ferry_coupler_put(c, id_atm, t, id_out, status, ierr)
        call expect_ok(ierr, 'put id')
        call ferry_coupler_put(c, s_atm, t, s_out, status, ierr)
        call expect_ok(ierr, 'put s')
      end if
      if (ocn) then
        t_in = -1
        lev_in = -1
        n_in = -1
        id_in = -1
        s_in = -1
        call ferry_coupler_get(c, t_ocn, t, t_in, status, ierr)
        call expect_ok(ierr, 'get t')
        call expect(status == merge(FERRY_STATUS_RECEIVED, FERRY_STATUS_NOTHING, every200), &
                    'get t status')
        call ferry_coupler_get(c, lev_ocn, t, lev_in, status, ierr)
        call ferry_coupler_get(c, n_ocn, t, n_in, status, ierr)
        call expect(status == merge(FERRY_STATUS_RECEIVED, FERRY_STATUS_NOTHING, every400), &
                    'get n status')
        call ferry_coupler_get(c, id_ocn, t, id_in, status, ierr)
        call ferry_coupler_get(c, s_ocn, t, s_in, status, ierr)
        call expect_ok(ierr, 'get s')
        ! Between coupling times a get leaves the array alone.
        if (every200) then
          call expect(all(t_in == value_f64(ocn_ids, t, 0)), 'received t')
          do l = 1, levels
            call expect(all(lev_in(l, :) == value_f64(ocn_ids, t, l)), 'received levels')
          end do
          call expect(all(id_in == ocn_ids * 10000000000_int64 + nint(t, int64)), 'received ids')
          call expect(all(s_in == real(ocn_ids, real32) + real(t, real32) / 100), 'received s')
        else
          call expect(all(t_in == -1) .and. all(lev_in == -1) .and. all(id_in == -1) .and. &
                      all(s_in == -1), 'untouched between coupling times')
        end if
        if (every400) then
          call expect(all(n_in == value_i32(ocn_ids, t)), 'received n')
        else
          call expect(all(n_in == -1), 'n untouched between coupling times')
        end if
      end if
    end do

    ! The checks of the module: size, type and contiguity of the array.
    if (atm) then
      call ferry_coupler_put(c, t_atm, 700.0_real64, t_out(:, 1:nj - 1), status, ierr)
      call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'ferry_coupler_put: the array has', 'short array')
      call ferry_coupler_put(c, t_atm, 700.0_real64, s_out, status, ierr)
      call expect_error(ierr, FERRY_ERR_ARG, 'declared with real(8) values, but the array is real(4)', &
                        'array of another type')
      call ferry_coupler_put(c, lev_atm, 700.0_real64, lev_out(1, :, :), status, ierr)
      call expect_error(ierr, FERRY_ERR_ARG, 'is not contiguous', 'strided array')
      call ferry_coupler_get(c, t_atm, 700.0_real64, t_out, status, ierr)
      call expect_error(ierr, FERRY_ERR_ARG, 'was declared Out; use put', 'get of an Out field')
      call ferry_coupler_set_areas(c, part, t_out, ierr)
      call expect_error(ierr, FERRY_ERR_STATE, 'set_areas: only allowed before enddef', &
                        'set_areas after enddef')
      call ferry_layout_destroy(atm_layout, ierr)
    end if
    if (ocn) call ferry_layout_destroy(ocn_layout, ierr)
    call ferry_coupler_finalize(c, ierr)
    call expect_ok(ierr, 'finalize')
    call ferry_coupler_destroy(c, ierr)
    call expect_ok(ierr, 'destroy')
  end subroutine test_coupler

  ! Buffer "history" from atm's t (whole rows per rank, loaded as t(nx, rows)) to ocn's
  ! t_in (columns per rank, read as out(points, steps)). Its source and target run on
  ! disjoint ranks: on one rank, enddef refuses it.
  subroutine test_coupler_buffer()
    integer(int64), parameter :: steps = 10, max_steps = 4
    type(ferry_coupler) :: c
    type(ferry_layout) :: layout
    logical :: atm, ocn
    integer :: atm_size, ocn_size, atm_rank, ocn_rank, count, grid, part, field, unit
    integer(int64) :: points, values, step, next, first, got, lost, s
    integer(int64) :: read_steps(max_steps)
    integer(int64), allocatable :: ids(:)
    real(real64), allocatable :: t(:, :), out(:, :)
    character(len=3) :: names(2)
    character(len=40) :: path

    call components(atm, ocn, atm_size, ocn_size, atm_rank, ocn_rank, names, count)
    write (path, '(a,i0,a)') 'fortran_buffer_np', nranks, '.yaml'
    if (rank == 0) then
      open (newunit=unit, file=trim(path), status='replace', action='write')
      write (unit, '(a)') 'version: 1', 'run: {start: 0, length: 800}', &
        'components: [atm, ocn]', 'output: {directory: ., timers: false}', &
        'watchdog: {timeout: 30}', 'buffers:', '  - name: history', &
        '    source: {component: atm, field: t}', '    target: {component: ocn, field: t_in}', &
        '    capacity: 3', '    mode: lossless'
      close (unit)
    end if
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call ferry_coupler_create(MPI_COMM_WORLD, names(1:count), trim(path), c, ierr)
    call expect_ok(ierr, 'buffer coupler_create')
    if (atm) then
      call ferry_coupler_def_grid(c, 'atm', 'agrid', nx, ny, grid, ierr)
      call ferry_layout_create_box(nx, ny, 1, atm_size, atm_rank, layout, ierr)
      call ferry_coupler_def_partition(c, grid, 'rows', layout, part, ierr)
      call ferry_coupler_def_field(c, part, 't', FERRY_FIELD_OUT, FERRY_TYPE_FLOAT64, 1, field, ierr)
      call expect_ok(ierr, 'def_field t')
    end if
    if (ocn) then
      if (atm) call ferry_layout_destroy(layout, ierr)
      call ferry_coupler_def_grid(c, 'ocn', 'ogrid', nx, ny, grid, ierr)
      call ferry_layout_create_box(nx, ny, ocn_size, 1, ocn_rank, layout, ierr)
      call ferry_coupler_def_partition(c, grid, 'columns', layout, part, ierr)
      call ferry_coupler_def_field(c, part, 't_in', FERRY_FIELD_IN, FERRY_TYPE_FLOAT64, 1, field, ierr)
      call expect_ok(ierr, 'def_field t_in')
    end if
    call ferry_coupler_enddef(c, ierr)
    if (nranks == 1) then
      call expect_error(ierr, FERRY_ERR_ARG, 'a buffer''s source and target run on disjoint ranks', &
                        'buffer within one rank')
      call ferry_coupler_destroy(c, ierr)
      call ferry_layout_destroy(layout, ierr)
      return
    end if
    call expect_ok(ierr, 'buffer enddef')

    call ferry_layout_local_size(layout, points, ierr)
    allocate (ids(points))
    call ferry_layout_get_ids(layout, ids, ierr)
    call ferry_coupler_buffer_values(c, 'history', values, ierr)
    call expect(ierr == FERRY_SUCCESS .and. values == points, 'buffer_values is the points')
    call ferry_coupler_buffer_values(c, 'histroy', values, ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'unknown buffer "histroy"; did you mean "history"?', &
                      'misspelt buffer')
    if (atm) then
      allocate (t(nx, points / nx))
      do step = 0, steps - 1
        t = reshape(value_f64(ids, real(step * 100, real64), 0), shape(t))
        call ferry_coupler_load(c, 'history', t, step, ierr)
        call expect_ok(ierr, 'load')
      end do
      call ferry_coupler_load(c, 'history', t(:, 1:size(t, 2) - 1), steps, ierr)
      call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'ferry_coupler_load: the array has', 'short load')
      call ferry_coupler_load(c, 'history', real(t, real32), steps, ierr)
      call expect_error(ierr, FERRY_ERR_ARG, 'buffer "history" moves real(8) values, but the ' // &
                        'array is real(4)', 'load of another type')
      call ferry_coupler_load(c, 'history', t, steps - 1, ierr)
      call expect_error(ierr, FERRY_ERR_ARG, 'strictly increase', 'a step loaded twice')
    else
      allocate (out(points, max_steps))
      call ferry_coupler_load(c, 'history', out(:, 1), 0_int64, ierr)
      call expect_error(ierr, FERRY_ERR_STATE, 'does not load buffer "history"', 'load on ocn')
      ! Collective over the ocn ranks: each fails alike, and the stream goes on.
      call ferry_coupler_read(c, 'history', out(:, 1:2), max_steps, first, got, lost, ierr)
      call expect_error(ierr, FERRY_ERR_ARG, 'expected room for 4 steps', 'short out')
      next = 0
      do while (next < steps)
        call ferry_coupler_read(c, 'history', out, max_steps, first, got, lost, ierr)
        call expect_ok(ierr, 'read')
        if (ierr /= FERRY_SUCCESS .or. got < 1) exit
        call expect(first == next .and. lost == 0, 'read from the next step, none lost')
        call ferry_coupler_read_steps(c, 'history', read_steps, ierr)
        call expect_ok(ierr, 'read_steps')
        do s = 1, got
          call expect(read_steps(s) == next + s - 1, 'step numbers in order')
          call expect(all(out(:, s) == value_f64(ids, real((next + s - 1) * 100, real64), 0)), &
                      'read values')
        end do
        if (got > 1) then
          call ferry_coupler_read_steps(c, 'history', read_steps(1:1), ierr)
          call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'steps has room for 1 values', 'short steps')
        end if
        next = next + got
      end do
      call expect(next == steps, 'every step read once')
    end if
    call ferry_coupler_finalize(c, ierr)
    call expect_ok(ierr, 'buffer finalize')
    call ferry_coupler_destroy(c, ierr)
    call ferry_layout_destroy(layout, ierr)
  end subroutine test_coupler_buffer

  ! The grid metadata of a partition of the coupler: centres, corners, areas and mask
  ! of arrays sized from ferry_coupler_partition_points, then the module's checks.
  subroutine test_grid_metadata(c, part, layout)
    type(ferry_coupler), intent(in) :: c
    integer, intent(in) :: part
    type(ferry_layout), intent(in) :: layout
    integer(int64) :: points, local
    integer(int64), allocatable :: ids(:)
    real(real64), allocatable :: lon(:), lat(:), corner_lon(:, :), corner_lat(:, :), area(:)
    integer(int32), allocatable :: mask(:)
    integer :: k

    call ferry_coupler_partition_points(c, part, points, ierr)
    call expect_ok(ierr, 'partition_points')
    call ferry_layout_local_size(layout, local, ierr)
    call expect(points == local, 'partition_points is the layout''s local size')
    ! Allocated before the assignments: gfortran 12 without optimisation warns that an
    ! array reallocated on assignment "may be used uninitialized".
    allocate (ids(points), lon(points), lat(points), area(points), mask(points))
    call ferry_layout_get_ids(layout, ids, ierr)
    ! Cell centres of a regular nx x ny grid, corners half a cell away, cosine areas.
    lon = (mod(ids, nx) + 0.5_real64) * 360 / nx
    lat = -90 + (ids / nx + 0.5_real64) * 180 / ny
    allocate (corner_lon(4, points), corner_lat(4, points))
    do k = 1, 4
      corner_lon(k, :) = lon + merge(-0.5_real64, 0.5_real64, k == 1 .or. k == 4) * 360 / nx
      corner_lat(k, :) = lat + merge(-0.5_real64, 0.5_real64, k <= 2) * 180 / ny
    end do
    area = cos(lat * acos(-1.0_real64) / 180)
    mask = int(merge(0, 1, mod(ids, 3_int64) == 0), int32)

    call ferry_coupler_set_coordinates(c, part, lon, lat, ierr)
    call expect_ok(ierr, 'set_coordinates')
    call ferry_coupler_set_corners(c, part, 4, corner_lon, corner_lat, ierr)
    call expect_ok(ierr, 'set_corners')
    call ferry_coupler_set_areas(c, part, area, ierr)
    call expect_ok(ierr, 'set_areas')
    call ferry_coupler_set_mask(c, part, mask, ierr)
    call expect_ok(ierr, 'set_mask')

    call ferry_coupler_set_coordinates(c, part, lon, lat(1:points - 1), ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'ferry_coupler_set_coordinates: the array lat has', &
                      'short latitudes')
    call ferry_coupler_set_corners(c, part, 4, corner_lon(1:3, :), corner_lat, ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'the array lon is not contiguous', 'strided corners')
    call ferry_coupler_set_corners(c, part, 2, reshape(corner_lon(1:2, :), [2 * points]), &
                                   reshape(corner_lat(1:2, :), [2 * points]), ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'a cell needs at least 3 corners', 'two corners')
    call ferry_coupler_set_corners(c, part, 4, corner_lon, corner_lat(:, 1:points - 1), ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'expected', 'corners of too few points')
    call ferry_coupler_set_areas(c, part, [area, 1.0_real64], ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'ferry_coupler_set_areas: the array area has', &
                      'long areas')
    call ferry_coupler_set_mask(c, part, mask(1:points - 1), ierr)
    call expect_error(ierr, FERRY_ERR_ARG_SIZE, 'points of partition', 'short mask')
    call ferry_coupler_partition_points(c, 99, points, ierr)
    call expect_error(ierr, FERRY_ERR_ARG, 'was not returned by def_partition', 'unknown partition')
  end subroutine test_grid_metadata

end program fortran_test
