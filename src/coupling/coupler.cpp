#include "ferry/coupler.hpp"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <utility>

#include "config/config.hpp"
#include "config/rules.hpp"
#include "coupling/arrival.hpp"
#include "coupling/coupler_buffers.hpp"
#include "coupling/declarations.hpp"
#include "coupling/failure_notice.hpp"
#include "coupling/block_points.hpp"
#include "coupling/entry_side.hpp"
#include "coupling/link.hpp"
#include "coupling/entry_regrid.hpp"
#include "coupling/entry_weights.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/log.hpp"
#include "util/mpi.hpp"
#include "util/timers.hpp"

namespace ferry {

using coupling::CatalogueEntry;
using coupling::EntrySide;
using coupling::Link;
using coupling::LinkSpec;
using coupling::where;

namespace {

enum class Phase { Definition, Running, Finalized };

// Rounds of coupling::agree_on_arrival: each collective call has its own.
enum ArrivalRound { kEnddefRound = 1, kFinalizeRound = 2, kSendsCompleteRound = 3 };

// `component "atm"` or `components "atm", "ocn"`: who a rank is, in messages.
std::string describe_components(const std::vector<std::string>& names) {
  std::vector<std::string> quoted;
  for (const std::string& name : names) quoted.push_back("\"" + name + "\"");
  return detail::cat(names.size() == 1 ? "component " : "components ", detail::join(quoted, ", "));
}

// Collective over `comm`: the run's private communicator, once every rank has come to
// construct its Coupler (a rank that never comes fails the others under `timeout`).
Comm arrive(MPI_Comm comm, double timeout) {
  FERRY_CHECK(Comm::view(comm).valid(), Errc::Arg,
              "Coupler: the communicator is MPI_COMM_NULL. Pass the communicator of every rank "
              "of the coupled run");
  // MPI may complete the duplicate after a rank gave up waiting: it keeps the handles.
  struct Pending {
    MPI_Comm copy = MPI_COMM_NULL;
    MPI_Request request = MPI_REQUEST_NULL;
  };
  auto pending = std::make_unique<Pending>();
  FERRY_CALL_MPI(MPI_Comm_idup(comm, &pending->copy, &pending->request));
  try {
    coupling::Watchdog(timeout, nullptr)
        .wait(
            [&] {
              int done = 0;
              FERRY_CALL_MPI(MPI_Test(&pending->request, &done, MPI_STATUS_IGNORE));
              return done != 0;
            },
            [&] {
              return detail::cat("Coupler: waited ", timeout,
                                 " s for every rank of the communicator to construct its Coupler; "
                                 "some did not. Every rank of the run constructs one, with the "
                                 "same communicator");
            });
  } catch (...) {
    static std::vector<std::unique_ptr<Pending>> abandoned;
    abandoned.push_back(std::move(pending));
    throw;
  }
  return Comm::adopt(pending->copy);
}

void check_name(const std::string& name, const char* what) {
  FERRY_CHECK(!name.empty() && name.find_first_of("\t\n") == std::string::npos, Errc::Arg,
              "Coupler: ", what, " name \"", name, "\" must be non-empty without tabs or newlines");
}

// The run's configuration: rank 0 reads the file, every rank parses the same text.
config::Config read_config(const Comm& run, const std::string& path) {
  std::string text;
  int ok = 1;
  if (run.rank() == 0) {
    std::ifstream file(path);
    ok = file.good() ? 1 : 0;
    std::ostringstream content;
    content << file.rdbuf();
    text = content.str();
  }
  long long size = static_cast<long long>(text.size());
  long long header[2] = {ok, size};
  FERRY_CALL_MPI(MPI_Bcast(header, 2, MPI_LONG_LONG, 0, run.get()));
  FERRY_CHECK(header[0] == 1, Errc::Io, "Coupler: cannot read the configuration file \"", path,
              "\" on rank 0. Check the path (relative paths start from rank 0's working directory)");
  text.resize(static_cast<std::size_t>(header[1]));
  FERRY_CALL_MPI(MPI_Bcast(text.data(), detail::mpi_count<int>(header[1], "configuration size"),
                           MPI_CHAR, 0, run.get()));
  return config::parse_any_config(text, path);
}

}  // namespace

struct Coupler::State {
  Comm run;
  std::unique_ptr<coupling::FailureNotice> notice;  // tells every rank of a failure
  std::vector<std::string> components_of;  // per rank of the run: who it is, for messages
  std::optional<std::string> failure;      // this rank's first failure: the coupler is failed
  bool shared = false;        // the error being raised is raised on every rank of the run
  const char* last_call = "Coupler::Coupler";
  std::string last_rejection;  // what the last call raised, if it was rejected
  config::Config config;
  std::vector<std::string> my_components;   // what this rank runs
  std::vector<std::string> all_components;  // what the run has, sorted
  std::map<std::string, Comm> local;        // this rank's components -> their ranks
  coupling::Declarations declarations;
  std::vector<std::unique_ptr<Link>> links;  // configuration order
  // Per declared field: the links it feeds (Out) or is fed by (In), and its index there.
  std::vector<std::vector<std::pair<Link*, std::size_t>>> field_links;
  coupling::CouplerBuffers buffers;
  detail::Timers timers;
  Phase phase = Phase::Definition;
  double started = 0;
  double enddef_seconds = 0;  // from started to the end of enddef

  void require(Phase wanted, const char* call) const {
    static const char* names[] = {"before enddef", "between enddef and finalize", "after finalize"};
    FERRY_CHECK(phase == wanted, Errc::State, "Coupler::", call, ": only allowed ",
                names[static_cast<int>(wanted)], "; the coupler is ", names[static_cast<int>(phase)]);
  }
  bool runs(const std::string& component) const {
    return std::find(my_components.begin(), my_components.end(), component) != my_components.end();
  }
  const coupling::FieldDecl& field(FieldId id, const char* call) const {
    FERRY_CHECK(id.value >= 0 && id.value < static_cast<int>(declarations.fields.size()), Errc::Arg,
                "Coupler::", call, ": field id ", id.value,
                " was not returned by def_field on this rank. Declare the field before enddef");
    return declarations.fields[static_cast<std::size_t>(id.value)];
  }
  LinkSpec resolve(const config::ExchangeConfig& e, const std::vector<CatalogueEntry>& catalogue) const;

