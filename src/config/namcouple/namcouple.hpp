// Importing an OASIS3-MCT namcouple: what ferry can express becomes a
// configuration (YAML, version 1); the rest is listed with its line number.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "config/config.hpp"

namespace ferry::config {

/// What an import found to report, each item as "line N: ...".
struct NamcoupleNotes {
  std::vector<std::string> differences;    ///< converted, but ferry does it differently
  std::vector<std::string> not_converted;  ///< left out of the configuration
};

/// A converted namcouple: YAML that parse_config accepts, with `notes` repeated in a
/// comment at its top.
struct NamcoupleImport {
  std::string yaml;
  NamcoupleNotes notes;
};

/// Converts the namcouple `text` (called `name` in messages).
///
/// Converted: $RUNTIME (run length) and every $STRINGS entry with status EXPORTED
/// or EXPOUT: source and target names (colon-separated lists become `fields`),
/// coupling period, restart file, EXPOUT (`output: true`), LAG=, SEQ=, the LOCTRANS
/// operation (INSTANT, ACCUMUL, AVERAGE, T_MIN, T_MAX), BLASOLD and BLASNEW (a
/// factor and a CONSTANT: `source_factor`, `source_offset`, `target_factor`,
/// `target_offset`), CHECKIN and CHECKOUT, and the remapping: SCRIPR
/// (DISTWGT, GAUSWGT, BILINEAR, BICUBIC, CONSERV) becomes `method`, MAPPING
/// `weights`, `map_on` and `mode`, CONSERV `conservation` and `sum` (see
/// NamcoupleRemapping), $NWGTOPT every MAPPING entry's `bad_weight_index`. Where ferry does something differently (nearest-neighbour
/// fill, MAPPING's opt, ...) a note goes to `notes.differences`. Everything else —
/// other statuses, BILINEAR and BICUBIC on grids other than LR, BLASOLD/BLASNEW terms
/// other than one CONSTANT, negative lags, other blocks such as $NLOGPRT — goes to
/// `notes.not_converted`.
///
/// Components: namcouple entries name grids, not components. The component of a
/// side is `grid_components[grid]`, or the grid name itself; the YAML's comment then
/// says the names must be checked (and lists the $NBMODEL model names, if any).
///
/// Raises Errc::Arg "<name>:<line>: <what>" for text that is not a namcouple this
/// importer understands (a block without $END, a malformed entry or transformation
/// line, an unknown transformation, field lists of different lengths, no $RUNTIME
/// or $STRINGS) and for a `grid_components` grid no converted entry uses. Not
/// collective.
NamcoupleImport import_namcouple(const std::string& text, const std::string& name,
                                 const std::map<std::string, std::string>& grid_components = {});

/// A namcouple read for a run (the OASIS face's oasis_init_comp reads "namcouple"
/// from the working directory through this): the same Config the YAML gives,
/// with `notes.differences` for what ferry does differently.
/// An INPUT entry: the target component reads its fields from `file` every `period`
/// seconds, below oasis_get (the record whose "time" is the get's date).
struct NamcoupleInput {
  std::vector<std::string> fields;
  double period = 0;
  std::string file;
  int line = 0;  ///< of the entry in the namcouple
};

struct NamcoupleRead {
  Config config;
  NamcoupleNotes notes;
  std::vector<NamcoupleInput> inputs;  ///< INPUT entries (not exchanges of `config`)
};

/// Reads the namcouple `text` (called `name` in messages) for a run. Unlike
/// import_namcouple, nothing is left out: what ferry cannot carry out (an unknown
/// $KEYWORD, a status or transformation ferry lacks, a method the regridding does
/// not have yet, $NFIELDS smaller than the number of entries) is kept in
/// `config.refused` with its line and keyword, which enddef raises on every rank
/// and `ferry validate` reports. Components stay "" (enddef finds the component
/// declaring each field, as OASIS matches fields by name); the grid names and
/// sizes of each entry's second line go to FieldRef::grid, nx and ny; files are
/// in the OASIS format; $NLOGPRT sets debug_level; OUTPUT entries become
/// EntryKind::Output; INPUT entries go to `inputs`; IGNORED and IGNOUT are EXPORTED and EXPOUT, as in
/// OASIS3-MCT. The keywords OASIS3-MCT itself no longer uses ($SEQMODE,
/// $CHANNEL, $JOBNAME, $NBMODEL, $INIDATE, $MODINFO, $CALTYPE) are accepted.
/// $END is optional after every block. Raises Errc::Arg "<name>:<line>: <what>"
/// for text that is not a namcouple (as import_namcouple). Not collective.
NamcoupleRead read_namcouple(const std::string& text, const std::string& name);

/// Reads the namcouple at `path` (Errc::Io if it cannot) and imports it as above.
/// Not collective.
NamcoupleImport load_namcouple(const std::string& path,
                               const std::map<std::string, std::string>& grid_components = {});

}  // namespace ferry::config
