// A candidate of the adaptive engine: an engine of the registry and, for the
// butterfly engine, which of its stages are kept.
#pragma once

#include <optional>
#include <string>

#include "ferry/engine.hpp"

namespace ferry::detail {

/// The engine name whose `stages` option the adaptive engine tunes.
inline constexpr const char* kButterflyEngine = "butterfly";

/// One way of moving a plan's data.
struct Candidate {
  std::string engine;
  /// butterfly only: "all", or one character per stage, stage 0 first, '1' kept
  /// and '0' skipped; empty for every other engine.
  std::string stages;

  /// The name reports and the tuning cache use: "p2p", "butterfly:all", "butterfly:01".
  std::string label() const;
  /// The options the candidate is set up with ({"stages": ...} for butterfly).
  EngineOptions options() const;
  /// Parses a label; nullopt if it is not of the form above. Does not check that the
  /// engine exists or that the stages fit a plan.
  static std::optional<Candidate> parse(const std::string& label);

  friend bool operator==(const Candidate& a, const Candidate& b) {
    return a.engine == b.engine && a.stages == b.stages;
  }
};

}  // namespace ferry::detail
