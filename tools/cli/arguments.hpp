// Command-line words after a subcommand: --name VALUE, --name=VALUE and --switch.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ferry::cli {

/// A mistake in the command line; the command exits with status 2 and its usage.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Commands take the flags they know; whatever is left over is a usage error.
class Arguments {
 public:
  explicit Arguments(std::vector<std::string> words);

  /// True if --help or -h is among the words.
  bool wants_help() const;
  /// Takes --name; true if it was given. UsageError if given a value or twice.
  bool take_switch(const std::string& name);
  /// Takes --name VALUE or --name=VALUE; nullopt if absent. UsageError if the
  /// value is missing or the flag is given twice.
  std::optional<std::string> take_value(const std::string& name);
  /// take_value as an integer in [min, max], or `fallback` if absent.
  std::int64_t take_int(const std::string& name, std::int64_t fallback, std::int64_t min,
                        std::int64_t max);
  /// take_value that must be one of `choices`, or `fallback` if absent.
  std::string take_choice(const std::string& name, const std::string& fallback,
                          const std::vector<std::string>& choices);
  /// Takes the first word that is not a flag and no take_* call consumed; nullopt if
  /// none. Call it after take_value, whose values it would otherwise take.
  std::optional<std::string> take_positional();
  /// UsageError naming the first word no take_* call consumed.
  void expect_all_taken() const;

 private:
  std::vector<std::string> words_;
  std::vector<bool> taken_;
};

}  // namespace ferry::cli
