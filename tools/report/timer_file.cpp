#include "timer_file.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ferry/error.hpp"
#include "util/format.hpp"

namespace ferry::report {

namespace {

using Json = nlohmann::json;

constexpr double kFormatVersion = 1;

// The text parsed, or Errc::Io "<path>:<line>:<column>: <what is wrong>".
Json parse(const std::string& text, const std::string& path) {
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& e) {
    // e.byte counts from 1 and points at the character that was wrong.
    const std::string before = text.substr(0, e.byte == 0 ? 0 : e.byte - 1);
    const std::size_t newline = before.rfind('\n');
    const auto line = 1 + std::count(before.begin(), before.end(), '\n');
    const std::size_t column =
        newline == std::string::npos ? before.size() + 1 : before.size() - newline;
    // nlohmann's message after its "... line L, column C: " prefix.
    const std::string what = e.what();
    const auto colon = what.find(": ", what.find("column"));
    throw Error(Errc::Io, detail::cat(path, ":", line, ":", column, ": not JSON: ",
                                      colon == std::string::npos ? what : what.substr(colon + 2)));
  }
}

// Reads the members of the file's objects, naming the file and the member on failure.
class Reader {
 public:
  enum class Kind { Number, String, Array, Object };

  explicit Reader(const std::string& path) : path_(path) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw Error(Errc::Io, detail::cat(path_, ": ", what,
                                      ". ferry report reads the ferry_timers_<component>.json "
                                      "files the coupler writes at finalize"));
  }

  const Json& member(const Json& object, const std::string& key, Kind kind) const {
    const auto value = object.find(key);
    if (value == object.end()) fail("\"" + key + "\" is missing");
    const bool right = kind == Kind::Number   ? value->is_number()
                       : kind == Kind::String ? value->is_string()
                       : kind == Kind::Array  ? value->is_array()
                                              : value->is_object();
    if (!right) fail("\"" + key + "\" has the wrong type");
    return *value;
  }

  double number(const Json& object, const std::string& key) const {
    return member(object, key, Kind::Number).get<double>();
  }

  std::string string(const Json& object, const std::string& key) const {
    return member(object, key, Kind::String).get<std::string>();
  }

  OverRanks over_ranks(const Json& object, const std::string& key) const {
    const Json& value = member(object, key, Kind::Object);
    return {number(value, "min"), number(value, "mean"), number(value, "max")};
  }

  detail::TimerCategory category(const std::string& name) const {
    for (int c = 0; c < static_cast<int>(detail::TimerCategory::Count); ++c) {
      const auto category = static_cast<detail::TimerCategory>(c);
      if (name == detail::timer_category_name(category)) return category;
    }
    fail("unknown timer category \"" + name + "\"");
  }

 private:
  const std::string& path_;
};

}  // namespace

TimerFile read_timer_file(const std::string& path) {
  const Reader reader(path);
  std::ifstream in(path);
  if (!in) reader.fail("cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  const Json root = parse(text.str(), path);
  if (!root.is_object() || !root.contains("ferry_timers"))
    reader.fail("not a timer file (no \"ferry_timers\" member)");
  if (reader.number(root, "ferry_timers") != kFormatVersion)
    reader.fail(detail::cat("timer file format ", reader.number(root, "ferry_timers"),
                            "; this ferry reads format ", kFormatVersion));

  TimerFile file;
  file.path = path;
  file.component = reader.string(root, "component");
  file.ranks = static_cast<int>(reader.number(root, "ranks"));
  if (file.ranks < 1) reader.fail("\"ranks\" must be >= 1");
  file.run_seconds = reader.over_ranks(root, "run_seconds");
  if (root.contains("enddef_seconds")) file.enddef_seconds = reader.over_ranks(root, "enddef_seconds");
  for (const Json& entry : reader.member(root, "timers", Reader::Kind::Array)) {
    if (!entry.is_object()) reader.fail("an entry of \"timers\" is not an object");
    Timer timer;
    timer.exchange = reader.string(entry, "exchange");
    timer.category = reader.category(reader.string(entry, "category"));
    timer.calls_max = static_cast<long long>(reader.number(entry, "calls_max"));
    timer.seconds = reader.over_ranks(entry, "seconds");
    file.timers.push_back(std::move(timer));
  }
  return file;
}

std::vector<std::string> timer_file_paths(const std::vector<std::string>& names) {
  namespace fs = std::filesystem;
  std::vector<std::string> paths;
  for (const std::string& name : names) {
    std::error_code error;
    if (!fs::is_directory(name, error)) {
      if (!fs::exists(name, error))
        throw Error(Errc::Io, detail::cat(name, ": no such file or directory"));
      paths.push_back(name);
      continue;
    }
    std::vector<std::string> found;
    for (const fs::directory_entry& entry : fs::directory_iterator(name, error)) {
      const std::string file = entry.path().filename().string();
      if (file.rfind("ferry_timers_", 0) == 0 && entry.path().extension() == ".json")
        found.push_back(entry.path().string());
    }
    if (found.empty())
      throw Error(Errc::Io, detail::cat(name, ": no ferry_timers_*.json file in this directory. "
                                              "The coupler writes them at finalize into "
                                              "output.directory when output.timers is true"));
    std::sort(found.begin(), found.end());
    paths.insert(paths.end(), found.begin(), found.end());
  }
  return paths;
}

}  // namespace ferry::report
