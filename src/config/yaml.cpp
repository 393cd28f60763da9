// check_config, parse_config and load_config: YAML text -> syntax -> schema -> Config
// -> the rules between keys (rules.cpp), each pass reporting every problem it finds.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <initializer_list>
#include <optional>

#include "config/config.hpp"
#include "config/rules.hpp"
#include "config/scalar.hpp"
#include "config/schema.hpp"
#include "config/text_file.hpp"
#include "config/yaml_check.hpp"
#include "config/yaml_document.hpp"
#include "util/check.hpp"

namespace ferry::config {

namespace {

using detail::CheckedMapping;
using detail::fail_at;

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

// The regridding keys as given; which of them may go together is a rule (rules.cpp).
RegridConfig build_regrid(const CheckedMapping& entry) {
  RegridConfig r;
  if (entry.has("weights")) {
    r.source = WeightSource::File;
    r.weights = entry.text("weights");
    r.bad_index = choice_of(entry, "bad_weight_index",
                            {BadWeightIndex::Refuse, BadWeightIndex::Drop,
                             BadWeightIndex::DropQuietly});
  } else if (entry.has("method")) {
    const CheckedMapping method = entry.mapping("method");
    const std::string name = method.text("name");
    r.source = name == "nearest"    ? WeightSource::Nearest
               : name == "gaussian" ? WeightSource::Gaussian
               : name == "bilinear" ? WeightSource::Bilinear
               : name == "bicubic"  ? WeightSource::Bicubic
                                    : WeightSource::Conservative;
    r.neighbours = static_cast<int>(method.integer("neighbours"));
    r.variance = method.number("variance");
    const std::string masked = method.text("masked_neighbours");
    r.masked_neighbours = masked == "drop"           ? MaskedNeighbours::Dropped
                          : masked == "drop_no_fill" ? MaskedNeighbours::DroppedNoFill
                                                     : MaskedNeighbours::Skipped;
    r.gaussian_scale = method.text("gaussian_scale") == "neighbours"
                           ? GaussianScale::NeighbourSpacing
                           : GaussianScale::SourceSpacing;
    r.periodic = method.boolean("periodic");
    r.normalisation = method.text("normalisation") == "destarea"
                          ? ConservativeNormalisation::DestArea
                          : ConservativeNormalisation::FracArea;
    const std::string unmapped = method.text("unmapped");
    r.unmapped = unmapped == "nearest"        ? Unmapped::Nearest
                 : unmapped == "four_nearest" ? Unmapped::FourNearest
                                              : Unmapped::Fill;
    r.order = static_cast<int>(method.integer("order"));
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

ExchangeConfig build_exchange(const CheckedMapping& entry) {
  ExchangeConfig x;
  x.source = field_ref(entry.mapping("source"));
  x.target = field_ref(entry.mapping("target"));
  x.name = entry.has("name") ? entry.text("name")
                             : x.source.fields.front() + "->" + x.target.fields.front();
  x.period = entry.number("period");
  x.lag = entry.number("lag");
  x.sequence = static_cast<int>(entry.integer("sequence"));
  x.transform = transform_from(entry.text("transform"));
  x.engine = entry.text("engine");
  x.engine_options = entry.text_map("engine_options");
  x.output = entry.boolean("output");
  x.check_in = entry.boolean("check_in");
  x.check_out = entry.boolean("check_out");
  x.source_scaling = {entry.number("source_factor"), entry.number("source_offset")};
  x.target_scaling = {entry.number("target_factor"), entry.number("target_offset")};
  x.restart = entry.text("restart");
  x.regrid = build_regrid(entry);
  x.where = entry.where();
  x.given = entry.given();
  return x;
}

BufferConfig build_buffer(const CheckedMapping& entry) {
  const CheckedMapping source = entry.mapping("source");
  const CheckedMapping target = entry.mapping("target");
  BufferConfig b;
  b.name = entry.text("name");
  b.source.component = source.text("component");
  b.source.fields = {source.text("field")};
  b.target.component = target.text("component");
  b.target.fields = {target.text("field")};
  b.capacity = entry.integer("capacity");
  b.lossy = entry.text("mode") == "lossy";
  b.where = entry.where();
  b.given = entry.given();
  return b;
}

GridFileConfig build_grid(const CheckedMapping& entry) {
  GridFileConfig g;
  g.name = entry.text("name");
  g.file = entry.text("file");
  const std::string format = entry.text("format");
  for (const GridFormat f : {GridFormat::Auto, GridFormat::Oasis, GridFormat::Scrip,
                             GridFormat::Unstructured})
    if (format == grid_format_name(f)) g.format = f;
  g.mask = entry.text("mask");
  g.where = entry.where();
  g.given = entry.given();
  return g;
}

// The entries of the list `key` that passed the schema check; none when it is absent.
template <class Build>
auto good_entries(const CheckedMapping& top, const std::string& key,
                  const std::set<std::size_t>& bad, Build build) {
  std::vector<decltype(build(top))> out;
  if (!top.has(key)) return out;
  const std::vector<CheckedMapping> entries = top.entries(key);
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (!bad.count(i)) out.push_back(build(entries[i]));
  return out;
}

Config build_config(const CheckedMapping& top, const detail::SchemaCheck& schema_check,
                    const std::string& name) {
  const auto bad = [&](const std::string& key) {
    const auto it = schema_check.bad_entries.find(key);
    return it == schema_check.bad_entries.end() ? std::set<std::size_t>{} : it->second;
  };
  Config config;
  config.path = name;
  config.version = static_cast<int>(top.integer("version"));
  const CheckedMapping run = top.mapping("run");
  config.start = run.number("start");
  config.length = run.number("length");
  config.components = top.texts("components");
  config.exchanges = good_entries(top, "exchanges", bad("exchanges"), build_exchange);
  config.buffers = good_entries(top, "buffers", bad("buffers"), build_buffer);
  config.grids = good_entries(top, "grids", bad("grids"), build_grid);
  const CheckedMapping output = top.mapping("output");
  config.output_directory = output.text("directory");
  config.timers = output.boolean("timers");
  config.imbalance_timer = output.boolean("imbalance");
  config.watchdog_seconds = top.mapping("watchdog").number("timeout");
  config.collective_seconds = top.mapping("watchdog").number("collective_timeout");
  return config;
}

bool before(const Problem& a, const Problem& b) {
  return std::make_pair(a.where.line, a.where.column) < std::make_pair(b.where.line, b.where.column);
}

}  // namespace

ConfigCheck check_config(const std::string& yaml_text, const std::string& name) {
  ConfigCheck result;
  YAML::Node root;
  try {
    root = detail::load_document(yaml_text, name);
    check_version(root, name);
  } catch (const detail::ProblemError& e) {
    result.problems.push_back(e.problem());
    return result;
  }
  const Key schema = config_schema();
  detail::SchemaCheck schema_check = detail::check_document(root, schema, name);
  result.problems = std::move(schema_check.problems);
  if (schema_check.outside_entries) return result;

  const CheckedMapping top = detail::checked_root(root, schema, name);
  Config config = build_config(top, schema_check, name);
  std::vector<Problem> broken = check_rules(config);
  result.problems.insert(result.problems.end(), broken.begin(), broken.end());
  std::stable_sort(result.problems.begin(), result.problems.end(), before);
  if (result.problems.empty()) result.config = std::move(config);
  return result;
}

ConfigCheck check_config_file(const std::string& path) {
  return check_config(detail::read_text_file(path, "load_config", "configuration file"), path);
}

Config parse_config(const std::string& yaml_text, const std::string& name) {
  ConfigCheck checked = check_config(yaml_text, name);
  raise_problems(checked.problems);
  return std::move(*checked.config);
}

Config load_config(const std::string& path) {
  return parse_config(detail::read_text_file(path, "load_config", "configuration file"), path);
}

}  // namespace ferry::config
