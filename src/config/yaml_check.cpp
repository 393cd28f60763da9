#include "config/yaml_check.hpp"

#include <algorithm>
#include <climits>
#include <set>
#include <utility>

#include "config/scalar.hpp"
#include "config/suggest.hpp"
#include "util/check.hpp"

namespace ferry::config::detail {

namespace {

bool has_mark(const YAML::Mark& mark) { return mark.line >= 0 && mark.column >= 0; }

bool within(double value, Bound bound) {
  switch (bound) {
    case Bound::Positive:
      return value > 0;
    case Bound::NonNegative:
      return value >= 0;
    case Bound::OneOrTwo:
      return value == 1 || value == 2;
    case Bound::None:
      break;
  }
  return true;
}

// A null value ("period:" and nothing) has no useful mark of its own: point at its key.
YAML::Mark value_mark(const YAML::Node& value, const YAML::Node& key_node) {
  if (value.IsDefined() && !value.IsNull() && has_mark(value.Mark())) return value.Mark();
  return key_node.Mark();
}

std::string child_context(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : "the " + key + " of " + parent;
}

// An exchanges entry is named by its `name:` when it has one, else by its position.
std::string entry_context(const Key& list, const YAML::Node& entry, std::size_t index) {
  if (entry.IsMap())
    for (auto it = entry.begin(); it != entry.end(); ++it)
      if (it->first.IsScalar() && it->first.Scalar() == "name" && it->second.IsScalar())
        return list.entry_noun + " " + quoted(it->second.Scalar());
  return list.name + " entry " + std::to_string(index + 1);
}

std::string line_of(const YAML::Mark& mark) {
  return "line " + std::to_string(has_mark(mark) ? mark.line + 1 : 1);
}

// Reports problems instead of throwing, so that one pass finds them all; a value with
// a problem is not looked into further.
struct Checker {
  const std::string& file;
  std::vector<Problem>& problems;
  std::map<std::string, std::set<std::size_t>>& bad_entries;
  mutable std::size_t in_entries = 0;  // problems inside the entries of a list
  mutable int list_depth = 0;

  void report(const YAML::Mark& at, const std::string& what) const {
    problems.push_back(problem_at(file, at, what));
  }

  void must_be(const Key& key, const YAML::Node& value, const YAML::Mark& at,
               const std::string& hint = "") const {
    report(at, key.name + " must be " + describe_value(key) + "; got " + describe_node(value) + hint);
  }

  void scalar(const Key& key, const YAML::Node& value, const YAML::Mark& at) const {
    if (!value.IsScalar()) return must_be(key, value, at);
    const std::string& text = value.Scalar();
    switch (key.type) {
      case KeyType::Integer: {
        const auto v = parse_integer(text);
        if (!v || *v < INT_MIN || *v > INT_MAX || !within(static_cast<double>(*v), key.bound))
          must_be(key, value, at);
        return;
      }
      case KeyType::Number: {
        const auto v = parse_number(text);
        if (!v || !within(*v, key.bound)) must_be(key, value, at);
        return;
      }
      case KeyType::Boolean:
        if (!parse_boolean(text)) must_be(key, value, at);
        return;
      case KeyType::String:
        if (text.empty()) must_be(key, value, at);
        return;
      case KeyType::Choice:
        for (const auto& choice : key.choices)
          if (text == choice) return;
        return must_be(key, value, at, did_you_mean(text, key.choices));
      default:
        FERRY_ASSERT(false, "key \"", key.name, "\" is not a scalar key");
    }
  }

  void string_list(const Key& key, const YAML::Node& value, const YAML::Mark& at) const {
    if (!value.IsSequence() || value.size() == 0) return must_be(key, value, at);
    std::map<std::string, YAML::Mark> seen;
    std::size_t index = 0;
    for (auto it = value.begin(); it != value.end(); ++it, ++index) {
      const YAML::Node item = *it;
      const YAML::Mark item_at = has_mark(item.Mark()) ? item.Mark() : at;
      if (!item.IsScalar() || item.Scalar().empty()) {
        report(item_at, "entry " + std::to_string(index + 1) + " of " + key.name +
                            " must be a non-empty string; got " + describe_node(item));
        continue;
      }
      const auto [first, inserted] = seen.emplace(item.Scalar(), item_at);
      if (!inserted)
        report(item_at, quoted(item.Scalar()) + " appears twice in " + key.name + " (first at " +
                            line_of(first->second) + "); list each name once");
    }
  }

