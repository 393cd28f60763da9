! module ferry_halo_mod: halo (ghost-cell) exchange on unstructured meshes
! (docs/user/halo.md) for Fortran 2018, over the C API (ferry/halo.h) through
! iso_c_binding, with the geodesic test meshes and cell partitions. Named _mod
! because its type is ferry_halo, as in C.
!
! As in module ferry: routines end with `integer, intent(out) :: ierr`, sizes and
! ids are integer(int64), and cell ids are 0-based global ids, as in C (MPAS
! cellsOnCell is 1-based: subtract 1). The CSR offsets are 0-based too: cell
! cells(i)'s neighbours are neighbours(offsets(i)+1 : offsets(i+1)). A field's array
! holds the components of a cell first, then the cells: levels(nlevels, local_count),
! or wave(ndirections, nfrequencies, local_count); owned cells first, then the ghosts.
module ferry_halo_mod
  use, intrinsic :: iso_c_binding
  use ferry_constants, only: FERRY_SUCCESS, FERRY_ERR_ARG_SIZE
  use ferry_argument_error, only: fail => ferry_record_argument_error
  use ferry_argument_checks, only: room
  implicit none
  private

  !> A halo (ferry_halo* in C) and its number of fields: the length execute and
  !> begin expect for their array of c_loc() pointers (1 until a field is added).
  type, public :: ferry_halo
    type(c_ptr) :: ptr = c_null_ptr
    integer :: fields = 1
  end type ferry_halo

  !> A geodesic test mesh (ferry_geodesic_mesh* in C).
  type, public :: ferry_geodesic_mesh
    type(c_ptr) :: ptr = c_null_ptr
  end type ferry_geodesic_mesh

  public :: ferry_halo_create, ferry_halo_add_field, ferry_halo_set_option, ferry_halo_setup
  public :: ferry_halo_execute, ferry_halo_begin, ferry_halo_end
  public :: ferry_halo_owned_count, ferry_halo_local_count, ferry_halo_ring_end
  public :: ferry_halo_get_cells, ferry_halo_neighbour_count, ferry_halo_get_neighbours
  public :: ferry_halo_close, ferry_halo_destroy
  public :: ferry_geodesic_mesh_create, ferry_geodesic_mesh_cell_count
  public :: ferry_geodesic_mesh_neighbour_count, ferry_geodesic_mesh_get_graph
  public :: ferry_geodesic_mesh_destroy, ferry_partition_cells

  !> Fills the ghosts of every field (or, with mask, those whose mask is .true.; every
  !> field still needs its array): fields(f) is c_loc() of field f's array.
  interface ferry_halo_execute
    module procedure halo_execute, halo_execute_masked
  end interface ferry_halo_execute
  !> Starts the same; ferry_halo_end completes it.
  interface ferry_halo_begin
    module procedure halo_begin, halo_begin_masked
  end interface ferry_halo_begin

  interface
    function c_create(comm, global_cells, ncells, cells, offsets, neighbours, depth, engine, &
                      halo) bind(C, name='ferry_halo_create_f') result(ierr)
      import :: c_char, c_int, c_int64_t, c_ptr
      integer(c_int), value :: comm, depth
      integer(c_int64_t), value :: global_cells, ncells
      integer(c_int64_t), intent(in) :: cells(*), offsets(*), neighbours(*)
      character(kind=c_char), intent(in) :: engine(*)
      type(c_ptr), intent(out) :: halo
      integer(c_int) :: ierr
    end function c_create
    function c_add_field(halo, type, components, field) bind(C, name='ferry_halo_add_field') &
        result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: halo
      integer(c_int), value :: type, components
      integer(c_int), intent(out) :: field
      integer(c_int) :: ierr
    end function c_add_field
    function c_set_option(halo, key, value) bind(C, name='ferry_halo_set_option') result(ierr)
      import :: c_char, c_int, c_ptr
      type(c_ptr), value :: halo
      character(kind=c_char), intent(in) :: key(*), value(*)
      integer(c_int) :: ierr
    end function c_set_option
    function c_setup(halo) bind(C, name='ferry_halo_setup') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: halo
      integer(c_int) :: ierr
    end function c_setup
    function c_execute(halo, fields, mask) bind(C, name='ferry_halo_execute') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: halo
      type(c_ptr), intent(in) :: fields(*)
      integer(c_int), intent(in), optional :: mask(*)
      integer(c_int) :: ierr
    end function c_execute
    function c_begin(halo, fields, mask) bind(C, name='ferry_halo_begin') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: halo
      type(c_ptr), intent(in) :: fields(*)
      integer(c_int), intent(in), optional :: mask(*)
      integer(c_int) :: ierr
    end function c_begin
    function c_end(halo) bind(C, name='ferry_halo_end') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: halo
      integer(c_int) :: ierr
    end function c_end
    function c_owned_count(halo, n) bind(C, name='ferry_halo_owned_count') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: halo
      integer(c_int64_t), intent(out) :: n
      integer(c_int) :: ierr
    end function c_owned_count
    function c_local_count(halo, n) bind(C, name='ferry_halo_local_count') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: halo
      integer(c_int64_t), intent(out) :: n
      integer(c_int) :: ierr
    end function c_local_count
    function c_ring_end(halo, ring, end) bind(C, name='ferry_halo_ring_end') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: halo
      integer(c_int), value :: ring
      integer(c_int64_t), intent(out) :: end
      integer(c_int) :: ierr
    end function c_ring_end
    function c_get_cells(halo, cells) bind(C, name='ferry_halo_get_cells') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: halo
      integer(c_int64_t), intent(out) :: cells(*)
      integer(c_int) :: ierr
    end function c_get_cells
    function c_neighbour_count(halo, n) bind(C, name='ferry_halo_neighbour_count') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: halo
      integer(c_int64_t), intent(out) :: n
      integer(c_int) :: ierr
    end function c_neighbour_count
    function c_get_neighbours(halo, offsets, neighbours) &
        bind(C, name='ferry_halo_get_neighbours') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: halo
      integer(c_int64_t), intent(out) :: offsets(*), neighbours(*)
      integer(c_int) :: ierr
    end function c_get_neighbours
    function c_close(halo) bind(C, name='ferry_halo_close') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), value :: halo
      integer(c_int) :: ierr
    end function c_close
    function c_destroy(halo) bind(C, name='ferry_halo_destroy') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: halo
      integer(c_int) :: ierr
    end function c_destroy
    function c_mesh_create(frequency, mesh) bind(C, name='ferry_geodesic_mesh_create') &
        result(ierr)
      import :: c_int, c_ptr
      integer(c_int), value :: frequency
      type(c_ptr), intent(out) :: mesh
      integer(c_int) :: ierr
    end function c_mesh_create
    function c_mesh_cell_count(mesh, n) bind(C, name='ferry_geodesic_mesh_cell_count') &
        result(ierr)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: mesh
      integer(c_int64_t), intent(out) :: n
      integer(c_int) :: ierr
    end function c_mesh_cell_count
    function c_mesh_neighbour_count(mesh, n) &
        bind(C, name='ferry_geodesic_mesh_neighbour_count') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: mesh
      integer(c_int64_t), intent(out) :: n
      integer(c_int) :: ierr
    end function c_mesh_neighbour_count
    function c_mesh_get_graph(mesh, offsets, neighbours) &
        bind(C, name='ferry_geodesic_mesh_get_graph') result(ierr)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: mesh
      integer(c_int64_t), intent(out) :: offsets(*), neighbours(*)
      integer(c_int) :: ierr
    end function c_mesh_get_graph
    function c_mesh_destroy(mesh) bind(C, name='ferry_geodesic_mesh_destroy') result(ierr)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: mesh
      integer(c_int) :: ierr
    end function c_mesh_destroy
    function c_partition_cells(ncells, offsets, neighbours, parts, method, seed, owner) &
        bind(C, name='ferry_partition_cells') result(ierr)
      import :: c_int, c_int64_t
      integer(c_int64_t), value :: ncells, seed
      integer(c_int64_t), intent(in) :: offsets(*), neighbours(*)
      integer(c_int), value :: parts, method
      integer(c_int), intent(out) :: owner(*)
      integer(c_int) :: ierr
    end function c_partition_cells
  end interface

