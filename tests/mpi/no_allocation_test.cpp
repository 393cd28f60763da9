// No engine allocates memory inside an exchange, with or without a mask, into the
// caller's memory or the engine's (destination_field).
#include <gtest/gtest.h>
#include <mpi.h>

#include <vector>

#include "counting_allocator.hpp"
#include "ferry/exchange.hpp"
#include "test_support.hpp"

TEST(NoAllocation, ExecuteAndBeginEndAllocateNothing) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::int64_t n = 5000;
  const auto src = ferry::Layout::block(n, size, rank);
  const auto dst = ferry::Layout::round_robin(n, size, rank);
  ferry::Exchange exchange(MPI_COMM_WORLD, src, dst,
                           {{ferry::Datatype::Float64, 2}, {ferry::Datatype::Int32, 1}},
                           ferry_test::engine());
  std::vector<double> a(static_cast<std::size_t>(src.local_size()) * 2, 1.0);
  std::vector<std::int32_t> b(static_cast<std::size_t>(src.local_size()), 2);
  std::vector<double> x(static_cast<std::size_t>(dst.local_size()) * 2);
  std::vector<std::int32_t> y(static_cast<std::size_t>(dst.local_size()));
  const void* in[] = {a.data(), b.data()};
  void* out[] = {x.data(), y.data()};
  const std::uint8_t first_only[] = {1, 0};

  // Warm-up: MPI may set up connections, and the adaptive engine profiles its
  // candidates (setting up and releasing engines) until it has chosen one.
  exchange.execute(in, out);
  for (int k = 0; k < 1000 && !exchange.engine_report().settled; ++k) exchange.execute(in, out);
  ASSERT_TRUE(exchange.engine_report().settled) << exchange.engine_report().text;
  exchange.execute(in, out, first_only);
  ferry_test::reset_allocation_stats();
  for (int k = 0; k < 5; ++k) {
    exchange.execute(in, out);
    exchange.execute(in, out, first_only);
    exchange.begin(in, out);
    exchange.end();
    // Into the memory the engine offers (rma: its window), asked for each time.
    void* own[] = {exchange.destination_field(0), exchange.destination_field(1)};
    for (std::size_t f = 0; f < 2; ++f)
      if (own[f] == nullptr) own[f] = out[f];
    exchange.execute(in, own);
    exchange.execute(in, own, first_only);
  }
  EXPECT_EQ(ferry_test::allocation_stats().allocations, 0u);
}
