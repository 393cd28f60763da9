// Importing an OASIS3-MCT namcouple: what ferry can express becomes a
// configuration (YAML, version 1); the rest is listed with its line number.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace ferry::coupling {

/// Converts the namcouple `text` (called `name` in messages) into YAML that
/// parse_config accepts.
///
/// Converted: $RUNTIME (run length) and every $STRINGS entry with status EXPORTED
/// or EXPOUT: source and target names (colon-separated lists become `fields`),
/// coupling period, restart file, EXPOUT (`output: true`), LAG=, SEQ= and the
/// LOCTRANS operation (INSTANT, ACCUMUL, AVERAGE, T_MIN, T_MAX). Everything else —
/// other statuses, remapping (SCRIPR, MAPPING, CONSERV, ...), BLASOLD/BLASNEW,
/// CHECKIN/CHECKOUT, negative lags, other blocks such as $NLOGPRT — is appended to
/// `not_converted` as "line N: ..." and repeated in a comment at the top of the YAML.
///
/// Components: namcouple entries name grids, not components. The component of a
/// side is `grid_components[grid]`, or the grid name itself; the YAML's comment then
/// says the names must be checked (and lists the $NBMODEL model names, if any).
///
/// Raises Errc::Arg "<name>:<line>: <what>" for text that is not a namcouple this
/// importer understands (a block without $END, a malformed entry, an unknown
/// transformation, field lists of different lengths, no $RUNTIME or $STRINGS) and
/// for a `grid_components` grid no converted entry uses. Not collective.
std::string import_namcouple(const std::string& text, const std::string& name,
                             std::vector<std::string>& not_converted,
                             const std::map<std::string, std::string>& grid_components = {});

/// Reads the namcouple at `path` (Errc::Io if it cannot) and imports it as above.
/// Not collective.
std::string load_namcouple(const std::string& path, std::vector<std::string>& not_converted,
                           const std::map<std::string, std::string>& grid_components = {});

}  // namespace ferry::coupling
