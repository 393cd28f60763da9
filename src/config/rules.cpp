#include "config/rules.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "config/quote.hpp"
#include "config/schema.hpp"
#include "config/suggest.hpp"
#include "ferry/engine.hpp"
#include "util/format.hpp"

namespace ferry::config {

namespace {

using detail::did_you_mean;
using detail::quoted;
using ferry::detail::cat;

// Names from the file, each on one line: "a, b".
std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + detail::one_line(item);
  return out;
}

// "\"a\" or \"b\"".
std::string alternatives(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : " or ") + quoted(name);
  return out;
}

bool contains(const std::vector<std::string>& items, const std::string& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

// One entry (exchange or buffer) as the rules see it.
struct Entry {
  std::string noun;  // "exchange", "buffer"
  const std::string& name;
  const GivenKeys& given;
  const SourceLocation& where;

  std::string title() const { return noun + " " + quoted(name); }
  SourceLocation at(const std::string& key) const { return value_location(given, key, where); }
  SourceLocation at_key(const std::string& key) const {
    const auto it = given.find(key);
    return it == given.end() ? where : it->second.key;
  }
  bool gives(const std::string& key) const { return given.count(key) != 0; }
};

Entry entry_of(const ExchangeConfig& x) { return {"exchange", x.name, x.given, x.where}; }
Entry entry_of(const BufferConfig& b) { return {"buffer", b.name, b.given, b.where}; }
Entry entry_of(const GridFileConfig& g) { return {"grid", g.name, g.given, g.where}; }

// The mapping a message talks about: "exchange \"x\"", "the method of exchange \"x\"".
std::string context_of(const Entry& entry, const std::string& path) {
  return path.empty() ? entry.title() : "the " + path + " of " + entry.title();
}

using FieldKey = std::pair<std::string, std::string>;  // component, field

// The first entry that uses a field one way (as a source, or as a target); its title
// is made only for a message.
struct FirstUse {
  std::string noun;
  const std::string* name;
  int line;

  std::string title() const { return noun + " " + quoted(*name); }
};

class Rules {
 public:
  explicit Rules(const Config& config) : config_(config) {}

  std::vector<Problem> run() {
    for (const ExchangeConfig& x : config_.exchanges) {
      const Entry e = entry_of(x);
      every_entry(e, x.source, x.target, "exchanges", exchange_lines_);
      same_field_count(e, x);
      lag_within_period(e, x);
      engine(e, x);
      restart_file(e, x);
    }
    for (const BufferConfig& b : config_.buffers) {
      const Entry e = entry_of(b);
      every_entry(e, b.source, b.target, "buffers", buffer_lines_);
      different_components(e, b);
    }
    for (const GridFileConfig& g : config_.grids) {
      const Entry e = entry_of(g);
      unique_name(e, grid_lines_);
      given_key_relations(e, "grids");
    }
    return std::move(problems_);
  }

 private:
  void report(const SourceLocation& where, std::string what) {
    problems_.push_back({where, std::move(what)});
  }

  // The rules of exchanges and buffers alike; `list` is their key in the schema.
  void every_entry(const Entry& e, const FieldRef& source, const FieldRef& target,
                   const char* list, std::map<std::string, int>& first_lines) {
    unique_name(e, first_lines);
    listed_component(e, "source", source.component);
    listed_component(e, "target", target.component);
    field_roles(e, source, target);
    given_key_relations(e, list);
  }

  // The key relations of an entry of the schema's `list`. Every relation starts from a
  // key the entry gives: an entry that gives none (a namcouple's) has none to check,
  // and a configuration whose entries give none never builds the schema.
  void given_key_relations(const Entry& e, const char* list) {
    if (e.given.empty()) return;
    if (!schema_) schema_ = config_schema();
    key_relations(e, *find_child(*schema_, list), "");
  }

  void unique_name(const Entry& e, std::map<std::string, int>& first_lines) {
    const auto [first, inserted] = first_lines.emplace(e.name, e.at("name").line);
    if (inserted) return;
    report(e.at("name"),
           cat("duplicate ", e.noun, " name ", quoted(e.name), " (first at line ", first->second,
               e.gives("name") ? ""
                               : "; an exchange without a name is called <first source "
                                 "field>-><first target field>",
               "); give each ", e.noun, " its own name"));
  }

  void listed_component(const Entry& e, const std::string& side, const std::string& component) {
    const std::vector<std::string>& listed = config_.components;
    if (listed.empty() || contains(listed, component)) return;
    const std::string hint = did_you_mean(component, listed);
    report(e.at(side + ".component"),
           "unknown component " + quoted(component) + " in " + context_of(e, side) +
               (hint.empty() ? "; add it to components (" + joined(listed) + ")"
                             : hint + " (components: " + joined(listed) + ")"));
  }

  void same_field_count(const Entry& e, const ExchangeConfig& x) {
    // An output-only entry (a namcouple's OUTPUT) has no target.
    if (x.kind == EntryKind::Output || x.source.fields.size() == x.target.fields.size()) return;
    report(e.at("target"),
           cat("the source of ", e.title(), " has ", x.source.fields.size(), " fields (",
               joined(x.source.fields), ") but the target has ", x.target.fields.size(), " (",
               joined(x.target.fields),
               "); fields are matched in order, so give both the same number"));
  }

  // A field is fed by one exchange, and declared either Out (put: the source of
  // exchanges and buffers) or In (get: the target of one).
  void field_roles(const Entry& e, const FieldRef& source, const FieldRef& target) {
    const std::string at_target = target.fields.size() == 1 ? "target.field" : "target.fields";
    if (e.noun == "exchange")
      for (const std::string& field : target.fields) {
        const auto fed = target_of_.find({target.component, field});
        if (fed != target_of_.end() && fed->second.noun == "exchange")
          report(e.at(at_target),
                 cat(e.title(), ": target field ", quoted(field), " of component ",
                     quoted(target.component), " is already fed by ", fed->second.title(),
                     " (line ", fed->second.line, "); a field can be got from one exchange only"));
      }
    one_direction(e, source, "source", source_of_, target_of_);
    one_direction(e, target, "target", target_of_, source_of_);
  }

  void one_direction(const Entry& e, const FieldRef& ref, const std::string& side,
                     std::map<FieldKey, FirstUse>& same, const std::map<FieldKey, FirstUse>& other) {
    const SourceLocation at = e.at(side + (ref.fields.size() == 1 ? ".field" : ".fields"));
    const char* other_side = side == "source" ? "target" : "source";
    for (const std::string& field : ref.fields) {
      const FieldKey key{ref.component, field};
      const auto clash = other.find(key);
      if (clash != other.end())
        report(at, cat(e.title(), ": field ", quoted(field), " of component ",
                       quoted(ref.component), " is its ", side, " but the ", other_side, " of ",
                       clash->second.title(), " (line ", clash->second.line,
                       "); a field is declared either Out (put) or In (get), so use two fields"));
      same.emplace(key, FirstUse{e.noun, &e.name, at.line});
    }
  }

  void lag_within_period(const Entry& e, const ExchangeConfig& x) {
    // Negative lags come from a namcouple (the YAML schema bounds lag at 0).
    if (x.lag <= x.period && -x.lag <= x.period) return;
    report(e.at("lag"), cat(e.title(), ": lag ", x.lag, " s is longer than the period ", x.period,
                            x.lag > 0 ? " s; ferry supports 0 <= lag <= period"
                                      : " s; a namcouple's lag may be negative down to -period"));
  }

  // The engines of this build whose two sides progress independently.
  static std::string independent_engines() {
    std::vector<std::string> names;
    for (const std::string& name : engine_names())
      if (engine_capabilities(name).independent_sides) names.push_back(name);
    return joined(names);
  }

  void engine(const Entry& e, const ExchangeConfig& x) {
    const std::string engine = resolve_engine_name(x.engine);
    if (!engine_capabilities(engine).independent_sides) {
      report(e.at("engine"),
             cat(e.title(), ": engine ", engine,
                 " needs both components inside one exchange call at once, which put/get "
                 "cannot promise. Use auto, or an engine whose sides progress independently: ",
                 independent_engines()));
      return;
    }
    const auto declared = engine_option_keys(engine);
    if (!declared) return;  // an engine registered without its options checks them itself
    std::vector<std::string> keys;
    for (const EngineOptionKey& key : *declared) keys.push_back(key.name);
    for (const auto& [option, value] : x.engine_options) {
      if (!contains(keys, option)) {
        const std::string hint = did_you_mean(option, keys);
        report(e.at_key("engine_options." + option),
               cat(e.title(), ": engine ", engine, x.engine == engine ? "" : " (" + x.engine + ")",
                   " has no option ", quoted(option),
                   !hint.empty()   ? hint
                   : keys.empty() ? "; it takes no options"
                                  : "; its options: " + joined(keys)));
      } else if (option == "candidates") {
        candidates(e, value);
      }
    }
  }

  // An engine that chooses among others (adaptive's `candidates`): each must be an
  // engine of this build whose sides progress independently.
  void candidates(const Entry& e, const std::string& list) {
    const SourceLocation at = e.at("engine_options.candidates");
    const std::vector<std::string> registered = engine_names();
    for (std::size_t begin = 0; begin <= list.size();) {
      const std::size_t comma = std::min(list.find(',', begin), list.size());
      const std::string name = list.substr(begin, comma - begin);
      begin = comma + 1;
      if (!contains(registered, name)) {
        const std::string hint = did_you_mean(name, registered);
        report(at, cat(e.title(), ": engine_options candidates names ", quoted(name),
                       ", which is not an engine of this build",
                       hint.empty() ? " (" + joined(registered) + ")" : hint));
      } else if (!engine_capabilities(name).independent_sides) {
        report(at, cat(e.title(), ": candidate ", name,
                       " needs both components inside one exchange call at once, which put/get "
                       "cannot promise; leave it out of candidates"));
      }
    }
  }

  // Keys that exclude each other, need another, or apply only with some value of a
  // sibling, as the schema declares; inside nested mappings too.
  void key_relations(const Entry& e, const Key& mapping, const std::string& path) {
    const std::string prefix = path.empty() ? "" : path + ".";
    const std::string context = context_of(e, path);
    for (const Key& key : mapping.children) {
      if (!e.gives(prefix + key.name)) continue;
      for (const std::string& other : key.excludes)
        if (e.gives(prefix + other))
          report(e.at(prefix + other), "give either " + quoted(key.name) + " or " +
                                           quoted(other) + " in " + context + ", not both");
      if (!key.needs_any.empty() &&
          std::none_of(key.needs_any.begin(), key.needs_any.end(),
                       [&](const std::string& other) { return e.gives(prefix + other); }))
        report(e.at(prefix + key.name),
               quoted(key.name) + " in " + context + " " + key.needs_why + ", but the " + e.noun +
                   " has no " + alternatives(key.needs_any) + "; give one, or remove " +
                   quoted(key.name));
      const auto condition = e.given.find(prefix + key.only_when);
      if (!key.only_when.empty() && condition != e.given.end() &&
          !contains(key.only_when_values, condition->second.text))
        report(e.at_key(prefix + key.name),
               quoted(key.name) + " in " + context + " is read only when " + key.only_when +
                   " is " + ferry::detail::join(key.only_when_values, " or ") + ", not " +
                   quoted(condition->second.text) + "; remove " + quoted(key.name));
      if (key.type == KeyType::Mapping) key_relations(e, key, prefix + key.name);
    }
  }

  // OASIS's rule: a restart file holds fields of one source component, and a field
  // sent by several exchanges needs a file for each.
  void restart_file(const Entry& e, const ExchangeConfig& x) {
    if (x.lag <= 0 && x.transform == Transform::Instant) return;  // it has no restart file
    const std::string file = x.restart.empty() ? x.name + "_restart.nc" : x.restart;
    const std::string path = file.front() == '/' ? file : config_.output_directory + "/" + file;
    const auto [writer, inserted] = restart_writers_.emplace(path, &x);
    const SourceLocation at = e.at("restart");
    const std::string first = cat(quoted(writer->second->name), " (line ", writer->second->where.line, ")");
    if (!inserted && writer->second->source.component != x.source.component)
      return report(at, cat(e.title(), ": restart file ", quoted(file), " is also used by exchange ",
                            first, ", whose source is component ",
                            quoted(writer->second->source.component), ", not ",
                            quoted(x.source.component),
                            "; a restart file holds the fields of one source component, so give ",
                            e.title(), " a restart file of its own"));
    for (const std::string& field : x.source.fields) {
      const auto [holder, new_field] = restart_fields_.emplace(std::make_pair(path, field), &x);
      if (!new_field)
        report(at, cat(e.title(), ": restart file ", quoted(file), " already holds source field ",
                       quoted(field), " for exchange ", quoted(holder->second->name), " (line ",
                       holder->second->where.line,
                       "); a field sent by several exchanges needs a restart file for each, so "
                       "give ", e.title(), " a restart file of its own"));
    }
  }

  void different_components(const Entry& e, const BufferConfig& b) {
    if (b.source.component != b.target.component) return;
    report(e.at("target.component"),
           "the source and target of " + e.title() + " are both component " +
               quoted(b.source.component) +
               "; a buffer connects two components on disjoint ranks, so name the reading "
               "component as the target");
  }


  const Config& config_;
  std::optional<Key> schema_;  // built when an entry gives keys
  std::vector<Problem> problems_;
  std::map<std::string, int> exchange_lines_, buffer_lines_, grid_lines_;  // name -> first line
  std::map<FieldKey, FirstUse> source_of_, target_of_;
  std::map<std::string, const ExchangeConfig*> restart_writers_;  // path -> first exchange
  std::map<std::pair<std::string, std::string>, const ExchangeConfig*> restart_fields_;
};

}  // namespace

std::vector<Problem> check_rules(const Config& config) { return Rules(config).run(); }

CouplingEngine coupling_engine(const ExchangeConfig& exchange) {
  CouplingEngine out{resolve_engine_name(exchange.engine), {}};
  out.options.values = exchange.engine_options;
  // Releasing a candidate's windows or communicators is collective: keep them all.
  if (const auto declared = engine_option_keys(out.name))
    for (const EngineOptionKey& key : *declared)
      if (key.name == "independent_sides" || key.name == "keep_candidates")
        out.options.values[key.name] = "true";
  return out;
}

}  // namespace ferry::config
