// ferry.global_sums, ferry.conserve, ferry.SumMethod, ferry.Conserve and
// ferry.GridPointData: reproducible global sums, and the conservation of remapped
// fields outside the coupler (the CONSERV transform of OASIS3-MCT).
//
// Both functions are collective. Each rank reads its arguments first; then one
// reduction tells every rank whether that failed anywhere and whether the settings
// that must be the same everywhere (method, sum, number of components) are, so that a
// bad argument on one rank raises the same ferry.Error on every rank.
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings/arguments.hpp"
#include "bindings/bindings.hpp"
#include "bindings/buffers.hpp"
#include "bindings/comm_handle.hpp"
#include "ferry/comm.hpp"
#include "ferry/conservation.hpp"
#include "ferry/error.hpp"
#include "ferry/global_sum.hpp"
#include "ferry/layout.hpp"
#include "ferry/weights.hpp"
#include "util/agree.hpp"

namespace ferry::python {

using namespace nb::literals;

namespace {

std::string on_rank(int rank) { return " on rank " + std::to_string(rank); }

// The words of the configuration file (docs/user/config.md), in enumerator order.
const std::initializer_list<std::pair<const char*, SumMethod>> kSumNames = {
    {"gather", SumMethod::Gather},
    {"lsum8", SumMethod::Lsum8},
    {"lsum16", SumMethod::Lsum16},
    {"ddpdd", SumMethod::Ddpdd},
    {"reprosum", SumMethod::Reprosum}};
const std::initializer_list<std::pair<const char*, Conserve>> kConserveNames = {
    {"global", Conserve::Global},
    {"global_positive", Conserve::GlobalPositive},
    {"basin_balance", Conserve::BasinBalance},
    {"basin_positive", Conserve::BasinPositive}};

template <class Enum>
std::string enum_word(std::int64_t value,
                      std::initializer_list<std::pair<const char*, Enum>> names) {
  for (const auto& [name, enumerator] : names)
    if (static_cast<std::int64_t>(enumerator) == value) return "\"" + std::string(name) + "\"";
  return std::to_string(value);
}

// The value of a setting on a rank that cannot tell (the components of an empty array).
constexpr std::int64_t kUnknown = detail::kAnyValue;

// Collective over `c`: runs `prepare`, which reads this rank's arguments and fills
// `settings` (values every rank must pass alike, kUnknown where this rank cannot
// tell). One MPI_Allreduce tells every rank whether `prepare` failed anywhere, which
// raises the error of the lowest failing rank everywhere, and the spread of the settings.
template <class Prepare>
std::vector<detail::ValueSpread> agreed_arguments(MPI_Comm c, const std::string& function,
                                                  const std::vector<std::int64_t>& settings,
                                                  Prepare&& prepare) {
  const Comm comm = Comm::view(c);
  const std::optional<Error> local =
      detail::error_of(comm, [&] { read_python_arguments(function, prepare); });
  return detail::agree_with_spread(comm, local, settings);
}

// The number of columns of a table of values: the second extent of a 2-D array, 1 for
// a 1-D one; kUnknown for an empty 1-D array, which fits any number.
std::int64_t columns_of(std::size_t ndim, std::size_t rows, std::size_t columns) {
  if (ndim == 2) return static_cast<std::int64_t>(columns);
  return rows == 0 ? kUnknown : 1;
}

template <class T>
nb::ndarray<nb::numpy, T, nb::ndim<1>> owned_array(std::vector<T> values) {
  auto* owned = new std::vector<T>(std::move(values));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::ndarray<nb::numpy, T, nb::ndim<1>>(owned->data(), {owned->size()}, owner);
}

nb::ndarray<nb::numpy, double, nb::ndim<1>> sums(nb::handle comm, nb::handle values,
                                                 nb::handle method, nb::handle ids) {
  const std::string function = "global_sums";
  const MPI_Comm c = comm_from_python(comm, function);
  const int rank = Comm::view(c).rank();
  SumMethod sum_method{};
  nb::ndarray<const double, nb::c_contig> terms;
  nb::ndarray<const std::int64_t, nb::c_contig> term_ids;
  std::size_t points = 0;
  std::vector<std::int64_t> settings{kUnknown, kUnknown};  // method, count
  const auto spread = agreed_arguments(c, function, settings, [&] {
    sum_method = enum_from_python<SumMethod>(method, kSumNames, function + ": method");
    settings[0] = static_cast<std::int64_t>(sum_method);
    if (values.is_none()) return;  // no terms here
    terms = numpy_array<double>(values, "float64", {1, 2}, function + ": values");
    points = terms.shape(0);
    settings[1] = columns_of(terms.ndim(), points, terms.ndim() == 2 ? terms.shape(1) : 1);
    if (ids.is_none()) return;
    term_ids = numpy_array<std::int64_t>(ids, "int64", {1}, function + ": ids");
    if (term_ids.shape(0) != points)
      throw Error(Errc::ArgSize,
                  function + ": ids has " + std::to_string(term_ids.shape(0)) + " values" +
                      on_rank(rank) + ", expected " + std::to_string(points) +
                      " (one per point: the rows of values)",
                  rank);
  });
  if (!spread[0].same())
    throw Error(Errc::Arg, function + ": the ranks pass different methods (" +
                               enum_word(spread[0].lowest, kSumNames) + " to " +
                               enum_word(spread[0].highest, kSumNames) +
                               "). Pass the same method on every rank");
  if (!spread[1].same())
    throw Error(Errc::Arg, function + ": the ranks pass values with different numbers of " +
                               "columns (" + std::to_string(spread[1].lowest) + " to " +
                               std::to_string(spread[1].highest) +
                               "). Pass values of shape (points, count) with the same count " +
                               "on every rank");
  const int count = spread[1].highest == kUnknown ? 1 : static_cast<int>(spread[1].highest);
  std::vector<double> result;
  {
    nb::gil_scoped_release unlocked;
    result = global_sums(c, sum_method, count, points, points ? terms.data() : nullptr,
                         term_ids.is_valid() ? term_ids.data() : nullptr);
  }
  return owned_array(std::move(result));
}

// One side of conserve(): its layout and point data, as Python passed them.
struct Side {
  const char* name;  // "src" or "dst"
  const Layout& layout;
  nb::handle area;
  nb::handle frac;
  nb::handle mask;
};

// The point data of one side. Raises Errc::Arg for an area missing where points are
// held, Errc::ArgSize for arrays of the wrong length.
GridPointData point_data(const Side& side, int rank) {
  const std::string what = std::string("conserve: ") + side.name;
  const auto n = static_cast<std::size_t>(side.layout.local_size());
  const auto read = [&](nb::handle array, const char* dtype, const char* name, auto tag) {
    using T = decltype(tag);
    const auto a = numpy_array<T>(array, dtype, {1}, what + "_" + name);
    if (a.shape(0) != n)
      throw Error(Errc::ArgSize,
                  what + "_" + name + " has " + std::to_string(a.shape(0)) + " values" +
                      on_rank(rank) + ", expected " + std::to_string(n) + " (one per point of " +
                      "the " + side.name + " layout, in its order)",
                  rank);
    return std::vector<T>(a.data(), a.data() + n);
  };
  GridPointData data;
  if (side.area.is_none()) {
    if (n != 0)
      throw Error(Errc::Arg,
                  what + "_area is None" + on_rank(rank) + ", which holds " + std::to_string(n) +
                      " points; pass the cell areas, such as Remap." + side.name +
                      "_points.area",
                  rank);
    data.area.emplace();
  } else {
    data.area = read(side.area, "float64", "area", double{});
  }
  if (!side.frac.is_none()) data.frac = read(side.frac, "float64", "frac", double{});
  if (!side.mask.is_none()) data.mask = read(side.mask, "int32", "mask", std::int32_t{});
  return data;
}

void conserve_field(nb::handle comm, nb::handle method, const Layout& src, nb::handle src_values,
                    const Layout& dst, nb::handle dst_values, nb::handle src_area,
                    nb::handle dst_area, nb::handle src_frac, nb::handle dst_frac,
                    nb::handle src_mask, nb::handle dst_mask, nb::handle sum) {
  const std::string function = "conserve";
  const MPI_Comm c = comm_from_python(comm, function);
  const int rank = Comm::view(c).rank();
  Conserve conserve_method{};
  SumMethod sum_method{};
  GridPointData src_data, dst_data;
  nb::ndarray<const double, nb::c_contig> src_array;
  double* dst_pointer = nullptr;
  std::vector<std::int64_t> settings{kUnknown, kUnknown, kUnknown};  // method, sum, components
  const auto spread = agreed_arguments(c, function, settings, [&] {
    conserve_method =
        enum_from_python<Conserve>(method, kConserveNames, function + ": method");
    settings[0] = static_cast<std::int64_t>(conserve_method);
    sum_method = enum_from_python<SumMethod>(sum, kSumNames, function + ": sum");
    settings[1] = static_cast<std::int64_t>(sum_method);

    // The source values are only read: any array-like of floats will do.
    const auto n_src = static_cast<std::size_t>(src.local_size());
    std::int64_t src_columns = kUnknown;
    if (!src_values.is_none()) {
      src_array = numpy_array<double>(src_values, "float64", {1, 2}, function + ": src_values");
      if (src_array.shape(0) != n_src)
        throw Error(Errc::ArgSize,
                    function + ": src_values has " + std::to_string(src_array.shape(0)) +
                        " points" + on_rank(rank) + ", expected " + std::to_string(n_src) +
                        ". Size it from the source layout (Layout.local_size points)",
                    rank);
      src_columns = columns_of(src_array.ndim(), n_src,
                               src_array.ndim() == 2 ? src_array.shape(1) : 1);
    } else if (n_src != 0) {
      throw Error(Errc::Arg,
                  function + ": src_values is None" + on_rank(rank) + ", which holds " +
                      std::to_string(n_src) + " source points; pass their values",
                  rank);
    }

    // The destination values are corrected in place: the array itself, no copy.
    std::int64_t dst_columns = kUnknown;
    nb::ndarray<nb::ro> dst_shape;
    if (nb::try_cast(dst_values, dst_shape, false))
      dst_columns = columns_of(dst_shape.ndim(), dst_shape.ndim() ? dst_shape.shape(0) : 0,
                               dst_shape.ndim() == 2 ? dst_shape.shape(1) : 1);
    const int checked_columns = dst_columns == kUnknown ? 1 : static_cast<int>(dst_columns);
    dst_pointer = static_cast<double*>(writable_buffer(
        dst_values, {Datatype::Float64, dst.local_size(), checked_columns},
        {function + ": dst_values", rank,
         "Size it from the destination layout (Layout.local_size points)"}));

    if (src_columns != kUnknown && dst_columns != kUnknown && src_columns != dst_columns)
      throw Error(Errc::ArgSize,
                  function + ": src_values has " + std::to_string(src_columns) +
                      " components" + on_rank(rank) + ", dst_values " +
                      std::to_string(dst_columns) + ". Give both the same number",
                  rank);
    settings[2] = src_columns != kUnknown ? src_columns : dst_columns;

    src_data = point_data({"src", src, src_area, src_frac, src_mask}, rank);
    dst_data = point_data({"dst", dst, dst_area, dst_frac, dst_mask}, rank);
  });
  const char* names[] = {"methods", "sums", "numbers of components"};
  for (int i = 0; i < 3; ++i) {
    if (spread[i].same()) continue;
    const auto word = [&](std::int64_t v) {
      return i == 0 ? enum_word(v, kConserveNames)
                    : i == 1 ? enum_word(v, kSumNames) : std::to_string(v);
    };
    throw Error(Errc::Arg, function + ": the ranks pass different " + names[i] + " (" +
                               word(spread[i].lowest) + " to " + word(spread[i].highest) +
                               "). Pass the same method, sum and number of components (the "
                               "second extent of the value arrays) on every rank");
  }
  const int components =
      spread[2].highest == kUnknown ? 1 : static_cast<int>(spread[2].highest);
  const ConserveGrid src_grid{&src_data, &src.ids()};
  const ConserveGrid dst_grid{&dst_data, &dst.ids()};
  const double* src_pointer = src_array.is_valid() ? src_array.data() : nullptr;
  nb::gil_scoped_release unlocked;
  conserve(c, conserve_method, sum_method, components, src_grid, src_pointer, dst_grid,
           dst_pointer);
}

// A read-only view of one kind of point data, or None when the weights have none.
template <class T>
std::optional<nb::ndarray<nb::numpy, const T, nb::ndim<1>>> optional_view(
    const std::optional<std::vector<T>>& values) {
  if (!values) return std::nullopt;
  return nb::ndarray<nb::numpy, const T, nb::ndim<1>>(values->data(), {values->size()});
}

}  // namespace

void bind_conservation(nb::module_& m) {
  nb::enum_<SumMethod>(m, "SumMethod",
                       "How a global sum is formed (or \"reprosum\", \"gather\", \"lsum8\", "
                       "\"lsum16\", \"ddpdd\").")
      .value("GATHER", SumMethod::Gather,
             "every term to rank 0, added by ascending global id: the same bits on any "
             "ranks; needs the ids")
      .value("LSUM8", SumMethod::Lsum8,
             "local double sums and one MPI sum: fastest; the last bits depend on the ranks")
      .value("LSUM16", SumMethod::Lsum16, "as lsum8 in quadruple precision")
      .value("DDPDD", SumMethod::Ddpdd, "as lsum8 in double-double (about 106 bits)")
      .value("REPROSUM", SumMethod::Reprosum,
             "exact integer sums: correctly rounded, the same bits on any ranks");
  nb::enum_<Conserve>(m, "Conserve",
                      "How conserve() corrects a remapped field (or \"global\", "
                      "\"global_positive\", \"basin_balance\", \"basin_positive\").")
      .value("GLOBAL", Conserve::Global,
             "OASIS GLOBAL: adds the residual, spread uniformly per unit area")
      .value("GLOBAL_POSITIVE", Conserve::GlobalPositive,
             "OASIS GLBPOS: multiplies by the ratio of the integrals, keeping signs")
      .value("BASIN_BALANCE", Conserve::BasinBalance,
             "OASIS BASBAL: as GLOBAL with area * frac, to the same mean per unit of "
             "unmasked area")
      .value("BASIN_POSITIVE", Conserve::BasinPositive,
             "OASIS BASPOS: as GLOBAL_POSITIVE with area * frac, to the same mean per unit "
             "of unmasked area");

  nb::class_<GridPointData>(
      m, "GridPointData",
      "A grid's data at the points one rank holds, from the weight file or the grids the\n"
      "weights were computed from (Remap.src_points, Remap.dst_points): read-only\n"
      "NumPy views, in the layout's order, or None when the weights have none.")
      .def_prop_ro(
          "area", [](const GridPointData& d) { return optional_view(d.area); },
          nb::rv_policy::reference_internal,
          "float64 cell areas (SCRIP *_grid_area; on the unit sphere for\n"
          "conservative_weights), or None.")
      .def_prop_ro(
          "frac", [](const GridPointData& d) { return optional_view(d.frac); },
          nb::rv_policy::reference_internal,
          "float64 fraction of each cell the weights cover (*_grid_frac), or None.")
      .def_prop_ro(
          "mask", [](const GridPointData& d) { return optional_view(d.mask); },
          nb::rv_policy::reference_internal,
          "int32 flags, 1 active and 0 masked (*_grid_imask), or None.");

  m.def("global_sums", &sums, "comm"_a, "values"_a.none(), "method"_a = "reprosum",
        "ids"_a.none() = nb::none(),
        "Collective: the column sums over all ranks of `values` (float64, shape (points,)\n"
        "or (points, count); None or an empty array where a rank holds no points), as a\n"
        "float64 array of shape (count,), the same on every rank. `method`: \"reprosum\"\n"
        "(correctly rounded, the same bits on any ranks), \"gather\" (by ascending id;\n"
        "needs `ids`, the int64 global id of each point, each held once), \"lsum8\",\n"
        "\"lsum16\", \"ddpdd\" or a SumMethod. The columns are reduced together. Errors\n"
        "are the same on every rank.");
  m.def("conserve", &conserve_field, "comm"_a, "method"_a, "src"_a, "src_values"_a.none(),
        "dst"_a, "dst_values"_a.none(), nb::kw_only(), "src_area"_a.none(), "dst_area"_a.none(),
        "src_frac"_a.none() = nb::none(), "dst_frac"_a.none() = nb::none(),
        "src_mask"_a.none() = nb::none(), "dst_mask"_a.none() = nb::none(),
        "sum"_a = "reprosum",
        "Collective: corrects the remapped field `dst_values` (a writable, C-contiguous\n"
        "float64 array of shape (dst.local_size,) or (dst.local_size, components)) in\n"
        "place so that its area integral matches that of `src_values` (float64, shape\n"
        "(src.local_size,) or (src.local_size, components)), each component apart.\n"
        "`method`: \"global\", \"global_positive\", \"basin_balance\", \"basin_positive\"\n"
        "or a Conserve; `sum`: how the integrals are formed, as for global_sums. The\n"
        "point data are one value per point of the layout, in its order: `*_area`\n"
        "(required where points are held), `*_frac` (absent: 1; the basin methods\n"
        "weigh by area * frac) and `*_mask` (1 active, 0 masked and left alone; absent:\n"
        "all active), such as Remap.src_points and Remap.dst_points give them. Each\n"
        "global id must sit on one rank only. Errors are the same on every rank.");
}

}  // namespace ferry::python
