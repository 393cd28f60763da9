#include "regrid/lonlat_moments.hpp"

#include <algorithm>
#include <cmath>

namespace ferry::regrid::detail {

namespace {

// Gauss-Legendre rule of 8 points on [0, 1] (exact for polynomials of degree 15), the
// nodes ascending.
constexpr int kNodes = 8;
constexpr double kNode[kNodes] = {
    0.0198550717512319, 0.1016667612931866, 0.2372337950418355, 0.4082826787521751,
    0.5917173212478249, 0.7627662049581645, 0.8983332387068134, 0.9801449282487681};
constexpr double kWeight[kNodes] = {
    0.0506142681451881, 0.1111905172266872, 0.1568533229389436, 0.1813418916891810,
    0.1813418916891810, 0.1568533229389436, 0.1111905172266872, 0.0506142681451881};

// Great-circle edges are integrated in pieces turning by at most about this much in
// longitude (radians), and at most kMostPieces of them.
constexpr double kPieceTurn = 0.05;
constexpr double kMostPieces = 64;

// An angle moved into -pi .. pi.
double wrapped(double angle) { return std::remainder(angle, 2 * kPi); }

double latitude(double z) { return std::asin(std::fmax(-1.0, std::fmin(1.0, z))); }

// The longitude along the boundary, relative to lon0 and without jumps: each point
// takes the branch nearest to the previous one. Points at a pole have no longitude
// and are passed over (a convex polygon turns by less than half a turn there).
class LongitudeWalk {
 public:
  explicit LongitudeWalk(double lon0) : cos0_(std::cos(lon0)), sin0_(std::sin(lon0)) {}
  // The longitude of p on the walk's branch; call in order along the boundary.
  double at(const Vec3& p) {
    if (p.x == 0 && p.y == 0) return last_;
    // The longitude relative to lon0 is that of p turned by -lon0 about the axis.
    const double lon = std::atan2(p.y * cos0_ - p.x * sin0_, p.x * cos0_ + p.y * sin0_);
    if (!started_) {
      started_ = true;
      return last_ = lon;
    }
    return last_ = lon + 2 * kPi * std::round((last_ - lon) / (2 * kPi));
  }
  // Moves the walk by a known step (along a parallel edge, which may be long).
  void step(double by) { last_ += by; }

 private:
  double cos0_;
  double sin0_;
  double last_ = 0;
  bool started_ = false;
};

}  // namespace

LonLatMoments polygon_lonlat_moments(const PolygonCorner* corners, std::size_t n, double lon0,
                                     double lat0) {
  LonLatMoments m;
  if (n < 2) return m;
  // The walk starts at the first corner off the poles (none: a degenerate polygon).
  std::size_t first = 0;
  while (first < n && corners[first].p.x == 0 && corners[first].p.y == 0) ++first;
  if (first == n) return m;
  LongitudeWalk walk(lon0);
  const double start_lon = walk.at(corners[first].p);
  const double start_z = corners[first].p.z;
  for (std::size_t e = 0; e < n; ++e) {
    const std::size_t i = (first + e) % n;
    const Vec3& a = corners[i].p;
    const Vec3& b = corners[(i + 1) % n].p;
    walk.at(a);
    if (corners[i].next == EdgeKind::Parallel) {
      // z is constant along it: no part in the integrals, only in the longitude.
      walk.step(std::atan2(a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y));
      continue;
    }
    // The integrals of H dz, H = lon (lat - lat0), lon^2 / 2 cos(lat) and lon cos(lat):
    // x(t) = u / |u| with u = a + t (b - a), so dz/dt = (d_z - x_z (x . d)) / |u|. An
    // edge near a pole turns fast in longitude: it is cut into pieces of about
    // kPieceTurn radians of longitude each, so the rule sees a smooth integrand.
    const Vec3 d = b - a;
    const double turn = std::abs(std::atan2(a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y));
    const int pieces = static_cast<int>(std::min(kMostPieces, std::ceil(turn / kPieceTurn)));
    double lat_sum = 0;
    double lon_sum = 0;
    double cos_sum = 0;
    for (int piece = 0; piece < std::max(pieces, 1); ++piece)
      for (int k = 0; k < kNodes; ++k) {
        const double t = (piece + kNode[k]) / std::max(pieces, 1);
        const Vec3 u = a + t * d;
        const double r = length(u);
        const Vec3 x = (1 / r) * u;
        const double dz = kWeight[k] * (d.z - x.z * dot(x, d)) / r / std::max(pieces, 1);
        const double lon = walk.at(x);
        const double cos_lat = std::hypot(x.x, x.y);
        lat_sum += lon * (latitude(x.z) - lat0) * dz;
        lon_sum += lon * lon / 2 * cos_lat * dz;
        cos_sum += lon * cos_lat * dz;
      }
    m.lat += lat_sum;
    m.lon += lon_sum;
    m.cos += cos_sum;
  }
  // Back at the start: a boundary that went once round a pole (east round the north
  // pole, west round the south pole) ends a turn away from where it began. The region
  // then reaches the pole, closed along the start's meridian: add the integral from
  // start_z to the pole of H(start + turn) - H(start).
  const double turn = walk.at(corners[first].p) - start_lon;
  if (std::abs(turn) > kPi) {
    const double full = turn > 0 ? 2 * kPi : -2 * kPi;
    const double pole = turn > 0 ? 1.0 : -1.0;
    // In z, lat - lat0 integrates to z asin(z) + sqrt(1 - z^2) - lat0 z and cos(lat)
    // = sqrt(1 - z^2) to (z sqrt(1 - z^2) + asin(z)) / 2.
    auto lat_integral = [&](double z) {
      return z * latitude(z) + std::sqrt((1 - z) * (1 + z)) - lat0 * z;
    };
    auto cos_integral = [&](double z) {
      return (z * std::sqrt((1 - z) * (1 + z)) + latitude(z)) / 2;
    };
    const double cos_part = cos_integral(pole) - cos_integral(start_z);
    m.lat += full * (lat_integral(pole) - lat_integral(start_z));
    m.lon += full * (start_lon + full / 2) * cos_part;
    m.cos += full * cos_part;
    m.around_pole = true;
  }
  return m;
}

LonLatMoments rectangle_lonlat_moments(const LonLatCell& cell, double lon0, double lat0) {
  const double west = wrapped(cell.west * kRadiansPerDegree - lon0);
  const double width = cell.width * kRadiansPerDegree;
  const double south = cell.south * kRadiansPerDegree;
  const double north = cell.north * kRadiansPerDegree;
  // The integrals from south to north of (lat - lat0) cos(lat) and cos^2(lat), by the
  // rule above (closed forms lose digits to cancellation on narrow cells).
  double lat_sum = 0;
  double cos2_sum = 0;
  for (int k = 0; k < kNodes; ++k) {
    const double lat = south + kNode[k] * (north - south);
    lat_sum += kWeight[k] * (lat - lat0) * std::cos(lat);
    cos2_sum += kWeight[k] * std::cos(lat) * std::cos(lat);
  }
  LonLatMoments m;
  m.lat = width * lat_sum * (north - south);
  m.cos = width * cos2_sum * (north - south);
  m.lon = (west + width / 2) * m.cos;
  return m;
}

}  // namespace ferry::regrid::detail
