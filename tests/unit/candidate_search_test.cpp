// The adaptive engine's walk over its candidates and the margin a later one must win by.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engines/tuning/candidate_search.hpp"

using ferry::detail::Candidate;
using ferry::detail::CandidateSearch;

namespace {

// Feeds `medians` in the order the search asks for candidates; returns the labels asked.
std::vector<std::string> walk(CandidateSearch& search, const std::vector<double>& medians) {
  std::vector<std::string> asked;
  for (double median : medians) {
    EXPECT_FALSE(search.done());
    asked.push_back(search.current().label());
    search.record(median);
  }
  EXPECT_TRUE(search.done());
  return asked;
}

std::vector<Candidate> engines_and_butterfly() {
  return {{"p2p", ""}, {"alltoallv", ""}, {"butterfly", "all"}};
}

}  // namespace

TEST(CandidateSearch, TimesEachCandidateThenTheGreedyStagePass) {
  CandidateSearch search(engines_and_butterfly(), 2, 0.0);
  // butterfly:01 (stage 0 skipped) is faster, so the pass keeps it and tries 00.
  const auto asked = walk(search, {10, 12, 9, 8, 8.5});
  EXPECT_EQ(asked, (std::vector<std::string>{"p2p", "alltoallv", "butterfly:all", "butterfly:01",
                                             "butterfly:00"}));
  EXPECT_EQ(search.best().candidate.label(), "butterfly:01");
  EXPECT_EQ(search.planned(), 5u);
}

TEST(CandidateSearch, ALaterCandidateWithinTheMarginDoesNotWin) {
  CandidateSearch search(engines_and_butterfly(), 1, 0.02);
  // Every later candidate is less than 2 % faster than p2p.
  walk(search, {100, 99, 98.9, 98.5});
  EXPECT_EQ(search.best().candidate.label(), "p2p");
}

TEST(CandidateSearch, ALaterCandidateBeyondTheMarginWins) {
  CandidateSearch search(engines_and_butterfly(), 1, 0.02);
  walk(search, {100, 97.9, 99, 99});
  EXPECT_EQ(search.best().candidate.label(), "alltoallv");
}

TEST(CandidateSearch, TheStagePassKeepsASkipOnlyBeyondTheMargin) {
  CandidateSearch search({{"butterfly", "all"}}, 2, 0.02);
  // Skipping stage 0 gains 1 %: not kept, so stage 1 is tried from "11" (as "10").
  const auto asked = walk(search, {100, 99, 90});
  EXPECT_EQ(asked, (std::vector<std::string>{"butterfly:all", "butterfly:01", "butterfly:10"}));
  EXPECT_EQ(search.best().candidate.label(), "butterfly:10");
}

TEST(CandidateSearch, ZeroMarginTakesTheLowestTimeAndTheEarliestOnTies) {
  CandidateSearch search({{"p2p", ""}, {"alltoallv", ""}, {"rma", ""}}, 0, 0.0);
  walk(search, {10, 9.99, 9.99});
  EXPECT_EQ(search.best().candidate.label(), "alltoallv");
}