  coupling::Watchdog partner_watchdog() const { return {config.watchdog_seconds, notice.get()}; }
  coupling::Watchdog collective_watchdog() const {
    return {config.collective_seconds, notice.get()};
  }
  const std::string& who() const { return components_of[static_cast<std::size_t>(run.rank())]; }

  // Records this rank's first failure; unless every rank raises it anyway (`tell`
  // false) or it came from another rank's notice, tells every other rank at once.
  void fail(const std::string& call, const std::string& what, bool tell) {
    if (failure) return;
    failure = what;
    if (tell && !notice->poll()) notice->tell(coupling::failure_text(who(), run.rank(), call, what));
  }

  // Collective over the run: writes every restart file, each in parts, one exchange
  // after the other (exchanges that share a file write into it in configuration order).
  void write_restarts();

  // Runs `step`, whose errors every rank of the run raises alike (an agreement).
  template <class Step>
  void shared_step(Step&& step) {
    try {
      step();
    } catch (const Error&) {
      shared = true;
      throw;
    }
  }
  // Collective over the run: runs `step` and agrees on its errors (detail::agree_on).
  template <class Step>
  void agree_over_run(Step&& step) {
    shared_step([&] { detail::agree_on(run, step); });
  }

  // A call of the coupler: refused if the coupler failed before, stopped by a notice
  // of another rank's failure. `check` may reject the call, which then changed
  // nothing and the coupler stays usable; any error of `act` fails the coupler, and
  // tells every other rank unless they raise it too.
  template <class Check, class Act>
  auto call(const char* name, Check&& check, Act&& act) -> decltype(act()) {
    FERRY_CHECK(!failure, Errc::State, name, ": the coupler failed earlier on this rank (",
                failure.value_or(""), "); only destroying it is allowed");
    last_call = name;
    last_rejection.clear();
    shared = false;
    try {
      partner_watchdog().check_notice();
    } catch (const Error& e) {
      fail(name, e.what(), false);
      throw;
    }
    try {
      check();
    } catch (const Error& e) {
      last_rejection = e.what();
      throw;
    }
    try {
      return act();
    } catch (const Error& e) {
      fail(name, e.what(), !shared);
      throw;
    } catch (const std::bad_alloc&) {
      const Error e(Errc::NoMemory, detail::cat(name, ": ", detail::kOutOfMemory, " (rank ",
                                                run.rank(), " of the run)"));
      fail(name, e.what(), !shared);
      throw e;
    }
  }
};

namespace {

// Collective over `run`: one PartitionRoute per link, shared by links between the same
// partitions on the same ranks (same key, and on every rank the same layouts).
std::vector<std::shared_ptr<const coupling::PartitionRoute>> build_routes(const Comm& run,
                                                                 const std::vector<LinkSpec>& specs,
                                                                 detail::Timers& timers) {
  std::vector<int> shares(specs.size(), -1);  // an earlier link with the same key
  // Per link, reduced (minimum) in one round: [0, n) the same layouts as the link it
  // shares its key with; [n, 3n) every member of its source, then target side holds
  // points (the route's holders are then the sides' communicators, no more splits).
  const std::size_t n = specs.size();
  std::vector<int> reduced(3 * n, 1);
  for (std::size_t l = 0; l < n; ++l) {
    for (std::size_t m = 0; m < l && shares[l] < 0; ++m)
      if (specs[m].route_key == specs[l].route_key) {
        shares[l] = static_cast<int>(m);
        reduced[l] = specs[m].moved_from == specs[l].moved_from &&
                     specs[m].moved_to == specs[l].moved_to;
      }
    reduced[n + 2 * l] = !specs[l].source_member || specs[l].moved_from->local_size() > 0;
    reduced[n + 2 * l + 1] = !specs[l].target_member || specs[l].moved_to->local_size() > 0;
  }
  if (!reduced.empty())
    FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, reduced.data(), static_cast<int>(reduced.size()),
                                 MPI_INT, MPI_MIN, run.get()));
  // How many links each route serves (the share sizes the rma window for all of them).
  std::vector<std::size_t> entries(specs.size(), 1);
  for (std::size_t l = 0; l < specs.size(); ++l)
    if (shares[l] >= 0 && reduced[l]) ++entries[static_cast<std::size_t>(shares[l])];
  std::vector<std::shared_ptr<const coupling::PartitionRoute>> routes(specs.size());
  for (std::size_t l = 0; l < specs.size(); ++l) {
    if (shares[l] >= 0 && reduced[l]) {
      routes[l] = routes[static_cast<std::size_t>(shares[l])];
      continue;
    }
    const LinkSpec& spec = specs[l];
    detail::ScopedTimer timer(timers, spec.config->name, detail::TimerCategory::Setup);
    routes[l] = std::make_shared<const coupling::PartitionRoute>(run, spec.source_member, spec.target_member,
                                                        spec.moved_from, spec.moved_to,
                                                        spec.moved_size, entries[l],
                                                        std::make_pair(reduced[n + 2 * l] != 0,
                                                                       reduced[n + 2 * l + 1] != 0));
  }
  return routes;
}

// What a component declared for the points of a partition: areas and mask.
GridPointData declared_points(const coupling::PartitionDecl& p) {
  GridPointData points;
  if (!p.area.empty() || p.layout.local_size() == 0) points.area = p.area;
  if (!p.mask.empty()) points.mask = p.mask;
  return points;
}

