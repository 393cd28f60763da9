// The coupling configuration: what a YAML file (version 1) says, after validation.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ferry/conservation.hpp"
#include "ferry/global_sum.hpp"
#include "ferry/grid_file.hpp"
#include "ferry/online_weights.hpp"
#include "ferry/remap.hpp"
#include "ferry/weights.hpp"

namespace ferry::config {

/// Where something was written in the configuration file, for error messages.
struct SourceLocation {
  std::string file;
  int line = 0;    ///< 1-based; 0 = unknown
  int column = 0;  ///< 1-based
};

/// A key the file gives: where its name and its value are written, and the value's
/// text (empty unless the value is a single scalar).
struct GivenKey {
  SourceLocation key;
  SourceLocation value;
  std::string text;
};

/// Every key an entry gives, by its path inside the entry: "lag", "source.component",
/// "method.name", "engine_options.reorder". Keys the file leaves out are absent; a
/// configuration made in code gives none. The rules (rules.hpp) point their messages
/// here, and ask whether a key was given at all.
using GivenKeys = std::map<std::string, GivenKey>;

/// Where `key` of an entry is written: its value's position, else the entry's `where`.
SourceLocation value_location(const GivenKeys& given, const std::string& key,
                              const SourceLocation& entry);

/// How the source side turns the puts of one coupling period into the value sent.
enum class Transform { Instant, Accumulate, Average, Min, Max };

/// Every transform, in the order the reference lists them.
inline constexpr Transform kTransforms[] = {Transform::Instant, Transform::Accumulate,
                                            Transform::Average, Transform::Min, Transform::Max};

/// How the configuration spells a transform: "instant", "accumulate", "average", "min", "max".
const char* transform_name(Transform transform) noexcept;

/// One side of an exchange: a component and the names of its fields (several =
/// one aggregated exchange, one message per peer).
struct FieldRef {
  /// "" = the component that declares the fields (a namcouple names no components:
  /// enddef finds the one component declaring them with the side's direction).
  std::string component;
  std::vector<std::string> fields;
  /// The grid's name and shape when the configuration gives them (a namcouple's
  /// "182 149 96 72 torc lmdz"): output and restart files in the OASIS format are
  /// laid out nx x ny, and the OASIS face reads the grid's coordinates by this name.
  std::string grid;
  std::int64_t nx = 0;  ///< 0 = not given
  std::int64_t ny = 0;
};

/// What an entry does with the source's values.
enum class EntryKind {
  Exchange,  ///< sent to the target fields (and written to the output file if `output`)
  Output,    ///< written to the output file only; the entry has no target (OASIS OUTPUT)
};

/// How restart and output files are laid out.
enum class FileFormat {
  Ferry,  ///< docs/user/files.md: one variable per field, grid and time as attributes
  Oasis,  ///< OASIS3-MCT's: restart variables named after the fields (nx x ny), output
          ///< files <field>_<component>_<entry number>.nc with a time record per put
};

/// One thing wrong with a configuration, and where it is written.
struct Problem {
  SourceLocation where;
  std::string what;  ///< what is wrong and how to fix it, without the position
};

/// Where the weights of a regridded exchange come from.
enum class WeightSource { None, File, Nearest, Gaussian, Bilinear, Bicubic, Conservative };

/// How the configuration spells a `method` name: "nearest", "gaussian", "bilinear",
/// "bicubic", "conservative"; "" for None and File.
const char* method_name(WeightSource source) noexcept;

/// How the configuration spells a `bad_weight_index`: "refuse", "drop", "drop_quietly".
const char* bad_index_name(BadWeightIndex bad) noexcept;

/// How the configuration spells a `conservation`: "global", "global_positive", ...
const char* conservation_name(Conserve method) noexcept;

/// The regridding keys of one exchange entry (none given: the grids are the same).
struct RegridConfig {
  WeightSource source = WeightSource::None;
  std::string weights;       ///< File: the SCRIP or ESMF weight file
  /// File: what happens to links whose address lies outside its grid
  BadWeightIndex bad_index = BadWeightIndex::Refuse;
  int neighbours = 4;        ///< Nearest, Gaussian: source points per destination point
  double variance = 0.1;     ///< Gaussian: in units of the spacing squared
  /// Gaussian: the spacing, of the whole source grid or of each target's neighbours
  GaussianScale gaussian_scale = GaussianScale::SourceSpacing;
  /// Nearest, Gaussian: whether masked source points count among the k nearest (then
  /// dropped), and whether a target whose k are all masked takes its nearest valid one
  MaskedNeighbours masked_neighbours = MaskedNeighbours::Skipped;
  bool periodic = true;      ///< Bilinear, bicubic, conservative order 2: wraps in longitude
  /// Conservative: what the weights of a target cell add up to
  ConservativeNormalisation normalisation = ConservativeNormalisation::FracArea;
  /// Bilinear, bicubic, conservative: what target points no source covers receive
  Unmapped unmapped = Unmapped::Fill;
  /// Conservative: 1 (first order) or 2 (second order, gradients computed)
  int order = 1;
  MapOn map_on = MapOn::Dst;
  RemapMode mode = RemapMode::Bfb;
  double fill = 0;           ///< value of masked destination points and rows without links
  std::optional<Conserve> conservation;
  SumMethod sum = SumMethod::Reprosum;
  bool enabled() const noexcept { return source != WeightSource::None; }
};

/// value * factor + offset, on every value of the fields on one side of an exchange
/// (the OASIS BLASOLD on the source before remapping, BLASNEW on the target after).
struct Scaling {
  double factor = 1;
  double offset = 0;
  bool identity() const noexcept { return factor == 1 && offset == 0; }
};

/// One `exchanges:` entry.
struct ExchangeConfig {
  std::string name;        ///< unique; defaults to "<first source field>-><first target field>"
  EntryKind kind = EntryKind::Exchange;
  int number = 0;          ///< 1-based position in the file (OASIS output file names)
  FieldRef source;
  FieldRef target;         ///< same number of fields as source, matched in order; none for Output
  double period = 0;       ///< seconds between coupling times (> 0)
  double lag = 0;          ///< seconds; a get at time t receives the put made at t - lag
                           ///< (negative: a later put; |lag| <= period)
  int sequence = 0;        ///< order of exchanges within a coupling time on overlapping ranks
  Transform transform = Transform::Instant;
  std::string engine = "auto";
  std::map<std::string, std::string> engine_options;
  bool output = false;     ///< write every exchanged field to NetCDF (like OASIS EXPOUT)
  bool check_in = false;   ///< log the minimum, maximum and sum of each field sent (OASIS CHECKIN)
  bool check_out = false;  ///< the same for each field received (OASIS CHECKOUT)
  Scaling source_scaling;  ///< applied to each value sent, before remapping (OASIS BLASOLD)
  Scaling target_scaling;  ///< applied to each value received, after remapping (OASIS BLASNEW)
  std::string restart;     ///< restart file name; "" = "<name>_restart.nc" in the output directory
  RegridConfig regrid;
  SourceLocation where;    ///< the entry, for errors found at enddef
  GivenKeys given;         ///< the keys the file gives
};

/// One `buffers:` entry: a time series the source component loads and the target reads.
struct BufferConfig {
  std::string name;          ///< unique among buffers
  FieldRef source;           ///< one field: its type and partition (a box) define the steps
  FieldRef target;           ///< one field on the reading component: its partition is the box read
  std::int64_t capacity = 0; ///< steps per source rank's ring (> 0)
  bool lossy = false;        ///< mode: lossy (true) or lossless
  SourceLocation where;      ///< the entry, for errors found at enddef
  GivenKeys given;           ///< the keys the file gives
};

/// One `grids:` entry: the file the cells of a grid come from, for the online
/// methods of the exchanges on that grid (instead of set_coordinates, set_corners and
/// set_mask).
struct GridFileConfig {
  std::string name;     ///< the grid as components declare it (def_grid); OASIS: its prefix
  std::string file;     ///< grids.nc (OASIS), a SCRIP or a CDO/ICON unstructured grid file
  GridFormat format = GridFormat::Auto;
  std::string mask;     ///< OASIS: masks.nc with <name>.msk, or "" (every cell valid)
  SourceLocation where; ///< the entry, for errors found at enddef
  GivenKeys given;      ///< the keys the file gives
};

/// How the configuration spells a grid format: "auto", "oasis", "scrip", "unstructured".
const char* grid_format_name(GridFormat format) noexcept;

/// The `grids:` entry of the grid called `name`, or nullptr. Not collective.
const GridFileConfig* grid_file(const std::vector<GridFileConfig>& grids, const std::string& name);

/// The whole file.
struct Config {
  int version = 1;
  double start = 0;       ///< run start, seconds of model time
  double length = 0;      ///< run length, seconds (> 0)
  std::vector<std::string> components;  ///< names allowed in exchanges (optional list; empty = any)
  std::vector<ExchangeConfig> exchanges;
  std::vector<BufferConfig> buffers;
  std::vector<GridFileConfig> grids;    ///< grids whose cells come from files
  std::string output_directory = ".";   ///< restart, output and timer files
  bool timers = true;                   ///< write timer JSON at finalize
  bool imbalance_timer = false;         ///< time a barrier before each exchange (output.imbalance)
  double watchdog_seconds = 120;        ///< a put or get that waits longer fails; 0 = never
  double collective_seconds = 600;      ///< enddef, finalize: waiting for every rank; 0 = never
  FileFormat file_format = FileFormat::Ferry;  ///< restart and output files
  /// OASIS format: a lagged entry whose restart file is missing starts from zeros
  /// (a namcouple's $NNOREST T) instead of failing.
  bool zero_missing_restarts = false;
  int debug_level = 0;                  ///< a namcouple's $NLOGPRT (oasis_get_debug)
  /// What the run cannot carry out (a namcouple's keywords ferry does not implement):
  /// enddef refuses the whole configuration with every one (empty for YAML).
  std::vector<Problem> refused;
  std::string path;                     ///< the file the configuration came from
};

/// "<file>:<line>:<col>: <what>", as every message about a configuration reads.
std::string problem_text(const Problem& problem);

/// Up to `limit` problems, one problem_text per line, then "... and N more problems"
/// when there are more.
std::string problem_list(const std::vector<Problem>& problems, std::size_t limit);

/// Raises Errc::Arg with the first problem's text, and how many more there are (none
/// if `problems` is empty). Not collective.
void raise_problems(const std::vector<Problem>& problems);

/// What checking a configuration found: every problem, in the order of the file, and
/// the configuration when there are none.
struct ConfigCheck {
  std::vector<Problem> problems;
  std::optional<Config> config;
};

/// Checks YAML text in three passes, each reporting every problem it finds: the YAML
/// syntax (one problem at most: parsing stops there), the schema (every key's name,
/// type, bounds and allowed values, with "did you mean" for misspelt keys and values),
/// and the rules between keys (rules.hpp), on the entries that passed the schema.
/// `name` is the file name messages give. Not collective.
ConfigCheck check_config(const std::string& yaml_text, const std::string& name);

/// Reads a file and checks it as above; Errc::Io if it cannot be read. Not collective.
ConfigCheck check_config_file(const std::string& path);

/// check_config, raising Errc::Arg with the first problem's text (and how many more
/// there are) if there is one. Not collective.
Config parse_config(const std::string& yaml_text, const std::string& name);

/// Reads and parses a file; Errc::Io if it cannot be read. Not collective.
Config load_config(const std::string& path);

/// True if `text` is an OASIS3-MCT namcouple (its first line that is neither blank
/// nor a comment is a $KEYWORD), not YAML.
bool is_namcouple(const std::string& text);

/// parse_config for YAML, read_namcouple (config/namcouple/namcouple.hpp) for a
/// namcouple: what the coupler reads. Not collective.
Config parse_any_config(const std::string& text, const std::string& name);

}  // namespace ferry::config
