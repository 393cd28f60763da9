#include "engine_table.hpp"

#include <algorithm>

#include "text_table.hpp"

namespace ferry::bench {

std::string engine_table(const std::vector<EngineTableRow>& rows, double memcpy_bound,
                         const std::string& reference) {
  const auto reference_row = std::find_if(rows.begin(), rows.end(), [&](const EngineTableRow& r) {
    return r.engine == reference;
  });
  const bool has_reference = reference_row != rows.end();

  std::vector<std::string> header = {"engine", "setup_ms", "median_ms", "min_ms", "max_ms",
                                     "x_memcpy"};
  if (has_reference) header.push_back("x_" + reference);
  for (const char* column : {"msgs_max", "msgs_mean", "MB_max", "MB_mean"})
    header.push_back(column);
  TextTable table(header);
  for (const EngineTableRow& r : rows) {
    std::vector<std::string> row = {r.engine,
                                    milliseconds(r.setup_seconds),
                                    milliseconds(r.exchange.median),
                                    milliseconds(r.exchange.min),
                                    milliseconds(r.exchange.max),
                                    ratio(r.exchange.median, memcpy_bound)};
    if (has_reference) row.push_back(ratio(r.exchange.median, reference_row->exchange.median));
    row.push_back(std::to_string(r.traffic.messages.max));
    row.push_back(fixed(r.traffic.messages.mean, 1));
    row.push_back(megabytes(static_cast<double>(r.traffic.bytes.max)));
    row.push_back(megabytes(r.traffic.bytes.mean));
    table.add_row(std::move(row));
  }

  std::string out = table.str();
  out += "\nTimes per exchange, slowest rank, over the repeats (engines and bound timed in "
         "rotation); x_memcpy = median / memcpy bound";
  if (has_reference) out += "; x_" + reference + " = median / " + reference + " median";
  return out + ".\n";
}

}  // namespace ferry::bench
