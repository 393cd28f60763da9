#include "coupling/coupler_buffers.hpp"

#include <algorithm>
#include <iterator>

#include "config/suggest.hpp"
#include "coupling/entry_side.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::coupling {

namespace {

std::string where(const config::BufferConfig& b) {
  return ferry::detail::cat(b.where.file, ":", b.where.line, ":", b.where.column, ": buffer \"",
                            b.name, "\"");
}

// The box of `shape` that `layout` holds, if its ids are exactly a range of rows times a
// range of columns (one range for a 1-D shape) listed row by row; nullopt otherwise.
std::optional<Box> box_of(const Layout& layout, const std::vector<std::int64_t>& shape) {
  const std::vector<std::int64_t>& ids = layout.ids();
  const std::int64_t nx = shape.back();
  const auto n = static_cast<std::int64_t>(ids.size());
  if (n == 0) return Box{std::vector<std::int64_t>(shape.size(), 0),
                         std::vector<std::int64_t>(shape.size(), 0)};
  const std::int64_t row = ids.front() / nx;
  const std::int64_t column = ids.front() % nx;
  std::int64_t width = 1;
  while (width < n && column + width < nx &&
         ids[static_cast<std::size_t>(width)] == ids.front() + width)
    ++width;
  if (n % width != 0) return std::nullopt;
  for (std::int64_t k = 0; k < n; ++k)
    if (ids[static_cast<std::size_t>(k)] != (row + k / width) * nx + column + k % width)
      return std::nullopt;
  if (shape.size() == 1) return Box{{column}, {column + width}};
  return Box{{row, column}, {row + n / width, column + width}};
}

}  // namespace

CouplerBuffers::CouplerBuffers(const Comm& run, const config::Config& config,
                               const Declarations& declarations,
                               const std::vector<CatalogueEntry>& catalogue,
                               const std::vector<std::string>& components)
    : config_path_(config.path), rank_(run.rank()) {
  for (const config::BufferConfig& b : config.buffers)
    entries_.push_back(build(run, b, declarations, catalogue, components));
}

// Collective over the run: the buffer of entry `b`, over a communicator of its source
// and target ranks.
CouplerBuffers::Entry CouplerBuffers::build(const Comm& run, const config::BufferConfig& b,
                                            const Declarations& declarations,
                                            const std::vector<CatalogueEntry>& catalogue,
                                            const std::vector<std::string>& components) {
  Entry e;
  e.config = &b;
  std::vector<std::int64_t> shape;
  ferry::detail::agree_on(run, [&] {
    const auto at = [&] { return where(b); };  // made for a message only
    const EntrySide source =
        resolve_side(at, "buffer", b.source, FieldDirection::Out, catalogue, components);
    const EntrySide target =
        resolve_side(at, "buffer", b.target, FieldDirection::In, catalogue, components);
    std::vector<int> both;
    std::set_intersection(source.ranks.begin(), source.ranks.end(), target.ranks.begin(),
                          target.ranks.end(), std::back_inserter(both));
    FERRY_CHECK(both.empty(), Errc::Arg, where(b), ": rank(s) ", ferry::detail::list_first(both, 8),
                " declare both the source field \"", b.source.fields.front(), "\" of component \"",
                b.source.component, "\" and the target field \"", b.target.fields.front(),
                "\" of component \"", b.target.component,
                "\"; a buffer's source and target run on disjoint ranks. Run the two components "
                "on separate ranks, or couple them with an exchange");
    const CatalogueEntry& s = *source.fields.front();
    const CatalogueEntry& t = *target.fields.front();
    FERRY_CHECK(s.type == t.type && s.bundle == t.bundle && s.grid_size == t.grid_size, Errc::Arg,
                where(b), ": source field \"", s.field, "\" (", datatype_name(s.type), " x ",
                s.bundle, " on ", s.grid_size, " points) and target field \"", t.field, "\" (",
                datatype_name(t.type), " x ", t.bundle, " on ", t.grid_size,
                " points) differ; a buffer moves the same type, bundle and grid size");
    FERRY_CHECK(s.bundle == 1, Errc::Arg, where(b), ": field \"", s.field, "\" has bundle ",
                s.bundle, "; buffers move fields of bundle 1. Declare one field per level");
    e.type = s.type;
    const std::int64_t ny = s.grid_size / s.grid_nx;
    shape = ny > 1 ? std::vector<std::int64_t>{ny, s.grid_nx}
                   : std::vector<std::int64_t>{s.grid_nx};
    e.source = source.ranks.count(run.rank()) != 0;
    e.target = target.ranks.count(run.rank()) != 0;
  });
  const bool member = e.source || e.target;
  MPI_Comm members = MPI_COMM_NULL;
  FERRY_CALL_MPI(MPI_Comm_split(run.get(), member ? 0 : MPI_UNDEFINED, run.rank(), &members));
  if (member) e.members = Comm::adopt(members);
  Box box;
  ferry::detail::agree_on(run, [&] {
    if (!member) return;
    const config::FieldRef& ref = e.source ? b.source : b.target;
    const PartitionDecl* p = partition_of_field(declarations, ref.component, ref.fields.front());
    FERRY_ASSERT(p != nullptr, "buffer field without a declaration on a member rank");
    const std::optional<Box> held = box_of(p->layout, shape);
    const GridDecl& grid = declarations.grids[static_cast<std::size_t>(p->grid)];
    FERRY_CHECK(held.has_value(), Errc::Arg, where(b), ": partition \"", p->name, "\" of grid \"",
                grid.name, "\" (component \"", ref.component, "\", ", grid.nx, " x ", grid.ny,
                ") is not a box on rank ", run.rank(), ": its ids (first ", p->layout.ids().front(),
                ") are not one range of rows times one range of columns listed row by row; a "
                "buffer loads and reads boxes of the grid. Declare the partition with "
                "Layout::box, Layout::orange or Layout::block");
    box = *held;
    e.values = p->layout.local_size();
  });
  ferry::detail::agree_on(run, [&] {
    if (!member) return;
    const BufferMode mode = b.lossy ? BufferMode::Lossy : BufferMode::Lossless;
    if (e.source)
      e.buffer.emplace(TimeSeriesBuffer::expose(e.members.get(), shape, box, e.type,
                                                Capacity::steps(b.capacity), mode));
    else
      e.buffer.emplace(TimeSeriesBuffer::connect(e.members.get(), 0));
    MPI_Comm readers = MPI_COMM_NULL;
    FERRY_CALL_MPI(MPI_Comm_split(e.members.get(), e.target ? 0 : MPI_UNDEFINED, e.members.rank(),
                                  &readers));
    if (!e.target) return;
    e.readers = Comm::adopt(readers);
    e.reader.emplace(e.buffer->attach(e.readers.get(), box));
  });
  return e;
}