// Collective over `run`: the product of a regridded entry, on the ranks that run it;
// `grid_files` are the configuration's `grids:`.
std::unique_ptr<coupling::EntryRegrid> make_regrid(const LinkSpec& spec, const coupling::PartitionRoute& route,
                                                   const std::vector<config::GridFileConfig>& grid_files) {
  const config::RegridConfig& config = spec.config->regrid;
  if (!route.link.valid()) return nullptr;
  const bool on_source = config.map_on == MapOn::Src;
  const Comm& product = on_source ? route.source : route.target;
  coupling::RegridGrids grids;
  grids.link = &route.link;
  grids.product = &product;
  grids.source = spec.source_partition;
  grids.target = spec.target_partition;
  grids.block = spec.block.get();
  grids.source_size = spec.source_size;
  grids.target_size = spec.target_size;
  grids.source_nx = spec.source_nx;
  grids.source_file = config::grid_file(grid_files, spec.source_grid);
  grids.target_file = config::grid_file(grid_files, spec.target_grid);
  const Weights weights = coupling::regrid_weights(config, grids, where(*spec.config));
  const std::vector<Weights> gradient_weights =
      coupling::regrid_gradient_weights(config, grids, where(*spec.config));
  // Conservation: the other side's declared areas and mask, at the block.
  GridPointData block_points;
  if (config.conservation)
    block_points = coupling::block_areas_and_mask(
        {&route.link, on_source ? spec.target_partition : spec.source_partition, spec.block.get(),
         on_source ? spec.target_size : spec.source_size, where(*spec.config)});
  if (!product.valid()) return nullptr;
  const coupling::PartitionDecl& own = on_source ? *spec.source_partition : *spec.target_partition;
  return std::make_unique<coupling::EntryRegrid>(
      product, config, weights, on_source ? *spec.source_layout : *spec.block,
      on_source ? *spec.block : *spec.target_layout, spec.specs,
      on_source ? declared_points(own) : std::move(block_points),
      on_source ? std::move(block_points) : declared_points(own), where(*spec.config),
      gradient_weights);
}

// What the configuration asks and ferry cannot do (a namcouple's unknown keywords,
// methods ferry lacks): every item in one error.
void refuse(const config::Config& config) {
  if (config.refused.empty()) return;
  std::string list;
  for (const config::Problem& r : config.refused) list += "\n  " + config::problem_text(r);
  throw Error(Errc::Arg, detail::cat("Coupler::enddef: \"", config.path, "\" asks for ",
                                     config.refused.size(), " thing",
                                     config.refused.size() == 1 ? "" : "s",
                                     " ferry cannot do; the run stops here rather than ignore "
                                     "them:", list));
}

// The component of each side that names none (a namcouple's): the one component
// that declares the side's first field with the side's direction. True if it named any.
bool name_components(config::Config& config, const std::vector<CatalogueEntry>& catalogue) {
  bool named = false;
  for (config::ExchangeConfig& e : config.exchanges) {
    const bool output_only = e.kind == config::EntryKind::Output;
    for (config::FieldRef* ref : {&e.source, &e.target}) {
      if (!ref->component.empty() || ref->fields.empty()) continue;
      const FieldDirection direction = ref == &e.source ? FieldDirection::Out : FieldDirection::In;
      std::set<std::string> declaring;
      for (const CatalogueEntry& c : catalogue)
        if (c.field == ref->fields.front() && c.direction == direction) declaring.insert(c.component);
      const char* side = direction == FieldDirection::Out ? "source" : "target";
      FERRY_CHECK(!declaring.empty(), Errc::Arg, where(e), ": no component declares the ", side,
                  " field \"", ref->fields.front(), "\" (direction ",
                  direction == FieldDirection::Out ? "Out" : "In",
                  "). Declare it (oasis_def_var, def_field) or correct the name in \"",
                  e.where.file, "\"");
      FERRY_CHECK(declaring.size() == 1, Errc::Arg, where(e), ": components ",
                  detail::list_first(declaring, declaring.size()), " all declare the ", side,
                  " field \"", ref->fields.front(), "\"; give the fields distinct names");
      ref->component = *declaring.begin();
      named = true;
    }
    if (output_only) e.target.component = e.source.component;
  }
  return named;
}

// This rank's block of `size` points over the ranks of a side (it must be one of them).
std::shared_ptr<const Layout> block_over(const std::set<int>& ranks, int rank, std::int64_t size) {
  const auto part = std::distance(ranks.begin(), ranks.find(rank));
  return std::make_shared<const Layout>(
      Layout::block(size, static_cast<int>(ranks.size()), static_cast<int>(part)));
}

}  // namespace

