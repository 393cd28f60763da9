#include "config/namcouple/namcouple.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <limits>
#include <optional>
#include <set>
#include <utility>

#include "config/config.hpp"
#include "config/namcouple/namcouple_remapping.hpp"
#include "config/scalar.hpp"
#include "config/suggest.hpp"
#include "config/text_file.hpp"
#include "config/writer.hpp"
#include "ferry/engine.hpp"
#include "util/check.hpp"

namespace ferry::config {

namespace {

using ferry::detail::cat;
using ferry::detail::join;

// One line that is neither blank nor a comment, split into words.
struct Line {
  int number = 0;
  std::string text;
  std::vector<std::string> words;
};

// "$KEYWORD" line, the lines up to its "$END".
struct Block {
  Line keyword;
  std::vector<Line> lines;
};

constexpr std::size_t kCommentWidth = 88;

// The engine of a namcouple entry. OASIS lets a rank that holds no point of a field
// skip its puts and gets, so the engine must need nothing per exchange from a rank
// without peers (adaptive times its candidates collectively). rma meets that (its
// notes go to peers only) and moves a put's array into the target ranks' memory in
// one copy, where p2p packs, sends and unpacks; p2p when the build has no rma.
std::string namcouple_engine() {
  const std::vector<std::string> built = engine_names();
  return std::find(built.begin(), built.end(), "rma") != built.end() ? "rma" : "p2p";
}

const std::vector<std::string> kStatuses{"EXPORTED", "EXPOUT",  "OUTPUT",  "INPUT",
                                         "IGNORED",  "IGNOUT", "AUXILARY"};

// The OASIS3-MCT transformations. Each takes one configuration line; BLASOLD and
// BLASNEW take one more line per term that line announces.
const std::vector<std::string> kTransformations{"LOCTRANS", "CHECKIN", "CHECKOUT", "BLASOLD",
                                                "BLASNEW",  "SCRIPR",  "MAPPING",  "CONSERV"};

const std::vector<std::pair<std::string, Transform>> kLoctrans{
    {"INSTANT", Transform::Instant}, {"ACCUMUL", Transform::Accumulate},
    {"AVERAGE", Transform::Average}, {"T_MIN", Transform::Min},
    {"T_MAX", Transform::Max}};

// The parts between separators, as std::getline cuts them: a separator at the end
// opens no empty part.
std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  for (std::size_t begin = 0; begin < text.size();) {
    const std::size_t end = std::min(text.find(separator, begin), text.size());
    parts.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return parts;
}

// Whitespace as reading words with >> sees it (the "C" locale's isspace).
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

std::vector<Line> meaningful_lines(const std::string& text) {
  std::vector<Line> lines;
  int number = 0;
  // Each line as std::getline cuts them (a newline at the end opens no line).
  for (std::size_t begin = 0; begin < text.size();) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    Line line{++number, "", {}};
    for (std::size_t i = begin; i < end;) {
      if (is_space(text[i])) {
        ++i;
        continue;
      }
      const std::size_t word = i;
      while (i < end && !is_space(text[i])) ++i;
      if (!line.text.empty()) line.text += ' ';
      line.text.append(text, word, i - word);
      line.words.emplace_back(text, word, i - word);
    }
    begin = end + 1;
    if (line.words.empty() || line.words.front()[0] == '#') continue;
    lines.push_back(std::move(line));
  }
  return lines;
}

bool is_integer(const std::string& word) { return detail::parse_integer(word).has_value(); }

bool is_keyword(const Line& line) { return line.words.front()[0] == '$'; }

// The first-section keywords OASIS3-MCT 4.0 reads (besides $RUNTIME, $STRINGS,
// $NFIELDS and $NLOGPRT) and what ferry makes of them.
const std::vector<std::string> kUnusedKeywords{"$SEQMODE", "$CHANNEL", "$JOBNAME", "$NBMODEL",
                                               "$INIDATE", "$MODINFO", "$CALTYPE"};
const std::vector<std::string> kKeywords{"$NFIELDS", "$RUNTIME", "$NLOGPRT", "$STRINGS",
                                         "$NUNITNO", "$NMAPDEC", "$NMATXRD", "$NWGTOPT",
                                         "$NNOREST", "$SEQMODE", "$CHANNEL", "$JOBNAME",
                                         "$NBMODEL", "$INIDATE", "$MODINFO", "$CALTYPE"};

// "line 12: ..." (a note) -> 12.
int line_of_note(const std::string& note) {
  const auto number = detail::parse_integer(note.substr(5, note.find(':') - 5));
  return number ? static_cast<int>(*number) : 0;
}

// "SOURCE TARGET 1 PERIOD NTRANS [RESTART] STATUS": the first line of a field entry.
bool is_entry_header(const Line& line) {
  const auto& w = line.words;
  return (w.size() == 6 || w.size() == 7) && is_integer(w[2]) && is_integer(w[3]) &&
         is_integer(w[4]) && std::count(kStatuses.begin(), kStatuses.end(), w.back()) > 0;
}

// "P 2 P 0": periodicity and overlap of the source and target grids.
bool is_periodicity(const Line& line) {
  const auto& w = line.words;
  const auto kind = [](const std::string& s) { return s == "P" || s == "R"; };
  return w.size() == 4 && kind(w[0]) && is_integer(w[1]) && kind(w[2]) && is_integer(w[3]);
}

class Importer {
 public:
  // `run`: read for a run (read_namcouple), else import (import_namcouple).
  Importer(const std::string& name, const std::map<std::string, std::string>& grid_components,
           bool run)
      : name_(name), grid_components_(grid_components), run_(run),
        engine_(run ? namcouple_engine() : "") {}

