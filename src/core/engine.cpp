#include "ferry/engine.hpp"

#include <cstdlib>

#include "util/check.hpp"

namespace ferry {

std::size_t datatype_size(Datatype type) noexcept {
  switch (type) {
    case Datatype::Float64: return 8;
    case Datatype::Float32: return 4;
    case Datatype::Int32: return 4;
    case Datatype::Int64: return 8;
  }
  return 0;
}

const char* datatype_name(Datatype type) noexcept {
  switch (type) {
    case Datatype::Float64: return "float64";
    case Datatype::Float32: return "float32";
    case Datatype::Int32: return "int32";
    case Datatype::Int64: return "int64";
  }
  return "unknown";
}

bool EngineOptions::get_bool(std::string_view engine, const std::string& key,
                             bool fallback) const {
  read_.insert(key);
  auto it = values.find(key);
  if (it == values.end()) return fallback;
  const std::string& v = it->second;
  if (v == "true" || v == "1" || v == "on" || v == "yes") return true;
  if (v == "false" || v == "0" || v == "off" || v == "no") return false;
  throw Error(Errc::Arg, detail::cat(engine, ": option \"", key, "\" must be true or false; got \"",
                                     v, "\""));
}

std::string EngineOptions::get_string(const std::string& key, const std::string& fallback) const {
  read_.insert(key);
  auto it = values.find(key);
  return it == values.end() ? fallback : it->second;
}

void EngineOptions::check_all_read(std::string_view engine) const {
  for (const auto& [key, value] : values)
    FERRY_CHECK(read_.count(key) != 0, Errc::Arg, engine, ": unknown option \"", key,
                "\" (value \"", value, "\"). See the engine's page in docs/user/engines for its options");
}

void Engine::stage(std::size_t /*field*/, const void* /*src*/) {
  throw Error(Errc::Unsupported, detail::cat(name(), ": stage() is not offered by this engine ",
                                             "(Capabilities::holds_fields is false)"));
}

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
