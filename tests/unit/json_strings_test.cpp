// Strings with quotes, backslashes, line breaks and control characters come back
// unchanged from every JSON that ferry writes: the benchmark and report lines
// (bench::JsonLine) and the coupler's timer files, read back by `ferry report`.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ferry/comm.hpp"
#include "json_line.hpp"
#include "timer_file.hpp"
#include "util/timers.hpp"

namespace {

const std::vector<std::string> kAwkward = {
    "plain",         "say \"hi\"",     "back\\slash\\",  "two\nlines", "tab\there",
    std::string("nul\0byte", 8), "bell\x07", "\xc3\xa9t\xc3\xa9",  "{\"json\": [1]}"};

TEST(JsonStrings, JsonLineKeysAndValuesRoundTrip) {
  for (const std::string& text : kAwkward) {
    const std::string line = ferry::bench::JsonLine().add(text, text).add("n", 1).str();
    EXPECT_EQ(line.find('\n'), std::string::npos) << line;
    const nlohmann::json parsed = nlohmann::json::parse(line);
    ASSERT_TRUE(parsed.contains(text)) << line;
    EXPECT_EQ(parsed.at(text).get<std::string>(), text) << line;
    EXPECT_EQ(parsed.at("n").get<int>(), 1) << line;
  }
}

// Collective: every rank times every awkward name but rank 1, which times only the
// first (the file lists the union of the names).
TEST(JsonStrings, TimerFileNamesRoundTripThroughReport) {
  const ferry::Comm comm = ferry::Comm::view(MPI_COMM_WORLD);
  const std::string path = testing::TempDir() + "ferry_timers_json_strings.json";
  for (const std::string& component : kAwkward) {
    ferry::detail::Timers timers;
    for (const std::string& name : kAwkward) {
      if (comm.rank() == 1 && name != kAwkward.front()) continue;
      timers.add(name, ferry::detail::TimerCategory::Put, 0.5);
    }
    timers.write_json(comm, component, 2.0, 1.0, path);
    if (comm.rank() != 0) continue;
    const ferry::report::TimerFile file = ferry::report::read_timer_file(path);
    EXPECT_EQ(file.component, component);
    EXPECT_EQ(file.ranks, comm.size());
    EXPECT_EQ(file.enddef_seconds.max, 1.0);
    std::vector<std::string> names;
    for (const ferry::report::Timer& timer : file.timers) names.push_back(timer.exchange);
    std::vector<std::string> expected = kAwkward;
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(names, expected);
  }
  if (comm.rank() == 0) std::remove(path.c_str());
}

}  // namespace