  void string_map(const Key& key, const YAML::Node& value, const YAML::Mark& at) const {
    if (!value.IsMap()) return must_be(key, value, at);
    std::map<std::string, YAML::Mark> seen;
    for (auto it = value.begin(); it != value.end(); ++it) {
      const YAML::Node name = it->first;
      if (!name.IsScalar() || name.Scalar().empty()) {
        report(has_mark(name.Mark()) ? name.Mark() : at,
               "the names in " + key.name + " must be non-empty strings; got " +
                   describe_node(name));
        continue;
      }
      const auto [first, inserted] = seen.emplace(name.Scalar(), name.Mark());
      if (!inserted)
        report(name.Mark(), "duplicate key " + quoted(name.Scalar()) + " in " + key.name +
                                " (first at " + line_of(first->second) + ")");
      if (!it->second.IsScalar())
        report(value_mark(it->second, name),
               key.name + " " + quoted(name.Scalar()) +
                   " must be a single value (text, number or true/false); got " +
                   describe_node(it->second));
    }
  }

  void list(const Key& key, const YAML::Node& value, const YAML::Mark& at) const {
    if (!value.IsSequence() || value.size() == 0) return must_be(key, value, at);
    std::size_t index = 0;
    for (auto it = value.begin(); it != value.end(); ++it, ++index) {
      const YAML::Node entry = *it;
      const YAML::Mark entry_at = has_mark(entry.Mark()) ? entry.Mark() : at;
      const std::size_t before = problems.size();
      ++list_depth;
      if (!entry.IsMap())
        report(entry_at, "entry " + std::to_string(index + 1) + " of " + key.name +
                             " must be a mapping of keys to values; got " + describe_node(entry));
      else
        mapping(entry, key, entry_context(key, entry, index));
      --list_depth;
      if (problems.size() == before) continue;
      bad_entries[key.name].insert(index);
      if (list_depth == 0) in_entries += problems.size() - before;
    }
  }

  void value(const Key& key, const YAML::Node& value, const YAML::Node& key_node,
             const std::string& parent_context) const {
    const YAML::Mark at = value_mark(value, key_node);
    switch (key.type) {
      case KeyType::StringList:
        return string_list(key, value, at);
      case KeyType::StringMap:
        return string_map(key, value, at);
      case KeyType::Mapping:
        if (!value.IsMap()) return must_be(key, value, at);
        return mapping(value, key, child_context(parent_context, key.name));
      case KeyType::List:
        return list(key, value, at);
      default:
        return scalar(key, value, at);
    }
  }

