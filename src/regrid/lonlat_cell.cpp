#include "regrid/lonlat_cell.hpp"

#include <algorithm>
#include <cmath>

#include "util/format.hpp"

namespace ferry::regrid::detail {

namespace {

constexpr double kRadiansPerDegree = 3.14159265358979323846 / 180;
// Corners computed by the user's code may differ by rounding where they should agree.
constexpr double kSame = 1e-9;

double turn(double lon) {
  double x = std::fmod(lon, 360.0);
  if (x < 0) x += 360;
  return x >= 360 ? x - 360 : x;
}

bool same_longitude(double a, double b) {
  const double d = std::abs(a - b);
  return std::min(d, 360 - d) <= kSame;
}

double sin_degrees(double lat) { return std::sin(lat * kRadiansPerDegree); }

}  // namespace

std::string rectangle_of(const double* lon, const double* lat, int n, LonLatCell& cell) {
  const auto [south, north] = std::minmax_element(lat, lat + n);
  if (*north - *south <= kSame)
    return ferry::detail::cat("all its corners have latitude ", *south, ", so it has no area");
  // The two longitudes off the poles, and which of them each latitude has.
  double lons[2] = {0, 0};
  int found = 0;
  bool has[2][2] = {{false, false}, {false, false}};  // [south, north][lons]
  for (int c = 0; c < n; ++c) {
    const bool on_south = lat[c] - *south <= kSame;
    if (!on_south && *north - lat[c] > kSame)
      return ferry::detail::cat("corner ", c, " has latitude ", lat[c], ", between ", *south,
                                " and ", *north, ", so an edge is not a parallel");
    if (90 - std::abs(lat[c]) <= kSame) continue;  // at a pole: any longitude
    const double l = turn(lon[c]);
    int which = 0;
    while (which < found && !same_longitude(l, lons[which])) ++which;
    if (which == 2)
      return ferry::detail::cat("its corners off the poles have 3 or more longitudes (", lons[0],
                                ", ", lons[1], ", ", l, "), so an edge is not a meridian");
    if (which == found) lons[found++] = l;
    has[on_south ? 0 : 1][which] = true;
  }
  if (found < 2) return "its corners off the poles have one longitude, so it has no width";
  const double east_of_first = turn(lons[1] - lons[0]);
  if (std::abs(east_of_first - 180) <= kSame)
    return ferry::detail::cat("its longitudes ", lons[0], " and ", lons[1],
                              " are 180 degrees apart, so which way round it goes is ambiguous");
  for (int level = 0; level < 2; ++level) {
    const double at = level == 0 ? *south : *north;
    if (90 - std::abs(at) > kSame && !(has[level][0] && has[level][1]))
      return ferry::detail::cat("its edge at latitude ", at,
                                " has a corner at one longitude only, so the edges are not "
                                "meridians and parallels");
  }
  const bool first_is_west = east_of_first < 180;
  cell.west = first_is_west ? lons[0] : lons[1];
  cell.width = first_is_west ? east_of_first : 360 - east_of_first;
  cell.south = *south;
  cell.north = *north;
  return "";
}

double cell_area(const LonLatCell& cell) {
  return cell.width * kRadiansPerDegree * (sin_degrees(cell.north) - sin_degrees(cell.south));
}

double overlap_area(const LonLatCell& a, const LonLatCell& b) {
  LonLatCell overlap{};
  return overlap_rectangle(a, b, overlap) ? cell_area(overlap) : 0;
}

bool overlap_rectangle(const LonLatCell& a, const LonLatCell& b, LonLatCell& overlap) {
  overlap.south = std::max(a.south, b.south);
  overlap.north = std::min(a.north, b.north);
  if (overlap.north <= overlap.south) return false;
  // Both arcs are shorter than half a turn, so they overlap in one piece at most.
  for (const double shift : {-360.0, 0.0, 360.0}) {
    const double west = std::max(a.west, b.west + shift);
    const double east = std::min(a.west + a.width, b.west + b.width + shift);
    if (east > west) {
      overlap.west = west;
      overlap.width = east - west;
      return true;
    }
  }
  return false;
}

}  // namespace ferry::regrid::detail
