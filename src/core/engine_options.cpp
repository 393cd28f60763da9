#include "ferry/engine_options.hpp"

#include "util/check.hpp"

namespace ferry {

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

}  // namespace ferry
