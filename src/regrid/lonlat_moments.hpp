// Integrals of latitude and longitude over cells: what second-order conservative remapping needs.
#pragma once

#include <cstddef>

#include "regrid/lonlat_cell.hpp"
#include "regrid/spherical_polygon.hpp"

namespace ferry::regrid::detail {

/// Integrals over a region of the unit sphere (angles in radians), about a point
/// (lon0, lat0): the longitude is taken on the branch within half a turn of lon0 where
/// the region's boundary starts and followed continuously from there.
struct LonLatMoments {
  /// Of latitude - lat0.
  double lat = 0;
  /// Of (longitude - lon0) cos(latitude): SCRIP's longitude moment, which eastward
  /// gradients per radian of arc multiply.
  double lon = 0;
  /// Of cos(latitude).
  double cos = 0;
  /// Whether the region goes round a pole (its longitudes then span a whole turn, and
  /// `lon` depends on where the boundary starts).
  bool around_pole = false;
};

/// Not collective. The moments of a polygon (corners anticlockwise, edges great circles
/// or parallels), about (lon0, lat0) in radians. With z = sin(latitude) the area
/// element is d(lon) dz, so each integral is a line integral in dz around the boundary
/// (Green's theorem in the lon-z plane): parallels add nothing; a great-circle edge is
/// integrated by Gauss-Legendre quadrature (8 nodes per piece of about 3 degrees of
/// longitude, so edges near a pole are cut finer: to about 1e-13 relative, except for
/// edges passing within about 1e-3 of their length of a pole); a polygon around a pole
/// is closed through the pole.
LonLatMoments polygon_lonlat_moments(const PolygonCorner* corners, std::size_t n, double lon0,
                                     double lat0);

/// Not collective. The moments of a longitude-latitude rectangle about (lon0, lat0) in
/// radians, in closed form; its west edge is taken within half a turn of lon0.
LonLatMoments rectangle_lonlat_moments(const LonLatCell& cell, double lon0, double lat0);

}  // namespace ferry::regrid::detail
