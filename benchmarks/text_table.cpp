#include "text_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace ferry::bench {

TextTable::TextTable(std::vector<std::string> header) { rows_.push_back(std::move(header)); }

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(rows_.front().size());
  rows_.push_back(std::move(cells));
}

std::string TextTable::str() const {
  std::vector<std::size_t> width(rows_.front().size(), 0);
  for (const auto& row : rows_)
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  std::string out;
  for (const auto& row : rows_) {
    std::string line = fmt::format("{:<{}}", row[0], width[0]);
    for (std::size_t c = 1; c < row.size(); ++c) line += fmt::format("  {:>{}}", row[c], width[c]);
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + '\n';
  }
  return out;
}

std::string fixed(double value, int decimals) { return fmt::format("{:.{}f}", value, decimals); }

std::string milliseconds(double seconds) { return fixed(seconds * 1e3, 4); }

std::string megabytes(double bytes) { return fixed(bytes / 1e6, 3); }

std::string ratio(double value, double reference) {
  return reference > 0 ? fixed(value / reference, 2) : "-";
}

}  // namespace ferry::bench