  NamcoupleImport convert(const std::string& text) {
    read(text);
    check_grid_components();
    config_.components = components_;
    return {header() + format_config(config_), notes_};
  }

  NamcoupleRead read_for_run(const std::string& text) {
    config_.path = name_;
    config_.file_format = FileFormat::Oasis;
    config_.timers = false;  // unless $NLOGPRT asks for them
    // A namcouple has no watchdog setting: $FERRY_WATCHDOG_TIMEOUT (seconds) gives it.
    if (const char* timeout = std::getenv("FERRY_WATCHDOG_TIMEOUT")) {
      const auto seconds = detail::parse_number(timeout);
      if (!seconds || *seconds < 0)
        fail(0, cat("FERRY_WATCHDOG_TIMEOUT is \"", timeout, "\"; give seconds >= 0 (0: never)"));
      config_.watchdog_seconds = *seconds;
    }
    read(text);
    return {std::move(config_), std::move(notes_), std::move(inputs_)};
  }

 private:
  void read(const std::string& text) {
    bool have_runtime = false;
    bool have_strings = false;
    const std::vector<Block> all = blocks(meaningful_lines(text));
    for (const Block& block : all) {
      const std::string& keyword = block.keyword.words.front();
      if (keyword == "$RUNTIME") {
        config_.length = runtime(block);
        have_runtime = true;
      } else if (keyword == "$STRINGS") {
        if (have_strings) fail(block.keyword.number, "a second $STRINGS block; merge the two");
        strings(block);
        have_strings = true;
      } else if (keyword == "$NBMODEL") {
        models(block);
      } else if (keyword == "$NFIELDS") {
        nfields_ = block;
      } else if (keyword == "$NWGTOPT") {
        bad_weight_index(block);
      } else if (run_) {
        run_keyword(block);
      } else {
        report_block(block);
      }
    }
    if (!have_runtime)
      fail(0, "no $RUNTIME block; add the run length in seconds (\" $RUNTIME\", \" 432000\", "
              "\" $END\")");
    if (!have_strings) fail(0, "no $STRINGS block: there are no field entries to convert");
    check_nfields();
    for (ExchangeConfig& x : config_.exchanges)
      if (x.regrid.source == WeightSource::File) x.regrid.bad_index = bad_index_;
  }

