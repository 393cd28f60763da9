// Deterministic TimeSeriesBuffer scenarios: reads across the ring's wrap-around,
// readers attached late, readers waiting while the requester closes, and a
// capacity given in bytes. Ranks order their moves with barriers on the world.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <thread>
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

const std::vector<std::int64_t> kShape{12, 10};

void barrier() { MPI_Barrier(MPI_COMM_WORLD); }

// The first topology for this world size: every rank takes part.
Topology topology() { return buffer_test::topologies(buffer_test::world_size()).front(); }

// The pieces a worker box is cut into: requester boxes it meets.
int pieces(const Topology& t, const ferry::Box& box) {
  int count = 0;
  for (int i = 0; i < t.requesters; ++i) {
    const ferry::Box r = buffer_test::requester_box(kShape, t.requesters, i);
    bool meets = true;
    for (std::size_t d = 0; d < kShape.size(); ++d)
      meets = meets && std::max(r.start[d], box.start[d]) < std::min(r.end[d], box.end[d]);
    count += meets ? 1 : 0;
  }
  return count;
}

// A worker box that crosses every requester boundary, different per worker rank.
ferry::Box worker_box(int index) { return {{1 + index, 2}, {11, 9 - index}}; }

TimeSeriesBuffer make_buffer(const Topology& t, const Role& role, BufferMode mode,
                             Capacity capacity) {
  if (!role.requester) return TimeSeriesBuffer::connect(MPI_COMM_WORLD, role.group);
  return TimeSeriesBuffer::expose(MPI_COMM_WORLD, kShape,
                                  buffer_test::requester_box(kShape, t.requesters, role.index),
                                  Datatype::Float64, capacity, mode);
}

void load_steps(TimeSeriesBuffer& buffer, const Topology& t, const Role& role, std::int64_t first,
                std::int64_t last) {
  const ferry::Box box = buffer_test::requester_box(kShape, t.requesters, role.index);
  for (std::int64_t step = first; step < last; ++step)
    buffer.load(buffer_test::step_values<double>(kShape, box, step).data(), step);
}

void expect_steps(const ferry::TimeSeriesReader& reader, const ferry::Box& box,
                  const std::vector<double>& out, std::int64_t first, std::int64_t count) {
  ASSERT_EQ(static_cast<std::int64_t>(reader.steps().size()), count);
  const std::int64_t n = reader.values_per_step();
  for (std::int64_t i = 0; i < count; ++i) {
    EXPECT_EQ(reader.steps()[static_cast<std::size_t>(i)], first + i);
    const auto want = buffer_test::step_values<double>(kShape, box, first + i);
    const std::vector<double> got(out.begin() + i * n, out.begin() + (i + 1) * n);
    EXPECT_EQ(got, want) << "step " << first + i;
  }
}

TEST(BufferScenarios, ReadAcrossTheWrapAroundTakesTwoGetsPerPiece) {
  const Topology t = topology();
  Role role(t);
  auto buffer = make_buffer(t, role, BufferMode::Lossless, Capacity::steps(5));
  if (role.requester) {
    load_steps(buffer, t, role, 0, 3);  // slots 0-2
    barrier();
    barrier();                          // the workers read loads 0-2
    load_steps(buffer, t, role, 3, 8);  // slots 3, 4, 0, 1, 2
    barrier();
    buffer.close();
    return;
  }
  const ferry::Box box = worker_box(role.index);
  auto reader = buffer.attach(role.worker_comm, box);
  std::vector<double> out(static_cast<std::size_t>(5 * reader.values_per_step()));
  barrier();
  auto r = reader.read(out.data(), 5);
  EXPECT_EQ(r.first_step, 0);
  EXPECT_EQ(r.n_steps, 3);
  expect_steps(reader, box, out, 0, 3);
  const std::int64_t gets_before = reader.statistics().data_gets;
  EXPECT_EQ(gets_before, pieces(t, box)) << "one get per piece for a run of slots";
  barrier();
  barrier();
  r = reader.read(out.data(), 5);
  EXPECT_EQ(r.first_step, 3);
  EXPECT_EQ(r.n_steps, 5);
  expect_steps(reader, box, out, 3, 5);
  EXPECT_EQ(reader.statistics().data_gets - gets_before, 2 * pieces(t, box))
      << "two gets per piece across the wrap-around";
  r = reader.read(out.data(), 5);
  EXPECT_EQ(r.n_steps, 0) << "the stream ended";
  reader.done();
}

