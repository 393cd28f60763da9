// Checks the online-weight tests share: a rank's rows applied to a field every rank
// knows, sums over ranks, and the same bits as other weights or a serial run.
#pragma once

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

#include "ferry/weights.hpp"

namespace regrid_test {

/// This rank's rows of `w` applied to a source field known on every rank.
inline std::vector<double> remap_rows(const ferry::Weights& w, const std::vector<double>& field) {
  std::vector<double> out;
  for (std::int64_t r = 0; r < w.row_count(); ++r) {
    double sum = 0;
    for (auto k = w.row_start()[static_cast<std::size_t>(r)];
         k < w.row_start()[static_cast<std::size_t>(r) + 1]; ++k)
      sum += w.values()[static_cast<std::size_t>(k)] *
             field[static_cast<std::size_t>(w.cols()[static_cast<std::size_t>(k)])];
    out.push_back(sum);
  }
  return out;
}

inline double sum_over_ranks(double local) {
  double total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

/// Two weights on the same communicator hold the same bits: links, areas, fractions, masks.
inline void expect_same_bits(const ferry::Weights& a, const ferry::Weights& b) {
  EXPECT_EQ(a.row_start(), b.row_start());
  EXPECT_EQ(a.cols(), b.cols());
  EXPECT_EQ(a.values(), b.values());
  for (const auto& [x, y] : {std::pair{&a.src_points(), &b.src_points()},
                             std::pair{&a.dst_points(), &b.dst_points()}}) {
    EXPECT_EQ(x->area, y->area);
    EXPECT_EQ(x->frac, y->frac);
    EXPECT_EQ(x->mask, y->mask);
  }
}

/// `w` holds exactly its part of `all` (the same weights computed on one rank): the
/// same links and bits in its rows, the same point data in its blocks.
inline void expect_part_of(const ferry::Weights& all, const ferry::Weights& w) {
  const std::int64_t first = w.first_row();
  const auto begin = all.row_start()[static_cast<std::size_t>(first)];
  const auto end = all.row_start()[static_cast<std::size_t>(first + w.row_count())];
  std::vector<std::int64_t> starts;
  for (std::int64_t r = first; r <= first + w.row_count(); ++r)
    starts.push_back(all.row_start()[static_cast<std::size_t>(r)] - begin);
  EXPECT_EQ(w.row_start(), starts);
  EXPECT_EQ(w.cols(), std::vector<std::int64_t>(all.cols().begin() + begin, all.cols().begin() + end));
  EXPECT_EQ(w.values(), std::vector<double>(all.values().begin() + begin, all.values().begin() + end));
  auto block = [](const std::vector<double>& v, std::int64_t at, std::size_t n) {
    return std::vector<double>(v.begin() + at, v.begin() + at + static_cast<std::ptrdiff_t>(n));
  };
  for (const auto& [mine, whole, at] :
       {std::tuple{&w.src_points(), &all.src_points(), w.first_src_point()},
        std::tuple{&w.dst_points(), &all.dst_points(), first}}) {
    if (mine->frac) EXPECT_EQ(*mine->frac, block(*whole->frac, at, mine->frac->size()));
    if (mine->area) EXPECT_EQ(*mine->area, block(*whole->area, at, mine->area->size()));
  }
}

}  // namespace regrid_test
