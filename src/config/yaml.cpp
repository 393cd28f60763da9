// parse_config and load_config: YAML text -> checked against the schema -> Config,
// plus the rules that span several keys (unique names, matching field counts,
// listed components).
#include <yaml-cpp/yaml.h>

#include <initializer_list>
#include <map>
#include <optional>

#include "config/config.hpp"
#include "config/quote.hpp"
#include "config/scalar.hpp"
#include "config/schema.hpp"
#include "config/suggest.hpp"
#include "config/text_file.hpp"
#include "config/yaml_check.hpp"
#include "config/yaml_document.hpp"
#include "util/check.hpp"

namespace ferry::config {

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

// The value of a Choice key of an exchange: `values` in the order of the schema's choices.
template <class Enum>
Enum choice_of(const CheckedMapping& entry, const std::string& key,
               std::initializer_list<Enum> values) {
  const std::string text = entry.text(key);
  const Key root = config_schema();
  const Key* exchanges = find_child(root, "exchanges");
  const Key* schema = exchanges ? find_child(*exchanges, key) : nullptr;
  FERRY_ASSERT(schema != nullptr && schema->choices.size() == values.size(), "key \"", key,
               "\" has no matching choices in the schema");
  for (std::size_t i = 0; i < values.size(); ++i)
    if (schema->choices[i] == text) return values.begin()[i];
  FERRY_ASSERT(false, key, " \"", text, "\" passed the schema check");
  return *values.begin();
}

RegridConfig build_regrid(const CheckedMapping& entry) {
  RegridConfig r;
  if (entry.has("weights") && entry.has("method"))
    entry.fail("method", "give either \"weights\" or \"method\" " +
                             detail::in_context(entry.context()) + ", not both");
  if (entry.has("weights")) {
    r.source = WeightSource::File;
    r.weights = entry.text("weights");
  } else if (entry.has("method")) {
    const CheckedMapping method = entry.mapping("method");
    const std::string name = method.text("name");
    r.source = name == "nearest"    ? WeightSource::Nearest
               : name == "gaussian" ? WeightSource::Gaussian
               : name == "bilinear" ? WeightSource::Bilinear
                                    : WeightSource::Conservative;
    r.neighbours = static_cast<int>(method.integer("neighbours"));
    r.variance = method.number("variance");
    r.periodic = method.boolean("periodic");
    r.normalisation = method.text("normalisation") == "destarea"
                          ? ConservativeNormalisation::DestArea
                          : ConservativeNormalisation::FracArea;
  } else {
    for (const char* key : {"map_on", "mode", "fill", "conservation", "sum"})
      if (entry.has(key))
        entry.fail(key, ferry::detail::cat("\"", key, "\" ", detail::in_context(entry.context()),
                                           " regrids, but the exchange has no \"weights\" or "
                                           "\"method\"; give one, or remove \"", key, "\""));
    return r;
  }
  r.map_on = choice_of(entry, "map_on", {MapOn::Dst, MapOn::Src});
  r.mode = choice_of(entry, "mode", {RemapMode::Bfb, RemapMode::Sum});
  r.fill = entry.number("fill");
  r.conservation = choice_of<std::optional<Conserve>>(
      entry, "conservation",
      {std::nullopt, Conserve::Global, Conserve::GlobalPositive, Conserve::BasinBalance,
       Conserve::BasinPositive});
  r.sum = choice_of(entry, "sum",
                    {SumMethod::Reprosum, SumMethod::Gather, SumMethod::Lsum8, SumMethod::Lsum16,
                     SumMethod::Ddpdd});
  return r;
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
  x.regrid = build_regrid(entry);
  x.where = entry.where();
  return x;
}

// The entries of an optional list key; none when it is absent.
std::vector<CheckedMapping> list_entries(const CheckedMapping& top, const std::string& key) {
  return top.has(key) ? top.entries(key) : std::vector<CheckedMapping>{};
}

BufferConfig build_buffer(const CheckedMapping& entry, const std::vector<std::string>& components) {
  const CheckedMapping source = entry.mapping("source");
  const CheckedMapping target = entry.mapping("target");
  check_component(source, components);
  check_component(target, components);
  BufferConfig b;
  b.name = entry.text("name");
  b.source = {source.text("component"), {source.text("field")}};
  b.target = {target.text("component"), {target.text("field")}};
  if (b.source.component == b.target.component)
    target.fail("component", "the source and target of " + entry.context() +
                                 " are both component " + detail::quoted(b.source.component) +
                                 "; a buffer connects two components on disjoint ranks, so "
                                 "name the reading component as the target");
  b.capacity = entry.integer("capacity");
  b.lossy = entry.text("mode") == "lossy";
  b.where = entry.where();
  return b;
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

  if (!top.has("exchanges") && !top.has("buffers"))
    top.fail("missing key \"exchanges\" (a list of entries, each a mapping) at the top level; "
             "give \"exchanges\", \"buffers\" or both");
  std::map<std::string, int> first_line_of_name;
  for (const CheckedMapping& entry : list_entries(top, "exchanges")) {
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
  std::map<std::string, int> first_line_of_buffer;
  for (const CheckedMapping& entry : list_entries(top, "buffers")) {
    BufferConfig b = build_buffer(entry, config.components);
    const auto [first, inserted] = first_line_of_buffer.emplace(b.name, entry.where("name").line);
    if (!inserted)
      entry.fail("name", ferry::detail::cat("duplicate buffer name ", detail::quoted(b.name),
                                            " (first at line ", first->second,
                                            "); give each buffer its own name"));
    config.buffers.push_back(std::move(b));
  }

  const CheckedMapping output = top.mapping("output");
  config.output_directory = output.text("directory");
  config.timers = output.boolean("timers");
  config.imbalance_timer = output.boolean("imbalance");
  config.watchdog_seconds = top.mapping("watchdog").number("timeout");
  return config;
}

Config load_config(const std::string& path) {
  return parse_config(detail::read_text_file(path, "load_config", "configuration file"), path);
}

}  // namespace ferry::config