  // $NWGTOPT: what the MAPPING entries do with weights of points outside their grids.
  void bad_weight_index(const Block& block) {
    const std::string value = block.lines.empty() ? std::string() : block.lines[0].words[0];
    const std::vector<std::pair<std::string, BadWeightIndex>> options{
        {"abort_on_bad_index", BadWeightIndex::Refuse},
        {"ignore_bad_index", BadWeightIndex::Drop},
        {"ignore_bad_index_silently", BadWeightIndex::DropQuietly},
        {"use_bad_index", BadWeightIndex::Drop}};
    const auto found = std::find_if(options.begin(), options.end(),
                                    [&](const auto& o) { return o.first == value; });
    if (found == options.end()) {
      std::vector<std::string> names;
      for (const auto& o : options) names.push_back(o.first);
      report(block.keyword, "$NWGTOPT \"" + value + "\"" + detail::did_you_mean(value, names) +
                                "; OASIS3-MCT 4.0 reads " + join(names, ", "));
      return;
    }
    bad_index_ = found->second;
    // OASIS tries to apply such weights, at the risk of reading or writing outside its
    // arrays; a point outside a grid holds no value, so ferry drops them and says so.
    if (value == "use_bad_index")
      notes_.differences.push_back(cat("line ", block.keyword.number, ": $NWGTOPT use_bad_index: "
                                       "the MAPPING entries drop the links whose address lies "
                                       "outside its grid, with a warning, as ignore_bad_index "
                                       "does (a point outside a grid holds no value)"));
  }

  // A first-section keyword other than $RUNTIME, $STRINGS, $NBMODEL and $NFIELDS, for a run.
  void run_keyword(const Block& block) {
    const std::string& keyword = block.keyword.words.front();
    const auto value = [&](std::size_t word) {
      return block.lines.empty() || block.lines[0].words.size() <= word ? std::string()
                                                                        : block.lines[0].words[word];
    };
    if (keyword == "$NLOGPRT") {
      const auto level = detail::parse_integer(value(0));
      if (!level)
        fail(block.keyword.number, "$NLOGPRT takes the debug level and the timer level, as in "
                                   "\"1 0\"; got \"" + value(0) + "\"");
      config_.debug_level = static_cast<int>(*level);
      // The second number asks for timer files; ferry writes its own (ferry_timers_*.json).
      const auto timers = detail::parse_integer(value(1));
      config_.timers = timers && *timers != 0;
    } else if (keyword == "$NNOREST") {
      const std::string v = value(0);
      const bool yes = !v.empty() && (v[0] == 'T' || v[0] == 't' || v.rfind(".T", 0) == 0 ||
                                      v.rfind(".t", 0) == 0);
      config_.zero_missing_restarts = yes;
    } else if (!std::count(kKeywords.begin(), kKeywords.end(), keyword)) {
      report(block.keyword, "unknown keyword " + keyword + detail::did_you_mean(keyword, kKeywords) +
                                "; OASIS3-MCT 4.0 reads " + join(kKeywords, ", "));
    }
    // $NUNITNO (Fortran unit numbers), $NMAPDEC and $NMATXRD (how OASIS distributes
    // weights) choose nothing ferry has; the unused keywords OASIS itself ignores.
  }

  [[noreturn]] void fail(int line, const std::string& what) const {
    throw Error(Errc::Arg, line > 0 ? cat(name_, ":", line, ": ", what)
                                    : cat(name_, ": ", what));
  }

  void refuse(int line, const std::string& what) {
    Problem r;
    r.where.file = name_;
    r.where.line = line;
    r.where.column = 1;
    r.what = what;
    config_.refused.push_back(std::move(r));
  }

  // What ferry does not convert (import) or cannot carry out (run: refused at enddef).
  void report(const Line& line, const std::string& what) {
    if (run_)
      refuse(line.number, what);
    else
      notes_.not_converted.push_back(cat("line ", line.number, ": ", what));
  }

