#include "coupling/entry_regrid.hpp"

#include <utility>

#include "ferry/conservation.hpp"
#include "util/check.hpp"

namespace ferry::coupling {

namespace {

// The component's declaration of a point value where it made one, else the file's.
template <class T>
void prefer_declared(std::optional<std::vector<T>>& declared,
                     const std::optional<std::vector<T>>& file) {
  if (!declared) declared = file;
}

}  // namespace

EntryRegrid::EntryRegrid(const Comm& product, const config::RegridConfig& config, const Weights& weights,
               const Layout& from, const Layout& to, std::vector<FieldSpec> fields,
               GridPointData from_points, GridPointData to_points, const std::string& where,
               const std::vector<Weights>& gradient_weights)
    : config_(config),
      fields_(std::move(fields)),
      product_(Comm::view(product.get())),
      from_points_(std::move(from_points)),
      to_points_(std::move(to_points)),
      from_ids_(from.ids()),
      to_ids_(to.ids()) {
  RemapOptions options;
  options.map_on = config.map_on;
  options.mode = config.mode;
  options.fill_value = config.fill;
  remap_ = std::make_unique<Remap>(product.get(), weights, from, to, fields_, options);
  for (std::size_t k = 0; k < gradient_weights.size(); ++k) {
    // Rows a gradient does not reach add 0 to the value's product.
    RemapOptions gradient_options = options;
    if (k > 0) gradient_options.fill_value = 0;
    gradient_remaps_.push_back(
        std::make_unique<Remap>(product.get(), gradient_weights[k], from, to, fields_, gradient_options));
  }

  const Layout& block = config.map_on == MapOn::Src ? to : from;
  for (const FieldSpec& f : fields_)
    block_.emplace_back(static_cast<std::size_t>(block.local_size()) *
                        static_cast<std::size_t>(f.components) * datatype_size(f.type));
  for (auto& values : block_) block_pointers_.push_back(values.data());
  if (!gradient_remaps_.empty())
    for (const FieldSpec& f : fields_)
      gradient_block_.emplace_back(static_cast<std::size_t>(to.local_size()) *
                                   static_cast<std::size_t>(f.components));

  if (!config.conservation) return;
  for (const FieldSpec& f : fields_)
    FERRY_CHECK(f.type == Datatype::Float64, Errc::Arg, where, ": conservation works on float64 "
                "fields; got ", datatype_name(f.type), ". Declare the fields float64, or remove "
                "\"conservation\"");
  prefer_declared(from_points_.area, remap_->src_points().area);
  prefer_declared(from_points_.mask, remap_->src_points().mask);
  prefer_declared(from_points_.frac, remap_->src_points().frac);
  prefer_declared(to_points_.area, remap_->dst_points().area);
  prefer_declared(to_points_.mask, remap_->dst_points().mask);
  prefer_declared(to_points_.frac, remap_->dst_points().frac);
  for (const auto& [points, side] : {std::pair{&from_points_, "source"}, std::pair{&to_points_, "target"}})
    FERRY_CHECK(points->area.has_value(), Errc::Arg, where, ": conservation needs the cell areas "
                "of the ", side, " grid, which rank ", product.rank(), " of the regridding product "
                "does not have. Declare them with set_areas on every rank of the ", side,
                " component, or use a weight file that has the grid areas (CDO gencon writes them)");
}

EntryRegrid::~EntryRegrid() = default;

void EntryRegrid::apply(const void* const* from, void* const* to) {
  remap_->apply(from, to);
  conserve_fields(from, to);
}

void EntryRegrid::apply(const void* const* from,
                        const std::vector<std::vector<std::vector<double>>>& gradients, void* const* to) {
  gradient_remaps_.front()->apply(from, to);
  std::vector<void*> products;
  for (auto& values : gradient_block_) products.push_back(values.data());
  for (std::size_t k = 1; k < gradient_remaps_.size(); ++k) {
    std::vector<const void*> inputs;
    for (const auto& values : gradients[k - 1]) inputs.push_back(values.data());
    gradient_remaps_[k]->apply(inputs.data(), products.data());
    for (std::size_t f = 0; f < fields_.size(); ++f) {
      auto* sum = static_cast<double*>(to[f]);
      for (std::size_t i = 0; i < gradient_block_[f].size(); ++i) sum[i] += gradient_block_[f][i];
    }
  }
  conserve_fields(from, to);
}

void EntryRegrid::conserve_fields(const void* const* from, void* const* to) {
  if (!config_.conservation) return;
  const ConserveGrid source{&from_points_, &from_ids_};
  const ConserveGrid target{&to_points_, &to_ids_};
  for (std::size_t f = 0; f < fields_.size(); ++f)
    conserve(product_.get(), *config_.conservation, config_.sum, fields_[f].components, source,
             static_cast<const double*>(from[f]), target, static_cast<double*>(to[f]));
}

void fill_points(const FieldSpec& field, void* values, const std::vector<std::int64_t>& points,
                 double fill) {
  const auto components = static_cast<std::size_t>(field.components);
  for (const std::int64_t p : points)
    for (std::size_t c = 0; c < components; ++c) {
      const std::size_t k = static_cast<std::size_t>(p) * components + c;
      if (field.type == Datatype::Float64)
        static_cast<double*>(values)[k] = fill;
      else
        static_cast<float*>(values)[k] = static_cast<float>(fill);
    }
}

}  // namespace ferry::coupling
