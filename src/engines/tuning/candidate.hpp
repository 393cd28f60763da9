// A candidate of the adaptive engine: an engine of the registry and, for the
// butterfly engine, which of its stages are kept.
#pragma once

#include <optional>
#include <string>

#include "ferry/engine.hpp"

namespace ferry::detail {

/// The engine name whose `stages` option the adaptive engine tunes.
inline constexpr const char* kButterflyEngine = "butterfly";

/// How many stages the butterfly engine has, so how many characters its `stages`
/// option takes, for a plan whose senders and receivers are `involved_ranks` distinct
/// ranks (PlanSignature::involved_ranks): log2 of its kernel, the largest power of
/// two not above them (0 for fewer than 2 ranks). Part of the option's contract
/// (docs/user/engines/butterfly.md): the butterfly engine sizes its kernel with it,
/// and the adaptive engine, which reaches butterfly only through the registry and
/// this option, sizes its stage masks with it. Not collective.
int butterfly_stage_count(int involved_ranks);

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
