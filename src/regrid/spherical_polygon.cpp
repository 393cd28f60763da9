#include "regrid/spherical_polygon.hpp"

#include <algorithm>
#include <cmath>

namespace ferry::regrid::detail {

namespace {

// Where a point is against a plane through the centre.
enum class Side { Out, On, In };

Side side_of(double d) {
  if (d > kOnPlane) return Side::In;
  if (d < -kOnPlane) return Side::Out;
  return Side::On;
}

// asin(s) / s - 1 for the arc of sine s and cosine c (at most half a turn): a series
// for short arcs, where the quotient would lose its digits.
double arc_over_sine_minus_one(double s, double c) {
  if (c > 0 && s < 0.1) {
    const double s2 = s * s;
    return s2 * (1.0 / 6 + s2 * (3.0 / 40 + s2 * (5.0 / 112 + s2 * (35.0 / 1152 +
           s2 * (63.0 / 2816 + s2 * (231.0 / 13312 + s2 * (143.0 / 10240)))))));
  }
  return std::atan2(s, c) / s - 1;
}

// t - sin(t), by its series for small t.
double angle_less_sine(double t) {
  if (std::abs(t) < 0.1) {
    const double t2 = t * t;
    return t * t2 * (1.0 / 6 - t2 * (1.0 / 120 - t2 * (1.0 / 5040 - t2 * (1.0 / 362880))));
  }
  return t - std::sin(t);
}

// The first moment is half the integral of (x - o) cross dx around the polygon, for any
// fixed point o (the integral of dx vanishes); with o a corner every term is small and
// keeps its digits. The part of the great-circle edge a -> b: the arc is (a - o) x (b -
// a) as for a straight edge, plus (arc / sine - 1) a x (b - a) for its bulge.
Vec3 edge_moment(const Vec3& a, const Vec3& b, const Vec3& o) {
  const Vec3 step = b - a;
  const Vec3 twice_cross = cross(a - b, a + b);  // 2 a x b = 2 a x (b - a)
  const double sine = length(twice_cross) / 2;
  if (sine == 0) return {0, 0, 0};
  const double bulge = arc_over_sine_minus_one(sine, dot(a, b));
  return 0.5 * (cross(a - o, step) + (bulge / 2) * twice_cross);
}

// Signed longitude difference (radians) from p to q the shorter way round.
double longitude_step(const Vec3& p, const Vec3& q) {
  return std::atan2(p.x * q.y - p.y * q.x, p.x * q.x + p.y * q.y);
}

// The sliver between the parallel edge p -> q and the great circle through its ends,
// as the parallel edge's correction of the polygon with a great-circle edge there.
double parallel_sliver(const Vec3& p, const Vec3& q) {
  const double s = p.z;
  const double cross_z = p.x * q.y - p.y * q.x;
  const double dot_xy = p.x * q.x + p.y * q.y;
  const double step = small_atan2(cross_z, dot_xy);
  if (s == 0 || step == 0) return 0;
  // The edge bulges away from its pole: a sliver of the cell on its equator side
  // when it runs east in the north (or west in the south), outside it otherwise.
  const double sign = (step > 0) == (s > 0) ? 1 : -1;
  const double abs_s = std::abs(s);
  const double c2 = (1 - s) * (1 + s);
  // The cap sector between the parallel and the pole, less the great-circle triangle
  // of the pole and the two ends: isosceles, its sides the colatitude x, tan^2(x / 2)
  // = (1 - cos x) / (1 + cos x), its angle at the pole the step.
  const double t2 = (1 - abs_s) / (1 + abs_s);
  const double sector = std::abs(step) * (1 - abs_s);
  const double triangle =
      2 * small_atan2(t2 * (std::abs(cross_z) / c2), 1 + t2 * (dot_xy / c2));
  return sign * (sector - triangle);
}

// The part of the parallel edge p -> q in the first moment (see edge_moment): the
// integral of (x - p) x dx along it is c^2 (t - sin t) times the pole's axis (c the
// radius of the parallel, t the signed longitude step), plus (p - o) x (q - p).
Vec3 parallel_moment(const Vec3& p, const Vec3& q, const Vec3& o) {
  const double c2 = (1 - p.z) * (1 + p.z);
  const Vec3 along{0, 0, c2 * angle_less_sine(longitude_step(p, q))};
  return 0.5 * (along + cross(p - o, q - p));
}

// The z component of p x q: the sine of the longitude step from p to q times the
// radii of their parallels.
double cross_z(const Vec3& p, const Vec3& q) { return p.x * q.y - p.y * q.x; }

// The points where the parallel edge p -> q (at z = p.z, the shorter way round) meets
// the plane `normal`, strictly inside the edge (by a margin of about 1e-15 radians of
// longitude), in their order along it; returns how many (0 to 2). On the parallel the
// plane is the line normal_xy . x = -normal.z z, which meets the circle of radius c in
// the foot of its perpendicular plus or minus a half chord: one square root, no angle.
// The points depend on the plane and the parallel only (both signs of the normal give
// the same two), so edges shared by two subjects get the same bits.
int parallel_crossings(const Vec3& p, const Vec3& q, const Vec3& normal, Vec3 at[2]) {
  const double s = p.z;
  const double h2 = normal.x * normal.x + normal.y * normal.y;
  if (h2 == 0) return 0;
  const double c2 = (1 - s) * (1 + s);
  const double foot = -normal.z * s;
  const double chord2 = c2 * h2 - foot * foot;
  if (!(chord2 > 0)) return 0;
  const double half = std::sqrt(chord2);
  const Vec3 points[2] = {
      {(normal.x * foot - normal.y * half) / h2, (normal.y * foot + normal.x * half) / h2, s},
      {(normal.x * foot + normal.y * half) / h2, (normal.y * foot - normal.x * half) / h2, s}};
  // u lies strictly between p and q (an arc under half a turn) when p x u and u x q
  // turn the way p x q does.
  const double turn = cross_z(p, q);
  const double margin = 1e-15 * c2;
  int count = 0;
  for (const Vec3& u : points) {
    const double from_p = cross_z(p, u);
    const double to_q = cross_z(u, q);
    if (turn >= 0 ? from_p > margin && to_q > margin : from_p < -margin && to_q < -margin)
      at[count++] = u;
  }
  if (count < 2) return count;
  // A plane touching the parallel: its two points may round to one.
  if (at[0].x == at[1].x && at[0].y == at[1].y) return 1;
  if ((cross_z(at[0], at[1]) >= 0) != (turn >= 0)) std::swap(at[0], at[1]);
  return 2;
}

// The signed distance to the plane `normal` of the middle of the parallel arc u -> v
// (at z = u.z, under half a turn).
double parallel_middle_distance(const Vec3& u, const Vec3& v, const Vec3& normal) {
  const double s = u.z;
  const double mx = u.x + v.x;
  const double my = u.y + v.y;
  const double scale = std::sqrt((1 - s) * (1 + s) / (mx * mx + my * my));
  return (normal.x * mx + normal.y * my) * scale + normal.z * s;
}

// Whether the parallel edge p -> q may cross the plane `normal` other than as a
// great-circle edge would (once, between ends on different sides): its ends on
// different sides, or on the same side with the edge's point nearest to (or farthest
// from) the plane between them, at the longitude of the plane's normal or opposite.
bool parallel_may_cross(const Vec3& p, const Vec3& q, const Vec3& normal, Side sa, Side sb) {
  if ((sa == Side::Out) != (sb == Side::Out)) return true;
  // The edge runs the shorter way round: a direction u lies within it if it is
  // between p and q in the plane z = 0.
  const double turn = p.x * q.y - p.y * q.x;
  auto within = [&](double ux, double uy) {
    const double from_p = p.x * uy - p.y * ux;
    const double to_q = ux * q.y - uy * q.x;
    return turn >= 0 ? from_p > 0 && to_q > 0 : from_p < 0 && to_q < 0;
  };
  // Both out: does the edge reach in where it is nearest? Else: does it reach out where
  // it is farthest? Most edges do not pass that point at all: the direction test comes
  // first, so that they cost no square root.
  const bool out = sa == Side::Out;
  if (out ? !within(normal.x, normal.y) : !within(-normal.x, -normal.y)) return false;
  const double c = std::sqrt((1 - p.z) * (1 + p.z));
  const double amplitude = c * std::hypot(normal.x, normal.y);
  const double offset = normal.z * p.z;
  return out ? amplitude + offset > kOnPlane : offset - amplitude < -kOnPlane;
}

// Whether n corners bound a region: 3 or more, or 2 joined by a parallel and a great
// circle (the sliver between a parallel and a great circle crossing it twice).
bool bounds_region(const PolygonCorner* corners, std::size_t n) {
  if (n >= 3) return true;
  return n == 2 &&
         (corners[0].next == EdgeKind::Parallel || corners[1].next == EdgeKind::Parallel);
}

// The great-circle part of polygon_area: the fan of triangles from the first corner,
// point(i) the i-th of n corners.
template <class Point>
double fan_area(std::size_t n, Point point) {
  // Each fan triangle's area is 2 atan2(t, d) (Van Oosterom and Strackee, the triple
  // product from corner differences); the sum of the angles is the argument of the
  // product of the d + i t, scaled by 1/4 (d is near 4 for small triangles).
  const Vec3& a = point(0);
  double re = 1;
  double im = 0;
  for (std::size_t i = 1; i + 1 < n; ++i) {
    const Vec3& b = point(i);
    const Vec3& c = point(i + 1);
    const double t = dot(a, cross(b - a, c - a)) / 4;
    const double d = (1 + dot(a, b) + dot(b, c) + dot(c, a)) / 4;
    const double next_re = re * d - im * t;
    im = re * t + im * d;
    re = next_re;
  }
  return 2 * small_atan2(im, re);
}

}  // namespace

double polygon_area(const PolygonCorner* corners, std::size_t n) {
  if (n < 2) return 0;
  double area = fan_area(n, [corners](std::size_t i) -> const Vec3& { return corners[i].p; });
  for (std::size_t i = 0; i < n; ++i)
    if (corners[i].next == EdgeKind::Parallel)
      area += parallel_sliver(corners[i].p, corners[(i + 1) % n].p);
  return area;
}

double great_circle_area(const Vec3* corners, std::size_t n) {
  if (n < 2) return 0;
  return fan_area(n, [corners](std::size_t i) -> const Vec3& { return corners[i]; });
}

Vec3 polygon_moment(const PolygonCorner* corners, std::size_t n) {
  Vec3 moment{0, 0, 0};
  if (n < 2) return moment;
  const Vec3& o = corners[0].p;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3& a = corners[i].p;
    const Vec3& b = corners[(i + 1) % n].p;
    moment = moment + (corners[i].next == EdgeKind::Parallel ? parallel_moment(a, b, o)
                                                             : edge_moment(a, b, o));
  }
  return moment;
}

