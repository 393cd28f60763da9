// Vec3: points and plane normals of the unit sphere, for the cell geometry of regridding.
#pragma once

#include <cmath>

namespace ferry::regrid::detail {

inline constexpr double kPi = 3.14159265358979323846;
inline constexpr double kRadiansPerDegree = kPi / 180;

/// A vector in 3-D: a point of the unit sphere, or the normal of a plane through the
/// centre (a great circle).
struct Vec3 {
  double x, y, z;
};

inline Vec3 operator+(const Vec3& a, const Vec3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3 operator-(const Vec3& a, const Vec3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3 operator-(const Vec3& a) { return {-a.x, -a.y, -a.z}; }
inline Vec3 operator*(double s, const Vec3& a) { return {s * a.x, s * a.y, s * a.z}; }
inline double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline double length(const Vec3& a) { return std::sqrt(dot(a, a)); }
inline Vec3 unit(const Vec3& a) { return (1 / length(a)) * a; }

/// atan2(y, x): for x > 0 and |y| <= x / 32 by the series of atan(y / x) to the power
/// 11 (the next term is below 1e-19 of it), else std::atan2. The angles of small cells
/// (their areas, the longitude steps of their boxes) cost a division and a polynomial.
inline double small_atan2(double y, double x) {
  if (!(x > 0 && std::abs(y) <= x / 32)) return std::atan2(y, x);
  const double r = y / x;
  const double r2 = r * r;
  return r * (1 - r2 * (1.0 / 3 - r2 * (1.0 / 5 - r2 * (1.0 / 7 - r2 * (1.0 / 9 - r2 / 11)))));
}

/// The point at longitude `lon`, latitude `lat` (degrees). The poles are exact.
inline Vec3 sphere_point(double lon, double lat) {
  if (lat == 90) return {0, 0, 1};
  if (lat == -90) return {0, 0, -1};
  const double lambda = lon * kRadiansPerDegree;
  const double phi = lat * kRadiansPerDegree;
  return {std::cos(phi) * std::cos(lambda), std::cos(phi) * std::sin(lambda), std::sin(phi)};
}

/// Longitude (radians, -pi .. pi) and latitude (radians) of a unit vector.
inline double longitude_of(const Vec3& p) { return std::atan2(p.y, p.x); }
inline double latitude_of(const Vec3& p) { return std::atan2(p.z, std::hypot(p.x, p.y)); }

/// The normal of the great circle through a and b, pointing to the left of a -> b
/// (the inside of an anticlockwise cell), of unit length. Computed as (a - b) x (a + b)
/// = 2 a x b: accurate for short edges, whose a x b loses digits, and exactly the
/// negative for b -> a, so two cells sharing an edge see one plane.
inline Vec3 edge_normal(const Vec3& a, const Vec3& b) { return unit(cross(a - b, a + b)); }

}  // namespace ferry::regrid::detail
