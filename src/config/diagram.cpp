#include "config/diagram.hpp"

#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "config/scalar.hpp"

namespace ferry::config {

namespace {

// A DOT string: in double quotes, with quotes and backslashes escaped and line breaks
// as DOT's centred line break.
std::string dot_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string seconds(double value) { return detail::format_number(value) + " s"; }

// "weights rmp.nc, map_on src, mode sum, conservation global", or "" without regridding.
std::string regridding(const RegridConfig& r) {
  if (!r.enabled()) return "";
  const RegridConfig defaults;
  std::string out = r.source == WeightSource::File ? "weights " + r.weights
                                                   : std::string("method ") + method_name(r.source);
  if (r.map_on != defaults.map_on) out += std::string(", map_on ") + map_on_name(r.map_on);
  if (r.mode != defaults.mode) out += std::string(", mode ") + remap_mode_name(r.mode);
  if (r.conservation) out += std::string(", conservation ") + conservation_name(*r.conservation);
  return out;
}

std::string exchange_label(const ExchangeConfig& x) {
  std::string label = x.name + "\nevery " + seconds(x.period);
  if (x.lag > 0) label += ", lag " + seconds(x.lag);
  if (x.transform != Transform::Instant) label += std::string("\n") + transform_name(x.transform);
  if (x.sequence > 0) label += "\nsequence " + std::to_string(x.sequence);
  std::string options;
  for (const auto& [key, value] : x.engine_options)
    options += (options.empty() ? " (" : ", ") + key + "=" + value;
  label += "\nengine " + x.engine + (options.empty() ? "" : options + ")");
  if (const std::string regrid = regridding(x.regrid); !regrid.empty()) label += "\n" + regrid;
  if (x.output) label += "\noutput";
  if (!x.restart.empty()) label += "\nrestart " + x.restart;
  return label;
}

// Node names: "f:<component>/<field>", "x:<exchange>", "b:<buffer>", "c:<component>".
std::string field_node(const std::string& component, const std::string& field) {
  return dot_string("f:" + component + "/" + field);
}

class Diagram {
 public:
  explicit Diagram(const Config& config) : config_(config) {}

  std::string dot() {
    for (const auto& c : config_.components) fields_[c];
    for (const ExchangeConfig& x : config_.exchanges) {
      add_fields(x.source);
      add_fields(x.target);
    }
    for (const BufferConfig& b : config_.buffers) {
      add_fields(b.source);
      add_fields(b.target);
    }
    out_ << "digraph " << dot_string(config_.path) << " {\n"
         << "  graph [rankdir=LR, fontname=Helvetica, labelloc=t, label="
         << dot_string(config_.path + ": from " + seconds(config_.start) + " for " +
                       seconds(config_.length))
         << "];\n"
         << "  node [fontname=Helvetica, fontsize=11];\n"
         << "  edge [fontname=Helvetica, fontsize=10];\n";
    for (const auto& [component, fields] : fields_) cluster(component, fields);
    for (const ExchangeConfig& x : config_.exchanges) {
      const std::string node = dot_string("x:" + x.name);
      out_ << "  " << node << " [shape=box, style=\"rounded,filled\", fillcolor=lightyellow, label="
           << dot_string(exchange_label(x)) << "];\n";
      link(x.source, node, x.target);
    }
    for (const BufferConfig& b : config_.buffers) {
      const std::string node = dot_string("b:" + b.name);
      out_ << "  " << node << " [shape=cylinder, style=filled, fillcolor=lightblue, label="
           << dot_string(b.name + "\nbuffer, " + (b.lossy ? "lossy" : "lossless") + ", " +
                         std::to_string(b.capacity) + " steps")
           << "];\n";
      link(b.source, node, b.target);
    }
    out_ << "}\n";
    return out_.str();
  }

 private:
  void add_fields(const FieldRef& ref) {
    for (const auto& field : ref.fields) fields_[ref.component].insert(field);
  }

  void cluster(const std::string& component, const std::set<std::string>& fields) {
    out_ << "  subgraph " << dot_string("cluster_" + component) << " {\n"
         << "    label=" << dot_string(component) << "; style=rounded; color=gray40;\n";
    // Graphviz leaves out an empty cluster: a component that moves nothing gets a mark.
    if (fields.empty())
      out_ << "    " << dot_string("c:" + component) << " [shape=plaintext, label=\"(no fields)\"];\n";
    for (const auto& field : fields)
      out_ << "    " << field_node(component, field) << " [shape=ellipse, label="
           << dot_string(field) << "];\n";
    out_ << "  }\n";
  }

  // Every source field into the entry's node, the node into every target field.
  void link(const FieldRef& source, const std::string& node, const FieldRef& target) {
    for (const auto& field : source.fields)
      out_ << "  " << field_node(source.component, field) << " -> " << node << ";\n";
    for (const auto& field : target.fields)
      out_ << "  " << node << " -> " << field_node(target.component, field) << ";\n";
  }

  const Config& config_;
  std::map<std::string, std::set<std::string>> fields_;  // component -> its fields
  std::ostringstream out_;
};

}  // namespace

std::string config_diagram(const Config& config) { return Diagram(config).dot(); }

}  // namespace ferry::config
