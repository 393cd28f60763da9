#include "coupling/entry_weights.hpp"

#include <optional>
#include <type_traits>
#include <utility>

#include "config/grid_checks.hpp"
#include "coupling/block_points.hpp"
#include "coupling/weight_columns.hpp"
#include "ferry/grid_file.hpp"
#include "ferry/online_weights.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"

namespace ferry::coupling {

namespace {

// Errors of a library call, prefixed with the entry they come from.
template <class Call>
auto in_entry(const std::string& where, const std::string& what, Call&& call) {
  try {
    return call();
  } catch (const Error& e) {
    throw Error(e.code(), detail::cat(where, ": ", what, ": ", e.what()), e.rank());
  }
}

Weights read_file(const config::RegridConfig& config, const RegridGrids& grids, const std::string& where) {
  Weights w = in_entry(where, "reading the weights", [&] {
    return Weights::read(grids.product->get(), config.weights, config.bad_index);
  });
  FERRY_CHECK(w.src_size() == grids.source_size && w.dst_size() == grids.target_size, Errc::ArgSize,
              where, ": weight file \"", config.weights, "\" maps ", w.src_size(),
              " source points to ", w.dst_size(), " target points, but the source grid has ",
              grids.source_size, " points and the target grid ", grids.target_size,
              ". Use weights made from the source grid to the target grid, in that order");
  return w;
}

// The source and target grids an online method reads: GridPoints or GridCells.
template <class Grid>
struct ProductGrids {
  Grid src, dst;
};

// "coupling.yaml:12:11: grid \"torc\"": where a `grids:` entry names its file.
std::string file_key(const config::GridFileConfig& file) {
  return config::problem_text({config::value_location(file.given, "file", file.where),
                               detail::cat("grid \"", file.name, "\"")});
}

// Collective over the link: a side's grid read from the file the configuration
// names for it (none without one), each product rank its block; checked against
// the declared grid: `size` points, `nx` per row for a bilinear or bicubic source
// (0: any), corners when `cells` are needed.
std::optional<ferry::Grid> file_grid(const config::GridFileConfig* file, const RegridGrids& grids,
                                     const char* side, std::int64_t size, std::int64_t nx,
                                     bool cells, const std::string& where, const char* method) {
  if (!file) return std::nullopt;
  std::optional<ferry::Grid> grid;
  detail::agree_on(*grids.link, [&] {
    if (!grids.product->valid()) return;
    grid = in_entry(where, detail::cat("reading the ", side, " grid"), [&] {
      return read_grid(grids.product->get(), config::grid_source(*file));
    });
    const std::int64_t cells_in_file = grid->points.layout.global_size();
    FERRY_CHECK(cells_in_file == size, Errc::ArgSize, where, ": ", file_key(*file), " file \"",
                file->file, "\" has ", cells_in_file, " cells, but the ", side,
                " grid is declared with ", size,
                " points. Name the file of the grid the component declares (or declare the "
                "grid with the file's size)");
    FERRY_CHECK(nx == 0 || grid->nx == 0 || grid->nx == nx, Errc::ArgSize, where, ": ",
                file_key(*file), " file \"", file->file, "\" has rows of ", grid->nx,
                " cells, but the ", side, " grid is declared with nx = ", nx, "; the ", method,
                " method joins neighbours (i, j) of the declared rows. Declare the grid with "
                "the file's dimensions");
    FERRY_CHECK(!cells || grid->cells.corners > 0, Errc::Arg, where, ": ", file_key(*file),
                " file \"", file->file, "\" has no cell corners, which the ", method,
                " method needs. Give a grid file with corners (OASIS .clo/.cla, SCRIP "
                "grid_corner_lon/lat, clon/clat_vertices)");
  });
  return grid;
}

const GridPoints& points_of(const ferry::Grid& grid) { return grid.points; }
const GridCells& cells_of(const ferry::Grid& grid) { return grid.cells; }

// Collective over the link: the grids as the product ranks hold them, their own side
// as declared and the other side moved to their block, or either side read from its
// grid file. `declared` reads a partition's declarations (agreed over the link),
// `moved` moves them to the block, `of_file` takes them from a grid read.
template <class Grid, class Declared, class Moved>
ProductGrids<Grid> product_grids(const config::RegridConfig& config, const RegridGrids& grids,
                                 const std::string& where, const char* method, Declared declared,
                                 Moved moved, const Grid& (*of_file)(const ferry::Grid&)) {
  const bool on_source = config.map_on == MapOn::Src;
  const bool cells = std::is_same_v<Grid, GridCells>;
  const bool rectangular = config.source == config::WeightSource::Bilinear ||
                           config.source == config::WeightSource::Bicubic;
  const std::optional<ferry::Grid> source_file =
      file_grid(grids.source_file, grids, "source", grids.source_size,
                rectangular ? grids.source_nx : 0, cells, where, method);
  const std::optional<ferry::Grid> target_file =
      file_grid(grids.target_file, grids, "target", grids.target_size, 0, cells, where, method);
  const Comm& link = *grids.link;
  std::optional<Grid> source, target;
  detail::agree_on(link, [&] {
    if (grids.source && !grids.source_file)
      source = declared(*grids.source, "source", where, method, link.rank());
    if (grids.target && !grids.target_file)
      target = declared(*grids.target, "target", where, method, link.rank());
  });
  const std::optional<Grid>& own = on_source ? source : target;
  const std::optional<Grid>& other = on_source ? target : source;
  const std::optional<ferry::Grid>& own_file = on_source ? source_file : target_file;
  const std::optional<ferry::Grid>& other_file = on_source ? target_file : source_file;
  const std::int64_t own_size = on_source ? grids.source_size : grids.target_size;
  const std::int64_t other_size = on_source ? grids.target_size : grids.source_size;
  Grid block;
  block.layout = Layout::none(other_size);
  if (other_file) block = of_file(*other_file);
  else if (!(on_source ? grids.target_file : grids.source_file)) {
    BlockMove move{&link, on_source ? grids.target : grids.source, grids.block, other_size, where};
    block = moved(move, other ? &*other : nullptr);
  }
  Grid held;
  held.layout = Layout::none(own_size);
  if (own_file) held = of_file(*own_file);
  else if (own) held = *own;
  if (on_source) return {std::move(held), std::move(block)};
  return {std::move(block), std::move(held)};
}

// The source grid is declared as 2 or more rows of 2 or more points (i, j).
bool logically_rectangular(const RegridGrids& grids) {
  const std::int64_t nx = grids.source_nx, size = grids.source_size;
  return nx >= 2 && size % nx == 0 && size / nx >= 2;
}

// Bilinear and bicubic cells join neighbouring points (i, j) of a logically
// rectangular source grid. Every rank knows the source grid's declared shape, so
// every rank raises the same error before any rank computes.
void check_rectangular(const RegridGrids& grids, const std::string& where, const char* method) {
  const std::int64_t nx = grids.source_nx;
  const std::int64_t size = grids.source_size;
  FERRY_CHECK(logically_rectangular(grids), Errc::Arg, where, ": the ", method,
              " method needs a logically rectangular source grid of 2 or more rows of 2 or "
              "more points, but the source grid has ",
              size, " points and its first dimension is ", nx,
              ". Declare the source grid with its two dimensions (nx and ny, point (i, j) "
              "at j * nx + i), or use the nearest, gaussian or conservative method");
}

Weights compute(const config::RegridConfig& config, const RegridGrids& grids, const std::string& where) {
  const char* method = config::method_name(config.source);
  const auto on_product = [&](auto&& weights) -> Weights {
    if (!grids.product->valid()) return {};  // only the product ranks compute weights
    return in_entry(where, detail::cat("computing ", method, " weights"), weights);
  };
  if (config.source == config::WeightSource::Conservative) {
    const auto cells = product_grids<GridCells>(config, grids, where, method, declared_corners,
                                                block_corners, cells_of);
    // Second order computes the source's gradients by centred differences where the
    // source grid is logically rectangular (as SCRIP and CDO do), else by least squares.
    ConservativeOptions options{config.normalisation, config.unmapped, config.order};
    if (logically_rectangular(grids)) {
      options.nx = grids.source_nx;
      options.periodic = config.periodic;
    }
    return on_product(
        [&] { return conservative_weights(grids.product->get(), cells.src, cells.dst, options); });
  }
  const bool rectangular = config.source == config::WeightSource::Bilinear ||
                           config.source == config::WeightSource::Bicubic;
  if (rectangular) check_rectangular(grids, where, method);
  const auto points = product_grids<GridPoints>(config, grids, where, method,
                                                declared_coordinates, block_coordinates, points_of);
  return on_product([&] {
    const BilinearOptions cells{grids.source_nx, config.periodic, config.unmapped};
    if (config.source == config::WeightSource::Bilinear)
      return bilinear_weights(grids.product->get(), points.src, points.dst, cells);
    if (config.source == config::WeightSource::Bicubic)
      return bicubic_weights(grids.product->get(), points.src, points.dst, cells);
    NearestNeighbourOptions options;
    options.neighbours = config.neighbours;
    options.weighting = config.source == config::WeightSource::Gaussian ? NeighbourWeighting::Gaussian
                                                                : NeighbourWeighting::InverseDistance;
    options.gaussian_variance = config.variance;
    options.gaussian_scale = config.gaussian_scale;
    options.masked = config.masked_neighbours;
    return nearest_neighbour_weights(grids.product->get(), points.src, points.dst, options);
  });
}

}  // namespace

std::size_t gradient_count(const config::RegridConfig& config) {
  if (config.source == config::WeightSource::Bicubic) return 3;
  if (config.source == config::WeightSource::Conservative && config.order == 2) return 2;
  return 0;
}

std::vector<Weights> regrid_gradient_weights(const config::RegridConfig& config,
                                             const RegridGrids& grids, const std::string& where) {
  if (config.source == config::WeightSource::File) {
    // As OASIS: the file's later weight columns multiply the gradients a put gives,
    // which only the source side sees.
    if (config.map_on != MapOn::Src || !grids.product->valid()) return {};
    return in_entry(where, detail::cat("reading the weight file \"", config.weights, "\""), [&] {
      if (weight_columns(*grids.product, config.weights) <= 1) return std::vector<Weights>{};
      return read_weight_columns(*grids.product, config.weights, config.bad_index);
    });
  }
  if (gradient_count(config) == 0) return {};
  const char* method = config::method_name(config.source);
  const auto on_product = [&](auto&& weights) -> std::vector<Weights> {
    if (!grids.product->valid()) return {};
    return in_entry(where, detail::cat("computing ", method, " gradient weights"), weights);
  };
  if (config.source == config::WeightSource::Conservative) {
    const auto cells = product_grids<GridCells>(config, grids, where, method, declared_corners,
                                                block_corners, cells_of);
    return on_product([&] {
      ConservativeGradientWeights w = conservative_gradient_weights(
          grids.product->get(), cells.src, cells.dst, {config.normalisation, config.unmapped, 2});
      std::vector<Weights> out;
      for (Weights* part : {&w.value, &w.lat_gradient, &w.lon_gradient}) out.push_back(std::move(*part));
      return out;
    });
  }
  const auto points = product_grids<GridPoints>(config, grids, where, method, declared_coordinates,
                                                block_coordinates, points_of);
  return on_product([&] {
    BicubicGradientWeights w = bicubic_gradient_weights(
        grids.product->get(), points.src, points.dst, {grids.source_nx, config.periodic, config.unmapped});
    std::vector<Weights> out;
    for (Weights* part : {&w.value, &w.i_gradient, &w.j_gradient, &w.ij_gradient})
      out.push_back(std::move(*part));
    return out;
  });
}

Weights regrid_weights(const config::RegridConfig& config, const RegridGrids& grids,
                       const std::string& where) {
  if (config.source != config::WeightSource::File) return compute(config, grids, where);
  if (!grids.product->valid()) return {};
  return read_file(config, grids, where);
}

}  // namespace ferry::coupling
