// Streams of steps through a TimeSeriesBuffer between 1-4 requester ranks and worker
// groups of 1-3 ranks reading random boxes, with random pauses on both sides.
// Every value read is checked against value_at(global index, step): lossless
// readers get every step exactly once, lossy readers lose exactly what they
// report and never get a torn step.
#include <gtest/gtest.h>
#include <mpi.h>

#include <random>
#include <utility>
#include <vector>

#include "buffer_fixture.hpp"
#include "ferry/time_series_buffer.hpp"

using buffer_test::Role;
using buffer_test::Topology;
using ferry::BufferMode;
using ferry::Capacity;
using ferry::Datatype;
using ferry::TimeSeriesBuffer;

namespace {

// Step k of every stream: increasing, not consecutive.
std::int64_t step_of(std::int64_t k) { return 5 + 3 * k; }

struct Stream {
  std::vector<std::int64_t> shape;
  BufferMode mode = BufferMode::Lossless;
  std::int64_t capacity = 3;
  int steps = 30;
  int producer_pause_us = 0;
  int consumer_pause_us = 0;
  std::uint64_t seed = 1;
};

// What a worker rank saw, checked as it reads.
struct Seen {
  std::int64_t next = 0;  // index of the step after the last one read
  std::int64_t steps = 0;
  std::int64_t lost = 0;
  int bad_values = 0;
};

template <class T>
void check_read(const Stream& s, const ferry::Box& box, const std::vector<T>& out,
                const ferry::TimeSeriesReader& reader, const ferry::ReadResult& r, bool first_read,
                Seen& seen) {
  const auto& steps = reader.steps();
  ASSERT_EQ(static_cast<std::int64_t>(steps.size()), r.n_steps);
  EXPECT_EQ(steps.front(), r.first_step);
  const std::int64_t first_index = (r.first_step - 5) / 3;
  EXPECT_EQ(step_of(first_index), r.first_step) << "not a step of the stream";
  if (first_read && s.mode == BufferMode::Lossy)
    EXPECT_LE(r.lost_steps, first_index) << "lost more than came before the first step read";
  else
    EXPECT_EQ(r.lost_steps, first_index - seen.next) << "lost count does not match the gap";
  if (s.mode == BufferMode::Lossless) EXPECT_EQ(r.lost_steps, 0);
  const std::int64_t per_step = reader.values_per_step();
  for (std::int64_t i = 0; i < r.n_steps; ++i) {
    EXPECT_EQ(steps[static_cast<std::size_t>(i)], step_of(first_index + i))
        << "steps of one read are not consecutive steps of the stream";
    for (std::int64_t v = 0; v < per_step && seen.bad_values < 5; ++v) {
      const T got = out[static_cast<std::size_t>(i * per_step + v)];
      const auto want = static_cast<T>(buffer_test::value_at(
          buffer_test::global_index(s.shape, box, v), steps[static_cast<std::size_t>(i)]));
      if (got != want) {
        ++seen.bad_values;
        ADD_FAILURE() << "step " << steps[static_cast<std::size_t>(i)] << ", value " << v
                      << " of box " << box.start[0] << ".." << box.end[0] << ": got " << got
                      << ", expected " << want << " (torn or misplaced data)";
      }
    }
  }
  seen.next = first_index + r.n_steps;
  seen.steps += r.n_steps;
  seen.lost += r.lost_steps;
}

template <class T>
void run_stream(const Topology& t, const Stream& s, Datatype type) {
  SCOPED_TRACE(t.name());
  Role role(t);
  std::mt19937_64 rng(s.seed * 7919 + static_cast<std::uint64_t>(buffer_test::world_rank()));
  if (role.requester) {
    const ferry::Box box = buffer_test::requester_box(s.shape, t.requesters, role.index);
    auto buffer = TimeSeriesBuffer::expose(MPI_COMM_WORLD, s.shape, box, type,
                                           Capacity::steps(s.capacity), s.mode);
    EXPECT_EQ(buffer.capacity_steps(), s.capacity);
    EXPECT_EQ(buffer.groups(), static_cast<int>(t.groups.size()));
    for (int k = 0; k < s.steps; ++k) {
      buffer_test::random_pause(rng, s.producer_pause_us);
      const std::vector<T> values = buffer_test::step_values<T>(s.shape, box, step_of(k));
      buffer.load(values.data(), step_of(k));
    }
    buffer.close();
    return;
  }
  auto buffer = TimeSeriesBuffer::connect(MPI_COMM_WORLD, role.group);
  const ferry::Box box = buffer_test::random_box(s.shape, rng);
  // The same max_steps on every rank of a group, different between groups.
  const std::int64_t max_steps = 1 + static_cast<std::int64_t>((s.seed + role.group) % 4);
  auto reader = buffer.attach(role.worker_comm, box);
  std::vector<T> out(static_cast<std::size_t>(max_steps * reader.values_per_step()));
  Seen seen;
  bool first_read = true;
  while (true) {
    const ferry::ReadResult r = reader.read(out.data(), max_steps);
    if (r.n_steps == 0) {
      EXPECT_EQ(r.lost_steps, s.steps - seen.next) << "lost count at the end of the stream";
      seen.lost += r.lost_steps;
      break;
    }
    EXPECT_LE(r.n_steps, max_steps);
    check_read(s, box, out, reader, r, first_read, seen);
    first_read = false;
    buffer_test::random_pause(rng, s.consumer_pause_us);
  }
  if (s.mode == BufferMode::Lossless) {
    EXPECT_EQ(seen.steps, s.steps) << "a lossless reader must get every step once";
  } else {
    EXPECT_EQ(reader.statistics().lost_steps, seen.lost);
    EXPECT_LE(seen.steps + seen.lost, s.steps);
  }
  EXPECT_EQ(reader.statistics().steps, seen.steps);
  reader.done();
}

// Runs a stream over every topology of this world size, cycling the dimensions and
// element types so each shape meets each kind of split.
void run_all(Stream s) {
  const auto all = buffer_test::topologies(buffer_test::world_size());
  if (all.empty()) GTEST_SKIP() << "no topology for this many ranks";
  const std::vector<std::vector<std::int64_t>> shapes = {{97}, {23, 17}, {9, 7, 5}};
  for (std::size_t i = 0; i < all.size(); ++i) {
    s.shape = shapes[(i + s.seed) % shapes.size()];
    s.seed += 11;
    switch ((i + s.seed) % 4) {
      case 0: run_stream<double>(all[i], s, Datatype::Float64); break;
      case 1: run_stream<float>(all[i], s, Datatype::Float32); break;
      case 2: run_stream<std::int32_t>(all[i], s, Datatype::Int32); break;
      default: run_stream<std::int64_t>(all[i], s, Datatype::Int64); break;
    }
  }
}

TEST(BufferStream, LosslessRandomSpeedsNeverLoseOrDuplicate) {
  Stream s;
  s.mode = BufferMode::Lossless;
  s.capacity = 3;
  s.steps = 40;
  s.producer_pause_us = 400;
  s.consumer_pause_us = 400;
  run_all(s);
}

TEST(BufferStream, LossyFastProducerLosesOnlyWhatItReports) {
  Stream s;
  s.mode = BufferMode::Lossy;
  s.capacity = 2;
  s.steps = 60;
  s.producer_pause_us = 100;
  s.consumer_pause_us = 1500;
  s.seed = 2;
  run_all(s);
}

TEST(BufferStream, CapacityOfOneSlot) {
  Stream s;
  s.capacity = 1;
  s.steps = 20;
  s.producer_pause_us = 300;
  s.consumer_pause_us = 300;
  s.seed = 3;
  run_all(s);
  s.mode = BufferMode::Lossy;
  run_all(s);
}

// A lossy reader racing a producer that never pauses, on a large box: the reads
// that overlap a rewrite must be detected (values are checked exactly either way).
Stream racing(std::vector<std::int64_t> shape, int steps, std::uint64_t seed) {
  Stream s;
  s.shape = std::move(shape);
  s.mode = BufferMode::Lossy;
  s.capacity = 2;
  s.steps = steps;
  s.seed = seed;
  return s;
}

TEST(BufferStream, LossyRacingProducerNeverReturnsTornSteps) {
  const auto all = buffer_test::topologies(buffer_test::world_size());
  if (all.empty()) GTEST_SKIP() << "no topology for this many ranks";
  run_stream<double>(all.front(), racing({300, 200}, 80, 4), Datatype::Float64);
}

// The same race on steps whose box is over 256 KiB on every requester rank, which
// load() copies with streaming stores, with slot sizes that are no multiple of a
// cache line (so most slots start and end inside a line); then a lossless stream.
TEST(BufferStream, StreamedSlotsNeverReturnTornSteps) {
  const auto all = buffer_test::topologies(buffer_test::world_size());
  if (all.empty()) GTEST_SKIP() << "no topology for this many ranks";
  Stream s = racing({523, 263}, 40, 5);
  run_stream<double>(all.front(), s, Datatype::Float64);
  s.mode = BufferMode::Lossless;
  s.capacity = 3;
  s.steps = 20;
  s.producer_pause_us = 300;
  s.consumer_pause_us = 300;
  run_stream<double>(all.back(), s, Datatype::Float64);
}

}  // namespace
