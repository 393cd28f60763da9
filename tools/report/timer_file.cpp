#include "timer_file.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ferry/error.hpp"
#include "json_value.hpp"
#include "util/format.hpp"

namespace ferry::report {

namespace {

using Kind = JsonValue::Kind;

constexpr double kFormatVersion = 1;

// Reads the members of the file's objects, naming the file and the member on failure.
class Reader {
 public:
  explicit Reader(const std::string& path) : path_(path) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw Error(Errc::Io, detail::cat(path_, ": ", what,
                                      ". ferry report reads the ferry_timers_<component>.json "
                                      "files the coupler writes at finalize"));
  }

  const JsonValue& member(const JsonValue& object, const std::string& key, Kind kind) const {
    const JsonValue* value = object.find(key);
    if (value == nullptr) fail("\"" + key + "\" is missing");
    if (value->kind() != kind) fail("\"" + key + "\" has the wrong type");
    return *value;
  }

  double number(const JsonValue& object, const std::string& key) const {
    return member(object, key, Kind::Number).number();
  }

  OverRanks over_ranks(const JsonValue& object, const std::string& key) const {
    const JsonValue& value = member(object, key, Kind::Object);
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
  const JsonValue root = parse_json(text.str(), path);
  if (root.kind() != Kind::Object || root.find("ferry_timers") == nullptr)
    reader.fail("not a timer file (no \"ferry_timers\" member)");
  if (reader.number(root, "ferry_timers") != kFormatVersion)
    reader.fail(detail::cat("timer file format ", reader.number(root, "ferry_timers"),
                            "; this ferry reads format ", kFormatVersion));

  TimerFile file;
  file.path = path;
  file.component = reader.member(root, "component", Kind::String).string();
  file.ranks = static_cast<int>(reader.number(root, "ranks"));
  if (file.ranks < 1) reader.fail("\"ranks\" must be >= 1");
  file.run_seconds = reader.over_ranks(root, "run_seconds");
  for (const JsonValue& entry : reader.member(root, "timers", Kind::Array).items()) {
    if (entry.kind() != Kind::Object) reader.fail("an entry of \"timers\" is not an object");
    Timer timer;
    timer.exchange = reader.member(entry, "exchange", Kind::String).string();
    timer.category = reader.category(reader.member(entry, "category", Kind::String).string());
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
