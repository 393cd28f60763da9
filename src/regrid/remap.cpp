// Remap: a gather exchange, a local row product, and a delivery exchange.
//
//   whole rows (bfb, or map_on dst):  source layout --gather--> source points each row
//       needs, on the rank applying it --rows--> results --deliver--> destination layout
//   partial sums (sum with map_on src): source values --partial rows--> partial sums
//       --gather--> the row's finisher --rows (weights 1)--> results --deliver--> ...
//
// The delivery is skipped when every rank finishes exactly the rows of its destination
// layout: the row product then writes into the destination buffers directly.
#include "ferry/remap.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <tuple>
#include <utility>

#include "ferry/exchange.hpp"
#include "regrid/row_assignment.hpp"
#include "regrid/row_product.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry {

namespace {

using detail::cat;
using detail::ValueSpread;
using regrid::detail::RowAssignment;
using regrid::detail::RowProduct;

using Bytes = std::vector<unsigned char>;

Bytes buffer_for(Datatype type, int components, std::size_t points) {
  return Bytes(points * static_cast<std::size_t>(components) * datatype_size(type));
}

// This rank's arguments; run on every rank and agreed, so all fail alike.
void check_arguments(const Comm& comm, const Weights& w, const Layout& src, const Layout& dst,
                     const std::vector<FieldSpec>& fields, const RemapOptions& options) {
  FERRY_CHECK(w.parts() == comm.size() && w.part() == comm.rank(), Errc::Arg,
              "Remap: the weights are distributed over ", w.parts(), " ranks (this is part ",
              w.part(), "), the communicator has ", comm.size(), " (this is rank ", comm.rank(),
              "). Read or build the weights on the communicator given to Remap");
  for (const auto& [layout, size, side] :
       {std::tuple{&src, w.src_size(), "source"}, std::tuple{&dst, w.dst_size(), "destination"}}) {
    FERRY_CHECK(layout->global_size() == size, Errc::Arg, "Remap: the ", side,
                " layout on rank ", comm.rank(), " has global size ", layout->global_size(),
                ", the weights' ", side, " grid has ", size,
                " points. Build the layout over the grid of the weights");
    const auto& ids = layout->ids();
    for (std::size_t i = 0; i < ids.size(); ++i)
      FERRY_CHECK(ids[i] >= 0 && ids[i] < size, Errc::ArgRange, "Remap: ", side, " id ", ids[i],
                  " at position ", i, " on rank ", comm.rank(), " is outside the grid 0..",
                  size - 1, ". Check the ids given to the layout");
  }
  FERRY_CHECK(!fields.empty(), Errc::Arg,
              "Remap: no fields given. Describe at least one field (type and components)");
  for (std::size_t f = 0; f < fields.size(); ++f) {
    FERRY_CHECK(fields[f].type == Datatype::Float64 || fields[f].type == Datatype::Float32,
                Errc::Arg, "Remap: field ", f, " has type ", datatype_name(fields[f].type),
                "; remapping sums weighted values, so fields are float64 or float32");
    FERRY_CHECK(fields[f].components >= 1, Errc::Arg, "Remap: field ", f, " has ",
                fields[f].components, " components. A field has at least one per point");
  }
  FERRY_CHECK(options.map_on == MapOn::Src || options.map_on == MapOn::Dst, Errc::Arg,
              "Remap: map_on is ", static_cast<int>(options.map_on),
              ". Use MapOn::Src or MapOn::Dst");
  FERRY_CHECK(options.mode == RemapMode::Bfb || options.mode == RemapMode::Sum, Errc::Arg,
              "Remap: mode is ", static_cast<int>(options.mode),
              ". Use RemapMode::Bfb or RemapMode::Sum");
  FERRY_CHECK(options.dst_mask.empty() ||
                  static_cast<std::int64_t>(options.dst_mask.size()) == dst.local_size(),
              Errc::ArgSize, "Remap: dst_mask on rank ", comm.rank(), " has ",
              options.dst_mask.size(), " flags, the destination layout ", dst.local_size(),
              " points. Give one flag per destination point, or none");
}

// The fields' types and components folded into one number, to check in the set-up
// reduction that every rank describes the same fields.
std::int64_t folded_fields(const std::vector<FieldSpec>& fields) {
  std::uint64_t folded = 0;
  for (const FieldSpec& f : fields)
    folded = (folded * 1000003u + static_cast<std::uint64_t>(f.type) * 65537u +
              static_cast<std::uint64_t>(f.components)) % (std::uint64_t{1} << 62);
  return static_cast<std::int64_t>(folded);
}

// Collective: checks this rank's arguments and that every rank passes the same map_on,
// mode and fields, in one reduction; all ranks fail alike.
void agree_on_arguments(const Comm& comm, const Weights& weights, const Layout& src,
                        const Layout& dst, const std::vector<FieldSpec>& fields,
                        const RemapOptions& options) {
  const auto check = [&] { check_arguments(comm, weights, src, dst, fields, options); };
  const std::vector<ValueSpread> spread = detail::agree_with_spread(
      comm, detail::error_of(comm, check),
      {static_cast<std::int64_t>(options.map_on), static_cast<std::int64_t>(options.mode),
       static_cast<std::int64_t>(fields.size()), folded_fields(fields)});
  const char* fix = ". Pass the same map_on, mode and fields on every rank";
  FERRY_CHECK(spread[0].same(), Errc::Arg, "Remap: the ranks pass different map_on (from ",
              map_on_name(static_cast<MapOn>(spread[0].lowest)), " to ",
              map_on_name(static_cast<MapOn>(spread[0].highest)), ")", fix);
  FERRY_CHECK(spread[1].same(), Errc::Arg, "Remap: the ranks pass different mode (from ",
              remap_mode_name(static_cast<RemapMode>(spread[1].lowest)), " to ",
              remap_mode_name(static_cast<RemapMode>(spread[1].highest)), ")", fix);
  FERRY_CHECK(spread[2].same(), Errc::Arg,
              "Remap: the ranks pass different numbers of fields (from ", spread[2].lowest,
              " to ", spread[2].highest, ")", fix);
  FERRY_CHECK(spread[3].same(), Errc::Arg,
              "Remap: the ranks pass fields of different types or components", fix);
}

// An exchange inside Remap; its errors say what it was for.
Exchange make_exchange(const Comm& comm, const Layout& from, const Layout& to,
                       std::vector<FieldSpec> specs, const RemapOptions& options,
                       const char* purpose) {
  try {
    return Exchange(comm.get(), from, to, std::move(specs), options.engine, options.engine_options);
  } catch (const Error& e) {
    throw Error(e.code(), cat("Remap: ", purpose, ": ", e.what()), e.rank());
  }
}

// The weight file's point data moved from the weights' blocks to a layout's points.
GridPointData points_at(const Comm& comm, const GridPointData& blocks, std::int64_t size,
                        const Layout& layout) {
  GridPointData data;
  std::vector<FieldSpec> specs;
  std::vector<const void*> from;
  std::vector<void*> to;
  const auto n = static_cast<std::size_t>(layout.local_size());
  for (auto [in, out] :
       {std::pair{&blocks.area, &data.area}, std::pair{&blocks.frac, &data.frac}}) {
    if (!*in) continue;
    out->emplace(n);
    specs.push_back({Datatype::Float64, 1});
    from.push_back((*in)->data());
    to.push_back((*out)->data());
  }
  if (blocks.mask) {
    data.mask.emplace(n);
    specs.push_back({Datatype::Int32, 1});
    from.push_back(blocks.mask->data());
    to.push_back(data.mask->data());
  }
  // Every rank read the same file, so every rank has the same data or none.
  if (specs.empty()) return data;
  const Layout held = Layout::block(size, comm.size(), comm.rank());
  Exchange(comm.get(), held, layout, std::move(specs), "p2p").execute(from.data(), to.data());
  return data;
}

// The points `index` reads (ids below `size`), once, in ascending order; `index` is
// rewritten to positions in that list. When the grid is no more than twice as large
// as the list of links, one pass over a mark per grid point replaces the sort.
std::vector<std::int64_t> number_points(std::vector<std::int64_t>& index, std::int64_t size) {
  std::vector<std::int64_t> points;
  if (size > 2 * static_cast<std::int64_t>(index.size())) {
    points = index;
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end()), points.end());
    for (std::int64_t& k : index)
      k = std::lower_bound(points.begin(), points.end(), k) - points.begin();
    return points;
  }
  std::vector<std::int64_t> position(static_cast<std::size_t>(size), -1);
  for (std::int64_t k : index) position[static_cast<std::size_t>(k)] = 0;
  for (std::int64_t id = 0; id < size; ++id) {
    std::int64_t& at = position[static_cast<std::size_t>(id)];
    if (at < 0) continue;
    at = static_cast<std::int64_t>(points.size());
    points.push_back(id);
  }
  for (std::int64_t& k : index) k = position[static_cast<std::size_t>(k)];
  return points;
}

