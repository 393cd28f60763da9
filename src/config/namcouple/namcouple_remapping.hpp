// The remapping transformations of one OASIS3-MCT namcouple entry (SCRIPR, MAPPING,
// CONSERV and the grid periodicity line) as the regrid keys of a ferry exchange.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "config/namcouple/namcouple.hpp"

namespace ferry::config {

/// Points of the source and target grids, from an entry's grid line
/// ("182 149 96 72 torc lmdz"); 0 when the line leaves the sizes out.
struct NamcoupleGridSizes {
  std::int64_t source = 0;
  std::int64_t target = 0;
};

/// Collects the remapping lines of one entry, then gives its regrid keys.
///
/// SCRIPR DISTWGT, GAUSWGT, BILINEAR and BICUBIC on LR grids (with `unmapped:
/// nearest`, without for BILINEARNF and BICUBICNF) and CONSERV (FIRST or SECOND order,
/// FRACAREA, DESTAREA, or FRACNNEI and DESTNNEI with `unmapped: nearest`) become
/// `method`; MAPPING becomes `weights` (or, after SCRIPR, the map_on
/// and mode of the method), with OASIS's defaults src and bfb; CONSERV becomes
/// `conservation` and `sum`.
class NamcoupleRemapping {
 public:
  /// "P 2 P 0": whether the source grid is periodic (P) or regional (R).
  void set_source_periodic(bool periodic) { source_periodic_ = periodic; }

  /// Reads the configuration line (`words`, at line `line`) of `transformation`,
  /// one of SCRIPR, MAPPING and CONSERV. Returns what is wrong with a malformed
  /// line, "" for a line OASIS3-MCT accepts.
  std::string read(const std::string& transformation, int line,
                   const std::vector<std::string>& words);

  /// The regrid keys of the entry (none if it has no remapping).
  RegridConfig regrid(const NamcoupleGridSizes& sizes, NamcoupleNotes& notes) const;

 private:
  struct Scripr {
    int line = 0;
    std::string text;
    std::string method;  ///< without the NF suffix
    bool fill_nearest = true;  ///< false for the NF variants (no nearest-neighbour fill)
    std::string grid_type;
    int neighbours = 0;
    double variance = 0;
    std::string normalisation;
    std::string order;
  };
  struct Mapping {
    int line = 0;
    std::string file;
    std::string location = "src";
    std::string strategy = "bfb";
  };
  struct Conserv {
    int line = 0;
    std::string method;
    std::string option = "bfb";
  };

  std::string read_scripr(int line, const std::vector<std::string>& words);
  std::string read_mapping(int line, const std::vector<std::string>& words);
  std::string read_conserv(int line, const std::vector<std::string>& words);
  // Sets the method of `r` from SCRIPR, or says why it cannot.
  void set_method(RegridConfig& r, NamcoupleNotes& notes) const;
  void set_mapping(RegridConfig& r, const NamcoupleGridSizes& sizes,
                   NamcoupleNotes& notes) const;

  std::optional<bool> source_periodic_;
  std::optional<Scripr> scripr_;
  std::optional<Mapping> mapping_;
  std::optional<Conserv> conserv_;
};

}  // namespace ferry::config