  std::vector<Block> blocks(const std::vector<Line>& lines) const {
    std::vector<Block> out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (!is_keyword(lines[i]) || lines[i].words.front() == "$END")
        fail(lines[i].number, "\"" + lines[i].text +
                                  "\" is outside any $KEYWORD ... $END block; a namcouple is a "
                                  "series of such blocks");
      // A block ends at its $END, the next $KEYWORD or the end of the file.
      Block block{lines[i], {}};
      for (++i; i < lines.size() && !is_keyword(lines[i]); ++i) block.lines.push_back(lines[i]);
      if (i < lines.size() && lines[i].words.front() != "$END") --i;
      out.push_back(std::move(block));
    }
    return out;
  }

  double runtime(const Block& block) const {
    const auto value = block.lines.empty() ? std::nullopt
                                           : detail::parse_number(block.lines[0].words[0]);
    if (!value || *value <= 0 || block.lines.size() != 1 || block.lines[0].words.size() != 1)
      fail(block.keyword.number,
           "$RUNTIME must hold one number of seconds > 0 (the run length)");
    return *value;
  }

  void models(const Block& block) {
    for (const Line& line : block.lines) {
      const auto count = detail::parse_integer(line.words[0]);
      if (!count || *count < 0 || static_cast<std::size_t>(*count) >= line.words.size())
        fail(line.number, "$NBMODEL must hold the number of models and their names, as in "
                          "\"2 ocean atmos\"; got \"" + line.text + "\"");
      const auto first = line.words.begin() + 1;
      models_.insert(models_.end(), first, first + static_cast<std::ptrdiff_t>(*count));
    }
  }

  void report_block(const Block& block) {
    std::vector<std::string> content{block.keyword.words.front()};
    for (const Line& line : block.lines) content.push_back(line.text);
    report(block.keyword, join(content, " ") + " (no ferry equivalent)");
  }

  void check_nfields() {
    if (nfields_.lines.empty()) return;
    const auto declared = detail::parse_integer(nfields_.lines[0].words[0]);
    if (run_) {
      // OASIS reads at most $NFIELDS entries: a smaller count would drop entries.
      if (!declared || *declared < entries_)
        report(nfields_.keyword, cat("$NFIELDS says ", nfields_.lines[0].text, " but $STRINGS has ",
                                     entries_, " entries; set $NFIELDS to ", entries_));
      return;
    }
    if (!declared || *declared != entries_)
      report(nfields_.keyword, cat("$NFIELDS says ", nfields_.lines[0].text, " but $STRINGS has ",
                                   entries_, " entries; ferry converts the entries"));
  }

  void check_grid_components() const {
    for (const auto& [grid, component] : grid_components_)
      if (!std::count(grids_.begin(), grids_.end(), grid))
        fail(0, "grid \"" + grid + "\" (given component \"" + component +
                    "\") is not a grid of any converted entry" +
                    detail::did_you_mean(grid, grids_) +
                    "; the grids are: " + join(grids_, ", "));
  }

  void strings(const Block& block) {
    const auto& lines = block.lines;
    for (std::size_t i = 0; i < lines.size();) {
      if (!is_entry_header(lines[i]))
        fail(lines[i].number,
             "expected the first line of a field entry (SOURCE TARGET 1 PERIOD NTRANS [RESTART] "
             "STATUS, status one of " + join(kStatuses, ", ") + "); got \"" + lines[i].text +
                 "\"");
      const auto header = lines.begin() + static_cast<std::ptrdiff_t>(i);
      for (++i; i < lines.size() && !is_entry_header(lines[i]);) ++i;
      entry(*header, std::vector<Line>(header + 1, lines.begin() + static_cast<std::ptrdiff_t>(i)));
      ++entries_;
    }
  }

