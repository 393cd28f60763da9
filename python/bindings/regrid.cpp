// ferry.Weights, ferry.Remap, ferry.GridPoints, ferry.GridCells and the online weight
// functions: regridding NumPy fields in parallel, with weights read from SCRIP or ESMF
// files or computed from the grids' coordinates.
//
// Argument errors of the collective calls are agreed over the communicator; apply()
// checks its arrays on each rank, as Exchange.execute does.
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bindings/arguments.hpp"
#include "bindings/bindings.hpp"
#include "bindings/lifetime.hpp"
#include "bindings/comm_handle.hpp"
#include "bindings/describe.hpp"
#include "bindings/engine_options.hpp"
#include "bindings/fields.hpp"
#include "ferry/comm.hpp"
#include "ferry/error.hpp"
#include "ferry/grid_file.hpp"
#include "ferry/online_weights.hpp"
#include "ferry/remap.hpp"
#include "ferry/weights.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"

namespace ferry::python {

using namespace nb::literals;

namespace {

template <class T>
std::vector<T> values_from_python(nb::handle values, const char* dtype, std::size_t ndim,
                                  const std::string& what) {
  const auto array = numpy_array<T>(values, dtype, {ndim}, what);
  return std::vector<T>(array.data(), array.data() + array.size());
}

// Mask values from Python (None: every point valid), as int32 flags.
std::vector<std::int32_t> mask_from_python(nb::handle mask, const std::string& what) {
  if (mask.is_none()) return {};
  return values_from_python<std::int32_t>(mask, "int32", 1, what);
}

GridPoints make_grid_points(const Layout& layout, nb::handle lon, nb::handle lat, nb::handle mask) {
  return GridPoints{layout, values_from_python<double>(lon, "float64", 1, "GridPoints: lon"),
                    values_from_python<double>(lat, "float64", 1, "GridPoints: lat"),
                    mask_from_python(mask, "GridPoints: mask")};
}

GridCells make_grid_cells(const Layout& layout, nb::handle corner_lon, nb::handle corner_lat,
                          nb::handle mask, nb::handle corner_counts, nb::handle edges,
                          const std::string& name) {
  const auto lon = numpy_array<double>(corner_lon, "float64", {2}, "GridCells: corner_lon");
  const auto lat = numpy_array<double>(corner_lat, "float64", {2}, "GridCells: corner_lat");
  if (lon.shape(0) != lat.shape(0) || lon.shape(1) != lat.shape(1))
    throw Error(Errc::ArgSize, "GridCells: corner_lon has shape (" + std::to_string(lon.shape(0)) +
                                   ", " + std::to_string(lon.shape(1)) + "), corner_lat (" +
                                   std::to_string(lat.shape(0)) + ", " +
                                   std::to_string(lat.shape(1)) + "); give both (cells, corners)");
  GridCells cells;
  cells.layout = layout;
  cells.corners = static_cast<int>(lon.shape(1));
  cells.corner_lon.assign(lon.data(), lon.data() + lon.size());
  cells.corner_lat.assign(lat.data(), lat.data() + lat.size());
  cells.mask = mask_from_python(mask, "GridCells: mask");
  if (!corner_counts.is_none())
    cells.corner_counts =
        values_from_python<std::int32_t>(corner_counts, "int32", 1, "GridCells: corner_counts");
  cells.edges = enum_from_python<CellEdges>(edges,
                                            {{"auto", CellEdges::Auto},
                                             {"great_circle", CellEdges::GreatCircle},
                                             {"lonlat", CellEdges::LonLat}},
                                            "GridCells: edges");
  cells.name = name;
  return cells;
}

template <class T>
nb::ndarray<nb::numpy, const T, nb::ndim<1>> view(const std::vector<T>& values) {
  return nb::ndarray<nb::numpy, const T, nb::ndim<1>>(values.data(), {values.size()});
}

// Runs `compute` (a collective of the library) after agreeing on the arguments
// `prepare` reads from Python; the GIL is released while the ranks communicate.
template <class Prepare, class Compute>
auto agreed_weights(nb::handle comm, const char* function, Prepare&& prepare,
                    Compute&& compute) {
  const MPI_Comm c = comm_from_python(comm, function);
  detail::agree_on(Comm::view(c), prepare);
  nb::gil_scoped_release unlocked;
  return compute(c);
}

Weights nearest_neighbour(nb::handle comm, const GridPoints& src, const GridPoints& dst,
                          int neighbours, nb::handle weighting, double gaussian_variance,
                          nb::handle masked_neighbours, nb::handle gaussian_scale) {
  NearestNeighbourOptions options;
  return agreed_weights(
      comm, "nearest_neighbour_weights",
      [&] {
        options.neighbours = neighbours;
        options.weighting = enum_from_python<NeighbourWeighting>(
            weighting,
            {{"inverse_distance", NeighbourWeighting::InverseDistance},
             {"gaussian", NeighbourWeighting::Gaussian}},
            "nearest_neighbour_weights: weighting");
        options.gaussian_variance = gaussian_variance;
        options.masked = enum_from_python<MaskedNeighbours>(
            masked_neighbours,
            {{"skip", MaskedNeighbours::Skipped},
             {"drop", MaskedNeighbours::Dropped},
             {"drop_no_fill", MaskedNeighbours::DroppedNoFill}},
            "nearest_neighbour_weights: masked_neighbours");
        options.gaussian_scale = enum_from_python<GaussianScale>(
            gaussian_scale,
            {{"source", GaussianScale::SourceSpacing},
             {"neighbours", GaussianScale::NeighbourSpacing}},
            "nearest_neighbour_weights: gaussian_scale");
      },
      [&](MPI_Comm c) { return nearest_neighbour_weights(c, src, dst, options); });
}

Unmapped unmapped_from_python(nb::handle unmapped, const char* function) {
  return enum_from_python<Unmapped>(unmapped,
                                    {{"fill", Unmapped::Fill},
                                     {"nearest", Unmapped::Nearest},
                                     {"four_nearest", Unmapped::FourNearest}},
                                    std::string(function) + ": unmapped");
}

// A weight call on a logically rectangular source grid (bilinear_weights,
// bicubic_weights, bicubic_gradient_weights) from Python.
template <class Result>
Result rectangular(Result (*make)(MPI_Comm, const GridPoints&, const GridPoints&,
                                  const BilinearOptions&),
                   const char* function, nb::handle comm, const GridPoints& src,
                   const GridPoints& dst, std::int64_t nx, bool periodic, nb::handle unmapped) {
  BilinearOptions options{nx, periodic, Unmapped::Fill};
  return agreed_weights(
      comm, function, [&] { options.unmapped = unmapped_from_python(unmapped, function); },
      [&](MPI_Comm c) { return make(c, src, dst, options); });
}

Weights bilinear(nb::handle comm, const GridPoints& src, const GridPoints& dst, std::int64_t nx,
                 bool periodic, nb::handle unmapped) {
  return rectangular(&bilinear_weights, "bilinear_weights", comm, src, dst, nx, periodic,
                     unmapped);
}

Weights bicubic(nb::handle comm, const GridPoints& src, const GridPoints& dst, std::int64_t nx,
                bool periodic, nb::handle unmapped) {
  return rectangular(&bicubic_weights, "bicubic_weights", comm, src, dst, nx, periodic, unmapped);
}

nb::tuple bicubic_gradient(nb::handle comm, const GridPoints& src, const GridPoints& dst,
                           std::int64_t nx, bool periodic, nb::handle unmapped) {
  BicubicGradientWeights w = rectangular(&bicubic_gradient_weights, "bicubic_gradient_weights",
                                         comm, src, dst, nx, periodic, unmapped);
  return nb::make_tuple(std::move(w.value), std::move(w.i_gradient), std::move(w.j_gradient),
                        std::move(w.ij_gradient));
}

// A Python progress(stage, done, total, seconds) as ConservativeOptions::progress: called
// with the GIL held; what it raises comes back as a C++ exception, the Python error
// released under the GIL.
std::function<void(const WeightProgress&)> progress_from_python(nb::handle progress) {
  if (progress.is_none()) return {};
  return [callback = nb::borrow<nb::object>(progress)](const WeightProgress& p) {
    std::string raised;
    {
      nb::gil_scoped_acquire held;
      try {
        callback(p.stage, p.done, p.total, p.seconds);
        return;
      } catch (const nb::python_error& e) {
        // The exception's type and text, without the traceback nanobind adds.
        raised = nb::cast<std::string>(nb::str("{}: {}").format(
            nb::handle(e.type()).attr("__name__"), nb::str(e.value())));
      }
    }
    throw std::runtime_error(raised);
  };
}

// The options of the conservative weight calls, as `function` takes them from Python.
ConservativeOptions conservative_options(nb::handle normalisation, nb::handle unmapped, int order,
                                         nb::handle progress, std::int64_t nx, bool periodic,
                                         const std::string& function) {
  ConservativeOptions options;
  options.progress = progress_from_python(progress);
  options.normalisation = enum_from_python<ConservativeNormalisation>(
      normalisation,
      {{"fracarea", ConservativeNormalisation::FracArea},
       {"destarea", ConservativeNormalisation::DestArea}},
      function + ": normalisation");
  options.unmapped = unmapped_from_python(unmapped, function.c_str());
  options.order = order;
  options.nx = nx;  // conservative_weights checks it
  options.periodic = periodic;
  return options;
}

Weights conservative(nb::handle comm, const GridCells& src, const GridCells& dst,
                     nb::handle normalisation, nb::handle unmapped, int order,
                     nb::handle progress, std::int64_t nx, bool periodic) {
  ConservativeOptions options;
  return agreed_weights(
      comm, "conservative_weights",
      [&] {
        options = conservative_options(normalisation, unmapped, order, progress, nx, periodic,
                                       "conservative_weights");
      },
      [&](MPI_Comm c) { return conservative_weights(c, src, dst, options); });
}

nb::tuple conservative_gradient(nb::handle comm, const GridCells& src, const GridCells& dst,
                                nb::handle normalisation, nb::handle unmapped,
                                nb::handle progress) {
  ConservativeOptions options;
  ConservativeGradientWeights w = agreed_weights(
      comm, "conservative_gradient_weights",
      [&] {
        options = conservative_options(normalisation, unmapped, 2, progress, 0, true,
                                       "conservative_gradient_weights");
      },
      [&](MPI_Comm c) { return conservative_gradient_weights(c, src, dst, options); });
  return nb::make_tuple(std::move(w.value), std::move(w.lat_gradient), std::move(w.lon_gradient));
}

// Weights.write_scrip and write_esmf: the file written by `Write` on the weights'
// communicator.
template <void (Weights::*Write)(MPI_Comm, const std::string&) const>
auto writer(const char* function) {
  return [function](const Weights& w, nb::handle comm, const std::string& path) {
    const MPI_Comm c = comm_from_python(comm, function);
    nb::gil_scoped_release unlocked;
    (w.*Write)(c, path);
  };
}

Grid read(nb::handle comm, const std::string& path, nb::handle format, const std::string& name,
          const std::string& masks, const std::string& areas) {
  GridSource source{path, GridFormat::Auto, name, masks, areas};
  source.format = enum_from_python<GridFormat>(format,
                                               {{"auto", GridFormat::Auto},
                                                {"oasis", GridFormat::Oasis},
                                                {"scrip", GridFormat::Scrip},
                                                {"unstructured", GridFormat::Unstructured}},
                                               "read_grid: format");
  const MPI_Comm c = comm_from_python(comm, "read_grid");
  nb::gil_scoped_release unlocked;
  return read_grid(c, source);
}

Weights from_links(nb::handle comm, std::int64_t src_size, std::int64_t dst_size,
                   nb::handle rows, nb::handle cols, nb::handle values, nb::handle order) {
  const std::string function = "Weights.from_links";
  auto int64s = [&](nb::handle array, const char* what) {
    return values_from_python<std::int64_t>(array, "int64", 1, function + ": " + what);
  };
  std::vector<WeightLink> links;
  std::vector<std::int64_t> orders;
  return agreed_weights(
      comm, function.c_str(),
      [&] {
        const auto r = int64s(rows, "rows");
        const auto c = int64s(cols, "cols");
        const auto v = values_from_python<double>(values, "float64", 1, function + ": values");
        if (!order.is_none()) orders = int64s(order, "order");
        const std::size_t n = r.size();
        FERRY_CHECK(c.size() == n && v.size() == n && (order.is_none() || orders.size() == n),
                    Errc::ArgSize, function, ": rows, cols, values and order (if given) must ",
                    "have the same length; got ", n, ", ", c.size(), ", ", v.size(), " and ",
                    orders.size());
        links.resize(n);
        for (std::size_t k = 0; k < n; ++k) links[k] = {r[k], c[k], v[k], 0};
      },
      [&](MPI_Comm c) {
        // Every rank takes part in the numbering, whether it passed orders or not.
        order_links_by_position(c, links);
        for (std::size_t k = 0; k < orders.size(); ++k) links[k].order = orders[k];
        return Weights::from_links(c, src_size, dst_size, std::move(links));
      });
}

class RemapBinding {
 public:
  RemapBinding(nb::handle comm, const Weights& weights, const Layout& src, const Layout& dst,
               nb::handle fields, nb::handle map_on, nb::handle mode, double fill_value,
               nb::handle dst_mask, const std::string& engine, const nb::dict& options)
      : src_points_(src.local_size()), dst_points_(dst.local_size()) {
    const MPI_Comm c = comm_from_python(comm, "Remap");
    MPI_Comm_rank(c, &rank_);
    std::vector<FieldSpec> specs;
    RemapOptions remap_options;
    detail::agree_on(Comm::view(c), [&] {
      specs = field_specs(fields, "Remap");
      remap_options.map_on = enum_from_python<MapOn>(
          map_on, {{"src", MapOn::Src}, {"dst", MapOn::Dst}}, "Remap: map_on");
      remap_options.mode = enum_from_python<RemapMode>(
          mode, {{"bfb", RemapMode::Bfb}, {"sum", RemapMode::Sum}}, "Remap: mode");
      if (!dst_mask.is_none())
        remap_options.dst_mask = values_from_python<std::uint8_t>(dst_mask, "uint8", 1,
                                                                  "Remap: dst_mask");
      remap_options.engine_options = engine_options(options, "Remap");
    });
    remap_options.fill_value = fill_value;
    remap_options.engine = engine;
    nb::gil_scoped_release unlocked;  // collective: other Python threads may run meanwhile
    remap_ = std::make_unique<Remap>(c, weights, src, dst, std::move(specs), remap_options);
  }