LinkSpec Coupler::State::resolve(const config::ExchangeConfig& e,
                                 const std::vector<CatalogueEntry>& catalogue) const {
  const bool output_only = e.kind == config::EntryKind::Output;
  const auto at = [&] { return where(e); };  // made for a message only
  const EntrySide source = coupling::resolve_side(at, "exchange", e.source, FieldDirection::Out,
                                                  catalogue, all_components);
  // An output-only entry has no target: its "target" is the source itself.
  const EntrySide target = output_only ? source
                                       : coupling::resolve_side(at, "exchange", e.target,
                                                                FieldDirection::In, catalogue,
                                                                all_components);
  LinkSpec spec;
  spec.config = &e;
  for (std::size_t f = 0; f < e.source.fields.size(); ++f) {
    const CatalogueEntry& s = *source.fields[f];
    const CatalogueEntry& t = *target.fields[f];
    FERRY_CHECK(s.type == t.type && s.bundle == t.bundle, Errc::Arg, where(e), ": source field \"",
                s.field, "\" (", datatype_name(s.type), " x ", s.bundle, ") and target field \"", t.field,
                "\" (", datatype_name(t.type), " x ", t.bundle, ") differ in type or bundle size");
    FERRY_CHECK(s.grid_size == t.grid_size || e.regrid.enabled(), Errc::Arg, where(e),
                ": source grid \"", s.grid, "\" has ", s.grid_size, " points and target grid \"", t.grid,
                "\" has ", t.grid_size, "; exchanges between different grids need regridding: give "
                "\"weights\" (a file) or \"method\"");
    const bool real = s.type == Datatype::Float64 || s.type == Datatype::Float32;
    FERRY_CHECK(!e.regrid.enabled() || real, Errc::Arg, where(e), ": field \"", s.field, "\" is ",
                datatype_name(s.type),
                "; regridding sums weighted values, so regridded fields are float64 or float32");
    FERRY_CHECK((e.source_scaling.identity() && e.target_scaling.identity()) || real, Errc::Arg,
                where(e), ": field \"", s.field, "\" is ", datatype_name(s.type),
                "; source_factor, source_offset, target_factor and target_offset (BLASOLD, "
                "BLASNEW) scale real values, so scaled fields are float64 or float32");
    spec.specs.push_back({s.type, s.bundle});
    spec.source_names.push_back(s.field);
    spec.target_names.push_back(t.field);
  }
  spec.source_grid = source.fields.front()->grid;
  spec.target_grid = target.fields.front()->grid;
  spec.source_size = source.fields.front()->grid_size;
  spec.target_size = target.fields.front()->grid_size;
  spec.source_nx = source.fields.front()->grid_nx;
  spec.source_member = source.ranks.count(run.rank()) != 0;
  spec.target_member = !output_only && target.ranks.count(run.rank()) != 0;
  if (spec.source_member) {
    spec.source_partition =
        coupling::partition_of_field(declarations, e.source.component, e.source.fields.front());
    spec.source_layout = &spec.source_partition->layout;
  }
  if (spec.target_member) {
    spec.target_partition =
        coupling::partition_of_field(declarations, e.target.component, e.target.fields.front());
    spec.target_layout = &spec.target_partition->layout;
  }
  if (output_only) spec.target_names = spec.source_names;
  // With regridding, the link moves the product's block side instead of one partition.
  spec.moved_size = spec.source_size;
  spec.moved_from = spec.source_layout;
  spec.moved_to = spec.target_layout;
  if (e.regrid.map_on == MapOn::Src && e.regrid.enabled()) {
    spec.moved_size = spec.target_size;
    if (spec.source_member) spec.block = block_over(source.ranks, run.rank(), spec.target_size);
    spec.moved_from = spec.block.get();
  } else if (e.regrid.enabled()) {
    if (spec.target_member) spec.block = block_over(target.ranks, run.rank(), spec.source_size);
    spec.moved_to = spec.block.get();
  }
  // "component<tab>grid<tab>partition<tab>rank, rank, ...<newline>" per side, by appends
  // (one per entry, where a string stream costs more than the rest of the entry).
  for (const EntrySide* side : {&source, &target}) {
    const CatalogueEntry& first = *side->fields.front();
    for (const std::string* part : {&first.component, &first.grid, &first.partition})
      spec.route_key.append(*part).push_back('\t');
    for (const int rank : side->ranks)
      spec.route_key.append(rank == *side->ranks.begin() ? "" : ", ").append(std::to_string(rank));
    spec.route_key.push_back('\n');
  }
  if (e.regrid.enabled()) spec.route_key += "regridded by " + e.name;  // blocks are its own
  return spec;
}

Coupler::Coupler(MPI_Comm comm, const std::vector<std::string>& components,
                 const std::string& config_path)
    : state_(std::make_unique<State>()) {
  arrive_with(comm, components);
  state_->config = read_config(state_->run, config_path);
  meet_components(config_path);
}

Coupler::Coupler(MPI_Comm comm, const std::vector<std::string>& components, config::Config config)
    : state_(std::make_unique<State>()) {
  arrive_with(comm, components);
  state_->config = std::move(config);
  meet_components(state_->config.path);
}

void Coupler::arrive_with(MPI_Comm comm, const std::vector<std::string>& components) {
  State& s = *state_;
  s.run = arrive(comm, config::Config{}.collective_seconds);
  s.started = MPI_Wtime();
  detail::agree_on(s.run, [&] {
    FERRY_CHECK(!components.empty(), Errc::Arg,
                "Coupler: rank ", s.run.rank(), " names no component. Pass the component(s) it runs");
    for (const auto& c : components) check_name(c, "component");
    s.my_components = components;
    std::sort(s.my_components.begin(), s.my_components.end());
    s.my_components.erase(std::unique(s.my_components.begin(), s.my_components.end()),
                          s.my_components.end());
  });
}

void Coupler::meet_components(const std::string& config_path) {
  State& s = *state_;
  // A configuration that lists no components (a namcouple) has nothing to agree on here;
  // every rank has the same one.
  if (!s.config.components.empty()) detail::agree_on(s.run, [&] {
    for (const auto& c : s.my_components)
      FERRY_CHECK(std::find(s.config.components.begin(), s.config.components.end(), c) !=
                      s.config.components.end(),
                  Errc::Arg, "Coupler: rank ", s.run.rank(), " runs component \"", c, "\", which \"",
                  config_path, "\" does not list (components: ",
                  detail::list_first(s.config.components, s.config.components.size()), ")");
  });

  // Every component of the run, and a communicator for each one this rank runs.
  std::string mine;
  for (const auto& c : s.my_components) mine += c + "\n";
  const int length = detail::mpi_count<int>(mine.size(), "component names");
  std::vector<int> lengths(static_cast<std::size_t>(s.run.size()));
  FERRY_CALL_MPI(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, s.run.get()));
  std::vector<int> displs(lengths.size() + 1, 0);
  for (std::size_t r = 0; r < lengths.size(); ++r) displs[r + 1] = displs[r] + lengths[r];
  std::string all(static_cast<std::size_t>(displs.back()), '\0');
  FERRY_CALL_MPI(MPI_Allgatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(),
                                displs.data(), MPI_CHAR, s.run.get()));
  std::set<std::string> names;
  bool one_each = true;  // every rank runs one component
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    std::vector<std::string> of_rank;
    std::istringstream lines(all.substr(static_cast<std::size_t>(displs[r]), static_cast<std::size_t>(lengths[r])));
    for (std::string line; std::getline(lines, line);) of_rank.push_back(line);
    names.insert(of_rank.begin(), of_rank.end());
    s.components_of.push_back(describe_components(of_rank));
    one_each = one_each && of_rank.size() == 1;
  }
  s.all_components.assign(names.begin(), names.end());
  if (one_each) {
    // The components' ranks are disjoint: one split makes every component's communicator.
    const auto color = std::find(s.all_components.begin(), s.all_components.end(),
                                 s.my_components.front()) - s.all_components.begin();
    MPI_Comm local = MPI_COMM_NULL;
    FERRY_CALL_MPI(MPI_Comm_split(s.run.get(), static_cast<int>(color), s.run.rank(), &local));
    s.local.emplace(s.my_components.front(), Comm::adopt(local));
  } else {
    for (const auto& c : s.all_components) {
      MPI_Comm local = MPI_COMM_NULL;
      FERRY_CALL_MPI(MPI_Comm_split(s.run.get(), s.runs(c) ? 0 : MPI_UNDEFINED, s.run.rank(), &local));
      if (s.runs(c)) s.local.emplace(c, Comm::adopt(local));
    }
  }
  s.notice = std::make_unique<coupling::FailureNotice>(s.run);
}