std::size_t PolygonClipper::clip_by_plane(const PolygonCorner* in, std::size_t n,
                                          const Vec3& normal, PolygonCorner* out, bool& cut) {
  // Corners are first collected with the kind of the edge they were reached by; an
  // edge along the plane (a bridge from an exit to the next entry) is a great circle.
  // Each corner's distance to the plane, once.
  double* distance = distance_.data();
  bool all_in = true;
  for (std::size_t i = 0; i < n; ++i) {
    distance[i] = dot(normal, in[i].p);
    all_in = all_in && distance[i] > kOnPlane;
  }
  // Most planes cut nothing: every corner inside and no parallel edge reaching out.
  // The walk below would then give each corner with its edge, starting from the
  // second: the same, copied.
  for (std::size_t i = 0; all_in && i < n; ++i)
    all_in = in[i].next == EdgeKind::GreatCircle ||
             !parallel_may_cross(in[i].p, in[i + 1 == n ? 0 : i + 1].p, normal, Side::In,
                                 Side::In);
  if (all_in) {
    std::copy(in + 1, in + n, out);
    out[n - 1] = in[0];
    return n;
  }
  std::size_t m = 0;
  // Field by field: a whole PolygonCorner built and copied waits on its own stores.
  auto reach = [&](const Vec3& p, EdgeKind by) {
    out[m].p = p;
    out[m].next = by;
    ++m;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = i + 1 == n ? 0 : i + 1;
    const PolygonCorner& a = in[i];
    const PolygonCorner& b = in[j];
    const double da = distance[i];
    const double db = distance[j];
    const Side sa = side_of(da);
    const Side sb = side_of(db);
    if (sa == Side::Out) cut = true;
    if (a.next == EdgeKind::GreatCircle || !parallel_may_cross(a.p, b.p, normal, sa, sb)) {
      if ((sa == Side::In && sb == Side::Out) || (sa == Side::Out && sb == Side::In)) {
        // The same formula for a -> b and b -> a: a positive combination of the ends.
        const Vec3 x = da > db ? unit(da * b.p - db * a.p) : unit(db * a.p - da * b.p);
        reach(x, EdgeKind::GreatCircle);
      }
      if (sb != Side::Out) reach(b.p, sa == Side::Out ? EdgeKind::GreatCircle : a.next);
      continue;
    }
    // A parallel may meet the plane twice: split it where it does and walk the parts.
    cut = true;
    Vec3 at[2];
    const int cuts = parallel_crossings(a.p, b.p, normal, at);
    bool inside = sa != Side::Out;
    for (int part = 0; part <= cuts; ++part) {
      const Vec3& from = part == 0 ? a.p : at[part - 1];
      const Vec3& to = part == cuts ? b.p : at[part];
      const bool part_inside = parallel_middle_distance(from, to, normal) >= -kOnPlane;
      if (part_inside && !inside) reach(from, EdgeKind::GreatCircle);
      if (!part_inside && inside && part > 0) reach(from, EdgeKind::Parallel);
      inside = part_inside;
    }
    if (inside)
      reach(b.p, EdgeKind::Parallel);
    else if (sb == Side::On)
      reach(b.p, EdgeKind::GreatCircle);
  }
  // Each corner's kind becomes that of the edge leaving it: the kind the next corner
  // was reached by.
  if (m == 0) return 0;
  const EdgeKind first = out[0].next;
  for (std::size_t k = 0; k + 1 < m; ++k) out[k].next = out[k + 1].next;
  out[m - 1].next = first;
  return m;
}

ClippedPolygon PolygonClipper::clip(const PolygonCorner* subject, std::size_t n,
                                    const Vec3* normals, std::size_t m, bool& cut) {
  if (current_.size() < n) current_.resize(n);
  std::copy(subject, subject + n, current_.begin());
  std::size_t count = n;
  cut = false;
  for (std::size_t k = 0; k < m && bounds_region(current_.data(), count); ++k) {
    if (next_.size() < 3 * count) next_.resize(3 * count);
    if (distance_.size() < count) distance_.resize(count);
    count = clip_by_plane(current_.data(), count, normals[k], next_.data(), cut);
    std::swap(current_, next_);
  }
  if (!bounds_region(current_.data(), count)) count = 0;
  return {current_.data(), count};
}

}  // namespace ferry::regrid::detail
