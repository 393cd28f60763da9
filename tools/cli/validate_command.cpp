// `ferry validate CONFIG`: checks a coupling configuration as a coupler reading it would.
#include <iostream>
#include <memory>

#include "command.hpp"
#include "config/config.hpp"
#include "config/grid_checks.hpp"
#include "config/namcouple/namcouple.hpp"
#include "config/text_file.hpp"
#include "util/format.hpp"

namespace ferry::cli {

namespace {

constexpr std::size_t kListedNames = 8;

// The listed components, or those the exchanges and buffers use when the file lists none.
std::vector<std::string> components_of(const ferry::config::Config& config) {
  if (!config.components.empty()) return config.components;
  std::vector<std::string> used;
  const auto add = [&](const std::string& name) {
    for (const auto& u : used)
      if (u == name) return;
    used.push_back(name);
  };
  for (const auto& x : config.exchanges) {
    add(x.source.component);
    add(x.target.component);
  }
  for (const auto& b : config.buffers) {
    add(b.source.component);
    add(b.target.component);
  }
  return used;
}

std::vector<std::string> grid_names(const ferry::config::Config& config) {
  std::vector<std::string> names;
  for (const auto& g : config.grids) names.push_back(g.name);
  return names;
}

// "1 exchange (sst)", "3 components (ocean, atmosphere, river)", "0 exchanges".
std::string counted(const std::vector<std::string>& names, const std::string& noun) {
  const std::string count =
      std::to_string(names.size()) + " " + noun + (names.size() == 1 ? "" : "s");
  return names.empty() ? count : count + " (" + detail::list_first(names, kListedNames) + ")";
}

// "  buffer \"history\": atm.t -> ocn.t_in, lossless, capacity 3 steps".
std::string buffer_line(const ferry::config::BufferConfig& b) {
  return "  buffer \"" + b.name + "\": " + b.source.component + "." + b.source.fields.front() +
         " -> " + b.target.component + "." + b.target.fields.front() + ", " +
         (b.lossy ? "lossy" : "lossless") + ", capacity " + std::to_string(b.capacity) + " steps";
}

// Problems listed before the command gives up; the count says how many there were.
constexpr std::size_t kListedProblems = 20;

// The verdict on a file with problems: every problem (the first kListedProblems) on
// standard error, then an error naming the file.
[[noreturn]] void not_valid(const std::string& path,
                            const std::vector<ferry::config::Problem>& problems,
                            const Context& context) {
  if (context.rank == 0) std::cerr << ferry::config::problem_list(problems, kListedProblems);
  throw Error(Errc::Arg, detail::cat(path, ": not valid, ", problems.size(), " problem",
                                     problems.size() == 1 ? "" : "s"));
}

// An OASIS3-MCT namcouple, read as a run reads it: what the run would refuse is a
// problem, with its line.
int validate_namcouple(const std::string& path, const std::string& text, const Context& context) {
  const ferry::config::NamcoupleRead read = ferry::config::read_namcouple(text, path);
  if (!read.config.refused.empty()) not_valid(path, read.config.refused, context);
  if (context.rank != 0) return 0;
  std::vector<std::string> entries;
  for (const auto& x : read.config.exchanges) entries.push_back(x.name);
  std::cout << path << ": valid OASIS3-MCT namcouple: " << entries.size()
            << (entries.size() == 1 ? " entry (" : " entries (")
            << detail::list_first(entries, kListedNames) << "), run length " << read.config.length
            << " s\n";
  for (const auto& note : read.notes.differences) std::cout << "  ferry differs: " << note << "\n";
  return 0;
}

int run(const std::string& path, const Context& context) {
  if (path.empty())
    throw UsageError("missing the configuration file, as in: ferry validate coupling.yaml");
  const std::string text = ferry::config::detail::read_text_file(path, "validate", "configuration file");
  if (ferry::config::is_namcouple(text)) return validate_namcouple(path, text, context);
  const ferry::config::ConfigCheck checked = ferry::config::check_config(text, path);
  if (!checked.problems.empty()) not_valid(path, checked.problems, context);
  const ferry::config::Config& config = *checked.config;
  const std::vector<ferry::config::Problem> grid_problems = ferry::config::check_grid_files(config);
  if (!grid_problems.empty()) not_valid(path, grid_problems, context);
  if (context.rank != 0) return 0;
  std::vector<std::string> exchanges;
  for (const auto& x : config.exchanges) exchanges.push_back(x.name);
  std::vector<std::string> buffers;
  for (const auto& b : config.buffers) buffers.push_back(b.name);
  std::cout << path << ": valid (version " << config.version
            << "): " << counted(components_of(config), "component") << ", "
            << counted(exchanges, "exchange")
            << (buffers.empty() ? "" : ", " + counted(buffers, "buffer"))
            << (config.grids.empty() ? "" : ", " + counted(grid_names(config), "grid file")) << "\n";
  for (const auto& b : config.buffers) std::cout << buffer_line(b) << "\n";
  return 0;
}

Action declare_validate(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  app.add_option("CONFIG", *path);
  return [path](const Context& context) { return run(*path, context); };
}

}  // namespace

Command validate_command() {
  return {"validate", "check a coupling configuration (YAML or an OASIS namcouple)",
          "usage: ferry validate CONFIG\n"
          "\n"
          "Reads the coupling configuration CONFIG and checks its YAML syntax, every\n"
          "key against the schema (docs/user/config.md, `ferry config-doc`) and the\n"
          "rules between keys that a coupler applies when it reads the file (lag and\n"
          "period, engines for put/get and their options, field counts, regridding\n"
          "keys, restart files, buffers), then opens the grid files `grids` names and\n"
          "checks they hold the variables of their format. A valid file prints one\n"
          "line with its components, exchanges, buffers and grid files, then one\n"
          "line per buffer (source ->\n"
          "target, mode, capacity), and exits 0. Otherwise every problem is printed\n"
          "(the first 20, then how many more) as CONFIG:LINE:COLUMN: what is wrong,\n"
          "with a suggestion for misspelt keys and values, and the exit status is 1.\n"
          "An OASIS3-MCT namcouple (a file whose first line is a $KEYWORD) is read as\n"
          "a run reads it: every line ferry cannot run (an unknown keyword, a method\n"
          "it lacks, $NFIELDS too small) is a problem, printed the same way.\n"
          "Runs without mpiexec.\n",
          declare_validate};
}

}  // namespace ferry::cli