Coupler::~Coupler() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!state_ || finalized || state_->phase == Phase::Finalized) return;
  // Destroyed before finalize: user code threw, returned early or gave up. Tell the
  // partners, who would wait for this rank, and keep everything MPI may still use
  // (receive buffers of exchanges in flight, pending requests) until the process ends.
  try {
    abandon(std::uncaught_exceptions() > 0
                ? "the Coupler was destroyed before finalize while an exception propagated"
                : "the Coupler was destroyed before finalize");
  } catch (...) {
    // A destructor must not throw; the watchdog of the partners still applies.
  }
  static std::vector<std::unique_ptr<State>> abandoned;
  abandoned.push_back(std::move(state_));
}

void Coupler::close() {
  State& s = *state_;
  if (s.failure || s.phase == Phase::Finalized) return;
  if (s.phase == Phase::Running)
    finalize();
  else
    abandon("the Coupler was closed before enddef");
}

void Coupler::abandon(const std::string& reason) {
  State& s = *state_;
  if (s.phase == Phase::Finalized || s.failure) return;
  const std::string raised =
      s.last_rejection.empty() ? "" : ", which raised: " + s.last_rejection;
  s.fail(detail::cat("its own code (last coupler call: ", s.last_call, raised, ")"), reason, true);
}

MPI_Comm Coupler::local_comm(const std::string& component) const {
  auto it = state_->local.find(component);
  FERRY_CHECK(it != state_->local.end(), Errc::Arg, "Coupler::local_comm: rank ", state_->run.rank(),
              " does not run component \"", component, "\"");
  return it->second.get();
}

std::vector<double> Coupler::field_periods(const std::string& component, const std::string& field,
                                           FieldDirection direction) const {
  std::vector<double> periods;
  for (const config::ExchangeConfig& e : state_->config.exchanges) {
    const config::FieldRef& ref = direction == FieldDirection::Out ? e.source : e.target;
    if (!ref.component.empty() && ref.component != component) continue;
    if (std::find(ref.fields.begin(), ref.fields.end(), field) != ref.fields.end())
      periods.push_back(e.period);
  }
  return periods;
}

int Coupler::debug_level() const { return state_->config.debug_level; }

GridId Coupler::def_grid(const std::string& component, const std::string& name, std::int64_t nx,
                         std::int64_t ny) {
  State& s = *state_;
  s.require(Phase::Definition, "def_grid");
  check_name(name, "grid");
  FERRY_CHECK(s.runs(component), Errc::Arg, "Coupler::def_grid: rank ", s.run.rank(),
              " does not run component \"", component, "\"");
  FERRY_CHECK(nx > 0 && ny > 0, Errc::Arg, "Coupler::def_grid: grid \"", name,
              "\" must have nx, ny >= 1; got ", nx, " x ", ny);
  auto& grids = s.declarations.grids;
  for (std::size_t g = 0; g < grids.size(); ++g)
    if (grids[g].component == component && grids[g].name == name) {
      FERRY_CHECK(grids[g].nx == nx && grids[g].ny == ny, Errc::Arg, "Coupler::def_grid: grid \"", name,
                  "\" was declared as ", grids[g].nx, " x ", grids[g].ny, ", now as ", nx, " x ", ny);
      return {static_cast<int>(g)};
    }
  grids.push_back({component, name, nx, ny});
  return {static_cast<int>(grids.size()) - 1};
}

PartitionId Coupler::def_partition(GridId grid, const std::string& name, Layout layout) {
  State& s = *state_;
  s.require(Phase::Definition, "def_partition");
  check_name(name, "partition");
  FERRY_CHECK(grid.value >= 0 && grid.value < static_cast<int>(s.declarations.grids.size()), Errc::Arg,
              "Coupler::def_partition: grid id ", grid.value, " was not returned by def_grid");
  const auto& g = s.declarations.grids[static_cast<std::size_t>(grid.value)];
  FERRY_CHECK(layout.global_size() == g.size(), Errc::Arg, "Coupler::def_partition: partition \"", name,
              "\" has a layout over ", layout.global_size(), " ids but grid \"", g.name, "\" has ",
              g.size(), " points");
  coupling::PartitionDecl p;
  p.grid = grid.value;
  p.name = name;
  p.layout = std::move(layout);
  s.declarations.partitions.push_back(std::move(p));
  return {static_cast<int>(s.declarations.partitions.size()) - 1};
}