  void apply(nb::handle src, nb::handle dst) {
    FieldBuffers b = buffers("Remap.apply", src, dst);
    nb::gil_scoped_release unlocked;
    remap_->apply(b.src.data(), b.dst.data());
  }

  void begin(nb::handle src, nb::handle dst) {
    FieldBuffers b = buffers("Remap.begin", src, dst);
    {
      nb::gil_scoped_release unlocked;
      remap_->begin(b.src.data(), b.dst.data());
    }
    // Remap uses the arrays until end(): keep them alive even if the caller drops them.
    in_flight_ = {nb::borrow(src), nb::borrow(dst)};
  }

  void end() {
    const std::vector<nb::object> arrays = std::move(in_flight_);  // released after end()
    nb::gil_scoped_release unlocked;
    remap_->end();
  }

  void close() {
    nb::gil_scoped_release unlocked;
    remap_->close();
  }

  nb::ndarray<nb::numpy, const std::int64_t, nb::ndim<1>> rows() const {
    return view(remap_->rows());
  }

  nb::list fields() const { return fields_to_python(remap_->fields()); }

  nb::dict traffic() const { return traffic_to_python(remap_->traffic()); }

  const GridPointData& src_points() const { return remap_->src_points(); }
  const GridPointData& dst_points() const { return remap_->dst_points(); }