  std::string component_of(const std::string& grid) {
    if (run_) return "";  // found at enddef from the declarations
    if (std::find(grids_.begin(), grids_.end(), grid) == grids_.end()) grids_.push_back(grid);
    const auto found = grid_components_.find(grid);
    const std::string component = found == grid_components_.end() ? grid : found->second;
    if (found == grid_components_.end() &&
        std::find(unnamed_grids_.begin(), unnamed_grids_.end(), grid) == unnamed_grids_.end())
      unnamed_grids_.push_back(grid);
    if (std::find(components_.begin(), components_.end(), component) == components_.end())
      components_.push_back(component);
    return component;
  }

  std::vector<std::string> field_names(const Line& header, const std::string& list) const {
    const std::vector<std::string> fields = split(list, ':');
    std::set<std::string> seen;
    for (const auto& field : fields)
      if (field.empty() || !seen.insert(field).second)
        fail(header.number, "\"" + list + "\" must list distinct, non-empty field names "
                            "separated by ':'");
    return fields;
  }

  // "182 149 96 72 torc lmdz LAG=+3600 SEQ=+1": grid sizes (optional), the source and
  // target grid names, options. Sets the lag and sequence of `x` and `sizes`.
  std::array<std::string, 2> grid_line(const Line& line, ExchangeConfig& x,
                                       NamcoupleGridSizes& sizes) {
    std::array<std::string, 2> grids;
    std::vector<std::int64_t> extents;  // nx, ny of the source, then of the target
    std::size_t n = 0;
    for (const std::string& word : line.words) {
      const auto eq = word.find('=');
      if (eq == std::string::npos) {
        if (is_integer(word) && n == 0) {  // grid sizes come before the names
          extents.push_back(*detail::parse_integer(word));
          continue;
        }
        if (n == 2)
          fail(line.number, "expected two grid names and LAG=/SEQ= options; got \"" + line.text +
                                "\"");
        grids[n++] = word;
        continue;
      }
      const std::string option = word.substr(0, eq);
      const auto value = detail::parse_integer(word.substr(eq + 1));
      if (option == "LAG") {
        if (!value)
          fail(line.number, "LAG must be a whole number of seconds; got \"" + word + "\"");
        if (*value < 0 && !run_)
          report(line, word + " (ferry lags are >= 0; the exchange was written without a lag)");
        else
          x.lag = static_cast<double>(*value);
      } else if (option == "SEQ") {
        if (!value || *value < 0 || *value > std::numeric_limits<int>::max())
          fail(line.number, "SEQ must be a whole number >= 0; got \"" + word + "\"");
        x.sequence = static_cast<int>(*value);
      } else {
        report(line, word);
      }
    }
    if (n != 2)
      fail(line.number, "expected the source and target grid names (as in \"182 149 96 72 torc "
                        "lmdz LAG=+3600\"); got \"" + line.text + "\"");
    const bool positive = std::all_of(extents.begin(), extents.end(),
                                      [](std::int64_t e) { return e > 0 && e < (1LL << 31); });
    if (extents.size() == 4 && positive) {
      sizes = {extents[0] * extents[1], extents[2] * extents[3]};
      x.source.nx = extents[0];
      x.source.ny = extents[1];
      x.target.nx = extents[2];
      x.target.ny = extents[3];
    } else if (!extents.empty()) {
      report(line, "grid sizes \"" + line.text + "\" (give four sizes > 0: source nx ny, "
                   "target nx ny, or none)");
    }
    x.source.grid = grids[0];
    x.target.grid = grids[1];
    return grids;
  }

  Transform loctrans(const Line& line) const {
    std::vector<std::string> names;
    for (const auto& [word, transform] : kLoctrans) {
      if (line.words.size() == 1 && line.words[0] == word) return transform;
      names.push_back(word);
    }
    fail(line.number, "LOCTRANS takes one of " + join(names, ", ") + "; got \"" + line.text +
                          "\"" + detail::did_you_mean(line.text, names));
  }