contains

  ! ---- Halo ----

  !> Not collective: this rank owns cells(:) (0-based global ids, in its storage
  !> order) of a mesh of global_cells cells, with neighbours in CSR form (offsets:
  !> size(cells) + 1 values from 0). The arrays are copied. depth: ghost rings;
  !> engine: a name, 'auto' or 'default'. comm must stay valid until setup.
  subroutine ferry_halo_create(comm, global_cells, cells, offsets, neighbours, depth, engine, &
                               halo, ierr)
    integer, intent(in) :: comm, depth
    integer(c_int64_t), intent(in) :: global_cells, cells(:), offsets(:), neighbours(:)
    character(len=*), intent(in) :: engine
    type(ferry_halo), intent(out) :: halo
    integer, intent(out) :: ierr
    character(len=200) :: message
    if (size(offsets) /= size(cells) + 1) then
      write (message, '(a,i0,a,i0,a)') 'offsets has ', size(offsets), ' elements, expected ', &
        size(cells) + 1, ' (one more than cells)'
      call fail('ferry_halo_create', FERRY_ERR_ARG_SIZE, trim(message), ierr)
    else if (offsets(size(offsets)) > size(neighbours)) then
      write (message, '(a,i0,a,i0,a)') 'offsets ends at ', offsets(size(offsets)), &
        ' but neighbours has ', size(neighbours), ' elements'
      call fail('ferry_halo_create', FERRY_ERR_ARG_SIZE, trim(message), ierr)
    else
      ierr = c_create(int(comm, c_int), global_cells, size(cells, kind=c_int64_t), cells, &
                      offsets, neighbours, int(depth, c_int), trim(engine) // c_null_char, &
                      halo%ptr)
    end if
  end subroutine ferry_halo_create

  !> Adds a field of `type` (FERRY_TYPE_*) with `components` values per cell; field
  !> gets its position (1, 2, ...) in the array of execute. Before setup.
  subroutine ferry_halo_add_field(halo, type, components, field, ierr)
    type(ferry_halo), intent(inout) :: halo
    integer, intent(in) :: type, components
    integer, intent(out) :: field
    integer, intent(out) :: ierr
    integer(c_int) :: index
    field = 0
    ierr = c_add_field(halo%ptr, int(type, c_int), int(components, c_int), index)
    if (ierr /= FERRY_SUCCESS) return
    field = index + 1
    halo%fields = field
  end subroutine ferry_halo_add_field

  !> Sets an engine option, e.g. ('reorder', 'true') for neighbor. Before setup.
  subroutine ferry_halo_set_option(halo, key, value, ierr)
    type(ferry_halo), intent(in) :: halo
    character(len=*), intent(in) :: key, value
    integer, intent(out) :: ierr
    ierr = c_set_option(halo%ptr, trim(key) // c_null_char, trim(value) // c_null_char)
  end subroutine ferry_halo_set_option

  !> Collective: finds the ghost cells and sets up the exchange (errors are the same
  !> on every rank).
  subroutine ferry_halo_setup(halo, ierr)
    type(ferry_halo), intent(in) :: halo
    integer, intent(out) :: ierr
    ierr = c_setup(halo%ptr)
  end subroutine ferry_halo_setup

  subroutine halo_execute(halo, fields, ierr)
    type(ferry_halo), intent(in) :: halo
    type(c_ptr), intent(in) :: fields(:)
    integer, intent(out) :: ierr
    call move(halo, 'ferry_halo_execute', fields, .false., ierr)
  end subroutine halo_execute

  subroutine halo_execute_masked(halo, fields, mask, ierr)
    type(ferry_halo), intent(in) :: halo
    type(c_ptr), intent(in) :: fields(:)
    logical, intent(in) :: mask(:)
    integer, intent(out) :: ierr
    call move(halo, 'ferry_halo_execute', fields, .false., ierr, merge(1_c_int, 0_c_int, mask))
  end subroutine halo_execute_masked

  subroutine halo_begin(halo, fields, ierr)
    type(ferry_halo), intent(in) :: halo
    type(c_ptr), intent(in) :: fields(:)
    integer, intent(out) :: ierr
    call move(halo, 'ferry_halo_begin', fields, .true., ierr)
  end subroutine halo_begin

  subroutine halo_begin_masked(halo, fields, mask, ierr)
    type(ferry_halo), intent(in) :: halo
    type(c_ptr), intent(in) :: fields(:)
    logical, intent(in) :: mask(:)
    integer, intent(out) :: ierr
    call move(halo, 'ferry_halo_begin', fields, .true., ierr, merge(1_c_int, 0_c_int, mask))
  end subroutine halo_begin_masked

  ! execute or begin, after checking that there is one pointer (and mask flag) per field.
  subroutine move(halo, routine, fields, split, ierr, mask)
    type(ferry_halo), intent(in) :: halo
    character(len=*), intent(in) :: routine
    type(c_ptr), intent(in) :: fields(:)
    logical, intent(in) :: split
    integer, intent(out) :: ierr
    integer(c_int), intent(in), optional :: mask(:)
    character(len=200) :: message
    integer :: flags
    flags = halo%fields
    if (present(mask)) flags = size(mask)
    if (size(fields) /= halo%fields .or. flags /= halo%fields) then
      write (message, '(a,i0,a,i0,a,i0,a)') 'got ', size(fields), ' arrays and ', flags, &
        ' mask entries, expected ', halo%fields, ' (one c_loc() per field, in add_field order)'
      call fail(routine, FERRY_ERR_ARG_SIZE, trim(message), ierr)
    else if (split) then
      ierr = c_begin(halo%ptr, fields, mask)
    else
      ierr = c_execute(halo%ptr, fields, mask)
    end if
  end subroutine move

  !> Collective: completes ferry_halo_begin.
  subroutine ferry_halo_end(halo, ierr)
    type(ferry_halo), intent(in) :: halo
    integer, intent(out) :: ierr
    ierr = c_end(halo%ptr)
  end subroutine ferry_halo_end

  !> Cells this rank owns (after setup).
  subroutine ferry_halo_owned_count(halo, owned, ierr)
    type(ferry_halo), intent(in) :: halo
    integer(c_int64_t), intent(out) :: owned
    integer, intent(out) :: ierr
    ierr = c_owned_count(halo%ptr, owned)
  end subroutine ferry_halo_owned_count

  !> Owned plus ghost cells: the last extent of a field's array (after setup).
  subroutine ferry_halo_local_count(halo, local, ierr)
    type(ferry_halo), intent(in) :: halo
    integer(c_int64_t), intent(out) :: local
    integer, intent(out) :: ierr
    ierr = c_local_count(halo%ptr, local)
  end subroutine ferry_halo_local_count

  !> Local cells within `ring` steps of the owned ones are 1 .. end.
  subroutine ferry_halo_ring_end(halo, ring, end, ierr)
    type(ferry_halo), intent(in) :: halo
    integer, intent(in) :: ring
    integer(c_int64_t), intent(out) :: end
    integer, intent(out) :: ierr
    ierr = c_ring_end(halo%ptr, int(ring, c_int), end)
  end subroutine ferry_halo_ring_end

  !> The 0-based global ids of the local cells, in storage order (local_count values).
  subroutine ferry_halo_get_cells(halo, cells, ierr)
    type(ferry_halo), intent(in) :: halo
    integer(c_int64_t), intent(out) :: cells(:)
    integer, intent(out) :: ierr
    integer(c_int64_t) :: local
    ierr = c_local_count(halo%ptr, local)
    if (ierr /= FERRY_SUCCESS) return
    if (.not. room(size(cells, kind=c_int64_t), local, 'ferry_halo_get_cells', 'cells', ierr)) &
      return
    ierr = c_get_cells(halo%ptr, cells)
  end subroutine ferry_halo_get_cells

  !> Entries of the local neighbour list (the size get_neighbours needs for neighbours).
  subroutine ferry_halo_neighbour_count(halo, count, ierr)
    type(ferry_halo), intent(in) :: halo
    integer(c_int64_t), intent(out) :: count
    integer, intent(out) :: ierr
    ierr = c_neighbour_count(halo%ptr, count)
  end subroutine ferry_halo_neighbour_count

  !> Neighbours as 0-based local indices (add 1 for Fortran indices) of the cells
  !> 1 .. ring_end(depth - 1), in CSR form: offsets needs ring_end(depth - 1) + 1
  !> elements, neighbours neighbour_count.
  subroutine ferry_halo_get_neighbours(halo, offsets, neighbours, ierr)
    type(ferry_halo), intent(in) :: halo
    integer(c_int64_t), intent(out) :: offsets(:), neighbours(:)
    integer, intent(out) :: ierr
    integer(c_int64_t) :: count
    ierr = c_neighbour_count(halo%ptr, count)
    if (ierr /= FERRY_SUCCESS) return
    if (.not. room(size(neighbours, kind=c_int64_t), count, 'ferry_halo_get_neighbours', &
                   'neighbours', ierr)) return
    ierr = c_get_neighbours(halo%ptr, offsets, neighbours)
  end subroutine ferry_halo_get_neighbours

  !> Collective, idempotent: closes the halo's exchange; afterwards only queries and destroy.
  subroutine ferry_halo_close(halo, ierr)
    type(ferry_halo), intent(in) :: halo
    integer, intent(out) :: ierr
    ierr = c_close(halo%ptr)
  end subroutine ferry_halo_close

  !> Frees the halo; not collective, never waits for another rank.
  subroutine ferry_halo_destroy(halo, ierr)
    type(ferry_halo), intent(inout) :: halo
    integer, intent(out) :: ierr
    ierr = c_destroy(halo%ptr)
    halo%fields = 1
  end subroutine ferry_halo_destroy

  ! ---- Test meshes and partitions (not collective) ----

  !> The Voronoi dual of an icosahedron with edges cut into `frequency` parts:
  !> 10 frequency**2 + 2 cells, the whole mesh on this rank.
  subroutine ferry_geodesic_mesh_create(frequency, mesh, ierr)
    integer, intent(in) :: frequency
    type(ferry_geodesic_mesh), intent(out) :: mesh
    integer, intent(out) :: ierr
    ierr = c_mesh_create(int(frequency, c_int), mesh%ptr)
  end subroutine ferry_geodesic_mesh_create

  subroutine ferry_geodesic_mesh_cell_count(mesh, cells, ierr)
    type(ferry_geodesic_mesh), intent(in) :: mesh
    integer(c_int64_t), intent(out) :: cells
    integer, intent(out) :: ierr
    ierr = c_mesh_cell_count(mesh%ptr, cells)
  end subroutine ferry_geodesic_mesh_cell_count

  subroutine ferry_geodesic_mesh_neighbour_count(mesh, count, ierr)
    type(ferry_geodesic_mesh), intent(in) :: mesh
    integer(c_int64_t), intent(out) :: count
    integer, intent(out) :: ierr
    ierr = c_mesh_neighbour_count(mesh%ptr, count)
  end subroutine ferry_geodesic_mesh_neighbour_count

  !> Cells-on-cell in CSR form (0-based ids and offsets): offsets(cell_count + 1),
  !> neighbours(neighbour_count).
  subroutine ferry_geodesic_mesh_get_graph(mesh, offsets, neighbours, ierr)
    type(ferry_geodesic_mesh), intent(in) :: mesh
    integer(c_int64_t), intent(out) :: offsets(:), neighbours(:)
    integer, intent(out) :: ierr
    integer(c_int64_t) :: cells, count
    ierr = c_mesh_cell_count(mesh%ptr, cells)
    if (ierr == FERRY_SUCCESS) ierr = c_mesh_neighbour_count(mesh%ptr, count)
    if (ierr /= FERRY_SUCCESS) return
    if (.not. room(size(offsets, kind=c_int64_t), cells + 1, 'ferry_geodesic_mesh_get_graph', &
                   'offsets', ierr)) return
    if (.not. room(size(neighbours, kind=c_int64_t), count, 'ferry_geodesic_mesh_get_graph', &
                   'neighbours', ierr)) return
    ierr = c_mesh_get_graph(mesh%ptr, offsets, neighbours)
  end subroutine ferry_geodesic_mesh_get_graph

  subroutine ferry_geodesic_mesh_destroy(mesh, ierr)
    type(ferry_geodesic_mesh), intent(inout) :: mesh
    integer, intent(out) :: ierr
    ierr = c_mesh_destroy(mesh%ptr)
  end subroutine ferry_geodesic_mesh_destroy

  !> The owner (0 .. parts-1) of each cell of a CSR graph: owner(c + 1) for the 0-based
  !> cell c. method: FERRY_PARTITION_BLOCK, _RANDOM (with seed) or _METIS.
  subroutine ferry_partition_cells(offsets, neighbours, parts, method, seed, owner, ierr)
    integer(c_int64_t), intent(in) :: offsets(:), neighbours(:), seed
    integer, intent(in) :: parts, method
    integer(c_int), intent(out) :: owner(:)
    integer, intent(out) :: ierr
    ierr = FERRY_SUCCESS
    if (size(offsets) > 0) then  ! else C reports the empty offsets
      if (.not. room(size(owner, kind=c_int64_t), size(offsets, kind=c_int64_t) - 1, &
                     'ferry_partition_cells', 'owner', ierr)) return
      if (.not. room(size(neighbours, kind=c_int64_t), offsets(size(offsets)), &
                     'ferry_partition_cells', 'neighbours', ierr)) return
    end if
    ierr = c_partition_cells(size(offsets, kind=c_int64_t) - 1, offsets, neighbours, &
                             int(parts, c_int), int(method, c_int), seed, owner)
  end subroutine ferry_partition_cells

end module ferry_halo_mod
