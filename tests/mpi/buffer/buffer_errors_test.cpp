// Bad use of a TimeSeriesBuffer fails with a clear ferry::Error: set-up errors the
// same on every rank of the collective call, per-rank errors on the rank at fault.
#include <gtest/gtest.h>
#include <mpi.h>

#include <functional>
#include <string>
#include <vector>

#include "buffer_fixture.hpp"
#include "ferry/time_series_buffer.hpp"
#include "test_support.hpp"

using buffer_test::world_rank;
using buffer_test::world_size;
using ferry::BufferMode;
using ferry::Capacity;
using ferry::Datatype;
using ferry::Errc;
using ferry::TimeSeriesBuffer;
using ferry_test::expect_error;
using ferry_test::expect_same_error_everywhere;

namespace {

const std::vector<std::int64_t> kShape{8, 6};

// Requester index `index` of `count`: rows cut into blocks.
ferry::Box rows(int count, int index) {
  return {{buffer_test::block_start(8, count, index), 0},
          {buffer_test::block_start(8, count, index + 1), 6}};
}

// Every rank of the world is a requester, each with its block of rows.
TimeSeriesBuffer expose_all(BufferMode mode = BufferMode::Lossless) {
  return TimeSeriesBuffer::expose(MPI_COMM_WORLD, kShape, rows(world_size(), world_rank()),
                                  Datatype::Float64, Capacity::steps(2), mode);
}

TEST(BufferErrors, ShapeWithFourDimensions) {
  expect_same_error_everywhere(
      [] {
        TimeSeriesBuffer::expose(MPI_COMM_WORLD, {2, 2, 2, 2}, {{0, 0, 0, 0}, {2, 2, 2, 2}},
                                 Datatype::Float64, Capacity::steps(2), BufferMode::Lossless);
      },
      Errc::Arg, "global shape has 4 dimensions, expected 1 to 3");
}

TEST(BufferErrors, BoxOutsideTheShapeOnOneRank) {
  const int last = world_size() - 1;
  expect_same_error_everywhere(
      [&] {
        ferry::Box box = rows(world_size(), world_rank());
        if (world_rank() == last) box.end[1] = 7;
        TimeSeriesBuffer::expose(MPI_COMM_WORLD, kShape, box, Datatype::Int32,
                                 Capacity::steps(2), BufferMode::Lossy);
      },
      Errc::Arg,
      "box of rank " + std::to_string(last) + " spans \\[0,7\\) in dimension 1, which does not "
      "lie in \\[0,6\\)");
}

TEST(BufferErrors, RequestersDisagreeOnTheShape) {
  if (world_size() < 2) GTEST_SKIP() << "needs two requester ranks";
  expect_same_error_everywhere(
      [&] {
        const std::vector<std::int64_t> shape{8, world_rank() == 1 ? 7 : 6};
        TimeSeriesBuffer::expose(MPI_COMM_WORLD, shape, rows(world_size(), world_rank()),
                                 Datatype::Float64, Capacity::steps(2), BufferMode::Lossless);
      },
      Errc::Arg, "requester rank 1 gives the global shape 8 x 7, requester rank 0 gives 8 x 6");
}

TEST(BufferErrors, CapacityInBytesBelowOneStep) {
  expect_same_error_everywhere(
      [&] {
        TimeSeriesBuffer::expose(MPI_COMM_WORLD, kShape, rows(world_size(), world_rank()),
                                 Datatype::Float64, Capacity::bytes(16), BufferMode::Lossless);
      },
      Errc::Arg, "capacity of 16 bytes per requester rank holds no step");
}

TEST(BufferErrors, NoRequester) {
  expect_same_error_everywhere([] { TimeSeriesBuffer::connect(MPI_COMM_WORLD, 0); }, Errc::Arg,
                               "no rank of the parent communicator called expose");
}

TEST(BufferErrors, WorkerGroupsWithAGap) {
  if (world_size() < 3) GTEST_SKIP() << "needs a requester and two workers";
  expect_same_error_everywhere(
      [] {
        if (world_rank() == 0) {
          TimeSeriesBuffer::expose(MPI_COMM_WORLD, kShape, {{0, 0}, {8, 6}}, Datatype::Float64,
                                   Capacity::steps(2), BufferMode::Lossless);
        } else {
          TimeSeriesBuffer::connect(MPI_COMM_WORLD, world_rank() == 1 ? 0 : 2);
        }
      },
      Errc::Arg, "worker group 1 has no ranks, but group 2 has");
}

TEST(BufferErrors, StepsMustStrictlyIncrease) {
  auto buffer = expose_all();
  const std::vector<double> values(static_cast<std::size_t>(
      buffer_test::volume(rows(world_size(), world_rank()))));
  buffer.load(values.data(), 10);
  expect_error([&] { buffer.load(values.data(), 10); }, Errc::Arg,
               "step 10 on requester rank [0-9]+ does not follow the previous step 10. Steps must "
               "strictly increase");
  expect_error([&] { buffer.load(values.data(), 3); }, Errc::Arg, "previous step 10");
  buffer.load(values.data(), 11);  // the buffer still works after a rejected step
  buffer.close();
  expect_error([&] { buffer.load(values.data(), 12); }, Errc::State, "loaded after close\\(\\)");
  expect_same_error_everywhere([&] { buffer.close(); }, Errc::State, "called twice");
}

TEST(BufferErrors, RequestersLoadedDifferentSteps) {
  if (world_size() < 2) GTEST_SKIP() << "needs two requester ranks";
  auto buffer = expose_all(BufferMode::Lossy);
  const std::vector<double> values(static_cast<std::size_t>(
      buffer_test::volume(rows(world_size(), world_rank()))));
  buffer.load(values.data(), 1);
  if (world_rank() == 0) buffer.load(values.data(), 2);
  expect_error([&] { buffer.close(); }, Errc::State,
               "requester ranks loaded between 1 and 2 steps");
}

TEST(BufferErrors, WorkerCannotLoadAndRequesterCannotAttach) {
  if (world_size() < 2) GTEST_SKIP() << "needs a requester and a worker";
  const bool requester = world_rank() == 0;
  auto buffer = requester ? TimeSeriesBuffer::expose(MPI_COMM_WORLD, kShape, {{0, 0}, {8, 6}},
                                                     Datatype::Float64, Capacity::steps(2),
                                                     BufferMode::Lossy)
                          : TimeSeriesBuffer::connect(MPI_COMM_WORLD, 0);
  if (!requester) {
    const double value = 0;
    expect_error([&] { buffer.load(&value, 0); }, Errc::State,
                 "connected as a worker \\(group 0\\). Only the ranks that called expose\\(\\)");
  }
  // The world holds the requester rank, so it is not a worker group's communicator.
  expect_same_error_everywhere([&] { buffer.attach(MPI_COMM_WORLD, {{0, 0}, {1, 1}}); },
                               Errc::State,
                               "rank 0 of the worker communicator is a requester rank");
  if (requester) buffer.close();
}

TEST(BufferErrors, AttachChecksBoxAndGroup) {
  if (world_size() < 3) GTEST_SKIP() << "needs a requester and a group of two workers";
  const int rank = world_rank();
  MPI_Comm workers = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 0, rank, &workers);
  // The requester holds rows 0-3 only.
  auto buffer = rank == 0 ? TimeSeriesBuffer::expose(MPI_COMM_WORLD, kShape, {{0, 0}, {4, 6}},
                                                     Datatype::Float64, Capacity::steps(2),
                                                     BufferMode::Lossless)
                          : TimeSeriesBuffer::connect(MPI_COMM_WORLD, 0);
  if (rank != 0) {
    expect_same_error_everywhere(
        [&] { buffer.attach(workers, {{2, 0}, {6, 6}}); }, Errc::Arg,
        "box \\[2,6\\) x \\[0,6\\) of worker rank 0 has 24 points, but the requester boxes hold 12",
        workers);
    expect_same_error_everywhere([&] { buffer.attach(workers, {{0}, {1}}); }, Errc::Arg,
                                 "has 1 start and 1 end indices, expected 2", workers);
    expect_error([&] { buffer.attach(MPI_COMM_SELF, {{0, 0}, {1, 1}}); }, Errc::State,
                 "the worker communicator has 1 ranks, but worker group 0 connected with " +
                     std::to_string(world_size() - 1));
    auto reader = buffer.attach(workers, {{0, 0}, {4, 6}});
    expect_same_error_everywhere([&] { buffer.attach(workers, {{0, 0}, {4, 6}}); }, Errc::State,
                                 "worker group 0 is already attached", workers);
    std::vector<double> out(24);
    expect_same_error_everywhere([&] { reader.read(out.data(), 0); }, Errc::Arg,
                                 "max_steps is 0 on worker rank 0", workers);
    reader.done();
    expect_same_error_everywhere([&] { reader.read(out.data(), 1); }, Errc::State,
                                 "called after done\\(\\)", workers);
    MPI_Comm_free(&workers);
  } else {
    buffer.close();
  }
}

