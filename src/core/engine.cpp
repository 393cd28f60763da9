#include "ferry/engine.hpp"

#include <cstdlib>

#include "util/check.hpp"

namespace ferry {

void Engine::stage(std::size_t /*field*/, const void* /*src*/) {
  throw Error(Errc::Unsupported, detail::cat(name(), ": stage() is not offered by this engine ",
                                             "(Capabilities::holds_fields is false)"));
}

void* Engine::destination_field(std::size_t /*field*/) { return nullptr; }

void Engine::take(std::size_t /*field*/, void* /*dst*/) {
  throw Error(Errc::Unsupported, detail::cat(name(), ": take() is not offered by this engine ",
                                             "(Capabilities::holds_fields is false)"));
}

std::string resolve_engine_name(const std::string& requested) {
  if (requested.empty() || requested == "default") {
    const char* env = std::getenv("FERRY_ENGINE");
    if (env && *env) return resolve_engine_name(env);
    return "p2p";
  }
  if (requested == "auto") return "adaptive";
  return requested;
}

}  // namespace ferry
