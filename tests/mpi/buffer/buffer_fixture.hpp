// Shared pieces of the time-series buffer tests: who is requester or worker, how
// the requester ranks cut the array, the value every point holds at every step,
// and random boxes and pauses.
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "ferry/time_series_buffer.hpp"

namespace buffer_test {

inline int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
inline int world_size() {
  int s = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

/// The first `requesters` ranks of the world are the requester; the others form
/// worker groups of the given sizes, in rank order.
struct Topology {
  int requesters = 1;
  std::vector<int> groups;
  std::string name() const {
    std::string text = std::to_string(requesters) + " requester(s), groups";
    for (int g : groups) text += " " + std::to_string(g);
    return text;
  }
};

/// Every split of `ranks` ranks into 1-4 requester ranks and worker groups of 1-3
/// ranks that these tests use (some with two groups).
inline std::vector<Topology> topologies(int ranks) {
  switch (ranks) {
    case 2: return {{1, {1}}};
    case 3: return {{2, {1}}, {1, {2}}, {1, {1, 1}}};
    case 4: return {{3, {1}}, {2, {2}}, {1, {3}}, {2, {1, 1}}};
    case 5: return {{4, {1}}, {3, {2}}, {2, {3}}, {1, {2, 2}}};
    default: return {};
  }
}

/// This rank's part in a topology.
struct Role {
  bool requester = false;
  int index = 0;  ///< requester index, or rank in the worker group
  int group = -1;
  MPI_Comm worker_comm = MPI_COMM_NULL;  ///< the group's ranks (owned; freed by the destructor)

  explicit Role(const Topology& t) {
    const int rank = world_rank();
    requester = rank < t.requesters;
    index = rank;
    if (!requester) {
      int first = t.requesters;
      for (std::size_t g = 0; g < t.groups.size(); ++g) {
        if (rank < first + t.groups[g]) {
          group = static_cast<int>(g);
          index = rank - first;
          break;
        }
        first += t.groups[g];
      }
    }
    MPI_Comm_split(MPI_COMM_WORLD, requester ? MPI_UNDEFINED : group, rank, &worker_comm);
  }
  Role(const Role&) = delete;
  Role& operator=(const Role&) = delete;
  ~Role() {
    if (worker_comm != MPI_COMM_NULL) MPI_Comm_free(&worker_comm);
  }
};

/// Part `part` of `parts` near-equal blocks of [0, n).
inline std::int64_t block_start(std::int64_t n, int parts, int part) {
  return n * part / parts;
}

/// Requester `index` of `count`: the array cut into a px x py grid of blocks over
/// the first two dimensions (px the largest divisor of count <= sqrt(count)); a
/// 1-D array is cut into `count` slabs.
inline ferry::Box requester_box(const std::vector<std::int64_t>& shape, int count, int index) {
  ferry::Box box{std::vector<std::int64_t>(shape.size(), 0), shape};
  int px = count;
  int py = 1;
  if (shape.size() > 1) {
    px = 1;
    for (int d = 1; d * d <= count; ++d)
      if (count % d == 0) px = d;
    py = count / px;
  }
  const int bx = index % px;
  const int by = index / px;
  box.start[0] = block_start(shape[0], px, bx);
  box.end[0] = block_start(shape[0], px, bx + 1);
  if (shape.size() > 1) {
    box.start[1] = block_start(shape[1], py, by);
    box.end[1] = block_start(shape[1], py, by + 1);
  }
  return box;
}

/// The value of the point with C-order index `gid` at `step`; below 2^24, so exact
/// in every element type.
inline std::int64_t value_at(std::int64_t gid, std::int64_t step) {
  return (gid * 131 + step * 7919) % 16777213;
}

/// Global C-order index of box-local index `i`.
inline std::int64_t global_index(const std::vector<std::int64_t>& shape, const ferry::Box& box,
                                 std::int64_t i) {
  std::int64_t gid = 0;
  std::int64_t rest = i;
  std::int64_t below = 1;
  std::vector<std::int64_t> local(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    const std::int64_t extent = box.end[d] - box.start[d];
    local[d] = rest % extent;
    rest /= extent;
  }
  for (std::size_t d = shape.size(); d-- > 0;) {
    gid += (box.start[d] + local[d]) * below;
    below *= shape[d];
  }
  return gid;
}

inline std::int64_t volume(const ferry::Box& box) {
  std::int64_t v = 1;
  for (std::size_t d = 0; d < box.start.size(); ++d) v *= box.end[d] - box.start[d];
  return v;
}

/// One step of `box` as values of type T.
template <class T>
std::vector<T> step_values(const std::vector<std::int64_t>& shape, const ferry::Box& box,
                           std::int64_t step) {
  std::vector<T> values(static_cast<std::size_t>(volume(box)));
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::int64_t gid = global_index(shape, box, static_cast<std::int64_t>(i));
    values[i] = static_cast<T>(value_at(gid, step));
  }
  return values;
}

/// A random box inside `shape`, empty about one time in ten.
inline ferry::Box random_box(const std::vector<std::int64_t>& shape, std::mt19937_64& rng) {
  ferry::Box box{std::vector<std::int64_t>(shape.size()), std::vector<std::int64_t>(shape.size())};
  const bool empty = rng() % 10 == 0;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    std::int64_t a = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(shape[d] + 1));
    std::int64_t b = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(shape[d] + 1));
    if (a > b) std::swap(a, b);
    if (a == b && !empty) {
      if (b < shape[d])
        ++b;
      else
        --a;
    }
    box.start[d] = a;
    box.end[d] = empty && d == 0 ? a : b;
  }
  return box;
}

/// Sleeps a random time in [0, max_us) microseconds (a slow producer or consumer).
inline void random_pause(std::mt19937_64& rng, int max_us) {
  if (max_us <= 0) return;
  std::this_thread::sleep_for(
      std::chrono::microseconds(static_cast<int>(rng() % static_cast<std::uint64_t>(max_us))));
}

}  // namespace buffer_test
