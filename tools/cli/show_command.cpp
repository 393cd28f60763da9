// `ferry show CONFIG --format dot|png`: a configuration drawn as a diagram.
#include <mpi.h>

#include <fstream>
#include <iostream>
#include <memory>

#include "command.hpp"
#include "config/config.hpp"
#include "config/diagram.hpp"
#include "graphviz.hpp"

namespace ferry::cli {

namespace {

// Rank 0 writes; every rank then raises rank 0's error, if any, so all exit alike.
void on_rank0(const Context& context, void (*write)(const std::string&, const std::string&,
                                                      const std::string&),
              const std::string& dot, const std::string& format, const std::string& output) {
  std::string error;
  if (context.rank == 0) try {
      write(dot, format, output);
    } catch (const Error& e) {
      error = e.what();
    }
  int length = static_cast<int>(error.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, context.comm);
  error.resize(static_cast<std::size_t>(length));
  MPI_Bcast(error.data(), length, MPI_CHAR, 0, context.comm);
  if (!error.empty()) throw Error(Errc::Io, error);
}

void write_dot(const std::string& dot, const std::string& /*format*/, const std::string& output) {
  if (output.empty()) {
    std::cout << dot;
    return;
  }
  std::ofstream file(output);
  file << dot;
  if (!file.flush())
    throw Error(Errc::Io, "show: cannot write \"" + output + "\". Check the directory exists");
}

struct ShowOptions {
  std::string path;
  std::string format = "dot";
  std::string output;
};

int run(const ShowOptions& o, const Context& context) {
  const std::string& format = o.format;
  const std::string& output = o.output;
  if (o.path.empty())
    throw UsageError("missing the configuration file, as in: ferry show coupling.yaml");
  if (format != "dot" && output.empty())
    throw UsageError("--format " + format + " needs -o FILE for the picture");
  const std::string dot = ferry::config::config_diagram(ferry::config::load_config(o.path));
  on_rank0(context, format == "dot" ? write_dot : render_with_dot, dot, format, output);
  if (context.rank == 0 && !output.empty()) std::cout << "wrote " << output << "\n";
  return 0;
}

Action declare_show(CLI::App& app) {
  auto o = std::make_shared<ShowOptions>();
  app.add_option("CONFIG", o->path);
  app.add_option("--format", o->format)->check(CLI::IsMember({"dot", "png", "svg"}));
  app.add_option("-o", o->output);
  return [o](const Context& context) { return run(*o, context); };
}

}  // namespace

Command show_command() {
  return {"show", "draw a coupling configuration (Graphviz dot, png or svg)",
          "usage: ferry show CONFIG [--format dot|png|svg] [-o FILE]\n"
          "\n"
          "Draws the coupling configuration CONFIG (checked as `ferry validate` does):\n"
          "each component is a frame around its fields, each exchange a box between the\n"
          "fields it moves with its period, lag, transform, engine and regridding,\n"
          "each buffer a cylinder with its mode and capacity. The grids are declared\n"
          "by the components at run time, so they are not drawn.\n"
          "\n"
          "  --format dot    Graphviz source, to stdout or to FILE (default)\n"
          "  --format png    a picture drawn by Graphviz's dot, which must be on PATH\n"
          "  --format svg    the same as SVG\n"
          "  -o FILE         where to write\n"
          "Runs without mpiexec.\n",
          declare_show};
}

}  // namespace ferry::cli