  // The transformation lines after the grid line; returns the index after them.
  std::size_t transformations(const Line& header, long long count, const std::vector<Line>& lines,
                              std::size_t next, ExchangeConfig& x, NamcoupleRemapping& remapping) {
    if (count == 0) return next;
    if (next >= lines.size() || static_cast<long long>(lines[next].words.size()) != count)
      fail(next < lines.size() ? lines[next].number : header.number,
           cat("the entry on line ", header.number, " announces ", count,
               " transformations, so this line must name them"));
    const Line& list = lines[next++];
    for (const std::string& name : list.words) {
      if (!std::count(kTransformations.begin(), kTransformations.end(), name))
        fail(list.number, "unknown transformation \"" + name + "\"" +
                              detail::did_you_mean(name, kTransformations) + "; OASIS3-MCT has " +
                              join(kTransformations, ", "));
      if (next >= lines.size())
        fail(list.number, "the entry ends before the configuration line of " + name);
      const Line& config = lines[next++];
      if (name == "LOCTRANS") {
        x.transform = loctrans(config);
        continue;
      }
      if (name == "SCRIPR" || name == "MAPPING" || name == "CONSERV") {
        const std::string why = remapping.read(name, config.number, config.words);
        if (!why.empty()) fail(config.number, why);
        continue;
      }
      if (name == "CHECKIN" || name == "CHECKOUT") {
        // "INT=0" or "INT=1": whether OASIS also integrates; ferry logs min, max and sum.
        if (config.words.size() != 1 || config.words[0].rfind("INT=", 0) != 0)
          fail(config.number, name + " takes INT=0 or INT=1; got \"" + config.text + "\"");
        (name == "CHECKIN" ? x.check_in : x.check_out) = true;
        continue;
      }
      // BLASOLD and BLASNEW: "FACTOR TERMS", then TERMS lines "CONSTANT VALUE".
      Scaling& scaling = name == "BLASOLD" ? x.source_scaling : x.target_scaling;
      next = blas(name, config, lines, next, scaling);
    }
    return next;
  }

  // A real as OASIS reads it (Fortran also writes the exponent with D).
  static std::optional<double> fortran_real(std::string word) {
    std::replace(word.begin(), word.end(), 'D', 'E');
    std::replace(word.begin(), word.end(), 'd', 'e');
    return detail::parse_number(word);
  }

  // The configuration line `config` of BLASOLD or BLASNEW (`name`) and its term lines
  // from lines[next]; sets `scaling` and returns the index after the terms. OASIS3-MCT
  // 4.0 adds one constant at most: a linear combination with other fields is gone.
  std::size_t blas(const std::string& name, const Line& config, const std::vector<Line>& lines,
                   std::size_t next, Scaling& scaling) {
    const auto factor = config.words.size() == 2 ? fortran_real(config.words[0]) : std::nullopt;
    const auto terms = config.words.size() == 2 ? detail::parse_integer(config.words[1])
                                                : std::nullopt;
    if (!factor || !terms || *terms < 0 || static_cast<std::size_t>(*terms) > lines.size() - next)
      fail(config.number, name + " takes a factor and a number of terms (0 or 1), followed by "
                                 "one line per term, as in \"1.0 1\" then \"CONSTANT 273.15\"; "
                                 "got \"" + config.text + "\"");
    scaling.factor = *factor;
    if (*terms > 1)
      report(config, name + " with " + config.words[1] + " terms (OASIS3-MCT 4.0 takes 0, or 1 "
                            "for a CONSTANT added to the field)");
    for (long long t = 0; t < *terms; ++t, ++next) {
      const Line& term = lines[next];
      const auto value = term.words.size() == 2 ? fortran_real(term.words[1]) : std::nullopt;
      if (term.words[0] != "CONSTANT")
        report(term, name + ": " + term.text + " (OASIS3-MCT 4.0 adds only a CONSTANT; a "
                            "combination with other fields is no longer possible)");
      else if (!value)
        fail(term.number, name + " CONSTANT takes the real number to add, as in \"CONSTANT "
                                 "273.15\"; got \"" + term.text + "\"");
      else
        scaling.offset = *value;
    }
    return next;
  }