namespace {
template <class Declarations>
auto& partition_of(Declarations& d, PartitionId id, const char* call) {
  FERRY_CHECK(id.value >= 0 && id.value < static_cast<int>(d.partitions.size()), Errc::Arg,
              "Coupler::", call, ": partition id ", id.value, " was not returned by def_partition");
  return d.partitions[static_cast<std::size_t>(id.value)];
}
std::vector<double> copy_points(const double* values, std::size_t count, const char* call) {
  FERRY_CHECK(values != nullptr || count == 0, Errc::Arg, "Coupler::", call, ": array is NULL");
  return std::vector<double>(values, values + count);
}
}  // namespace

void Coupler::set_coordinates(PartitionId partition, const double* lon, const double* lat) {
  state_->require(Phase::Definition, "set_coordinates");
  auto& p = partition_of(state_->declarations, partition, "set_coordinates");
  const auto n = static_cast<std::size_t>(p.layout.local_size());
  p.lon = copy_points(lon, n, "set_coordinates");
  p.lat = copy_points(lat, n, "set_coordinates");
}

void Coupler::set_corners(PartitionId partition, int ncorner, const double* lon, const double* lat) {
  state_->require(Phase::Definition, "set_corners");
  auto& p = partition_of(state_->declarations, partition, "set_corners");
  FERRY_CHECK(ncorner >= 3, Errc::Arg, "Coupler::set_corners: a cell needs at least 3 corners; got ",
              ncorner);
  const auto n = static_cast<std::size_t>(p.layout.local_size()) * static_cast<std::size_t>(ncorner);
  p.ncorner = ncorner;
  p.corner_lon = copy_points(lon, n, "set_corners");
  p.corner_lat = copy_points(lat, n, "set_corners");
}

void Coupler::set_areas(PartitionId partition, const double* area) {
  state_->require(Phase::Definition, "set_areas");
  auto& p = partition_of(state_->declarations, partition, "set_areas");
  p.area = copy_points(area, static_cast<std::size_t>(p.layout.local_size()), "set_areas");
}

void Coupler::set_mask(PartitionId partition, const std::int32_t* mask) {
  state_->require(Phase::Definition, "set_mask");
  auto& p = partition_of(state_->declarations, partition, "set_mask");
  FERRY_CHECK(mask != nullptr || p.layout.local_size() == 0, Errc::Arg, "Coupler::set_mask: array is NULL");
  p.mask.assign(mask, mask + p.layout.local_size());
}

FieldId Coupler::def_field(PartitionId partition, const std::string& name, FieldDirection direction,
                           Datatype type, int bundle) {
  State& s = *state_;
  s.require(Phase::Definition, "def_field");
  check_name(name, "field");
  partition_of(s.declarations, partition, "def_field");
  FERRY_CHECK(bundle >= 1, Errc::Arg, "Coupler::def_field: field \"", name,
              "\" needs bundle >= 1; got ", bundle);
  FERRY_CHECK(datatype_size(type) != 0, Errc::Arg, "Coupler::def_field: field \"", name,
              "\" has an unknown type");
  const auto& p = s.declarations.partitions[static_cast<std::size_t>(partition.value)];
  const std::string& component = s.declarations.grids[static_cast<std::size_t>(p.grid)].component;
  for (const auto& f : s.declarations.fields) {
    const auto& fp = s.declarations.partitions[static_cast<std::size_t>(f.partition)];
    FERRY_CHECK(!(f.name == name && s.declarations.grids[static_cast<std::size_t>(fp.grid)].component == component),
                Errc::Arg, "Coupler::def_field: component \"", component, "\" already declares field \"",
                name, "\" on this rank");
  }
  s.declarations.fields.push_back({partition.value, name, direction, type, bundle});
  return {static_cast<int>(s.declarations.fields.size()) - 1};
}

std::int64_t Coupler::partition_points(PartitionId partition) const {
  return partition_of(state_->declarations, partition, "partition_points").layout.local_size();
}

std::int64_t Coupler::field_values(FieldId field) const {
  const auto& f = state_->field(field, "field_values");
  const auto& p = state_->declarations.partitions[static_cast<std::size_t>(f.partition)];
  return p.layout.local_size() * f.bundle;
}

Datatype Coupler::field_type(FieldId field) const { return state_->field(field, "field_type").type; }

namespace {

// The directory of `path`, created if missing, and writable: found at enddef, not when
// the run's first output or its restart at the end is written.
void prepare_directory(const std::string& path, const std::string& what) {
  namespace fs = std::filesystem;
  const fs::path directory = fs::path(path).parent_path().empty() ? fs::path(".")
                                                                   : fs::path(path).parent_path();
  std::error_code error;
  fs::create_directories(directory, error);
  FERRY_CHECK(!error && fs::is_directory(directory), Errc::Io, "Coupler::enddef: cannot create the ",
              what, " directory \"", directory.string(), "\"", error ? ": " + error.message() : "",
              ". Create it, or give another output.directory (or restart file)");
  const fs::path probe = directory / ".ferry_write_test";
  const bool writable = std::ofstream(probe).good();
  fs::remove(probe, error);
  FERRY_CHECK(writable, Errc::Io, "Coupler::enddef: the ", what, " directory \"",
              directory.string(), "\" is not writable. Fix its permissions, or give another "
              "output.directory (or restart file)");
}

}  // namespace