// Sets every component of the listed points to the fill value.
void fill_points(Datatype type, void* data, int components, const std::vector<std::int64_t>& points,
                 double fill) {
  for (std::int64_t i : points)
    for (int c = 0; c < components; ++c) {
      const auto k = static_cast<std::size_t>(i * components + c);
      if (type == Datatype::Float64)
        static_cast<double*>(data)[k] = fill;
      else
        static_cast<float*>(data)[k] = static_cast<float>(fill);
    }
}

}  // namespace

const char* map_on_name(MapOn map_on) noexcept {
  switch (map_on) {
    case MapOn::Src: return "src";
    case MapOn::Dst: return "dst";
  }
  return "unknown";
}

const char* remap_mode_name(RemapMode mode) noexcept {
  switch (mode) {
    case RemapMode::Bfb: return "bfb";
    case RemapMode::Sum: return "sum";
  }
  return "unknown";
}

struct Remap::State {
  Comm comm;
  std::vector<FieldSpec> fields;
  RemapOptions options;
  bool partial = false;  // sum mode on the source side

  RowProduct partial_rows;             // partial sums: source values -> partial sums
  std::vector<Bytes> partial_values;   // per field, float64
  std::optional<Exchange> gather;      // what the rows read, to where they are applied
  std::vector<Bytes> gathered;         // per field: float64 partial sums, else the field's type
  RowProduct rows_product;
  std::vector<Bytes> results;          // per field, when delivered
  std::optional<Exchange> deliver;     // results -> destination layout
  std::vector<std::int64_t> masked;    // destination points kept at the fill value

