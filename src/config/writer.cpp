#include "config/writer.hpp"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <cstdint>

#include "config/scalar.hpp"

namespace ferry::config {

namespace {

bool plain_safe(const std::string& text) {
  if (text.empty()) return false;
  const unsigned char first = static_cast<unsigned char>(text[0]);
  if (!std::isalpha(first) && first != '_') return false;  // no number, no indicator
  for (const char c : text)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '-' &&
        c != '/' && c != '>')
      return false;
  // Words that YAML 1.1 readers take for booleans or null.
  static const char* const reserved[] = {"true", "false", "yes", "no", "on", "off",
                                         "y",    "n",     "null", "~"};
  std::string lower;
  for (const char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* word : reserved)
    if (lower == word) return false;
  return true;
}

// A string: plain when plain_safe, else double-quoted (yaml-cpp's emitter would write
// "true" or "12" plain, which other YAML readers take for a boolean or a number).
void scalar(YAML::Emitter& out, const std::string& text) {
  if (!plain_safe(text)) out << YAML::DoubleQuoted;
  out << text;
}

// `key: value` in the current map; value a string (see scalar), a number or a boolean.
void entry(YAML::Emitter& out, const char* key, const std::string& value) {
  out << YAML::Key << key << YAML::Value;
  scalar(out, value);
}

void entry(YAML::Emitter& out, const char* key, double value) {
  out << YAML::Key << key << YAML::Value << detail::format_number(value);
}

void integer_entry(YAML::Emitter& out, const char* key, std::int64_t value) {
  out << YAML::Key << key << YAML::Value << value;
}

void boolean_entry(YAML::Emitter& out, const char* key, bool value) {
  out << YAML::Key << key << YAML::Value << (value ? "true" : "false");
}

void names(YAML::Emitter& out, const std::vector<std::string>& items) {
  out << YAML::Flow << YAML::BeginSeq;
  for (const auto& item : items) scalar(out, item);
  out << YAML::EndSeq;
}

void field_ref(YAML::Emitter& out, const char* key, const FieldRef& ref) {
  out << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginMap;
  entry(out, "component", ref.component);
  if (ref.fields.size() == 1) {
    entry(out, "field", ref.fields.front());
  } else {
    out << YAML::Key << "fields" << YAML::Value;
    names(out, ref.fields);
  }
  out << YAML::EndMap;
}

// `method: {name: ..., ...}` with the method's own keys that differ from their defaults.
void method_mapping(YAML::Emitter& out, const RegridConfig& r) {
  const RegridConfig defaults;
  out << YAML::Key << "method" << YAML::Value << YAML::Flow << YAML::BeginMap;
  entry(out, "name", method_name(r.source));
  const bool neighbours = r.source == WeightSource::Nearest || r.source == WeightSource::Gaussian;
  if (neighbours && r.neighbours != defaults.neighbours)
    integer_entry(out, "neighbours", r.neighbours);
  if (neighbours && r.masked_neighbours != defaults.masked_neighbours)
    entry(out, "masked_neighbours",
          r.masked_neighbours == MaskedNeighbours::Dropped ? "drop" : "drop_no_fill");
  if (r.source == WeightSource::Gaussian && r.variance != defaults.variance)
    entry(out, "variance", r.variance);
  if (r.source == WeightSource::Gaussian && r.gaussian_scale != defaults.gaussian_scale)
    entry(out, "gaussian_scale", "neighbours");
  const bool rectangular = r.source == WeightSource::Bilinear || r.source == WeightSource::Bicubic;
  const bool second_order = r.source == WeightSource::Conservative && r.order == 2;
  if ((rectangular || second_order) && r.periodic != defaults.periodic)
    boolean_entry(out, "periodic", r.periodic);
  if (r.source == WeightSource::Conservative && r.normalisation != defaults.normalisation)
    entry(out, "normalisation", "destarea");
  if (r.source == WeightSource::Conservative && r.order != defaults.order)
    integer_entry(out, "order", r.order);
  const bool covers = rectangular || r.source == WeightSource::Conservative;
  if (covers && r.unmapped != defaults.unmapped)
    entry(out, "unmapped", r.unmapped == ferry::Unmapped::FourNearest ? "four_nearest" : "nearest");
  out << YAML::EndMap;
}

void write_regrid(YAML::Emitter& out, const RegridConfig& r) {
  if (!r.enabled()) return;
  const RegridConfig defaults;
  if (r.source == WeightSource::File) {
    entry(out, "weights", r.weights);
    if (r.bad_index != defaults.bad_index) entry(out, "bad_weight_index", bad_index_name(r.bad_index));
  } else {
    method_mapping(out, r);
  }
  if (r.map_on != defaults.map_on) entry(out, "map_on", map_on_name(r.map_on));
  if (r.mode != defaults.mode) entry(out, "mode", remap_mode_name(r.mode));
  if (r.fill != defaults.fill) entry(out, "fill", r.fill);
  if (r.conservation) entry(out, "conservation", conservation_name(*r.conservation));
  if (r.sum != defaults.sum) entry(out, "sum", sum_method_name(r.sum));
}

void write_exchange(YAML::Emitter& out, const ExchangeConfig& x) {
  const ExchangeConfig defaults;
  out << YAML::BeginMap;
  entry(out, "name", x.name);
  field_ref(out, "source", x.source);
  field_ref(out, "target", x.target);
  entry(out, "period", x.period);
  if (x.lag != defaults.lag) entry(out, "lag", x.lag);
  if (x.sequence != defaults.sequence) integer_entry(out, "sequence", x.sequence);
  if (x.transform != defaults.transform) entry(out, "transform", transform_name(x.transform));
  if (x.engine != defaults.engine) entry(out, "engine", x.engine);
  if (!x.engine_options.empty()) {
    out << YAML::Key << "engine_options" << YAML::Value << YAML::BeginMap;
    for (const auto& [key, value] : x.engine_options) {
      out << YAML::Key;
      scalar(out, key);
      out << YAML::Value;
      scalar(out, value);
    }
    out << YAML::EndMap;
  }
  if (x.output != defaults.output) boolean_entry(out, "output", x.output);
  if (x.check_in) boolean_entry(out, "check_in", true);
  if (x.check_out) boolean_entry(out, "check_out", true);
  if (x.source_scaling.factor != 1) entry(out, "source_factor", x.source_scaling.factor);
  if (x.source_scaling.offset != 0) entry(out, "source_offset", x.source_scaling.offset);
  if (x.target_scaling.factor != 1) entry(out, "target_factor", x.target_scaling.factor);
  if (x.target_scaling.offset != 0) entry(out, "target_offset", x.target_scaling.offset);
  if (x.restart != defaults.restart) entry(out, "restart", x.restart);
  write_regrid(out, x.regrid);
  out << YAML::EndMap;
}

void write_buffer(YAML::Emitter& out, const BufferConfig& b) {
  out << YAML::BeginMap;
  entry(out, "name", b.name);
  field_ref(out, "source", b.source);
  field_ref(out, "target", b.target);
  integer_entry(out, "capacity", b.capacity);
  if (b.lossy) entry(out, "mode", "lossy");
  out << YAML::EndMap;
}

void write_grid(YAML::Emitter& out, const GridFileConfig& g) {
  out << YAML::BeginMap;
  entry(out, "name", g.name);
  entry(out, "file", g.file);
  if (g.format != GridFormat::Auto) entry(out, "format", grid_format_name(g.format));
  if (!g.mask.empty()) entry(out, "mask", g.mask);
  out << YAML::EndMap;
}

}  // namespace

