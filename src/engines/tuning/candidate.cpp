#include "engines/tuning/candidate.hpp"

#include <cstdint>

namespace ferry::detail {

int butterfly_stage_count(int involved_ranks) {
  int stages = 0;
  while ((std::int64_t{2} << stages) <= involved_ranks) ++stages;
  return stages;
}

std::string Candidate::label() const { return stages.empty() ? engine : engine + ":" + stages; }

EngineOptions Candidate::options() const {
  EngineOptions options;
  if (!stages.empty()) options.values["stages"] = stages;
  return options;
}

std::optional<Candidate> Candidate::parse(const std::string& label) {
  const auto colon = label.find(':');
  Candidate c;
  c.engine = label.substr(0, colon);
  if (c.engine.empty() || c.engine.find_first_of(" =|") != std::string::npos) return std::nullopt;
  if (colon == std::string::npos) return c;
  c.stages = label.substr(colon + 1);
  const bool bits = !c.stages.empty() && c.stages.find_first_not_of("01") == std::string::npos;
  const bool stages_ok = c.stages == "all" || bits;
  if (c.engine != kButterflyEngine || !stages_ok) return std::nullopt;
  return c;
}

}  // namespace ferry::detail