  std::vector<std::int64_t> rows;
  GridPointData src_points;
  GridPointData dst_points;

  // Pointer arrays, made once so apply() never allocates: what the exchanges read and
  // write, and the caller's buffers (kept from begin() to end()).
  std::vector<const void*> in;
  std::vector<void*> out;
  std::vector<const void*> user_src;
  std::vector<void*> user_dst;
  bool in_flight = false;
  bool failed = false;
  bool closed = false;
};

Remap::Remap(MPI_Comm comm, const Weights& weights, const Layout& src, const Layout& dst,
             std::vector<FieldSpec> fields, const RemapOptions& options)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.comm = Comm::dup(comm);
  s.fields = std::move(fields);
  s.options = options;
  agree_on_arguments(s.comm, weights, src, dst, s.fields, options);
  s.partial = options.map_on == MapOn::Src && options.mode == RemapMode::Sum;
  RowAssignment a =
      regrid::detail::assign_rows(s.comm, weights, src, dst, options.map_on, s.partial);
  s.rows = std::move(a.finish.rows);
  const std::size_t nf = s.fields.size();
  const std::size_t links = a.finish.index.size();

  // Where the rows of this rank write: straight into the destination buffers when this
  // rank finishes exactly the points of its destination layout, on every rank.
  std::vector<std::int64_t> target;
  {
    std::vector<std::pair<std::int64_t, std::int64_t>> wanted;  // (id, position in dst)
    for (std::size_t i = 0; i < dst.ids().size(); ++i)
      wanted.push_back({dst.ids()[i], static_cast<std::int64_t>(i)});
    if (!std::is_sorted(wanted.begin(), wanted.end())) std::sort(wanted.begin(), wanted.end());
    int direct = wanted.size() == s.rows.size() ? 1 : 0;
    for (std::size_t i = 0; direct && i < wanted.size(); ++i)
      direct = wanted[i].first == s.rows[i] ? 1 : 0;
    int everywhere = 0;
    FERRY_CALL_MPI(MPI_Allreduce(&direct, &everywhere, 1, MPI_INT, MPI_MIN, s.comm.get()));
    if (everywhere) {
      for (const auto& w : wanted) target.push_back(w.second);
    } else {
      s.deliver.emplace(make_exchange(
          s.comm, Layout::points(weights.dst_size(), s.rows), dst, s.fields, options,
          "delivering the rows to the destination layout"));
      for (const FieldSpec& f : s.fields)
        s.results.push_back(buffer_for(f.type, f.components, s.rows.size()));
    }
  }

  if (s.partial) {
    s.partial_rows = RowProduct(std::move(a.partial.row_start), std::move(a.partial.index),
                                std::move(a.partial.weight), {});
    std::vector<std::int64_t> formed(a.partial.rows.size());
    std::iota(formed.begin(), formed.end(), a.first_partial);
    std::vector<FieldSpec> specs;
    for (const FieldSpec& f : s.fields) {
      specs.push_back({Datatype::Float64, f.components});
      s.partial_values.push_back(buffer_for(Datatype::Float64, f.components, formed.size()));
      s.gathered.push_back(buffer_for(Datatype::Float64, f.components, links));
    }
    // The finisher receives its rows' partial sums in link order: link k reads value k.
    s.gather.emplace(make_exchange(s.comm, Layout::points(a.partial_total, std::move(formed)),
                                   Layout::points(a.partial_total, a.finish.index),
                                   std::move(specs), options,
                                   "moving partial sums to the ranks that finish the rows"));
    std::vector<std::int64_t> index(links);
    std::iota(index.begin(), index.end(), 0);
    s.rows_product = RowProduct(std::move(a.finish.row_start), std::move(index),
                                std::move(a.finish.weight), std::move(target));
  } else {
    std::vector<std::int64_t> needed = number_points(a.finish.index, weights.src_size());
    for (const FieldSpec& f : s.fields)
      s.gathered.push_back(buffer_for(f.type, f.components, needed.size()));
    s.gather.emplace(make_exchange(
        s.comm, src, Layout::points(weights.src_size(), std::move(needed)), s.fields, options,
        "moving source values to the ranks that apply the rows (the source layout must hold "
        "every source point the weights use, once)"));
    s.rows_product = RowProduct(std::move(a.finish.row_start), std::move(a.finish.index),
                                std::move(a.finish.weight), std::move(target));
  }

  for (std::size_t i = 0; i < options.dst_mask.size(); ++i)
    if (options.dst_mask[i]) s.masked.push_back(static_cast<std::int64_t>(i));
  s.src_points = points_at(s.comm, weights.src_points(), weights.src_size(), src);
  s.dst_points = points_at(s.comm, weights.dst_points(), weights.dst_size(), dst);
  s.in.resize(nf);
  s.out.resize(nf);
  s.user_src.resize(nf);
  s.user_dst.resize(nf);
}