std::string yaml_scalar(const std::string& text) {
  YAML::Emitter out;
  scalar(out, text);
  return out.c_str();
}

std::string format_config(const Config& config) {
  const Config defaults;
  YAML::Emitter out;
  out.SetIndent(2);
  out << YAML::BeginMap;
  integer_entry(out, "version", config.version);
  out << YAML::Key << "run" << YAML::Value << YAML::BeginMap;
  if (config.start != defaults.start) entry(out, "start", config.start);
  entry(out, "length", config.length);
  out << YAML::EndMap;
  if (!config.components.empty()) {
    out << YAML::Key << "components" << YAML::Value;
    names(out, config.components);
  }
  if (!config.exchanges.empty()) {
    out << YAML::Key << "exchanges" << YAML::Value << YAML::BeginSeq;
    for (const ExchangeConfig& x : config.exchanges) write_exchange(out, x);
    out << YAML::EndSeq;
  }
  if (!config.buffers.empty()) {
    out << YAML::Key << "buffers" << YAML::Value << YAML::BeginSeq;
    for (const BufferConfig& b : config.buffers) write_buffer(out, b);
    out << YAML::EndSeq;
  }
  if (!config.grids.empty()) {
    out << YAML::Key << "grids" << YAML::Value << YAML::BeginSeq;
    for (const GridFileConfig& g : config.grids) write_grid(out, g);
    out << YAML::EndSeq;
  }
  if (config.output_directory != defaults.output_directory || config.timers != defaults.timers ||
      config.imbalance_timer != defaults.imbalance_timer) {
    out << YAML::Key << "output" << YAML::Value << YAML::BeginMap;
    if (config.output_directory != defaults.output_directory)
      entry(out, "directory", config.output_directory);
    if (config.timers != defaults.timers) boolean_entry(out, "timers", config.timers);
    if (config.imbalance_timer != defaults.imbalance_timer)
      boolean_entry(out, "imbalance", config.imbalance_timer);
    out << YAML::EndMap;
  }
  if (config.watchdog_seconds != defaults.watchdog_seconds ||
      config.collective_seconds != defaults.collective_seconds) {
    out << YAML::Key << "watchdog" << YAML::Value << YAML::BeginMap;
    if (config.watchdog_seconds != defaults.watchdog_seconds)
      entry(out, "timeout", config.watchdog_seconds);
    if (config.collective_seconds != defaults.collective_seconds)
      entry(out, "collective_timeout", config.collective_seconds);
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace ferry::config
