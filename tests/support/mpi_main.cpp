// The one GoogleTest runner for multi-rank tests: initialises MPI, prints the
// full report on rank 0 only, failures from any rank with their rank number, and
// makes every rank return the same exit code.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "test_support.hpp"

namespace {

std::string g_engine = "p2p";
ferry::EngineOptions g_options;

// "--engine=neighbor:reorder=true,other=1" -> engine "neighbor" and its options.
void parse_engine(const std::string& spec) {
  const auto colon = spec.find(':');
  g_engine = spec.substr(0, colon);
  if (colon == std::string::npos) return;
  std::string rest = spec.substr(colon + 1);
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string item = rest.substr(0, comma);
    const auto eq = item.find('=');
    g_options.values[item.substr(0, eq)] = eq == std::string::npos ? "true" : item.substr(eq + 1);
    rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
  }
}

// On ranks other than 0: print failed assertions only, tagged with the rank.
class FailurePrinter : public testing::EmptyTestEventListener {
 public:
  explicit FailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::fprintf(stderr, "[rank %d] %s:%d: failure\n%s\n", rank_,
                 result.file_name() ? result.file_name() : "?", result.line_number(),
                 result.summary());
  }

 private:
  int rank_;
};

}  // namespace

namespace ferry_test {
const std::string& engine() { return g_engine; }
const ferry::EngineOptions& engine_options() { return g_options; }
}  // namespace ferry_test

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "--engine=", 9) == 0) parse_engine(argv[i] + 9);

  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  auto& listeners = testing::UnitTest::GetInstance()->listeners();
  if (rank != 0) {
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new FailurePrinter(rank));
  }
  int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  if (failed) std::fprintf(stderr, "(rank %d failed)\n", rank);
  int any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any_failed;
}