Remap::~Remap() = default;
Remap::Remap(Remap&&) noexcept = default;
Remap& Remap::operator=(Remap&&) noexcept = default;

void Remap::apply(const void* const* src, void* const* dst) {
  begin(src, dst);
  end();
}

void Remap::apply(const double* const* src, double* const* dst) {
  FERRY_CHECK(state_, Errc::State, "Remap::apply: the remap was moved from");
  for (std::size_t f = 0; f < state_->fields.size(); ++f)
    FERRY_CHECK(state_->fields[f].type == Datatype::Float64, Errc::Arg, "Remap::apply: field ", f,
                " is ", datatype_name(state_->fields[f].type),
                ", but double arrays were given. Pass void pointers for mixed types");
  State& s = *state_;
  std::copy(src, src + s.fields.size(), s.user_src.begin());
  std::copy(dst, dst + s.fields.size(), s.user_dst.begin());
  apply(s.user_src.data(), s.user_dst.data());
}

void Remap::close() {
  FERRY_CHECK(state_, Errc::State, "Remap::close: the remap was moved from");
  State& s = *state_;
  if (s.closed) return;
  FERRY_CHECK(!s.in_flight, Errc::State,
              "Remap::close: the previous begin() has not been completed by end()");
  s.closed = true;
  if (s.failed) return;  // its partners may be gone: nothing collective
  for (std::optional<Exchange>* exchange : {&s.gather, &s.deliver})
    if (*exchange) (*exchange)->close();
}

