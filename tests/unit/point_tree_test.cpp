// PointTree's k nearest against a brute-force search: random points, clusters, exact
// duplicates (ties broken by id), a pole row (many copies of one point), queries on
// points, between them, antipodal to them, and with a distance bound; answers appended
// after what the output already holds. IdSet, which the bilinear search uses for the
// ids near the found points: ids ascending and each id's place among them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "regrid/id_set.hpp"
#include "regrid/point_tree.hpp"
#include "regrid/sphere_vector.hpp"

namespace {

using ferry::regrid::detail::chord2;
using ferry::regrid::detail::IdSet;
using ferry::regrid::detail::kRadiansPerDegree;
using ferry::regrid::detail::Neighbour;
using ferry::regrid::detail::nearer;
using ferry::regrid::detail::PointTree;
using ferry::regrid::detail::SpherePoint;

SpherePoint at(double lon, double lat, std::int64_t id) {
  const double l = lon * kRadiansPerDegree;
  const double p = lat * kRadiansPerDegree;
  return {{std::cos(p) * std::cos(l), std::cos(p) * std::sin(l), std::sin(p)}, id};
}

std::vector<Neighbour> brute_force(const std::vector<SpherePoint>& points, const double q[3], int k,
                                   double bound2) {
  std::vector<Neighbour> all;
  for (const SpherePoint& p : points) {
    const double d2 = chord2(q, p.xyz);
    if (d2 <= bound2) all.push_back({p.id, d2});
  }
  std::sort(all.begin(), all.end(), nearer);
  if (all.size() > static_cast<std::size_t>(k)) all.resize(static_cast<std::size_t>(k));
  return all;
}

// A 2-degree grid, a tight cluster, duplicated points and a pole row of 90 copies.
std::vector<SpherePoint> awkward_points() {
  std::vector<SpherePoint> points;
  std::int64_t id = 0;
  for (int j = -89; j < 90; j += 2)
    for (int i = 0; i < 360; i += 2) points.push_back(at(i, j, id++));
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> small(-1e-6, 1e-6);
  for (int n = 0; n < 200; ++n) points.push_back(at(10 + small(random), 20 + small(random), id++));
  for (int n = 0; n < 50; ++n) points.push_back(points[static_cast<std::size_t>(n * 37)]), points.back().id = id++;
  for (int i = 0; i < 90; ++i) points.push_back(at(i * 4, 90, id++));
  return points;
}

TEST(PointTree, NearestEqualsBruteForce) {
  const std::vector<SpherePoint> points = awkward_points();
  const PointTree tree(points);
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> lon(-180, 180), sin_lat(-1, 1);
  std::vector<SpherePoint> queries;
  for (int n = 0; n < 200; ++n)
    queries.push_back(at(lon(random), std::asin(sin_lat(random)) / kRadiansPerDegree, -1));
  for (std::size_t n = 0; n < points.size(); n += 97) queries.push_back(points[n]);  // on points
  for (std::size_t n = 0; n < points.size(); n += 131) {  // antipodes
    SpherePoint a = points[n];
    for (double& x : a.xyz) x = -x;
    queries.push_back(a);
  }
  queries.push_back(at(10, 20, -1));   // in the cluster
  queries.push_back(at(0, 90, -1));    // on the pole row
  queries.push_back(at(33, 89.9, -1)); // next to it
  for (int k : {1, 4, 9, 40}) {
    for (double bound2 : {std::numeric_limits<double>::infinity(), 1e-3, 0.0}) {
      for (const SpherePoint& q : queries) {
        std::vector<Neighbour> found;
        tree.nearest(q.xyz, k, bound2, found);
        const std::vector<Neighbour> expected = brute_force(points, q.xyz, k, bound2);
        ASSERT_EQ(found.size(), expected.size()) << "k " << k << " bound2 " << bound2;
        for (std::size_t i = 0; i < found.size(); ++i) {
          EXPECT_EQ(found[i].id, expected[i].id) << "k " << k << " bound2 " << bound2 << " rank " << i;
          EXPECT_EQ(found[i].d2, expected[i].d2);
        }
      }
    }
  }
}

TEST(PointTree, EmptyAndTinyTrees) {
  std::vector<Neighbour> found;
  const double q[3] = {1, 0, 0};
  PointTree({}).nearest(q, 3, 4, found);
  EXPECT_TRUE(found.empty());
  const PointTree one({at(180, 0, 5)});  // antipodal to the query
  one.nearest(q, 3, 4, found);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].id, 5);
}

TEST(PointTree, AnswersAreAppendedAfterWhatTheOutputHolds) {
  std::vector<SpherePoint> points;
  for (int i = 0; i < 200; ++i) points.push_back(at(i * 1.7, -80 + i * 0.8, i));
  const PointTree tree(points);
  const SpherePoint q = at(40, 10, -1);
  std::vector<Neighbour> alone;
  tree.nearest(q.xyz, 5, 4, alone);
  // Held entries nearer and farther than any answer stay untouched in front of them.
  std::vector<Neighbour> found{{-7, 0.0}, {-8, 5.0}};
  tree.nearest(q.xyz, 5, 4, found);
  ASSERT_EQ(found.size(), 7u);
  EXPECT_EQ(found[0].id, -7);
  EXPECT_EQ(found[1].id, -8);
  const std::vector<Neighbour> expected = brute_force(points, q.xyz, 5, 4);
  ASSERT_EQ(alone.size(), expected.size());
  for (std::size_t i = 0; i < alone.size(); ++i) {
    EXPECT_EQ(alone[i].id, expected[i].id);
    EXPECT_EQ(found[i + 2].id, alone[i].id);
    EXPECT_EQ(found[i + 2].d2, alone[i].d2);
  }
}

TEST(IdSet, ListsTheMarkedIdsAscendingWithTheirPlaces) {
  // A range that starts off zero and spans several words; ids marked out of order,
  // some twice, on both ends of the range and of words.
  const std::int64_t first = 1000;
  IdSet set(first, 300);
  const std::vector<std::int64_t> marked{1299, 1000, 1063, 1064, 1150, 1063, 1127, 1128, 1000};
  for (std::int64_t id : marked) set.insert(id);
  std::vector<std::int64_t> expected = marked;
  std::sort(expected.begin(), expected.end());
  expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
  EXPECT_TRUE(set.contains(1150));
  EXPECT_FALSE(set.contains(1151));
  EXPECT_EQ(set.ids(), expected);
  for (std::size_t k = 0; k < expected.size(); ++k) EXPECT_EQ(set.position(expected[k]), k);
  IdSet empty(5, 0);
  EXPECT_TRUE(empty.ids().empty());
}

}  // namespace
