// Writing `ferry bench pingpong` results: one JSON object per size, or a table.
#pragma once

#include <string>
#include <vector>

#include "pingpong.hpp"

namespace ferry::bench {

/// One line of JSON per message size, each ending in a newline.
std::string pingpong_json(const std::vector<PingpongRow>& rows, int ranks, int repeat,
                          const std::string& mpi_library);

/// A header and an aligned table: bytes, latency (us) and bandwidth (MB/s).
std::string pingpong_table(const std::vector<PingpongRow>& rows, int ranks, int repeat,
                           const std::string& mpi_library);

}  // namespace ferry::bench