  void mapping(const YAML::Node& node, const Key& schema, const std::string& context) const {
    std::map<std::string, YAML::Mark> given;
    std::set<std::string> suggested;  // a missing key an unknown one was taken for
    std::vector<std::pair<std::string, YAML::Mark>> one_of_given;
    for (auto it = node.begin(); it != node.end(); ++it) {
      const YAML::Node key_node = it->first;
      const YAML::Mark key_at = has_mark(key_node.Mark()) ? key_node.Mark() : node.Mark();
      if (!key_node.IsScalar()) {
        report(key_at, "keys must be plain names " + in_context(context) + "; got " +
                           describe_node(key_node));
        continue;
      }
      const std::string& name = key_node.Scalar();
      const auto [first, inserted] = given.emplace(name, key_at);
      if (!inserted) {
        report(key_at, "duplicate key " + quoted(name) + " " + in_context(context) +
                           " (first at " + line_of(first->second) + ")");
        continue;
      }
      const Key* key = find_child(schema, name);
      if (!key) {
        const std::string match = closest_match(name, child_names(schema));
        std::string valid;
        for (const auto& n : child_names(schema)) valid += (valid.empty() ? "" : ", ") + n;
        report(key_at, "unknown key " + quoted(name) + " " + in_context(context) +
                           (match.empty() ? "; valid keys: " + valid
                                          : did_you_mean(name, child_names(schema))));
        if (!match.empty()) suggested.insert(match);
        continue;
      }
      if (key->presence == Presence::OneOf) one_of_given.emplace_back(name, key_at);
      value(*key, it->second, key_node, context);
    }

    std::string one_of_names;
    bool one_of_suggested = false;
    for (const Key& key : schema.children)
      if (key.presence == Presence::OneOf) {
        one_of_names += (one_of_names.empty() ? "" : " or ") + quoted(key.name);
        one_of_suggested = one_of_suggested || suggested.count(key.name) != 0;
      }
    if (one_of_given.size() > 1)
      report(one_of_given[1].second,
             "give either " + one_of_names + " " + in_context(context) + ", not both");
    if (!one_of_names.empty() && one_of_given.empty() && !one_of_suggested)
      report(node.Mark(), "missing key " + one_of_names + " " + in_context(context));
    for (const Key& key : schema.children)
      if (key.presence == Presence::Required && !given.count(key.name) &&
          !suggested.count(key.name))
        report(node.Mark(), "missing key " + quoted(key.name) + " (" + describe_value(key) +
                                ") " + in_context(context));
    if (!schema.any_of.empty() &&
        std::none_of(schema.any_of.begin(), schema.any_of.end(), [&](const std::string& name) {
          return given.count(name) || suggested.count(name);
        })) {
      const Key& first = *find_child(schema, schema.any_of.front());
      std::string names;
      for (const auto& name : schema.any_of) names += (names.empty() ? "" : ", ") + quoted(name);
      report(node.Mark(), "missing key " + quoted(first.name) + " (" + describe_value(first) +
                              ") " + in_context(context) + "; give " + names +
                              (schema.any_of.size() == 2 ? " or both" : " or several"));
    }
  }
};

}  // namespace

Problem problem_at(const std::string& file, const YAML::Mark& mark, const std::string& what) {
  const bool known = has_mark(mark);
  return {{file, known ? mark.line + 1 : 1, known ? mark.column + 1 : 1}, what};
}

ProblemError::ProblemError(Problem problem)
    : Error(Errc::Arg, problem_text(problem)), problem_(std::move(problem)) {}

void fail_at(const std::string& file, const YAML::Mark& mark, const std::string& what) {
  throw ProblemError(problem_at(file, mark, what));
}

std::string describe_node(const YAML::Node& value) {
  if (!value.IsDefined() || value.IsNull()) return "nothing";
  if (value.IsScalar()) return quoted(value.Scalar());
  if (value.IsSequence()) return value.size() == 0 ? "an empty list" : "a list";
  return value.size() == 0 ? "an empty mapping" : "a mapping";
}

std::string in_context(const std::string& context) {
  return context.empty() ? "at the top level" : "in " + context;
}

SchemaCheck check_document(const YAML::Node& root, const Key& schema, const std::string& file) {
  SchemaCheck result;
  const Checker checker{file, result.problems, result.bad_entries};
  if (!root.IsMap()) {
    checker.report(root.Mark(),
                   "a configuration is a mapping of keys to values, starting with \"version: "
                   "1\"; got " + describe_node(root));
  } else {
    checker.mapping(root, schema, "");
  }
  result.outside_entries = result.problems.size() > checker.in_entries;
  return result;
}

CheckedMapping checked_root(const YAML::Node& root, const Key& schema, const std::string& file) {
  return CheckedMapping(root, schema, file, "", root.Mark());
}

CheckedMapping::CheckedMapping(YAML::Node node, const Key& schema, std::string file,
                               std::string context, YAML::Mark fallback)
    : node_(std::move(node)),
      schema_(&schema),
      file_(std::move(file)),
      context_(std::move(context)),
      fallback_(fallback) {}

const Key& CheckedMapping::child(const std::string& key,
                                 std::initializer_list<KeyType> types) const {
  const Key* found = find_child(*schema_, key);
  // Always checked: a read the schema does not back would silently take a wrong default.
  FERRY_CHECK(found && std::find(types.begin(), types.end(), found->type) != types.end(),
              Errc::Internal, "the parser reads key \"", key, "\" ", in_context(context_),
              " with a type the schema does not give it. This is a bug in ferry, please report it");
  return *found;
}

YAML::Node CheckedMapping::value(const std::string& key) const {
  if (node_.IsMap())
    for (auto it = node_.begin(); it != node_.end(); ++it)
      if (it->first.IsScalar() && it->first.Scalar() == key) return it->second;
  return YAML::Node(YAML::NodeType::Undefined);
}

YAML::Mark CheckedMapping::mark(const std::string& key) const {
  if (node_.IsMap())
    for (auto it = node_.begin(); it != node_.end(); ++it)
      if (it->first.IsScalar() && it->first.Scalar() == key)
        return value_mark(it->second, it->first);
  return has_mark(node_.Mark()) ? node_.Mark() : fallback_;
}

bool CheckedMapping::has(const std::string& key) const { return value(key).IsDefined(); }

double CheckedMapping::number(const std::string& key) const {
  const Key& k = child(key, {KeyType::Number});
  const YAML::Node v = value(key);
  const auto parsed = parse_number(v.IsDefined() ? v.Scalar() : k.default_value);
  FERRY_ASSERT(parsed, "\"", key, "\" is not a number after the schema check");
  return parsed.value_or(0.0);
}

long long CheckedMapping::integer(const std::string& key) const {
  const Key& k = child(key, {KeyType::Integer});
  const YAML::Node v = value(key);
  const auto parsed = parse_integer(v.IsDefined() ? v.Scalar() : k.default_value);
  FERRY_ASSERT(parsed, "\"", key, "\" is not an integer after the schema check");
  return parsed.value_or(0);
}

bool CheckedMapping::boolean(const std::string& key) const {
  const Key& k = child(key, {KeyType::Boolean});
  const YAML::Node v = value(key);
  const auto parsed = parse_boolean(v.IsDefined() ? v.Scalar() : k.default_value);
  FERRY_ASSERT(parsed, "\"", key, "\" is not true or false after the schema check");
  return parsed.value_or(false);
}

std::string CheckedMapping::text(const std::string& key) const {
  const Key& k = child(key, {KeyType::String, KeyType::Choice});
  const YAML::Node v = value(key);
  return v.IsDefined() ? v.Scalar() : k.default_value;
}

std::vector<std::string> CheckedMapping::texts(const std::string& key) const {
  child(key, {KeyType::StringList});
  std::vector<std::string> out;
  for (const auto& item : value(key)) out.push_back(item.Scalar());
  return out;
}

std::map<std::string, std::string> CheckedMapping::text_map(const std::string& key) const {
  child(key, {KeyType::StringMap});
  std::map<std::string, std::string> out;
  const YAML::Node v = value(key);
  if (v.IsMap())
    for (auto it = v.begin(); it != v.end(); ++it) out[it->first.Scalar()] = it->second.Scalar();
  return out;
}

CheckedMapping CheckedMapping::mapping(const std::string& key) const {
  const Key& k = child(key, {KeyType::Mapping});
  return CheckedMapping(value(key), k, file_, child_context(context_, key), mark(key));
}

std::vector<CheckedMapping> CheckedMapping::entries(const std::string& key) const {
  const Key& k = child(key, {KeyType::List});
  std::vector<CheckedMapping> out;
  const YAML::Node list = value(key);
  std::size_t index = 0;
  for (auto it = list.begin(); it != list.end(); ++it, ++index)
    out.emplace_back(*it, k, file_, entry_context(k, *it, index), it->Mark());
  return out;
}

SourceLocation CheckedMapping::where() const {
  const YAML::Mark m = has_mark(node_.Mark()) ? node_.Mark() : fallback_;
  return {file_, has_mark(m) ? m.line + 1 : 1, has_mark(m) ? m.column + 1 : 1};
}

namespace {

SourceLocation location(const std::string& file, const YAML::Mark& mark) {
  return problem_at(file, mark, "").where;
}

// The keys of `node` (checked against `schema`) into `out`, under `prefix`.
void collect_given(const YAML::Node& node, const Key& schema, const std::string& file,
                   const std::string& prefix, GivenKeys& out) {
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (!it->first.IsScalar()) continue;
    const std::string path = prefix + it->first.Scalar();
    GivenKey& given = out[path];
    given.key = location(file, it->first.Mark());
    given.value = location(file, value_mark(it->second, it->first));
    if (it->second.IsScalar()) given.text = it->second.Scalar();
    const Key* key = find_child(schema, it->first.Scalar());
    if (key && it->second.IsMap() &&
        (key->type == KeyType::Mapping || key->type == KeyType::StringMap))
      collect_given(it->second, *key, file, path + ".", out);
  }
}

}  // namespace

GivenKeys CheckedMapping::given() const {
  GivenKeys out;
  if (node_.IsMap()) collect_given(node_, *schema_, file_, "", out);
  return out;
}

}  // namespace ferry::config::detail
