// One side (source or target) of a configuration entry, matched with what the
// components declared: the exchanges and the buffers resolve their fields the same way.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "coupling/declarations.hpp"

namespace ferry::coupling {

/// The declarations of one side of an entry, checked for consistency.
struct EntrySide {
  std::vector<const CatalogueEntry*> fields;  ///< first declaration of each field, in entry order
  std::set<int> ranks;                         ///< ranks that declare the side's fields
};

/// The side `ref` of an entry, `direction` Out for its source and In for its target.
/// `at` names the entry as messages start ("run.yaml:4:5: exchange \"sst\"") and is
/// called only for a message; `entry` is what it is ("exchange" or "buffer");
/// `components` is every component of the run, sorted. Not collective: every rank gets
/// the same catalogue and the same answer. Raises Errc::Arg for a component nobody
/// runs, a field nobody declares or declares with the other direction, and fields
/// declared differently or apart.
EntrySide resolve_side(const std::function<std::string()>& at, const char* entry,
                       const config::FieldRef& ref, FieldDirection direction,
                       const std::vector<CatalogueEntry>& catalogue,
                       const std::vector<std::string>& components);

}  // namespace ferry::coupling