void Remap::begin(const void* const* src, void* const* dst) {
  FERRY_CHECK(state_, Errc::State, "Remap::begin: the remap was moved from");
  State& s = *state_;
  FERRY_CHECK(!s.closed, Errc::State, "Remap::begin: the remap was closed; make a new one");
  FERRY_CHECK(!s.failed, Errc::State,
              "Remap::begin: an earlier remap failed; this object can only be destroyed");
  FERRY_CHECK(!s.in_flight, Errc::State,
              "Remap::begin: the previous begin() has not been completed by end()");
  try {
    for (std::size_t f = 0; f < s.fields.size(); ++f) {
      if (s.partial) {
        s.partial_rows.apply(s.fields[f].type, src[f], Datatype::Float64,
                             s.partial_values[f].data(), s.fields[f].components, 0);
        s.in[f] = s.partial_values[f].data();
      } else {
        s.in[f] = src[f];
      }
      s.out[f] = s.gathered[f].data();
    }
    s.gather->begin(s.in.data(), s.out.data());
  } catch (...) {
    s.failed = true;
    throw;
  }
  if (dst != s.user_dst.data()) std::copy(dst, dst + s.fields.size(), s.user_dst.begin());
  s.in_flight = true;
}

void Remap::end() {
  FERRY_CHECK(state_, Errc::State, "Remap::end: the remap was moved from");
  State& s = *state_;
  FERRY_CHECK(!s.failed, Errc::State,
              "Remap::end: an earlier remap failed; this object can only be destroyed");
  FERRY_CHECK(s.in_flight, Errc::State, "Remap::end: no remap in flight; call begin() first");
  s.in_flight = false;
  try {
    s.gather->end();
    for (std::size_t f = 0; f < s.fields.size(); ++f) {
      const FieldSpec& field = s.fields[f];
      void* out = s.deliver ? s.results[f].data() : s.user_dst[f];
      s.rows_product.apply(s.partial ? Datatype::Float64 : field.type, s.gathered[f].data(),
                           field.type, out, field.components, s.options.fill_value);
      s.in[f] = out;
    }
    if (s.deliver) s.deliver->execute(s.in.data(), s.user_dst.data());
    for (std::size_t f = 0; f < s.fields.size(); ++f)
      fill_points(s.fields[f].type, s.user_dst[f], s.fields[f].components, s.masked,
                  s.options.fill_value);
  } catch (...) {
    s.failed = true;
    throw;
  }
}

const std::vector<std::int64_t>& Remap::rows() const noexcept { return state_->rows; }
const GridPointData& Remap::src_points() const noexcept { return state_->src_points; }
const GridPointData& Remap::dst_points() const noexcept { return state_->dst_points; }
const std::vector<FieldSpec>& Remap::fields() const noexcept { return state_->fields; }
const RemapOptions& Remap::options() const noexcept { return state_->options; }

Traffic Remap::traffic() const {
  Traffic total;
  for (const std::optional<Exchange>* ex : {&state_->gather, &state_->deliver}) {
    if (!*ex) continue;
    const Traffic t = (*ex)->traffic();
    total.messages += t.messages;
    total.bytes += t.bytes;
    total.rounds += t.rounds;
  }
  return total;
}

}  // namespace ferry
