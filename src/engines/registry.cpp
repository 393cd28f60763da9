// The engine registry: every built-in engine is named here, behind its feature guard.
#include <mutex>
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

struct Registry {
  std::mutex mutex;
  std::vector<std::pair<std::string, EngineFactory>> engines;
  std::vector<std::string> disabled;
};

void register_builtin_engines(Registry& r) {
  using namespace detail;
  r.engines.emplace_back("p2p", [] { return std::make_unique<P2pEngine>(); });
  r.engines.emplace_back("alltoallv", [] { return std::make_unique<AlltoallvEngine>(); });
  r.engines.emplace_back("butterfly", [] { return std::make_unique<ButterflyEngine>(); });
#if FERRY_HAVE_NEIGHBOR_ENGINE
  r.engines.emplace_back("neighbor", [] { return std::make_unique<NeighborEngine>(); });
#else
  r.disabled.emplace_back("neighbor (disabled: MPI lacks MPI_Dist_graph_create_adjacent / "
                          "MPI_Neighbor_alltoallv, or FERRY_ENABLE_NEIGHBOR=OFF)");
#endif
#if FERRY_HAVE_RMA_ENGINE
  r.engines.emplace_back("rma", [] { return std::make_unique<RmaEngine>(); });
#else
  r.disabled.emplace_back("rma (disabled: MPI lacks MPI_Win_allocate_shared, or "
                          "FERRY_ENABLE_RMA=OFF)");
#endif
  // Last: it chooses among the engines registered above.
  r.engines.emplace_back("adaptive", [] { return std::make_unique<AdaptiveEngine>(); });
}

Registry& registry() {
  static Registry r;
  static std::once_flag once;
  std::call_once(once, [] { register_builtin_engines(r); });
  return r;
}

}  // namespace

void register_engine(const std::string& name, EngineFactory factory) {
  FERRY_CHECK(!name.empty() && factory, Errc::Arg,
              "register_engine: need a non-empty name and a factory");
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (auto& entry : r.engines)
    if (entry.first == name) {
      entry.second = std::move(factory);
      return;
    }
  r.engines.emplace_back(name, std::move(factory));
}

std::unique_ptr<Engine> make_engine(const std::string& name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const auto& entry : r.engines)
    if (entry.first == name) return entry.second();
  std::vector<std::string> names;
  for (const auto& entry : r.engines) names.push_back(entry.first);
  std::string extra;
  for (const auto& d : r.disabled) extra += "; " + d;
  throw Error(Errc::Arg, detail::cat("unknown engine \"", name, "\"; available in this build: ",
                                     detail::list_first(names, names.size()), extra));
}

std::vector<std::string> engine_names() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::string> names;
  for (const auto& entry : r.engines) names.push_back(entry.first);
  return names;
}

std::vector<std::string> disabled_engines() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.disabled;
}

}  // namespace ferry
