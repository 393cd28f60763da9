#include "regrid/cell_polygon.hpp"

#include <algorithm>
#include <cmath>

#include "util/format.hpp"

namespace ferry::regrid::detail {

namespace {

// Corners closer than 1e-9 degrees (as a chord) are one corner.
const double kSameCorner = 2 * std::sin(1e-9 * kRadiansPerDegree / 2);
// A corner this far outside an edge's plane (the sine of the angle) still leaves the
// cell convex: rounding of corners on one great circle.
constexpr double kConvexSlack = 1e-12;
// Boxes grow by this much (degrees) on every side, so rounding never leaves out a
// cell they should hold.
constexpr double kBoxMargin = 1e-7;

double degrees(double radians) { return radians / kRadiansPerDegree; }

// The point nearest to `pole` (+z or -z) on the edge a -> b with unit normal
// `normal`, if the edge passes the point of its great circle nearest the pole.
bool edge_extreme(const Vec3& a, const Vec3& b, const Vec3& normal, double pole, Vec3& at) {
  const Vec3 axis{0, 0, pole};
  const Vec3 towards = axis - dot(axis, normal) * normal;
  if (length(towards) == 0) return false;
  const Vec3 m = unit(towards);
  if (dot(cross(a, m), normal) < 0 || dot(cross(m, b), normal) < 0) return false;
  at = m;
  return true;
}

}  // namespace

std::string convex_polygon_of(const double* lon, const double* lat, int n, ConvexPolygon& out) {
  std::vector<Vec3>& corners = out.corners;
  corners.clear();
  for (int c = 0; c < n; ++c) {
    const Vec3 p = sphere_point(lon[c], lat[c]);
    if (corners.empty() || length(p - corners.back()) > kSameCorner) corners.push_back(p);
  }
  while (corners.size() > 1 && length(corners.front() - corners.back()) <= kSameCorner)
    corners.pop_back();
  const std::size_t m = corners.size();
  if (m < 3)
    return ferry::detail::cat("it has ", m, m == 1 ? " distinct corner" : " distinct corners",
                              ", fewer than 3");
  for (std::size_t i = 0; i < m; ++i)
    if (length(cross(corners[i] - corners[(i + 1) % m], corners[i] + corners[(i + 1) % m])) == 0)
      return ferry::detail::cat("its corners ", i, " and ", (i + 1) % m,
                                " are opposite points of the sphere, so the edge between them "
                                "has no direction");
  const double area = great_circle_area(corners.data(), m);
  out.area = area;
  // Turned round, the cell's area is measured again: the fan starts from another
  // corner, so -area need not be its bits.
  if (area < 0) {
    std::reverse(corners.begin(), corners.end());
    out.area = great_circle_area(corners.data(), m);
  }
  out.normals.resize(m);
  edge_normals(corners.data(), m, out.normals.data());
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < m; ++j)
      if (dot(out.normals[i], corners[j]) < -kConvexSlack)
        return "it is not convex, or its corners are not given in order around it (a "
               "corner lies outside the great circle through two neighbouring corners)";
  if (!(std::abs(area) > 0))
    return "its corners lie on one great circle, so it has no area";
  return "";
}

void edge_normals(const Vec3* corners, std::size_t n, Vec3* normals) {
  for (std::size_t i = 0; i < n; ++i) normals[i] = edge_normal(corners[i], corners[(i + 1) % n]);
}

