// An aligned plain-text table for the benchmark reports.
#pragma once

#include <string>
#include <vector>

namespace ferry::bench {

/// The first column is left-aligned (names), the others right-aligned (numbers).
class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header);
  /// A row with fewer cells than the header is padded with empty cells.
  void add_row(std::vector<std::string> cells);
  /// The table, one line per row, each ending in a newline.
  std::string str() const;

 private:
  std::vector<std::vector<std::string>> rows_;
};

/// `value` with `decimals` digits after the point ("12.345").
std::string fixed(double value, int decimals);

/// Seconds as milliseconds with 4 decimals ("0.1234").
std::string milliseconds(double seconds);

/// Bytes as megabytes (10^6) with 3 decimals.
std::string megabytes(double bytes);

/// value / reference with 2 decimals; "-" when the reference is not positive.
std::string ratio(double value, double reference);

}  // namespace ferry::bench