bool CouplerBuffers::uses(const std::string& component, const std::string& field,
                          FieldDirection direction) const {
  return std::any_of(entries_.begin(), entries_.end(), [&](const Entry& e) {
    const config::FieldRef& ref = direction == FieldDirection::Out ? e.config->source : e.config->target;
    return ref.component == component && ref.fields.front() == field;
  });
}

std::size_t CouplerBuffers::find(const std::string& name, const char* call) const {
  std::vector<std::string> names;
  for (const Entry& e : entries_) {
    if (e.config->name == name) return names.size();
    names.push_back(e.config->name);
  }
  const std::string hint = config::detail::did_you_mean(name, names);
  const std::string known = names.empty() ? std::string("none")
                                          : ferry::detail::list_first(names, names.size());
  const std::string fix =
      !hint.empty() ? hint
                    : ferry::detail::cat("; the buffers of \"", config_path_, "\" are: ", known,
                                         ". Name one of them, or add a `buffers:` entry");
  throw Error(Errc::Arg,
              ferry::detail::cat("Coupler::", call, ": unknown buffer \"", name, "\"", fix));
}

CouplerBuffers::Entry& CouplerBuffers::member(const std::string& name, const char* call,
                                              bool reads) {
  Entry& e = entries_[find(name, call)];
  const config::FieldRef& side = reads ? e.config->target : e.config->source;
  FERRY_CHECK(reads ? e.target : e.source, Errc::State, "Coupler::", call, ": rank ", rank_,
              " does not ", reads ? "read" : "load", " buffer \"", name,
              "\"; only the ranks that declare field \"", side.fields.front(), "\" of component \"",
              side.component, "\" do");
  return e;
}

void CouplerBuffers::load(const std::string& name, const void* data, std::int64_t step) {
  member(name, "load", false).buffer->load(data, step);
}

ReadResult CouplerBuffers::read(const std::string& name, void* out, std::int64_t max_steps) {
  return member(name, "read", true).reader->read(out, max_steps);
}

const std::vector<std::int64_t>& CouplerBuffers::read_steps(const std::string& name) {
  return member(name, "read_steps", true).reader->steps();
}

std::int64_t CouplerBuffers::values(const std::string& name) const {
  return entries_[find(name, "buffer_values")].values;
}

Datatype CouplerBuffers::type(const std::string& name) const {
  return entries_[find(name, "buffer_type")].type;
}

void CouplerBuffers::close() {
  for (Entry& e : entries_) {
    if (e.source) e.buffer->close();
    if (e.target) e.reader->done();
    if (e.buffer) e.buffer->free();
    e.reader.reset();
    e.buffer.reset();
  }
  entries_.clear();
}

}  // namespace ferry::coupling
