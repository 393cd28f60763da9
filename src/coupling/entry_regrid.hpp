// EntryRegrid: the sparse product of one regridded exchange entry, on the ranks that run it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "ferry/comm.hpp"
#include "ferry/datatype.hpp"
#include "ferry/layout.hpp"
#include "ferry/remap.hpp"
#include "ferry/weights.hpp"

namespace ferry::coupling {

/// The link moves a plain redistribution; the product sits before it on the source
/// ranks (map_on src) or after it on the destination ranks (map_on dst). The side
/// the link does not see whole is a block of its grid over the product ranks:
///
///   map_on src: source partition --product--> block of destination points --link--> target
///   map_on dst: source partition --link--> block of source points --product--> target
///
/// `from` and `to` are the layouts of the product, on the product ranks.
class EntryRegrid {
 public:
  /// Collective over `product`. `from_points` and `to_points` are what the component
  /// declared for the points of `from` and `to` (area and mask; empty where the
  /// layout is a block): they take precedence over the weight file's. `where` names
  /// the entry in messages. Raises Errc::Arg (conservation of a float32 field or
  /// without cell areas) and the errors of Remap.
  /// `gradient_weights` (regrid_gradient_weights; may be empty): the weights of the
  /// value and of each gradient, for puts that give the gradients.
  EntryRegrid(const Comm& product, const config::RegridConfig& config, const Weights& weights,
         const Layout& from, const Layout& to, std::vector<FieldSpec> fields,
         GridPointData from_points, GridPointData to_points, const std::string& where,
         const std::vector<Weights>& gradient_weights = {});
  ~EntryRegrid();

  /// Per field: this rank's values on the block side (what the link sends for map_on
  /// src, where it delivers for map_on dst).
  const std::vector<void*>& block() const noexcept { return block_pointers_; }

  /// Collective over the product ranks: the values at `from` give the values at `to`,
  /// conserved when the configuration asks for it. One side is block().
  void apply(const void* const* from, void* const* to);
  /// How many gradients apply() below takes (0: none).
  std::size_t gradient_count() const noexcept {
    return gradient_remaps_.empty() ? 0 : gradient_remaps_.size() - 1;
  }
  /// As apply, with the fields' gradients at `from` ([gradient][field], float64): the
  /// value weights times the field, then plus each gradient's weights times it, in
  /// gradient order (each product summed as Remap sums, rows without links adding 0).
  void apply(const void* const* from, const std::vector<std::vector<std::vector<double>>>& gradients,
             void* const* to);

 private:
  config::RegridConfig config_;
  std::vector<FieldSpec> fields_;
  Comm product_;
  std::unique_ptr<Remap> remap_;
  std::vector<std::unique_ptr<Remap>> gradient_remaps_;  // value, then one per gradient
  std::vector<std::vector<double>> gradient_block_;      // a gradient's product, per field
  std::vector<std::vector<unsigned char>> block_;
  std::vector<void*> block_pointers_;
  GridPointData from_points_, to_points_;  // for conservation
  std::vector<std::int64_t> from_ids_, to_ids_;

  void conserve_fields(const void* const* from, void* const* to);
};

/// Sets every value of the listed points of a float field to `fill`.
void fill_points(const FieldSpec& field, void* values, const std::vector<std::int64_t>& points,
                 double fill);

}  // namespace ferry::coupling
