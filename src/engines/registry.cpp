// The engine registry: every built-in engine is named here, behind its feature guard,
// with the option keys it reads.
#include <mutex>
#include <optional>
#include <utility>

#include "engines/adaptive/adaptive_engine.hpp"
#include "engines/alltoallv/alltoallv_engine.hpp"
#include "engines/butterfly/butterfly_engine.hpp"
#include "engines/p2p/p2p_engine.hpp"
#include "ferry/config.hpp"
#include "ferry/engine.hpp"
#include "util/check.hpp"
#if FERRY_HAVE_NEIGHBOR_ENGINE
#include "engines/neighbor/neighbor_engine.hpp"
#endif
#if FERRY_HAVE_RMA_ENGINE
#include "engines/rma/rma_engine.hpp"
#endif

namespace ferry {

namespace {

struct Registered {
  std::string name;
  EngineFactory factory;
  std::optional<std::vector<EngineOptionKey>> options;  // nullopt: not declared
};

struct Registry {
  std::mutex mutex;
  std::vector<Registered> engines;
  std::vector<std::string> disabled;
};

// Each built-in engine with the option keys it reads (its setup rejects any other).
void register_builtin_engines(Registry& r) {
  using namespace detail;
  using Options = std::vector<EngineOptionKey>;
  r.engines.push_back({"p2p", [] { return std::make_unique<P2pEngine>(); }, Options{}});
  r.engines.push_back(
      {"alltoallv", [] { return std::make_unique<AlltoallvEngine>(); }, Options{}});
  r.engines.push_back(
      {"butterfly", [] { return std::make_unique<ButterflyEngine>(); },
       Options{{"stages", "all (default), none, or one 1 (keep) or 0 (skip) per stage, stage 0 "
                          "first"}}});
#if FERRY_HAVE_NEIGHBOR_ENGINE
  r.engines.push_back(
      {"neighbor", [] { return std::make_unique<NeighborEngine>(); },
       Options{{"reorder", "true or false (default): let MPI renumber the ranks of the graph "
                           "communicator"}}});
#else
  r.disabled.emplace_back("neighbor (disabled: MPI lacks MPI_Dist_graph_create_adjacent / "
                          "MPI_Neighbor_alltoallv, or FERRY_ENABLE_NEIGHBOR=OFF)");
#endif
#if FERRY_HAVE_RMA_ENGINE
  r.engines.push_back(
      {"rma", [] { return std::make_unique<RmaEngine>(); },
       Options{{"shared_memory", "true (default) or false: false sends every block with "
                                 "MPI_Put, also to ranks on the same node"}}});
#else
  r.disabled.emplace_back("rma (disabled: MPI lacks MPI_Win_allocate_shared, or "
                          "FERRY_ENABLE_RMA=OFF)");
#endif
  // Last: it chooses among the engines registered above.
  r.engines.push_back(
      {"adaptive", [] { return std::make_unique<AdaptiveEngine>(); },
       Options{{"samples", "integer 1..1000, default 5: rounds of timed exchanges (one per "
                           "candidate each) before a decision"},
               {"max_samples", "integer samples..1000, default 20: rounds at most"},
               {"warmup", "integer 0..1000, default 2: rounds before the timed ones"},
               {"margin", "integer 0..50, default 2: percent by which a candidate must be "
                          "clearly faster than p2p"},
               {"tolerance", "integer 0..50, default 5: percent within which candidates "
                             "count as equally fast"},
               {"check", "true (default) or false: re-check a cached choice on the first "
                         "exchanges"},
               {"check_samples", "integer 1..1000, default 8: rounds that re-check a cached "
                                 "choice at most (at least samples)"},
               {"watch", "integer 0..1000000, default 50: exchanges per watch window after "
                         "the decision; 0: no watching"},
               {"drift", "integer 1..1000, default 30: percent of drift over three windows "
                         "that starts a new search"},
               {"cache", "the tuning-cache file; default $FERRY_TUNING_CACHE"},
               {"retune", "true or false (default): profile even if the cache has an entry"},
               {"candidates", "comma-separated engines to time; default every candidate of "
                              "this build"},
               {"independent_sides", "true or false (default): time only candidates whose "
                                     "sides progress independently (the coupler sets it)"},
               {"keep_candidates", "true or false (default): close candidates only in the "
                                   "engine's close() (the coupler sets it)"}}});
}

Registry& registry() {
  static Registry r;
  static std::once_flag once;
  std::call_once(once, [] { register_builtin_engines(r); });
  return r;
}

}  // namespace

namespace {

void add_engine(Registered engine) {
  FERRY_CHECK(!engine.name.empty() && engine.factory, Errc::Arg,
              "register_engine: need a non-empty name and a factory");
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (auto& entry : r.engines)
    if (entry.name == engine.name) {
      entry = std::move(engine);
      return;
    }
  r.engines.push_back(std::move(engine));
}

}  // namespace

void register_engine(const std::string& name, EngineFactory factory) {
  add_engine({name, std::move(factory), std::nullopt});
}

void register_engine(const std::string& name, EngineFactory factory,
                     std::vector<EngineOptionKey> options) {
  add_engine({name, std::move(factory), std::move(options)});
}

std::unique_ptr<Engine> make_engine(const std::string& name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const auto& entry : r.engines)
    if (entry.name == name) return entry.factory();
  std::vector<std::string> names;
  for (const auto& entry : r.engines) names.push_back(entry.name);
  std::string extra;
  for (const auto& d : r.disabled) extra += "; " + d;
  throw Error(Errc::Arg, detail::cat("unknown engine \"", name, "\"; available in this build: ",
                                     detail::list_first(names, names.size()), extra));
}

std::vector<std::string> engine_names() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::string> names;
  for (const auto& entry : r.engines) names.push_back(entry.name);
  return names;
}

std::vector<std::string> disabled_engines() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.disabled;
}

std::optional<std::vector<EngineOptionKey>> engine_option_keys(const std::string& name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const auto& entry : r.engines)
    if (entry.name == name) return entry.options;
  return std::nullopt;
}

Capabilities engine_capabilities(const std::string& name) { return make_engine(name)->capabilities(); }

}  // namespace ferry
