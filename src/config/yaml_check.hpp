// Checking a YAML document against the configuration schema, and reading the
// values that passed: the generic half of the parser, driven only by schema.cpp.
#pragma once

#include <yaml-cpp/yaml.h>

#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "config/quote.hpp"
#include "config/schema.hpp"
#include "ferry/error.hpp"

namespace ferry::config::detail {

/// `what` at `mark` of `file` (1:1 if yaml-cpp has none).
Problem problem_at(const std::string& file, const YAML::Mark& mark, const std::string& what);

/// An Errc::Arg error about a configuration that keeps its Problem, for the problems
/// that end the check (a syntax error, a file of another version).
class ProblemError : public Error {
 public:
  explicit ProblemError(Problem problem);
  const Problem& problem() const noexcept { return problem_; }

 private:
  Problem problem_;
};

/// Throws ProblemError "<file>:<line>:<column>: <what>" at `mark` (1:1 if yaml-cpp has none).
[[noreturn]] void fail_at(const std::string& file, const YAML::Mark& mark, const std::string& what);

/// A mapping that passed check_document: typed reads of its keys, with the schema's
/// defaults for keys the file leaves out. Asking for a key the schema does not
/// declare, or with the wrong type, is a bug in ferry (Errc::Internal). The schema
/// must outlive the object.
class CheckedMapping {
 public:
  /// `node` may be undefined (an optional mapping the file leaves out); `fallback`
  /// is then where errors about it point.
  CheckedMapping(YAML::Node node, const Key& schema, std::string file, std::string context,
                 YAML::Mark fallback);

  /// True if the file gives the key.
  bool has(const std::string& key) const;
  double number(const std::string& key) const;
  long long integer(const std::string& key) const;
  bool boolean(const std::string& key) const;
  /// A String or Choice.
  std::string text(const std::string& key) const;
  std::vector<std::string> texts(const std::string& key) const;
  std::map<std::string, std::string> text_map(const std::string& key) const;
  CheckedMapping mapping(const std::string& key) const;
  std::vector<CheckedMapping> entries(const std::string& key) const;

  /// Where the mapping starts.
  SourceLocation where() const;
  /// Every key the mapping gives, and inside mappings and name-value maps the keys
  /// they give ("source.component", "engine_options.reorder"), by that path.
  GivenKeys given() const;

 private:
  const Key& child(const std::string& key, std::initializer_list<KeyType> types) const;
  YAML::Node value(const std::string& key) const;
  YAML::Mark mark(const std::string& key) const;

  YAML::Node node_;
  const Key* schema_;
  std::string file_;
  std::string context_;
  YAML::Mark fallback_;
};

/// What the schema check found.
struct SchemaCheck {
  std::vector<Problem> problems;  ///< every problem, in document order
  /// Per List key of the top level, the indices of the entries with problems.
  std::map<std::string, std::set<std::size_t>> bad_entries;
  /// Some problem lies outside the entries of the lists: no Config can be built.
  bool outside_entries = false;
};

/// Checks `root` against the Mapping `schema`, in document order, and reports every
/// problem: a key that is unknown (with "did you mean"), given twice or missing; a
/// value of the wrong type, out of bounds or not allowed. A value with a problem is not
/// looked into further.
SchemaCheck check_document(const YAML::Node& root, const Key& schema, const std::string& file);

/// The root of a document that check_document passed (or whose problems lie only in
/// entries the caller leaves out).
CheckedMapping checked_root(const YAML::Node& root, const Key& schema, const std::string& file);

/// A value as messages show it: "\"1h\"" (quoted, cut when long), "a list",
/// "a mapping", "nothing".
std::string describe_node(const YAML::Node& value);

/// "at the top level" or "in <context>", for messages.
std::string in_context(const std::string& context);

}  // namespace ferry::config::detail
