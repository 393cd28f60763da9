#include "config/config.hpp"

#include <algorithm>
#include <sstream>

#include "config/namcouple/namcouple.hpp"
#include "ferry/error.hpp"
#include "util/format.hpp"

namespace ferry::config {

const char* transform_name(Transform transform) noexcept {
  switch (transform) {
    case Transform::Instant:
      return "instant";
    case Transform::Accumulate:
      return "accumulate";
    case Transform::Average:
      return "average";
    case Transform::Min:
      return "min";
    case Transform::Max:
      return "max";
  }
  return "instant";
}

const char* method_name(WeightSource source) noexcept {
  switch (source) {
    case WeightSource::Nearest:
      return "nearest";
    case WeightSource::Gaussian:
      return "gaussian";
    case WeightSource::Bilinear:
      return "bilinear";
    case WeightSource::Bicubic:
      return "bicubic";
    case WeightSource::Conservative:
      return "conservative";
    case WeightSource::None:
    case WeightSource::File:
      break;
  }
  return "";
}

const char* grid_format_name(GridFormat format) noexcept {
  switch (format) {
    case GridFormat::Auto:
      return "auto";
    case GridFormat::Oasis:
      return "oasis";
    case GridFormat::Scrip:
      return "scrip";
    case GridFormat::Unstructured:
      return "unstructured";
  }
  return "auto";
}

const GridFileConfig* grid_file(const std::vector<GridFileConfig>& grids, const std::string& name) {
  for (const GridFileConfig& g : grids)
    if (g.name == name) return &g;
  return nullptr;
}

const char* conservation_name(Conserve method) noexcept {
  switch (method) {
    case Conserve::Global:
      return "global";
    case Conserve::GlobalPositive:
      return "global_positive";
    case Conserve::BasinBalance:
      return "basin_balance";
    case Conserve::BasinPositive:
      return "basin_positive";
  }
  return "";
}

const char* bad_index_name(BadWeightIndex bad) noexcept {
  switch (bad) {
    case BadWeightIndex::Refuse:
      return "refuse";
    case BadWeightIndex::Drop:
      return "drop";
    case BadWeightIndex::DropQuietly:
      return "drop_quietly";
  }
  return "refuse";
}

SourceLocation value_location(const GivenKeys& given, const std::string& key,
                              const SourceLocation& entry) {
  const auto it = given.find(key);
  return it == given.end() ? entry : it->second.value;
}

std::string problem_text(const Problem& problem) {
  return ferry::detail::cat(problem.where.file, ":", problem.where.line, ":", problem.where.column,
                            ": ", problem.what);
}

std::string problem_list(const std::vector<Problem>& problems, std::size_t limit) {
  std::string out;
  for (std::size_t i = 0; i < std::min(limit, problems.size()); ++i)
    out += problem_text(problems[i]) + "\n";
  if (problems.size() > limit)
    out += ferry::detail::cat("... and ", problems.size() - limit, " more problem",
                              problems.size() - limit == 1 ? "" : "s", "\n");
  return out;
}

void raise_problems(const std::vector<Problem>& problems) {
  if (problems.empty()) return;
  std::string text = problem_text(problems.front());
  if (problems.size() > 1)
    text += ferry::detail::cat(" (and ", problems.size() - 1, " more problem",
                               problems.size() > 2 ? "s" : "", ": `ferry validate ",
                               problems.front().where.file, "` lists them all)");
  throw Error(Errc::Arg, text);
}

}  // namespace ferry::config

namespace ferry::config {

bool is_namcouple(const std::string& text) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    return line[first] == '$';
  }
  return false;
}

Config parse_any_config(const std::string& text, const std::string& name) {
  return is_namcouple(text) ? read_namcouple(text, name).config : parse_config(text, name);
}

}  // namespace ferry::config
