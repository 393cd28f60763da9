// parse_config and load_config: YAML text -> checked against the schema -> Config,
// plus the rules that span several keys (unique names, matching field counts,
// listed components).
#include <yaml-cpp/yaml.h>

#include <map>

#include "coupling/config/config.hpp"
#include "coupling/config/quote.hpp"
#include "coupling/config/scalar.hpp"
#include "coupling/config/schema.hpp"
#include "coupling/config/suggest.hpp"
#include "coupling/config/text_file.hpp"
#include "coupling/config/yaml_check.hpp"
#include "coupling/config/yaml_document.hpp"
#include "util/check.hpp"

namespace ferry::coupling {

namespace {

using detail::CheckedMapping;
using detail::fail_at;

// Names from the file, each on one line: "a, b".
std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + detail::one_line(item);
  return out;
}

// Checked before anything else, so a file of another version is refused as such
// rather than for the keys this version does not know.
void check_version(const YAML::Node& root, const std::string& name) {
  if (!root.IsMap()) return;  // check_document explains what the file should be
  for (auto it = root.begin(); it != root.end(); ++it) {
    if (!it->first.IsScalar() || it->first.Scalar() != "version") continue;
    const YAML::Node value = it->second;
    if (value.IsScalar() && detail::parse_integer(value.Scalar()) == 1) return;
    fail_at(name, value.IsScalar() ? value.Mark() : it->first.Mark(),
            "version must be 1; got " + detail::describe_node(value) +
                ": this ferry reads version 1");
  }
  fail_at(name, root.Mark(),
          "missing key \"version\" at the top level: this ferry reads version 1, so start the "
          "file with \"version: 1\"");
}

FieldRef field_ref(const CheckedMapping& side) {
  FieldRef ref;
  ref.component = side.text("component");
  ref.fields = side.has("field") ? std::vector<std::string>{side.text("field")}
                                 : side.texts("fields");
  return ref;
}

Transform transform_from(const std::string& text) {
  for (const Transform t : kTransforms)
    if (text == transform_name(t)) return t;
  FERRY_ASSERT(false, "transform \"", text, "\" passed the schema check");
  return Transform::Instant;
}

void check_component(const CheckedMapping& side, const std::vector<std::string>& components) {
  if (components.empty()) return;
  const std::string component = side.text("component");
  for (const auto& c : components)
    if (c == component) return;
  const std::string hint = detail::did_you_mean(component, components);
  side.fail("component", "unknown component " + detail::quoted(component) + " " +
                             detail::in_context(side.context()) +
                             (hint.empty() ? "; add it to components (" + joined(components) + ")"
                                           : hint + " (components: " + joined(components) + ")"));
}

ExchangeConfig build_exchange(const CheckedMapping& entry,
                              const std::vector<std::string>& components) {
  const CheckedMapping source = entry.mapping("source");
  const CheckedMapping target = entry.mapping("target");
  check_component(source, components);
  check_component(target, components);

  ExchangeConfig x;
  x.source = field_ref(source);
  x.target = field_ref(target);
  if (x.source.fields.size() != x.target.fields.size())
    target.fail(ferry::detail::cat(
        "the source of ", entry.context(), " has ", x.source.fields.size(), " fields (",
        joined(x.source.fields), ") but the target has ", x.target.fields.size(), " (",
        joined(x.target.fields), "); fields are matched in order, so give both the same number"));
  x.name = entry.has("name") ? entry.text("name")
                             : x.source.fields.front() + "->" + x.target.fields.front();
  x.period = entry.number("period");
  x.lag = entry.number("lag");
  x.sequence = static_cast<int>(entry.integer("sequence"));
  x.transform = transform_from(entry.text("transform"));
  x.engine = entry.text("engine");
  x.engine_options = entry.text_map("engine_options");
  x.output = entry.boolean("output");
  x.restart = entry.text("restart");
  x.where = entry.where();
  return x;
}

}  // namespace

Config parse_config(const std::string& yaml_text, const std::string& name) {
  const YAML::Node root = detail::load_document(yaml_text, name);
  check_version(root, name);
  const Key schema = config_schema();
  const CheckedMapping top = detail::check_document(root, schema, name);

  Config config;
  config.path = name;
  config.version = static_cast<int>(top.integer("version"));
  const CheckedMapping run = top.mapping("run");
  config.start = run.number("start");
  config.length = run.number("length");
  config.components = top.texts("components");

  std::map<std::string, int> first_line_of_name;
  for (const CheckedMapping& entry : top.entries("exchanges")) {
    ExchangeConfig x = build_exchange(entry, config.components);
    const auto [first, inserted] = first_line_of_name.emplace(x.name, entry.where("name").line);
    if (!inserted)
      entry.fail("name", ferry::detail::cat(
                             "duplicate exchange name ", detail::quoted(x.name), " (first at line ",
                             first->second,
                             entry.has("name") ? "" : "; an exchange without a name is called "
                                                      "<first source field>-><first target field>",
                             "); give each exchange its own name"));
    config.exchanges.push_back(std::move(x));
  }

  const CheckedMapping output = top.mapping("output");
  config.output_directory = output.text("directory");
  config.timers = output.boolean("timers");
  config.watchdog_seconds = top.mapping("watchdog").number("timeout");
  return config;
}

Config load_config(const std::string& path) {
  return parse_config(detail::read_text_file(path, "load_config", "configuration file"), path);
}

}  // namespace ferry::coupling