LonLatCell polygon_box(const Vec3* corners, const Vec3* normals, std::size_t n) {
  bool north_pole = true;
  bool south_pole = true;
  // The points farthest north and south, corners or edges' points nearest a pole:
  // latitudes are taken of these two only.
  Vec3 northmost = corners[0];
  Vec3 southmost = corners[0];
  for (std::size_t i = 0; i < n; ++i) {
    north_pole = north_pole && normals[i].z >= 0;
    south_pole = south_pole && normals[i].z <= 0;
    if (corners[i].z > northmost.z) northmost = corners[i];
    if (corners[i].z < southmost.z) southmost = corners[i];
    // An edge passes its point nearest a pole only where z turns along it: rising at
    // its start and falling at its end for the north (n x p is the way it runs at p).
    const Vec3& a = corners[i];
    const Vec3& b = corners[(i + 1) % n];
    const double rise_a = normals[i].x * a.y - normals[i].y * a.x;
    const double rise_b = normals[i].x * b.y - normals[i].y * b.x;
    Vec3 extreme{};
    if (rise_a > 0 && rise_b < 0 && edge_extreme(a, b, normals[i], 1, extreme) &&
        extreme.z > northmost.z)
      northmost = extreme;
    if (rise_a < 0 && rise_b > 0 && edge_extreme(a, b, normals[i], -1, extreme) &&
        extreme.z < southmost.z)
      southmost = extreme;
  }
  double south = degrees(latitude_of(southmost));
  double north = degrees(latitude_of(northmost));
  if (north_pole) north = 90;
  if (south_pole) south = -90;
  south = std::max(-90.0, south - kBoxMargin);
  north = std::min(90.0, north + kBoxMargin);
  if (north_pole || south_pole) return {0, 360, south, north};
  // Longitudes the way the edges go, from the first corner's; a corner at a pole has
  // none and is skipped. The steps between corners are small angles: their series
  // (small_atan2) is well within the box's margin.
  double first = 0;
  bool have_first = false;
  double west = 0;
  double east = 0;
  double at = 0;
  const Vec3* last = nullptr;
  for (std::size_t i = 0; i <= n; ++i) {
    const Vec3& p = corners[i % n];
    if (p.x == 0 && p.y == 0) continue;
    if (!have_first) {
      first = degrees(longitude_of(p));
      have_first = true;
    } else {
      at += degrees(small_atan2(last->x * p.y - last->y * p.x, last->x * p.x + last->y * p.y));
      west = std::min(west, at);
      east = std::max(east, at);
    }
    last = &p;
  }
  const double width = std::min(360.0, east - west + 2 * kBoxMargin);
  double start = std::fmod(first + west - kBoxMargin, 360.0);
  if (start < 0) start += 360;
  return {start >= 360 ? 0 : start, width, south, north};
}

std::size_t rectangle_polygon(const LonLatCell& cell, PolygonCorner out[4]) {
  // sphere_point's bits, each cosine and sine taken once for the two corners sharing it.
  const double west = cell.west * kRadiansPerDegree;
  const double east = (cell.west + cell.width) * kRadiansPerDegree;
  const double cos_west = std::cos(west);
  const double sin_west = std::sin(west);
  const double cos_east = std::cos(east);
  const double sin_east = std::sin(east);
  auto on_parallel = [&](double lat, Vec3& at_west, Vec3& at_east) {
    if (lat == 90 || lat == -90) {
      at_west = at_east = Vec3{0, 0, lat > 0 ? 1.0 : -1.0};
      return;
    }
    const double phi = lat * kRadiansPerDegree;
    const double c = std::cos(phi);
    const double z = std::sin(phi);
    at_west = {c * cos_west, c * sin_west, z};
    at_east = {c * cos_east, c * sin_east, z};
  };
  Vec3 corner[4];
  on_parallel(cell.south, corner[0], corner[1]);
  on_parallel(cell.north, corner[3], corner[2]);
  std::size_t n = 0;
  if (cell.south == -90) {
    out[n++] = {corner[0], EdgeKind::GreatCircle};
  } else {
    out[n++] = {corner[0], EdgeKind::Parallel};
    out[n++] = {corner[1], EdgeKind::GreatCircle};
  }
  if (cell.north == 90) {
    out[n++] = {corner[2], EdgeKind::GreatCircle};
  } else {
    out[n++] = {corner[2], EdgeKind::Parallel};
    out[n++] = {corner[3], EdgeKind::GreatCircle};
  }
  return n;
}

}  // namespace ferry::regrid::detail
