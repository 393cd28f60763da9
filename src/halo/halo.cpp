#include "ferry/halo.hpp"

#include <optional>
#include <utility>

#include "halo/cell_graph_check.hpp"
#include "halo/ghost_exchange.hpp"
#include "halo/halo_rings.hpp"
#include "util/check.hpp"

namespace ferry {

struct Halo::State {
  int depth = 0;
  detail::HaloRings rings;
  std::optional<Exchange> exchange;
  /// Per field: where the ghosts start in its local array, in bytes.
  std::vector<std::size_t> ghost_offset;
  /// Per field: the owned part (source) and the ghost part (destination) of the array
  /// given to begin(); kept here so begin() allocates nothing.
  std::vector<const void*> owned_part;
  std::vector<void*> ghost_part;
};

Halo::Halo(MPI_Comm comm, const CellGraph& graph, const HaloOptions& options)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  // Setup talks on a private duplicate; the exchange keeps its own.
  const Comm setup_comm = Comm::dup(comm);
  detail::check_cell_graph(setup_comm, graph, options.depth);
  s.depth = options.depth;
  s.rings = detail::find_halo_rings(setup_comm, graph, options.depth);
  const auto owned = static_cast<std::ptrdiff_t>(graph.cells.size());
  const std::vector<std::int64_t> ghosts(s.rings.cells.begin() + owned, s.rings.cells.end());
  s.exchange.emplace(detail::ghost_exchange(setup_comm, graph.global_cells, graph.cells, ghosts,
                                            options.fields, options.engine,
                                            options.engine_options));
  for (const FieldSpec& field : options.fields)
    s.ghost_offset.push_back(graph.cells.size() * static_cast<std::size_t>(field.components) *
                             datatype_size(field.type));
  s.owned_part.resize(options.fields.size());
  s.ghost_part.resize(options.fields.size());
}

Halo::~Halo() = default;
Halo::Halo(Halo&&) noexcept = default;
Halo& Halo::operator=(Halo&&) noexcept = default;

void Halo::close() {
  FERRY_CHECK(state_, Errc::State, "Halo::close: the halo was moved from");
  state_->exchange->close();
}

void Halo::execute(void* const* fields, const std::uint8_t* mask) {
  begin(fields, mask);
  end();
}

void Halo::begin(void* const* fields, const std::uint8_t* mask) {
  FERRY_CHECK(state_, Errc::State, "Halo::begin: the halo was moved from");
  State& s = *state_;
  FERRY_CHECK(fields != nullptr, Errc::Arg,
              "Halo::begin: fields is null; pass one array pointer per field");
  for (std::size_t f = 0; f < s.ghost_offset.size(); ++f) {
    FERRY_CHECK(fields[f] != nullptr || local_count() == 0, Errc::Arg, "Halo::begin: field ", f,
                " is a null pointer on rank ", s.exchange->plan().rank(), ", which holds ",
                local_count(), " cells. Pass arrays of local_count() x components values");
    s.owned_part[f] = fields[f];
    s.ghost_part[f] = static_cast<char*>(fields[f]) + s.ghost_offset[f];
  }
  s.exchange->begin(s.owned_part.data(), s.ghost_part.data(), mask);
}

void Halo::end() {
  FERRY_CHECK(state_, Errc::State, "Halo::end: the halo was moved from");
  state_->exchange->end();
}

bool Halo::test() {
  FERRY_CHECK(state_, Errc::State, "Halo::test: the halo was moved from");
  return state_->exchange->test();
}

int Halo::depth() const noexcept { return state_->depth; }
std::int64_t Halo::owned_count() const noexcept { return state_->rings.ring_end.front(); }
std::int64_t Halo::ghost_count() const noexcept { return local_count() - owned_count(); }
std::int64_t Halo::local_count() const noexcept {
  return static_cast<std::int64_t>(state_->rings.cells.size());
}

std::int64_t Halo::ring_end(int ring) const {
  FERRY_CHECK(ring >= 0 && ring <= state_->depth, Errc::ArgRange, "Halo::ring_end: ring ", ring,
              " is outside 0..", state_->depth, " (the halo's depth)");
  return state_->rings.ring_end[static_cast<std::size_t>(ring)];
}

const std::vector<std::int64_t>& Halo::cells() const noexcept { return state_->rings.cells; }
const std::vector<std::int64_t>& Halo::neighbour_offsets() const noexcept {
  return state_->rings.offsets;
}
const std::vector<std::int64_t>& Halo::neighbours() const noexcept {
  return state_->rings.neighbours;
}
const Exchange& Halo::exchange() const noexcept { return *state_->exchange; }

}  // namespace ferry
