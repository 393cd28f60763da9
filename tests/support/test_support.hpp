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

}  // namespace ferry_test
