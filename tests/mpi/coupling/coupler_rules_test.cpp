// Every configuration rule that does not depend on the running program is found by
// `ferry validate` (config::check_config_file) with the very message a coupler reading
// the file gives, on every rank. Each file of tests/data/rules breaks one rule; its
// first line says "# expect: LINE:COL: message" (a prefix of the message, where the
// rest depends on the engines of the build).
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "coupling_fixture.hpp"
#include "ferry/coupler.hpp"
#include "test_support.hpp"

using namespace ferry_test;

namespace {

const std::string kRules = std::string(FERRY_TEST_SOURCE_DIR) + "/tests/data/rules";

std::vector<std::string> rule_files() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(kRules))
    if (entry.path().extension() == ".yaml") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());  // the same order on every rank
  return files;
}

// The message the file's first line expects, with the file's path in front.
std::string expected_prefix(const std::string& path) {
  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  const std::string marker = "# expect: ";
  EXPECT_EQ(first.rfind(marker, 0), 0u) << path << " does not start with \"" << marker << "\"";
  return path + ":" + first.substr(std::min(first.size(), marker.size()));
}

TEST(CouplerRules, ValidateAndTheCouplerGiveTheSameMessage) {
  const std::vector<std::string> files = rule_files();
  ASSERT_GE(files.size(), 15u);
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    const std::string expected = expected_prefix(path);
    const ferry::config::ConfigCheck checked = ferry::config::check_config_file(path);
    ASSERT_EQ(checked.problems.size(), 1u) << ferry::config::problem_list(checked.problems, 5);
    const std::string validated = ferry::config::problem_text(checked.problems.front());
    EXPECT_EQ(validated.rfind(expected, 0), 0u) << validated << "\ndoes not start with\n" << expected;

    // A coupler reads the file on rank 0 and every rank parses it; enddef would check
    // what the components declare, after the rules.
    TwoComponents who;
    std::string run_message = "(no error)";
    expect_same_error_everywhere(
        [&] {
          try {
            ferry::Coupler coupler(MPI_COMM_WORLD, who.names(), path);
            coupler.enddef();
          } catch (const ferry::Error& e) {
            run_message = e.what();
            throw;
          }
        },
        ferry::Errc::Arg, "");
    EXPECT_EQ(run_message, validated);
  }
}

}  // namespace
