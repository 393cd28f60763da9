// ferry::Weights: a remapping matrix (destination row <- source columns), distributed by rows.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ferry {

/// One link of a remapping matrix: destination point `row` receives `weight` times
/// the value at source point `col` (both 0-based). `order` fixes where the link is
/// summed within its row (ascending); a weight file uses the link's position in the file.
struct WeightLink {
  std::int64_t row = 0;
  std::int64_t col = 0;
  double weight = 0;
  std::int64_t order = 0;
};

/// What a weight file says about the points of one grid, for the points one rank
/// holds. Each value is present only if the file has it (every rank alike).
struct GridPointData {
  /// Cell areas (SCRIP *_grid_area, ESMF area_a/area_b).
  std::optional<std::vector<double>> area;
  /// Fraction of each cell the weights cover (*_grid_frac, frac_a/frac_b).
  std::optional<std::vector<double>> frac;
  /// 1 = active, 0 = masked (*_grid_imask, mask_a/mask_b).
  std::optional<std::vector<std::int32_t>> mask;
};

/// What Weights::read does with a link whose source or destination address lies
/// outside its grid, a weight of a point that does not exist (OASIS3-MCT's $NWGTOPT).
/// A link of weight 0 from or to address 0 pads some SCRIP files and is skipped alike.
enum class BadWeightIndex {
  Refuse,       ///< raise Errc::ArgRange naming the first such link (abort_on_bad_index)
  Drop,         ///< drop such links and warn once: how many, and the first (ignore_bad_index)
  DropQuietly,  ///< drop such links without a word (ignore_bad_index_silently)
};

/// A sparse remapping matrix of dst_size rows and src_size columns, distributed over
/// the ranks of a communicator by blocks of rows: rank p holds rows
/// first_row() .. first_row() + row_count() - 1 (the part p of Layout::block(dst_size,
/// P, p)), each row whole, its links in ascending `order`. The source grid's point
/// data are distributed the same way by source point (Layout::block(src_size, P, p)),
/// the destination grid's by row. No rank holds more than its block.
///
/// Build it on the communicator that the Remap using it is built on (same ranks, same
/// order). See docs/user/regrid.md.
class Weights {
 public:
  Weights() = default;

  /// Collective over `comm`. Reads a SCRIP remapping file (src_address, dst_address,
  /// remap_matrix, as written by SCRIP, CDO gen* and YAC) or an ESMF one (row, col, S,
  /// as written by ESMF_RegridWeightGen); the format is recognised from the variable
  /// names. Every rank opens the file and reads one slab of about links / P links,
  /// then the links travel to the ranks owning their rows. Only the first column of a
  /// SCRIP remap_matrix is used. Reads the optional point data (*_grid_area,
  /// *_grid_frac, *_grid_imask; area_a/b, frac_a/b, mask_a/b) by point block.
  /// A link with an address outside its grid is refused or dropped as `bad` says;
  /// the warning of Drop is printed by the rank that read the first such link.
  /// Raises on every rank alike: Errc::Io (file unreadable, a variable missing or of
  /// the wrong type or shape, naming file and variable), Errc::ArgRange (with Refuse,
  /// an address outside the grid, naming the first bad link and its values),
  /// Errc::Arg (a weight, area or fraction that is not a finite number, naming the
  /// first bad entry).
  static Weights read(MPI_Comm comm, const std::string& path,
                      BadWeightIndex bad = BadWeightIndex::Refuse);

  /// Collective over `comm`. Builds the matrix from links held anywhere (each rank
  /// passes any share of them, in any order); links move to the ranks owning their
  /// rows. Raises on every rank alike: Errc::Arg (negative sizes, a weight that is not
  /// finite, two links of one row with the same order), Errc::ArgRange (a row or
  /// column outside the grid), naming the first bad link of the lowest failing rank.
  static Weights from_links(MPI_Comm comm, std::int64_t src_size, std::int64_t dst_size,
                            std::vector<WeightLink> links);

  /// Collective over `comm` (the communicator the weights were built on). Writes a
  /// SCRIP remapping file: src_address, dst_address (1-based), remap_matrix (one
  /// column), the point data held, and the global attribute ferry_format_version =
  /// "ferry-weights-1". Links are written by ascending row, each row in its order, so
  /// reading the file back gives the same matrix bit for bit. The file (CDF-5) is
  /// written as "<path>.partial" and renamed when complete: with PnetCDF every rank
  /// puts its rows collectively, else the ranks write theirs one after another; the
  /// bytes are the same either way and on any number of ranks. Raises Errc::Io on
  /// every rank alike.
  void write_scrip(MPI_Comm comm, const std::string& path) const;
  /// Collective, as write_scrip: writes an ESMF remapping file (col, row, S, and the
  /// point data as area_a/b, frac_a/b, mask_a/b), which Weights::read reads back bit for
  /// bit. As for write_scrip, every rank writes its own rows (collectively with
  /// PnetCDF), so no rank holds more than its rows.
  void write_esmf(MPI_Comm comm, const std::string& path) const;

  std::int64_t src_size() const noexcept { return src_size_; }
  std::int64_t dst_size() const noexcept { return dst_size_; }
  /// Links over all ranks.
  std::int64_t global_links() const noexcept { return global_links_; }
  /// The distribution: P and this rank's place in it.
  int parts() const noexcept { return parts_; }
  int part() const noexcept { return part_; }

  /// The rows held here: first_row() .. first_row() + row_count() - 1.
  std::int64_t first_row() const noexcept { return first_row_; }
  std::int64_t row_count() const noexcept {
    return static_cast<std::int64_t>(row_start_.size()) - 1;
  }
  /// CSR offsets: row first_row() + i has links row_start()[i] .. row_start()[i + 1] - 1.
  const std::vector<std::int64_t>& row_start() const noexcept { return row_start_; }
  /// Source point (0-based) of each local link.
  const std::vector<std::int64_t>& cols() const noexcept { return cols_; }
  /// Weight of each local link.
  const std::vector<double>& values() const noexcept { return values_; }

  /// First source point of this rank's block of source point data.
  std::int64_t first_src_point() const noexcept { return first_src_point_; }
  /// Source grid data at this rank's block of source points.
  const GridPointData& src_points() const noexcept { return src_points_; }
  /// Destination grid data at this rank's rows.
  const GridPointData& dst_points() const noexcept { return dst_points_; }
  /// The file's map_method attribute ("" when there is none or no file).
  const std::string& method() const noexcept { return method_; }

 private:
  friend class WeightsBuilder;

  std::int64_t src_size_ = 0;
  std::int64_t dst_size_ = 0;
  std::int64_t global_links_ = 0;
  int parts_ = 0;
  int part_ = -1;
  std::int64_t first_row_ = 0;
  std::vector<std::int64_t> row_start_{0};
  std::vector<std::int64_t> cols_;
  std::vector<double> values_;
  std::int64_t first_src_point_ = 0;
  GridPointData src_points_;
  GridPointData dst_points_;
  std::string method_;
};

/// Collective over `comm`: sets the order of each link to its position in the
/// concatenation of every rank's `links`, rank 0's first. When each rank holds a
/// contiguous slab of a weight file's links, that is the file's order, which
/// Weights::read uses too.
void order_links_by_position(MPI_Comm comm, std::vector<WeightLink>& links);

}  // namespace ferry
