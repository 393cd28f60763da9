// The rules of a configuration that span several keys or entries: what the schema
// check of each key alone cannot see. One pass, run by check_config (so by `ferry
// validate` and by every coupler that reads a file) and by whoever builds a Config
// another way; a configuration that passes is refused by a run only for what the
// running program declares (components run, grids, partitions, field types).
#pragma once

#include <string>
#include <vector>

#include "config/config.hpp"
#include "ferry/engine_options.hpp"

namespace ferry::config {

/// Every problem of `config` that spans keys, in the order of the entries:
/// - exchanges: names unique; the components listed in `components` (when given);
///   source and target with the same number of fields; a target field fed by one
///   exchange only; no field both a source (put) and a target (get); |lag| <= period;
/// - engines: `auto` resolved once (resolve_engine_name); an engine whose two sides
///   cannot progress independently (Capabilities::independent_sides) refused, and so
///   is such a candidate of an engine that chooses among `candidates`; the keys of
///   `engine_options` among those the engine declares (engine_option_keys), with
///   "did you mean";
/// - keys that go together or exclude each other as the schema says (Key::excludes,
///   needs_any, only_when): the regridding keys;
/// - buffers: names unique, listed components, source and target components differ;
/// - grids: names unique; `mask` only with the OASIS format (or `auto`);
/// - restart files: exchanges that share one have the same source component and
///   store different fields (as OASIS requires).
/// Messages read "<what is wrong>; <how to fix it>" and point at the key concerned
/// (GivenKeys), else at the entry. Not collective.
std::vector<Problem> check_rules(const Config& config);

/// The engine a coupler exchange runs with and its options: `auto` resolved, and an
/// engine that declares the options `independent_sides` and `keep_candidates` (the
/// adaptive engine) given both as true, since put/get calls begin and end at
/// different times on the two sides. Not collective.
struct CouplingEngine {
  std::string name;
  EngineOptions options;
};
CouplingEngine coupling_engine(const ExchangeConfig& exchange);

}  // namespace ferry::config
