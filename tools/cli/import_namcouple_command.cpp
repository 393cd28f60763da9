// `ferry import-namcouple NAMCOUPLE`: converts an OASIS3-MCT namcouple to YAML.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>

#include "command.hpp"
#include "config/namcouple/namcouple.hpp"
#include "util/check.hpp"

namespace ferry::cli {

namespace {

// "torc=ocean,lmdz=atmos" -> {torc: ocean, lmdz: atmos}.
std::map<std::string, std::string> parse_grid_components(const std::string& text) {
  std::map<std::string, std::string> out;
  std::string::size_type begin = 0;
  while (begin <= text.size()) {
    const auto end = std::min(text.find(',', begin), text.size());
    const std::string pair = text.substr(begin, end - begin);
    const auto eq = pair.find('=');
    if (eq == 0 || eq == std::string::npos || eq + 1 == pair.size() ||
        !out.emplace(pair.substr(0, eq), pair.substr(eq + 1)).second)
      throw UsageError("--grid-components takes distinct GRID=COMPONENT pairs separated by "
                       "commas, as in torc=ocean,lmdz=atmosphere; got \"" + text + "\"");
    begin = end + 1;
  }
  return out;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  FERRY_CHECK(out, Errc::Io, "import-namcouple: cannot write \"", path, "\": ",
              std::strerror(errno), ". Check that its directory exists and is writable");
}

struct ImportOptions {
  std::string path;
  std::string output;
  std::string grids;
};

int run(const ImportOptions& o, const Context& context) {
  if (o.path.empty())
    throw UsageError("missing the namcouple file, as in: ferry import-namcouple namcouple");
  const ferry::config::NamcoupleImport imported = ferry::config::load_namcouple(
      o.path, o.grids.empty() ? std::map<std::string, std::string>{}
                              : parse_grid_components(o.grids));
  if (context.rank != 0) return 0;
  const std::string& output = o.output;
  if (!output.empty())
    write_file(output, imported.yaml);
  else
    std::cout << imported.yaml;
  for (const auto& item : imported.notes.differences)
    std::cerr << "converted differently: " << item << "\n";
  for (const auto& item : imported.notes.not_converted)
    std::cerr << "not converted yet: " << item << "\n";
  if (!output.empty())
    std::cerr << "wrote " << output << "; check the comment at its top, then run: ferry validate "
              << output << "\n";
  return 0;
}

Action declare_import_namcouple(CLI::App& app) {
  auto o = std::make_shared<ImportOptions>();
  app.add_option("NAMCOUPLE", o->path);
  app.add_option("-o", o->output);
  app.add_option("--grid-components", o->grids);
  return [o](const Context& context) { return run(*o, context); };
}

}  // namespace

Command import_namcouple_command() {
  return {"import-namcouple", "convert an OASIS3-MCT namcouple to a configuration",
          "usage: ferry import-namcouple NAMCOUPLE [-o OUT] [--grid-components GRID=NAME,...]\n"
          "\n"
          "Converts the OASIS3-MCT namcouple NAMCOUPLE into a ferry configuration (YAML)\n"
          "written to OUT, or to standard output. Converted: $RUNTIME and the EXPORTED\n"
          "and EXPOUT entries of $STRINGS: field names (colon-separated lists become\n"
          "bundles), coupling period, restart file, EXPOUT, LAG=, SEQ=, LOCTRANS,\n"
          "CHECKIN, CHECKOUT, BLASOLD and BLASNEW (source_ and target_factor and offset)\n"
          "and the remapping: SCRIPR DISTWGT, GAUSWGT, BILINEAR, BICUBIC and CONSERV\n"
          "become method, MAPPING weights, map_on and mode, CONSERV conservation and sum.\n"
          "Where ferry works differently (nearest-neighbour fill of unmapped points,\n"
          "MAPPING opt, ...) standard error says \"converted differently: line N: ...\".\n"
          "Everything else (BLASOLD and BLASNEW terms other than a CONSTANT, other\n"
          "statuses, other blocks) is listed on standard error as\n"
          "\"not converted yet: line N: ...\".\n"
          "Both lists are repeated in a comment at the top of the YAML.\n"
          "\n"
          "namcouple entries name grids, not components, so each component is named\n"
          "after its grid unless --grid-components maps grids to component names,\n"
          "as in --grid-components torc=ocean,lmdz=atmosphere.\n"
          "Runs without mpiexec.\n",
          declare_import_namcouple};
}

}  // namespace ferry::cli