  void entry(const Line& header, const std::vector<Line>& lines) {
    const auto& w = header.words;
    // OASIS3-MCT reads IGNORED and IGNOUT as EXPORTED and EXPOUT.
    const std::string status = w.back() == "IGNORED" ? "EXPORTED"
                               : w.back() == "IGNOUT" ? "EXPOUT"
                                                      : w.back();
    const bool output_only = run_ && status == "OUTPUT";
    if (run_ && status == "INPUT") {
      input(header, lines);
      return;
    }
    if (status != "EXPORTED" && status != "EXPOUT" && !output_only) {
      report(header, w[0] + " -> " + w[1] + " with status " + status +
                         (run_ ? " (ferry runs EXPORTED, EXPOUT, IGNORED, IGNOUT, OUTPUT and "
                                 "INPUT entries)"
                               : " (ferry converts EXPORTED and EXPOUT entries)"));
      return;
    }
    ExchangeConfig x;
    x.number = static_cast<int>(entries_) + 1;
    if (run_) x.engine = engine_;
    x.where.file = name_;
    x.where.line = header.number;
    x.where.column = 1;
    if (output_only) x.kind = EntryKind::Output;
    x.source.fields = field_names(header, w[0]);
    x.target.fields = field_names(header, w[1]);
    if (x.source.fields.size() != x.target.fields.size())
      fail(header.number, cat("the source names ", x.source.fields.size(), " fields (", w[0],
                              ") but the target ", x.target.fields.size(), " (", w[1],
                              "); the lists are matched in order"));
    const auto period = detail::parse_integer(w[3]);
    if (!period || *period <= 0)
      fail(header.number, "the coupling period must be a whole number of seconds > 0; got \"" +
                              w[3] + "\"");
    x.period = static_cast<double>(*period);
    const auto count = detail::parse_integer(w[4]);
    if (!count || *count < 0)
      fail(header.number, "the number of transformations must be a whole number >= 0; got \"" +
                              w[4] + "\"");
    if (w.size() == 7) x.restart = w[5];
    x.output = status == "EXPOUT" || output_only;
    if (output_only) x.target.fields.clear();  // written to a file, received by nobody

    if (lines.empty())
      fail(header.number, "the entry has no second line naming the source and target grids");
    NamcoupleGridSizes sizes;
    const std::array<std::string, 2> grids = grid_line(lines[0], x, sizes);
    x.source.component = component_of(grids[0]);
    x.target.component = component_of(grids[1]);
    NamcoupleRemapping remapping;
    std::size_t next = 1;
    if (next < lines.size() && is_periodicity(lines[next]))
      remapping.set_source_periodic(lines[next++].words[0] == "P");
    next = transformations(header, *count, lines, next, x, remapping);
    if (next < lines.size())
      fail(lines[next].number, cat("unexpected line after the ", *count,
                                           " transformations of the entry on line ",
                                           header.number, ": \"", lines[next].text, "\""));
    if (run_) {
      NamcoupleNotes notes;
      x.regrid = remapping.regrid(sizes, notes);
      for (const std::string& note : notes.not_converted)
        refuse(line_of_note(note), note.substr(note.find(':') + 2));
      notes_.differences.insert(notes_.differences.end(), notes.differences.begin(),
                                notes.differences.end());
    } else {
      x.regrid = remapping.regrid(sizes, notes_);
    }
    if (output_only && (x.regrid.enabled() || !x.source_scaling.identity() ||
                        !x.target_scaling.identity()))
      report(header, "an OUTPUT entry with a remapping, BLASOLD or BLASNEW (OASIS allows only "
                     "LOCTRANS on OUTPUT entries)");
    x.name = unique_name(x.source.fields.front() + "->" + x.target.fields.front());
    config_.exchanges.push_back(std::move(x));
  }