TEST(BufferScenarios, LosslessReaderAttachedLateGetsEveryStep) {
  const Topology t = topology();
  Role role(t);
  auto buffer = make_buffer(t, role, BufferMode::Lossless, Capacity::steps(3));
  if (role.requester) {
    load_steps(buffer, t, role, 0, 10);  // waits from load 3 on until the group attaches
    buffer.close();
    return;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const ferry::Box box = worker_box(role.index);
  auto reader = buffer.attach(role.worker_comm, box);
  std::vector<double> out(static_cast<std::size_t>(10 * reader.values_per_step()));
  std::int64_t next = 0;
  while (true) {
    const auto r = reader.read(out.data(), 10);
    if (r.n_steps == 0) break;
    EXPECT_EQ(r.first_step, next);
    EXPECT_EQ(r.lost_steps, 0);
    expect_steps(reader, box, out, next, r.n_steps);
    next += r.n_steps;
  }
  EXPECT_EQ(next, 10);
  reader.done();
}

TEST(BufferScenarios, LossyReaderAttachedLateStartsAtTheOldestStepKept) {
  const Topology t = topology();
  Role role(t);
  auto buffer = make_buffer(t, role, BufferMode::Lossy, Capacity::steps(3));
  if (role.requester) {
    load_steps(buffer, t, role, 0, 10);  // never waits: loads 7, 8, 9 stay
    barrier();
    barrier();
    buffer.close();
    return;
  }
  barrier();
  const ferry::Box box = worker_box(role.index);
  auto reader = buffer.attach(role.worker_comm, box);
  std::vector<double> out(static_cast<std::size_t>(10 * reader.values_per_step()));
  const auto r = reader.read(out.data(), 10);
  EXPECT_EQ(r.first_step, 7);
  EXPECT_EQ(r.n_steps, 3);
  EXPECT_EQ(r.lost_steps, 0) << "steps gone before attach are not lost by this reader";
  expect_steps(reader, box, out, 7, 3);
  barrier();
  EXPECT_EQ(reader.read(out.data(), 10).n_steps, 0);
  reader.done();
}

TEST(BufferScenarios, RequesterClosingWhileReadersWait) {
  const Topology t = topology();
  Role role(t);
  for (const std::int64_t loads : {2, 0}) {
    auto buffer = make_buffer(t, role, BufferMode::Lossless, Capacity::steps(4));
    if (role.requester) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));  // readers are waiting
      load_steps(buffer, t, role, 0, loads);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      buffer.close();
      continue;
    }
    const ferry::Box box = worker_box(role.index);
    auto reader = buffer.attach(role.worker_comm, box);
    std::vector<double> out(static_cast<std::size_t>(4 * reader.values_per_step()));
    std::int64_t got = 0;
    for (auto r = reader.read(out.data(), 4); r.n_steps > 0; r = reader.read(out.data(), 4)) {
      expect_steps(reader, box, out, got, r.n_steps);
      got += r.n_steps;
    }
    EXPECT_EQ(got, loads);
    EXPECT_TRUE(reader.steps().empty());
    reader.done();
  }
}

TEST(BufferScenarios, CapacityInBytesFitsTheLargestRequesterBox) {
  const Topology t = topology();
  Role role(t);
  std::int64_t largest = 0;
  for (int i = 0; i < t.requesters; ++i) {
    const ferry::Box box = buffer_test::requester_box(kShape, t.requesters, i);
    largest = std::max(largest, buffer_test::volume(box));
  }
  const std::int64_t bytes = 3 * largest * static_cast<std::int64_t>(sizeof(double)) + 7;
  auto buffer = make_buffer(t, role, BufferMode::Lossy, Capacity::bytes(bytes));
  EXPECT_EQ(buffer.capacity_steps(), 3);
  EXPECT_EQ(buffer.is_requester(), role.requester);
  EXPECT_EQ(buffer.global_shape(), kShape);
  EXPECT_EQ(buffer.type(), Datatype::Float64);
  EXPECT_EQ(buffer.mode(), BufferMode::Lossy);
  if (role.requester) buffer.close();
}

}  // namespace
