#include "config/writer.hpp"

#include <cctype>
#include <cstdio>
#include <sstream>

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

std::string names(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + yaml_scalar(item);
  return "[" + out + "]";
}

std::string field_ref(const FieldRef& ref) {
  std::string out = "{component: " + yaml_scalar(ref.component) + ", ";
  out += ref.fields.size() == 1 ? "field: " + yaml_scalar(ref.fields.front())
                                : "fields: " + names(ref.fields);
  return out + "}";
}

// `method: {name: ..., ...}` with the method's own keys that differ from their defaults.
std::string method_mapping(const RegridConfig& r) {
  const RegridConfig defaults;
  std::string out = std::string("{name: ") + method_name(r.source);
  const bool neighbours = r.source == WeightSource::Nearest || r.source == WeightSource::Gaussian;
  if (neighbours && r.neighbours != defaults.neighbours)
    out += ", neighbours: " + std::to_string(r.neighbours);
  if (r.source == WeightSource::Gaussian && r.variance != defaults.variance)
    out += ", variance: " + detail::format_number(r.variance);
  if (r.source == WeightSource::Bilinear && r.periodic != defaults.periodic)
    out += std::string(", periodic: ") + (r.periodic ? "true" : "false");
  if (r.source == WeightSource::Conservative && r.normalisation != defaults.normalisation)
    out += ", normalisation: destarea";
  if (r.source == WeightSource::Conservative && r.order != defaults.order)
    out += ", order: " + std::to_string(r.order);
  const bool covers = r.source == WeightSource::Bilinear || r.source == WeightSource::Conservative;
  if (covers && r.unmapped != defaults.unmapped) out += ", unmapped: nearest";
  return out + "}";
}

void write_regrid(std::ostringstream& out, const RegridConfig& r) {
  if (!r.enabled()) return;
  const RegridConfig defaults;
  if (r.source == WeightSource::File)
    out << "    weights: " << yaml_scalar(r.weights) << "\n";
  else
    out << "    method: " << method_mapping(r) << "\n";
  if (r.map_on != defaults.map_on)
    out << "    map_on: " << map_on_name(r.map_on) << "\n";
  if (r.mode != defaults.mode)
    out << "    mode: " << remap_mode_name(r.mode) << "\n";
  if (r.fill != defaults.fill) out << "    fill: " << detail::format_number(r.fill) << "\n";
  if (r.conservation) out << "    conservation: " << conservation_name(*r.conservation) << "\n";
  if (r.sum != defaults.sum) out << "    sum: " << sum_method_name(r.sum) << "\n";
}

void write_exchange(std::ostringstream& out, const ExchangeConfig& x) {
  const ExchangeConfig defaults;
  out << "  - name: " << yaml_scalar(x.name) << "\n"
      << "    source: " << field_ref(x.source) << "\n"
      << "    target: " << field_ref(x.target) << "\n"
      << "    period: " << detail::format_number(x.period) << "\n";
  if (x.lag != defaults.lag) out << "    lag: " << detail::format_number(x.lag) << "\n";
  if (x.sequence != defaults.sequence) out << "    sequence: " << x.sequence << "\n";
  if (x.transform != defaults.transform)
    out << "    transform: " << transform_name(x.transform) << "\n";
  if (x.engine != defaults.engine) out << "    engine: " << yaml_scalar(x.engine) << "\n";
  if (!x.engine_options.empty()) {
    out << "    engine_options:\n";
    for (const auto& [key, value] : x.engine_options)
      out << "      " << yaml_scalar(key) << ": " << yaml_scalar(value) << "\n";
  }
  if (x.output != defaults.output) out << "    output: " << (x.output ? "true" : "false") << "\n";
  if (x.restart != defaults.restart) out << "    restart: " << yaml_scalar(x.restart) << "\n";
  write_regrid(out, x.regrid);
}

void write_buffer(std::ostringstream& out, const BufferConfig& b) {
  out << "  - name: " << yaml_scalar(b.name) << "\n"
      << "    source: " << field_ref(b.source) << "\n"
      << "    target: " << field_ref(b.target) << "\n"
      << "    capacity: " << b.capacity << "\n";
  if (b.lossy) out << "    mode: lossy\n";
}

}  // namespace

std::string yaml_scalar(const std::string& text) {
  if (plain_safe(text)) return text;
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", static_cast<unsigned char>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string format_config(const Config& config) {
  const Config defaults;
  std::ostringstream out;
  out << "version: " << config.version << "\n"
      << "run:\n";
  if (config.start != defaults.start)
    out << "  start: " << detail::format_number(config.start) << "\n";
  out << "  length: " << detail::format_number(config.length) << "\n";
  if (!config.components.empty()) out << "components: " << names(config.components) << "\n";
  if (!config.exchanges.empty()) out << "exchanges:\n";
  for (const ExchangeConfig& x : config.exchanges) write_exchange(out, x);
  if (!config.buffers.empty()) out << "buffers:\n";
  for (const BufferConfig& b : config.buffers) write_buffer(out, b);
  if (config.output_directory != defaults.output_directory || config.timers != defaults.timers ||
      config.imbalance_timer != defaults.imbalance_timer) {
    out << "output:\n";
    if (config.output_directory != defaults.output_directory)
      out << "  directory: " << yaml_scalar(config.output_directory) << "\n";
    if (config.timers != defaults.timers)
      out << "  timers: " << (config.timers ? "true" : "false") << "\n";
    if (config.imbalance_timer != defaults.imbalance_timer)
      out << "  imbalance: " << (config.imbalance_timer ? "true" : "false") << "\n";
  }
  if (config.watchdog_seconds != defaults.watchdog_seconds)
    out << "watchdog:\n  timeout: " << detail::format_number(config.watchdog_seconds) << "\n";
  return out.str();
}

}  // namespace ferry::config
