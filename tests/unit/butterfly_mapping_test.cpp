// The butterfly engine's process mapping, against the data-transfer paper's example.
#include <gtest/gtest.h>

#include <limits>

#include "engines/butterfly/process_mapping.hpp"
#include "engines/tuning/candidate.hpp"

using ferry::detail::butterfly_stage_count;
using ferry::detail::iterative_pairing;
using ferry::detail::map_onto_kernel;

TEST(ButterflyMapping, KernelIsTheLargestPowerOfTwoNotAboveTheProcesses) {
  auto kernel_size = [](int processes) { return 1 << butterfly_stage_count(processes); };
  EXPECT_EQ(kernel_size(0), 1);
  EXPECT_EQ(kernel_size(1), 1);
  EXPECT_EQ(kernel_size(2), 2);
  EXPECT_EQ(kernel_size(15), 8);  // the paper's 5 senders + 10 receivers
  EXPECT_EQ(kernel_size(16), 16);
  EXPECT_EQ(kernel_size(1023), 512);
  EXPECT_EQ(butterfly_stage_count(std::numeric_limits<int>::max()), 30);
}

TEST(ButterflyMapping, IterativePairingReproducesThePaperExample) {
  // Fig. 12: senders S0..S4 padded with empty S5..S7. Sizes ordered as the figure's
  // pairs require: S1 > S0 > S2 > S4 > S3 at the first step, {S4,S3} largest at the second.
  const std::vector<std::int64_t> sizes{9, 10, 8, 6, 7, 0, 0, 0};
  EXPECT_EQ(iterative_pairing(sizes), (std::vector<int>{4, 3, 2, 5, 1, 7, 0, 6}));
}

TEST(ButterflyMapping, SendersMapOneToOneOntoAKernelOfEight) {
  // Kernel process k takes the k-th process of the reordered list S4,S3,S2,S5,S1,S7,S0,S6.
  const std::vector<int> kernel_of = map_onto_kernel({9, 10, 8, 6, 7}, 8);
  EXPECT_EQ(kernel_of, (std::vector<int>{6, 4, 2, 1, 0}));
}

TEST(ButterflyMapping, ReceiversMapManyToOneWithoutManyToMany) {
  // 10 receivers, padded to 16, onto 8 kernel processes: two consecutive per kernel process.
  const std::vector<std::int64_t> sizes{5, 9, 2, 7, 4, 8, 1, 6, 3, 10};
  const std::vector<int> kernel_of = map_onto_kernel(sizes, 8);
  std::vector<int> load(8, 0);
  for (int k : kernel_of) {
    ASSERT_GE(k, 0);
    ASSERT_LT(k, 8);
    ++load[static_cast<std::size_t>(k)];
  }
  for (int l : load) EXPECT_LE(l, 2);
  // Pairing puts the largest with the smallest: the largest receiver (R9, 10) shares its
  // kernel process with an empty padding process, never with another large one.
  for (std::size_t r = 0; r < sizes.size(); ++r)
    if (r != 9) EXPECT_NE(kernel_of[r], kernel_of[9]) << r;
}

TEST(ButterflyMapping, MoreKernelProcessesThanSenders) {
  // 3 senders on a kernel of 4: each gets its own kernel process.
  const std::vector<int> kernel_of = map_onto_kernel({1, 2, 3}, 4);
  EXPECT_NE(kernel_of[0], kernel_of[1]);
  EXPECT_NE(kernel_of[1], kernel_of[2]);
  EXPECT_NE(kernel_of[0], kernel_of[2]);
}