// free() closes the stream on requesters that did not, frees the window on every
// rank, and may be called again; the buffer and its readers refuse every use after it.
TEST(BufferErrors, FreeIsIdempotentAndEndsTheBuffer) {
  if (world_size() < 2) GTEST_SKIP() << "needs a requester and a worker";
  const int rank = world_rank();
  MPI_Comm workers = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 0, rank, &workers);
  auto buffer = rank == 0 ? TimeSeriesBuffer::expose(MPI_COMM_WORLD, kShape, {{0, 0}, {8, 6}},
                                                     Datatype::Float64, Capacity::steps(2),
                                                     BufferMode::Lossless)
                          : TimeSeriesBuffer::connect(MPI_COMM_WORLD, 0);
  std::vector<double> step(48, 1.0);
  if (rank == 0) {
    buffer.load(step.data(), 7);
    buffer.free();  // closes the stream first
    buffer.free();
    expect_error([&] { buffer.load(step.data(), 8); }, Errc::State,
                 "TimeSeriesBuffer::load: the buffer was freed");
  } else {
    auto reader = buffer.attach(workers, {{0, 0}, {8, 6}});
    EXPECT_FALSE(reader.is_done());
    reader.done();
    EXPECT_TRUE(reader.is_done());
    buffer.free();
    buffer.free();
    expect_error([&] { buffer.attach(workers, {{0, 0}, {8, 6}}); }, Errc::State,
                 "TimeSeriesBuffer::attach: the buffer was freed");
    MPI_Comm_free(&workers);
  }
}

TEST(BufferErrors, NullParentCommunicator) {
  expect_error(
      [] {
        TimeSeriesBuffer::expose(MPI_COMM_NULL, kShape, {{0, 0}, {8, 6}}, Datatype::Float64,
                                 Capacity::steps(2), BufferMode::Lossless);
      },
      Errc::Arg, "MPI_COMM_NULL");
}

}  // namespace