void Coupler::enddef() {
  State& s = *state_;
  s.call("Coupler::enddef",
         [&] {
           s.require(Phase::Definition, "enddef");
           refuse(s.config);
         },
         [&] {
    s.shared_step([&] {
      coupling::agree_on_arrival(*s.notice, s.collective_watchdog(), "Coupler::enddef",
                                 kEnddefRound, std::nullopt, s.components_of);
    });
    const std::vector<CatalogueEntry> catalogue = coupling::gather_catalogue(s.run, s.declarations);
    std::vector<LinkSpec> specs;
    // A YAML configuration passed config::check_rules when it was read: what is left to
    // check is what the components declared.
    s.agree_over_run([&] {
      // A namcouple names no components, and its reader checks its syntax only: once
      // the components are known from the declarations, the rules run, with those that
      // compare components (restart files, fed-once fields) seeing them.
      if (name_components(s.config, catalogue)) config::raise_problems(config::check_rules(s.config));
      for (const config::ExchangeConfig& e : s.config.exchanges)
        specs.push_back(s.resolve(e, catalogue));
    });
    const std::vector<std::shared_ptr<const coupling::PartitionRoute>> routes =
        build_routes(s.run, specs, s.timers);
    const coupling::Watchdog watchdog = s.partner_watchdog();
    // This rank's first error in setting up the links. A plain link fails alike on all
    // ranks of its exchange (the Exchange agrees on its errors), or on one rank alone
    // after the last collective call of its engine's set-up (the route's share leaves
    // those to us), and has no collective after the point where it can fail, so every
    // rank goes on to the next link and the errors of all plain links are agreed once,
    // with the output directory's: one collective round per entry, not two. A
    // regridded link, or one that reads a restart file on its source ranks alone, has
    // collectives after such points: it is agreed over the run at once.
    std::optional<Error> link_error;
    auto set_up = [&](bool agree_now, auto&& step) {
      std::optional<Error> error = detail::error_of(s.run, step);
      if (!link_error) link_error = std::move(error);
      if (agree_now) s.shared_step([&] { detail::agree(s.run, link_error); });
    };
    for (std::size_t l = 0; l < specs.size(); ++l) {
      const config::ExchangeConfig& c = *specs[l].config;
      const bool plain = !Link::collectives_after_exchange(c);
      std::unique_ptr<coupling::EntryRegrid> regrid;
      if (c.regrid.enabled()) {
        detail::ScopedTimer timer(s.timers, c.name, detail::TimerCategory::Setup);
        set_up(true, [&] { regrid = make_regrid(specs[l], *routes[l], s.config.grids); });
      }
      set_up(!plain, [&] {
        s.links.push_back(std::make_unique<Link>(std::move(specs[l]), routes[l], std::move(regrid),
                                                 s.config, watchdog, s.timers));
      });
    }
    s.agree_over_run([&] {
      if (link_error) throw *link_error;
      if (s.run.rank() != 0) return;
      prepare_directory(s.config.output_directory + "/", "output");
      for (const auto& link : s.links)
        if (link->keeps_state()) prepare_directory(link->restart_path(), "restart");
    });

    s.buffers =
        coupling::CouplerBuffers(s.run, s.config, s.declarations, catalogue, s.all_components);

    // Which links each declared field of this rank feeds or is fed by.
    s.field_links.assign(s.declarations.fields.size(), {});
    for (std::size_t f = 0; f < s.declarations.fields.size(); ++f) {
      const auto& field = s.declarations.fields[f];
      const auto& p = s.declarations.partitions[static_cast<std::size_t>(field.partition)];
      const std::string& component = s.declarations.grids[static_cast<std::size_t>(p.grid)].component;
      for (std::size_t l = 0; l < s.links.size(); ++l) {
        const config::ExchangeConfig& e = s.config.exchanges[l];
        const config::FieldRef& ref = field.direction == FieldDirection::Out ? e.source : e.target;
        if (ref.component != component) continue;
        auto it = std::find(ref.fields.begin(), ref.fields.end(), field.name);
        if (it != ref.fields.end())
          s.field_links[f].emplace_back(s.links[l].get(), static_cast<std::size_t>(it - ref.fields.begin()));
      }
      if (s.field_links[f].empty() && !s.buffers.uses(component, field.name, field.direction))
        FERRY_LOG_WARN(s.run.rank(), "component \"", component, "\" declares field \"", field.name,
                       "\", which no exchange of \"", s.config.path,
                       "\" uses; its puts and gets do nothing");
    }
    s.phase = Phase::Running;
    s.enddef_seconds = MPI_Wtime() - s.started;
  });
}

int Coupler::put(FieldId field, double time, const void* data) {
  return put(field, time, data, PutExtras{});
}

int Coupler::put(FieldId field, double time, const void* data, const PutExtras& extras) {
  State& s = *state_;
  const coupling::FieldDecl* f = nullptr;
  return s.call(
      "Coupler::put",
      [&] {
        s.require(Phase::Running, "put");
        f = &s.field(field, "put");
        FERRY_CHECK(f->direction == FieldDirection::Out, Errc::Arg, "Coupler::put: field \"",
                    f->name, "\" was declared In; use get");
        FERRY_CHECK(!extras.write_restart || s.config.file_format == config::FileFormat::Oasis,
                    Errc::Unsupported, "Coupler::put: field \"", f->name,
                    "\": intermediate restart files (write_restart) are written in OASIS's file "
                    "format only, which a namcouple selects");
        bool gradients_taken = false;
        for (auto& [link, index] : s.field_links[static_cast<std::size_t>(field.value)]) {
          link->check_put(index, time);
          if (!link->takes_gradients()) continue;
          link->check_gradients(index, extras.gradients.size());
          gradients_taken = true;
        }
        FERRY_CHECK(extras.gradients.empty() || gradients_taken, Errc::Arg, "put(\"", f->name, "\"): ",
                    extras.gradients.size(), " gradients given, but no exchange of the field is "
                    "remapped by a method that takes them (bicubic takes 3, second-order "
                    "conservative 2). Put the field alone");
      },
      [&] {
        int status = kStatusNothing;
        for (auto& [link, index] : s.field_links[static_cast<std::size_t>(field.value)])
          status |= link->put(index, time, data, extras);
        return status;
      });
}

int Coupler::put_inquire(FieldId field, double time) const {
  const State& s = *state_;
  s.require(Phase::Running, "put_inquire");
  const auto& f = s.field(field, "put_inquire");
  FERRY_CHECK(f.direction == FieldDirection::Out, Errc::Arg, "Coupler::put_inquire: field \"",
              f.name, "\" was declared In");
  int status = kStatusNothing;
  for (const auto& [link, index] : s.field_links[static_cast<std::size_t>(field.value)])
    status |= link->inquire(index, time);
  return status;
}

