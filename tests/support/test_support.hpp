// Helpers shared by the MPI tests: the engine under test, communicator
// variants, and checking that a call fails the same way on every rank.
#pragma once

#include <gtest/gtest.h>
#include <mpi.h>

#include <functional>
#include <regex>
#include <string>

#include "ferry/engine.hpp"
#include "ferry/error.hpp"

namespace ferry_test {

/// Rank and size of a communicator as values.
inline int rank_of(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}
inline int size_of(MPI_Comm comm) {
  int s = 0;
  MPI_Comm_size(comm, &s);
  return s;
}

/// The engine named by --engine=NAME[:key=value,...] on the command line (default p2p).
const std::string& engine();
/// The engine options given after the colon of --engine.
const ferry::EngineOptions& engine_options();

/// Runs `call`, expects a ferry::Error with `code` whose message matches `pattern`
/// on this rank (every rank of a collective call checks the same).
inline void expect_error(const std::function<void()>& call, ferry::Errc code,
                         const std::string& pattern) {
  try {
    call();
    ADD_FAILURE() << "expected ferry::Error with code " << static_cast<int>(code)
                  << ", but the call succeeded";
  } catch (const ferry::Error& e) {
    EXPECT_EQ(static_cast<int>(e.code()), static_cast<int>(code)) << e.what();
    EXPECT_TRUE(std::regex_search(std::string(e.what()), std::regex(pattern)))
        << "message \"" << e.what() << "\" does not match /" << pattern << "/";
  }
}

/// Runs `call` once (collective over `comm`), expects a ferry::Error with `code` and a
/// message matching `pattern`, and the very same message on every rank of `comm`.
inline void expect_same_error_everywhere(const std::function<void()>& call, ferry::Errc code,
                                         const std::string& pattern, MPI_Comm comm = MPI_COMM_WORLD) {
  std::string text = "(no error)";
  expect_error(
      [&] {
        try {
          call();
        } catch (const ferry::Error& e) {
          text = e.what();
          throw;
        }
      },
      code, pattern);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int length = static_cast<int>(text.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  std::string first(static_cast<std::size_t>(length), ' ');
  if (rank == 0) first = text;
  MPI_Bcast(first.data(), length, MPI_CHAR, 0, comm);
  EXPECT_EQ(text, first) << "this rank's message differs from rank 0's";
}

}  // namespace ferry_test
