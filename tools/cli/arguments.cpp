#include "arguments.hpp"

#include <cerrno>
#include <cstdlib>
#include <utility>

namespace ferry::cli {

namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : "|") + item;
  return out;
}

}  // namespace

Arguments::Arguments(std::vector<std::string> words)
    : words_(std::move(words)), taken_(words_.size(), false) {}

bool Arguments::wants_help() const {
  for (const auto& word : words_)
    if (word == "--help" || word == "-h") return true;
  return false;
}

bool Arguments::take_switch(const std::string& name) {
  bool found = false;
  for (std::size_t i = 0; i < words_.size(); ++i) {
    if (words_[i].rfind(name + "=", 0) == 0)
      throw UsageError(name + " takes no value; got \"" + words_[i] + "\"");
    if (words_[i] != name) continue;
    if (found) throw UsageError(name + " is given twice");
    found = true;
    taken_[i] = true;
  }
  return found;
}

std::optional<std::string> Arguments::take_value(const std::string& name) {
  std::optional<std::string> value;
  for (std::size_t i = 0; i < words_.size(); ++i) {
    std::optional<std::string> here;
    if (words_[i] == name) {
      if (i + 1 == words_.size() || taken_[i + 1] || words_[i + 1].rfind("--", 0) == 0)
        throw UsageError(name + " needs a value, as in " + name + " VALUE");
      taken_[i] = taken_[i + 1] = true;
      here = words_[++i];
    } else if (words_[i].rfind(name + "=", 0) == 0) {
      taken_[i] = true;
      here = words_[i].substr(name.size() + 1);
    }
    if (!here) continue;
    if (value) throw UsageError(name + " is given twice");
    value = std::move(here);
  }
  return value;
}

std::int64_t Arguments::take_int(const std::string& name, std::int64_t fallback,
                                 std::int64_t min, std::int64_t max) {
  const auto text = take_value(name);
  if (!text) return fallback;
  errno = 0;
  char* end = nullptr;
  const long long value = std::strtoll(text->c_str(), &end, 10);
  const bool whole = !text->empty() && end == text->c_str() + text->size() && errno == 0;
  if (!whole || value < min || value > max)
    throw UsageError(name + " needs an integer in " + std::to_string(min) + ".." +
                     std::to_string(max) + "; got \"" + *text + "\"");
  return value;
}

std::string Arguments::take_choice(const std::string& name, const std::string& fallback,
                                   const std::vector<std::string>& choices) {
  const auto value = take_value(name);
  if (!value) return fallback;
  for (const auto& choice : choices)
    if (*value == choice) return *value;
  throw UsageError(name + " must be one of " + joined(choices) + "; got \"" + *value + "\"");
}

std::optional<std::string> Arguments::take_positional() {
  for (std::size_t i = 0; i < words_.size(); ++i) {
    if (taken_[i] || words_[i].rfind("-", 0) == 0) continue;
    taken_[i] = true;
    return words_[i];
  }
  return std::nullopt;
}

void Arguments::expect_all_taken() const {
  for (std::size_t i = 0; i < words_.size(); ++i) {
    if (taken_[i]) continue;
    if (words_[i].rfind("-", 0) == 0) throw UsageError("unknown option " + words_[i]);
    throw UsageError("unexpected argument \"" + words_[i] + "\"");
  }
}

}  // namespace ferry::cli