int Coupler::get(FieldId field, double time, void* data) {
  State& s = *state_;
  Link* link = nullptr;
  std::size_t index = 0;
  return s.call(
      "Coupler::get",
      [&] {
        s.require(Phase::Running, "get");
        const auto& f = s.field(field, "get");
        FERRY_CHECK(f.direction == FieldDirection::In, Errc::Arg, "Coupler::get: field \"", f.name,
                    "\" was declared Out; use put");
        const auto& links = s.field_links[static_cast<std::size_t>(field.value)];
        if (links.empty()) return;
        link = links.front().first;
        index = links.front().second;
        // On overlapping ranks, a get before a lower-sequence put of the same time would
        // deadlock; not so a put the exchange does not need (of no point: it may be skipped).
        for (const auto& other : s.links)
          FERRY_CHECK(!(other->needs_puts() && other->sequence() < link->sequence() &&
                        !(time < other->next_put_time())),
                      Errc::State, "Coupler::get: field \"", f.name, "\" (exchange \"", link->name(),
                      "\", sequence ", link->sequence(), ") at ", time,
                      " s comes before the put of exchange \"", other->name(), "\" (sequence ",
                      other->sequence(), ") due at ", other->next_put_time(),
                      " s on this rank. Call puts and gets of one coupling time in sequence order");
        link->check_get(index, time);
      },
      [&] { return link ? link->get(index, time, data) : kStatusNothing; });
}

// Buffers report their own failures (a torn step, requesters that disagree) to the
// ranks that load or read them; their errors leave the coupler usable.
void Coupler::load(const std::string& buffer, const void* data, std::int64_t step) {
  State& s = *state_;
  s.call("Coupler::load",
         [&] {
           s.require(Phase::Running, "load");
           s.buffers.load(buffer, data, step);
         },
         [] {});
}

ReadResult Coupler::read(const std::string& buffer, void* out, std::int64_t max_steps) {
  State& s = *state_;
  ReadResult result;
  s.call("Coupler::read",
         [&] {
           s.require(Phase::Running, "read");
           result = s.buffers.read(buffer, out, max_steps);
         },
         [] {});
  return result;
}

const std::vector<std::int64_t>& Coupler::read_steps(const std::string& buffer) {
  state_->require(Phase::Running, "read_steps");
  return state_->buffers.read_steps(buffer);
}

std::int64_t Coupler::buffer_values(const std::string& buffer) const {
  state_->require(Phase::Running, "buffer_values");
  return state_->buffers.values(buffer);
}

Datatype Coupler::buffer_type(const std::string& buffer) const {
  state_->require(Phase::Running, "buffer_type");
  return state_->buffers.type(buffer);
}

// Collective over the run: writes every restart file, each in parts, one exchange
// after the other (exchanges that share a file write into it in configuration order).
void Coupler::State::write_restarts() {
  State& s = *this;
  std::vector<std::string> files;
  for (const auto& link : s.links)
    if (link->keeps_state() &&
        std::find(files.begin(), files.end(), link->restart_path()) == files.end())
      files.push_back(link->restart_path());
  // OASIS's files are kept and added to, variable by variable.
  const bool oasis = s.config.file_format == config::FileFormat::Oasis;
  for (const std::string& file : files) {
    try {
      if (!oasis) s.agree_over_run([&] { coupling::FieldFile::begin_parts(s.run, file); });
      for (const auto& link : s.links) {
        if (!link->keeps_state() || link->restart_path() != file) continue;
        // One part at a time: a part's ranks must have finished before the next one's begin.
        // Written by the source ranks that hold points: their puts agree, while a rank
        // holding none may have skipped its puts (and its state stayed behind).
        s.agree_over_run([&] {
          if (!link->source_holders().valid()) return;
          if (oasis) {
            link->write_oasis_restart();
            return;
          }
          const coupling::RestartPart part = link->restart_part();
          if (!part.records.empty())
            coupling::FieldFile::write_part(link->source_holders(), file, part.records,
                                            part.layouts, part.data);
        });
      }
      if (!oasis) s.agree_over_run([&] { coupling::FieldFile::end_parts(s.run, file); });
    } catch (const Error& e) {
      if (s.run.rank() == 0 && !oasis) coupling::FieldFile::discard_parts(file);
      throw Error(e.code(), detail::cat("Coupler::finalize: writing the restart file \"", file,
                                        "\" failed, so the next run cannot continue this one: ",
                                        e.what()),
                  e.rank());
    }
  }
}

void Coupler::finalize() {
  State& s = *state_;
  s.call("Coupler::finalize", [&] { s.require(Phase::Running, "finalize"); }, [&] {
    s.shared_step([&] {
      coupling::agree_on_arrival(*s.notice, s.collective_watchdog(), "Coupler::finalize",
                                 kFinalizeRound, std::nullopt, s.components_of);
    });
    // Sends still in flight wait for their targets' last gets; a rank that waits too
    // long says so in the next agreement, where every rank learns it.
    const std::optional<Error> sent = detail::error_of(s.run, [&] {
      for (auto& link : s.links) link->complete();
    });
    s.shared_step([&] {
      coupling::agree_on_arrival(*s.notice, s.collective_watchdog(), "Coupler::finalize",
                                 kSendsCompleteRound, sent, s.components_of);
    });
    s.write_restarts();
    s.agree_over_run([&] {
      for (auto& link : s.links) link->close();
      for (auto& link : s.links) link->close_route();
    });
    s.links.clear();
    s.field_links.clear();
    s.agree_over_run([&] { s.buffers.close(); });
    if (s.config.timers)
      s.agree_over_run([&] {
        for (const auto& [name, comm] : s.local)
          s.timers.write_json(comm, name, MPI_Wtime() - s.started, s.enddef_seconds,
                              s.config.output_directory + "/ferry_timers_" + name + ".json");
      });
    s.phase = Phase::Finalized;
  });
}

}  // namespace ferry