 private:
  FieldBuffers buffers(const std::string& function, nb::handle src, nb::handle dst) const {
    return field_buffers({function, rank_, src_points_, dst_points_}, remap_->fields(), src, dst,
                         nb::none());
  }

  std::unique_ptr<Remap> remap_;
  std::int64_t src_points_ = 0;
  std::int64_t dst_points_ = 0;
  int rank_ = -1;
  std::vector<nb::object> in_flight_;  // the arrays of a begin() not yet ended
};

}  // namespace

void bind_regrid(nb::module_& m) {
  nb::enum_<MapOn>(m, "MapOn", "Where Remap forms the sums (or \"src\" / \"dst\").")
      .value("SRC", MapOn::Src, "on the source ranks; the results move to the destination")
      .value("DST", MapOn::Dst, "on the destination ranks; the source values move first");
  nb::enum_<RemapMode>(m, "RemapMode", "How Remap sums a row (or \"bfb\" / \"sum\").")
      .value("BFB", RemapMode::Bfb, "each row whole on one rank: the same bits everywhere")
      .value("SUM", RemapMode::Sum, "with map_on SRC, partial sums per source rank");

  nb::class_<GridPoints>(
      m, "GridPoints",
      "This rank's points of a grid for the online weights: its layout, the longitude and\n"
      "latitude of each point (degrees, layout order) and optionally a mask (1 valid, 0\n"
      "masked). The arrays are copied. Not collective; sizes are checked by the weight\n"
      "functions, on every rank alike.")
      .def(nb::new_(&make_grid_points), "layout"_a, "lon"_a, "lat"_a, "mask"_a.none() = nb::none())
      .def_ro("layout", &GridPoints::layout);

  nb::class_<GridCells>(
      m, "GridCells",
      "This rank's cells of a grid for conservative weights: its layout and the corners of\n"
      "each cell as arrays of shape (cells, corners) (degrees, layout order), optionally a\n"
      "mask, the corner count of each cell (unstructured grids; None: all), how the edges\n"
      "run (\"auto\", \"great_circle\", \"lonlat\") and the grid's name for messages. The\n"
      "arrays are copied.")
      .def(nb::new_(&make_grid_cells), "layout"_a, "corner_lon"_a, "corner_lat"_a,
           "mask"_a.none() = nb::none(), "corner_counts"_a.none() = nb::none(),
           "edges"_a = "auto", "name"_a = "")
      .def_ro("layout", &GridCells::layout)
      .def_ro("corners", &GridCells::corners)
      .def_ro("name", &GridCells::name);

  nb::class_<Grid>(m, "Grid",
                   "One grid as read_grid reads it: this rank's block of cells, as points\n"
                   "(centres) and cells (corners), with the file's areas and row length.")
      .def_ro("points", &Grid::points, "The cell centres and mask (GridPoints).")
      .def_ro("cells", &Grid::cells, "The cell corners and mask (GridCells).")
      .def_prop_ro(
          "area",
          [](const Grid& g) -> nb::object {
            if (g.area.empty()) return nb::none();
            return nb::cast(view(g.area), nb::rv_policy::copy);
          },
          "The file's cell areas (float64, a copy), or None.")
      .def_ro("nx", &Grid::nx, "Points per row of a logically rectangular grid, else 0.");
  m.def("read_grid", &read, "comm"_a, "path"_a, "format"_a = "auto", "name"_a = "",
        "masks"_a = "", "areas"_a = "",
        "Collective: reads a grid, each rank a block of its cells: an OASIS grids.nc\n"
        "(name: the grid's prefix; masks, areas: masks.nc and areas.nc), a SCRIP grid file\n"
        "or a CDO/ICON unstructured grid file (format \"auto\", \"oasis\", \"scrip\",\n"
        "\"unstructured\"). Errors are the same on every rank.");

  nb::class_<Weights>(
      m, "Weights",
      "A remapping matrix distributed by rows over a communicator: read from a SCRIP or\n"
      "ESMF weight file, or computed online (nearest_neighbour_weights, bilinear_weights,\n"
      "conservative_weights). Remap applies it.")
      .def_static(
          "read",
          [](nb::handle comm, const std::string& path) {
            const MPI_Comm c = comm_from_python(comm, "Weights.read");
            nb::gil_scoped_release unlocked;
            return Weights::read(c, path);
          },
          "comm"_a, "path"_a,
          "Collective: reads a SCRIP or ESMF weight file (NetCDF), each rank a share of the\n"
          "rows. Raises ferry.Error, the same on every rank, naming the file and the link.")
      .def_static("from_links", &from_links, "comm"_a, "src_size"_a, "dst_size"_a, "rows"_a,
                  "cols"_a, "values"_a, "order"_a.none() = nb::none(),
                  "Collective: a matrix of dst_size rows and src_size columns from the links\n"
                  "this rank holds (any share, any order): destination point rows[k] receives\n"
                  "values[k] times source point cols[k] (0-based). order: where each link is\n"
                  "summed within its row (ascending, unique in a row); None numbers the links\n"
                  "by their position over all ranks, rank 0's first (a file's order when each\n"
                  "rank holds a slab of it). Errors are the same on every rank.")
      .def("write_scrip", writer<&Weights::write_scrip>("Weights.write_scrip"), "comm"_a,
           "path"_a,
           "Collective over the communicator the weights were built on: writes a SCRIP file\n"
           "that Weights.read (and CDO, OASIS) read back.")
      .def("write_esmf", writer<&Weights::write_esmf>("Weights.write_esmf"), "comm"_a, "path"_a,
           "Collective over the communicator the weights were built on: writes an ESMF file\n"
           "(col, row, S) that Weights.read reads back.")
      .def("__repr__",
           [](nb::handle self) {
             return described(self, "Weights",
                              {"method", "src_size", "dst_size", "global_links", "row_count"});
           })
      .def_prop_ro("src_size", &Weights::src_size, "Points of the source grid.")
      .def_prop_ro("dst_size", &Weights::dst_size, "Points of the destination grid.")
      .def_prop_ro("global_links", &Weights::global_links, "Links over all ranks.")
      .def_prop_ro("method", &Weights::method, "How the weights were made (the file's title).")
      .def_prop_ro("first_row", &Weights::first_row, "Global id of this rank's first row.")
      .def_prop_ro("row_count", &Weights::row_count, "Rows this rank holds.")
      .def_prop_ro(
          "row_start", [](const Weights& w) { return view(w.row_start()); },
          nb::rv_policy::reference_internal,
          "int64, row_count + 1 entries: row first_row + r has links row_start[r] ..\n"
          "row_start[r + 1] - 1 of cols and values (a read-only view).")
      .def_prop_ro(
          "cols", [](const Weights& w) { return view(w.cols()); },
          nb::rv_policy::reference_internal, "int64 source point of each link (a read-only view).")
      .def_prop_ro(
          "values", [](const Weights& w) { return view(w.values()); },
          nb::rv_policy::reference_internal, "float64 weight of each link (a read-only view).");

  m.def("nearest_neighbour_weights", &nearest_neighbour, "comm"_a, "src"_a, "dst"_a,
        "neighbours"_a = 4, "weighting"_a = "inverse_distance", "gaussian_variance"_a = 0.1,
        "masked_neighbours"_a = "skip", "gaussian_scale"_a = "source",
        "Collective: weights from every valid destination point to its `neighbours`\n"
        "nearest valid source points (GridPoints), weighted \"inverse_distance\" (OASIS\n"
        "DISTWGT, CDO gendis) or \"gaussian\" (gaussian_scale \"source\": the variance in\n"
        "units of the source grid's mean spacing squared; \"neighbours\": of each point's\n"
        "neighbours' mean spacing, OASIS GAUSWGT). masked_neighbours \"drop\": the nearest\n"
        "source points masked or not, the masked ones dropped, a point whose nearest are\n"
        "all masked taking its nearest valid one (OASIS DISTWGT); \"drop_no_fill\": such\n"
        "a point gets no links (OASIS DISTWGTNF).\n"
        "The same bits for any number of ranks and layouts.");
  m.def("bilinear_weights", &bilinear, "comm"_a, "src"_a, "dst"_a, "nx"_a, "periodic"_a = true,
        "unmapped"_a = "fill",
        "Collective: bilinear weights (as CDO genbil) from a logically rectangular source\n"
        "grid of nx columns, point (i, j) with global id j * nx + i; `periodic`: column\n"
        "nx - 1 neighbours column 0; unmapped \"nearest\": points in no source cell take\n"
        "their nearest valid source point (OASIS BILINEAR), \"fill\": no links.");
  m.def("bicubic_weights", &bicubic, "comm"_a, "src"_a, "dst"_a, "nx"_a, "periodic"_a = true,
        "unmapped"_a = "fill",
        "Collective: bicubic weights (SCRIP's, as CDO genbic) on the same cells as\n"
        "bilinear_weights, with the gradients made from the field as CDO's remap makes them\n"
        "(centred index differences, one-sided next to masked points) folded in.");
  m.def("bicubic_gradient_weights", &bicubic_gradient, "comm"_a, "src"_a, "dst"_a, "nx"_a,
        "periodic"_a = true, "unmapped"_a = "fill",
        "Collective: bicubic weights for gradients the caller gives, as four Weights with\n"
        "the same links (value, i_gradient, j_gradient, ij_gradient): dst = value f +\n"
        "i_gradient df/di + j_gradient df/dj + ij_gradient d2f/didj, derivatives per index\n"
        "step along the source grid's rows and columns (CDO genbic's four weights).");
  m.def("conservative_weights", &conservative, "comm"_a, "src"_a, "dst"_a,
        "normalisation"_a = "fracarea", "unmapped"_a = "fill", "order"_a = 1,
        "progress"_a.none() = nb::none(), "nx"_a = 0, "periodic"_a = true,
        "Collective: conservative weights (as CDO gencon) between GridCells of any polygons\n"
        "(great-circle edges) or lon-lat rectangles, normalised by the covered area\n"
        "(\"fracarea\", CDO's default) or the destination cell's area (\"destarea\");\n"
        "unmapped \"nearest\" (OASIS FRACNNEI, DESTNNEI): cells over no valid source cell\n"
        "take their nearest valid source cell. order 2: second order (as CDO gencon2), the\n"
        "source gradients computed from the field and folded into the weights: with nx 0\n"
        "(the default) by least squares over the 8 nearest cells; with nx the cells per\n"
        "row of a logically rectangular source (cell (i, j) has id j * nx + i) by SCRIP's\n"
        "and CDO's centred differences along i and j, `periodic`: column nx - 1 neighbours\n"
        "column 0. progress: None or progress(stage, done, total, seconds), called on each\n"
        "rank alone at the start, at most once a second and at the end of its overlaps;\n"
        "what it raises fails the call on every rank.");
  m.def("conservative_gradient_weights", &conservative_gradient, "comm"_a, "src"_a, "dst"_a,
        "normalisation"_a = "fracarea", "unmapped"_a = "fill", "progress"_a.none() = nb::none(),
        "Collective: second-order conservative weights for gradients the caller gives, as\n"
        "three Weights with the same links (value, lat_gradient, lon_gradient): dst = value\n"
        "src + lat_gradient d(src)/d(lat) + lon_gradient d(src)/d(lon) / cos(lat), the\n"
        "gradients per radian of arc at the source cells' centroids (CDO gencon2's and\n"
        "OASIS's three weights). progress: as for conservative_weights.");

  auto remap = nb::class_<RemapBinding>(
      m, "Remap",
      "Applies Weights to fields again and again: dst = W src, row by row, in parallel.\n\n"
      "Collective over `comm`, the communicator the weights were built on: every rank\n"
      "passes its source layout (Layout.none(src_size) if it holds no source values) and\n"
      "its destination layout. `fields`: dtypes float64 or float32, or (dtype,\n"
      "components) pairs (default: one float64 value per point). `map_on` \"dst\" or\n"
      "\"src\", `mode` \"bfb\" (the same bits for any ranks and layouts) or \"sum\";\n"
      "`fill_value` for points without links and those `dst_mask` flags (one value per\n"
      "destination point, non-zero = keep the fill value); `engine` and `options` as for\n"
      "Exchange. Raises ferry.Error, the same on every rank. close() (or the end of a\n"
      "`with` block) frees it collectively, as for Exchange.")
      .def(nb::init<nb::handle, const Weights&, const Layout&, const Layout&, nb::handle,
                    nb::handle, nb::handle, double, nb::handle, const std::string&,
                    const nb::dict&>(),
           "comm"_a, "weights"_a, "src"_a, "dst"_a, "fields"_a.none() = nb::none(),
           "map_on"_a = "dst", "mode"_a = "bfb", "fill_value"_a = 0.0,
           "dst_mask"_a.none() = nb::none(), "engine"_a = "default", "options"_a = nb::dict())
      .def("__repr__",
           [](nb::handle self) { return described(self, "Remap", {"fields"}); })
      .def("apply", &RemapBinding::apply, "src"_a.none(), "dst"_a.none(),
           "Collective: remaps every field from the source arrays into the destination\n"
           "arrays, in place. One array per field (a list, or the array itself for one\n"
           "field) of shape (local_size,) or (local_size, components); None on a side\n"
           "without points.")
      .def("begin", &RemapBinding::begin, "src"_a.none(), "dst"_a.none(),
           "Collective, non-blocking: starts apply(); do not touch the arrays until end().")
      .def("end", &RemapBinding::end, "Collective: completes the apply() begin() started.")
      .def_prop_ro("rows", &RemapBinding::rows, nb::rv_policy::reference_internal,
                   "Global ids of the destination rows this rank applies (int64, ascending).")
      .def_prop_ro("fields", &RemapBinding::fields,
                   "The fields: a list of (numpy.dtype, components).")
      .def_prop_ro("src_points", &RemapBinding::src_points, nb::rv_policy::reference_internal,
                   "The weights' source grid data (GridPointData: area, frac, mask) at this\n"
                   "rank's source layout points, in its order.")
      .def_prop_ro("dst_points", &RemapBinding::dst_points, nb::rv_policy::reference_internal,
                   "The weights' destination grid data (GridPointData) at this rank's\n"
                   "destination layout points, in its order.")
      .def("traffic", &RemapBinding::traffic,
           "What one apply() of every field sends from this rank: a dict of messages,\n"
           "bytes and rounds.")
      .def("close", &RemapBinding::close,
           "Collective, idempotent: frees what only every rank together can free; afterwards\n"
           "only the properties work. Does nothing collective after a failure.");
  add_context_manager(remap, [](RemapBinding& r) { r.close(); });
}

}  // namespace ferry::python