  // "FIELD FIELD 1 PERIOD 0 FILE INPUT", the entry's only line.
  void input(const Line& header, const std::vector<Line>& lines) {
    const auto& w = header.words;
    const auto period = detail::parse_integer(w[3]);
    if (w.size() != 7 || w[0] != w[1] || w[4] != "0" || !period || *period <= 0)
      fail(header.number, "an INPUT entry is one line \"FIELD FIELD 1 PERIOD 0 FILE INPUT\" "
                          "(the target's field names twice, the input period in seconds > 0, "
                          "no transformation, the input file); got \"" + header.text + "\"");
    if (!lines.empty())
      fail(lines[0].number, cat("an INPUT entry has one line only (the entry on line ",
                                header.number, "); got \"", lines[0].text, "\""));
    inputs_.push_back({field_names(header, w[0]), static_cast<double>(*period), w[5],
                       header.number});
  }

  std::string unique_name(const std::string& base) const {
    const auto used = [&](const std::string& name) {
      return std::any_of(config_.exchanges.begin(), config_.exchanges.end(),
                         [&](const ExchangeConfig& x) { return x.name == name; });
    };
    std::string name = base;
    for (int n = 2; used(name); ++n) name = base + "_" + std::to_string(n);
    return name;
  }

  // `text` as a bullet of comment lines of at most kCommentWidth characters.
  static std::string bullet(const std::string& text) {
    std::string out;
    std::string line = "#   -";
    bool empty = true;
    for (const std::string& word : split(text, ' ')) {
      if (!empty && line.size() + 1 + word.size() > kCommentWidth) {
        out += line + "\n";
        line = "#    ";
      }
      line += " " + word;
      empty = false;
    }
    return out + line + "\n";
  }

  std::string header() const {
    std::string out = "# Converted from the OASIS3-MCT namcouple \"" + name_ +
                      "\" by ferry import-namcouple.\n";
    std::vector<std::string> checks;
    if (!unnamed_grids_.empty()) {
      std::vector<std::string> example;
      for (const auto& grid : unnamed_grids_) example.push_back(grid + "=NAME");
      checks.push_back("Components are named after their grids (" + join(unnamed_grids_, ", ") +
                       "), as namcouple entries do not name components: rename them to the names "
                       "the models register, or convert again with --grid-components " +
                       join(example, ","));
    }
    if (!models_.empty())
      checks.push_back("The namcouple's $NBMODEL names the models " + join(models_, ", "));
    if (checks.empty() && notes_.differences.empty() && notes_.not_converted.empty()) return out;
    out += "# Check before use:\n";
    for (const auto& check : checks) out += bullet(check);
    const auto list = [&](const char* title, const std::vector<std::string>& items) {
      if (items.empty()) return;
      out += bullet(title);
      for (const auto& item : items) out += "#       " + item + "\n";
    };
    list("Converted, but ferry does it differently:", notes_.differences);
    list("Not converted yet:", notes_.not_converted);
    return out;
  }

  const std::string& name_;
  const std::map<std::string, std::string>& grid_components_;
  bool run_ = false;
  std::string engine_;  // of every entry, when read for a run
  NamcoupleNotes notes_;
  Config config_;
  std::vector<NamcoupleInput> inputs_;
  Block nfields_;
  long long entries_ = 0;
  BadWeightIndex bad_index_ = BadWeightIndex::Refuse;  // $NWGTOPT
  std::vector<std::string> models_;
  std::vector<std::string> grids_;
  std::vector<std::string> unnamed_grids_;
  std::vector<std::string> components_;
};

}  // namespace

NamcoupleImport import_namcouple(const std::string& text, const std::string& name,
                                 const std::map<std::string, std::string>& grid_components) {
  return Importer(name, grid_components, false).convert(text);
}

NamcoupleRead read_namcouple(const std::string& text, const std::string& name) {
  return Importer(name, {}, true).read_for_run(text);
}

NamcoupleImport load_namcouple(const std::string& path,
                               const std::map<std::string, std::string>& grid_components) {
  return import_namcouple(detail::read_text_file(path, "load_namcouple", "namcouple"), path,
                          grid_components);
}

}  // namespace ferry::config
