// Vector arithmetic on the unit sphere for the geodesic mesh.
#pragma once

#include <array>
#include <cmath>

namespace ferry::detail {

using Vec3 = std::array<double, 3>;

inline Vec3 add(const Vec3& a, const Vec3& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
inline Vec3 sub(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
inline Vec3 scale(double s, const Vec3& a) { return {s * a[0], s * a[1], s * a[2]}; }
inline double dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
inline Vec3 normalize(const Vec3& a) { return scale(1.0 / std::sqrt(dot(a, a)), a); }

/// Area of the spherical triangle with unit-vector corners a, b, c (Van Oosterom and
/// Strackee's formula, accurate for the small triangles of fine meshes).
inline double triangle_area(const Vec3& a, const Vec3& b, const Vec3& c) {
  const double numerator = std::fabs(dot(a, cross(b, c)));
  const double denominator = 1.0 + dot(a, b) + dot(b, c) + dot(c, a);
  return 2.0 * std::atan2(numerator, denominator);
}

/// The circumcentre on the sphere of the triangle a, b, c: the unit vector equidistant
/// from the three, on their side of the sphere.
inline Vec3 circumcentre(const Vec3& a, const Vec3& b, const Vec3& c) {
  Vec3 v = cross(sub(b, a), sub(c, a));
  if (dot(v, add(add(a, b), c)) < 0) v = scale(-1.0, v);
  return normalize(v);
}

}  // namespace ferry::detail
