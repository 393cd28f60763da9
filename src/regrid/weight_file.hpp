// WeightFile: a SCRIP or ESMF remapping file opened for reading, its layout checked.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ferry/weights.hpp"
#include "regrid/netcdf_values.hpp"

namespace ferry::regrid::detail {

/// Format version written into ferry's own weight files; other versions are refused.
inline constexpr const char* kWeightsFormatVersion = "ferry-weights-1";

/// The names one file format gives to the parts of a remapping matrix.
struct WeightFormat {
  const char* name;          ///< "SCRIP" or "ESMF"
  const char* src_size;      ///< dimension: source grid size
  const char* dst_size;      ///< dimension: destination grid size
  const char* links;         ///< dimension: number of links
  const char* src_index;     ///< variable: 1-based source point of each link
  const char* dst_index;     ///< variable: 1-based destination point of each link
  const char* weight;        ///< variable: weight of each link (first column)
  const char* area[2];       ///< variables: source and destination cell areas
  const char* frac[2];       ///< variables: source and destination covered fractions
  const char* mask[2];       ///< variables: source and destination masks
};

inline constexpr WeightFormat kScrip{"SCRIP",
                                     "src_grid_size", "dst_grid_size", "num_links",
                                     "src_address", "dst_address", "remap_matrix",
                                     {"src_grid_area", "dst_grid_area"},
                                     {"src_grid_frac", "dst_grid_frac"},
                                     {"src_grid_imask", "dst_grid_imask"}};
inline constexpr WeightFormat kEsmf{"ESMF",
                                    "n_a", "n_b", "n_s",
                                    "col", "row", "S",
                                    {"area_a", "area_b"},
                                    {"frac_a", "frac_b"},
                                    {"mask_a", "mask_b"}};

/// How a weight file is written. Both write a CDF-5 file of the same bytes.
enum class WeightWriter {
  RankOrder,   ///< rank 0 defines the file, then each rank in turn writes its part (NetCDF-C)
  Collective,  ///< every rank puts its part in one collective call per variable (PnetCDF)
};

/// What Weights::write_scrip and write_esmf use: Collective in a build with PnetCDF
/// (FERRY_HAVE_PNETCDF), else RankOrder.
WeightWriter default_weight_writer();

/// Collective over `comm`: writes `w` as a file of format `f` at `path` (through
/// `path`.partial, renamed when complete) with `writer`, as Weights::write_scrip
/// says. Raises Errc::Arg on every rank for Collective in a build without PnetCDF
/// or weights not distributed over `comm`, Errc::Io when the file cannot be written.
void write_weight_file(const Weights& w, MPI_Comm comm, const std::string& path,
                       const WeightFormat& f, const char* caller, WeightWriter writer);

/// Which grid of a weight file: 0 = source, 1 = destination.
enum class Side : int { Src = 0, Dst = 1 };

/// The links read_links dropped for an address outside its grid (BadWeightIndex::Drop
/// and DropQuietly): how many, and the first one with what is wrong with it.
struct DroppedLinks {
  std::int64_t count = 0;
  std::int64_t first = -1;  ///< 0-based position in the file; -1 when none
  std::string first_text;   ///< "link N of M (...): <address> is outside 1..S, ..."
};

/// A weight file open on this rank, with its format recognised and every variable
/// checked for type and shape. Not collective: each rank opens its own and finds the
/// same. Errors (Errc::Io) name `caller`, the file, the variable and what is wrong.
class WeightFile {
 public:
  WeightFile(const std::string& caller, const std::string& path);

  std::int64_t src_size() const noexcept { return src_size_; }
  std::int64_t dst_size() const noexcept { return dst_size_; }
  std::int64_t links() const noexcept { return links_; }
  /// The map_method attribute, or "".
  const std::string& method() const noexcept { return method_; }

  /// Links first .. first + count - 1 (0-based, order = position in the file), checked:
  /// an address outside its grid raises Errc::ArgRange (`bad` = Refuse) or the link is
  /// counted into `dropped` and left out; a weight that is not finite raises
  /// Errc::Arg. Errors name the first bad link with its values.
  std::vector<WeightLink> read_links(std::int64_t first, std::int64_t count, BadWeightIndex bad,
                                     DroppedLinks& dropped) const;
  /// The point data of points first .. first + count - 1 of one grid; Errc::Arg for an
  /// area or fraction that is not finite.
  GridPointData read_points(Side side, std::int64_t first, std::int64_t count) const;

 private:
  int link_variable(const char* name) const;
  std::optional<int> point_variable(const char* name, std::int64_t size, bool integer) const;

  NetcdfFile file_;
  const WeightFormat* format_ = nullptr;
  std::int64_t src_size_ = 0;
  std::int64_t dst_size_ = 0;
  std::int64_t links_ = 0;
  int src_index_ = -1;
  int dst_index_ = -1;
  int weight_ = -1;
  std::optional<int> area_[2];
  std::optional<int> frac_[2];
  std::optional<int> mask_[2];
  std::string method_;
};

}  // namespace ferry::regrid::detail
