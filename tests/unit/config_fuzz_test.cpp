// Random edits of valid configurations and of a namcouple: the readers never crash
// and never throw anything but ferry::Error(Arg or Io), every YAML error starts with
// "<name>:<line>:<column>: " at a plausible position, and whatever still parses
// obeys the rules of the schema and survives a write and re-read.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "config/config.hpp"
#include "config/namcouple/namcouple.hpp"
#include "config/reference.hpp"
#include "config/writer.hpp"
#include "ferry/error.hpp"

using namespace ferry::config;

namespace {

const std::string kSource = FERRY_TEST_SOURCE_DIR;
constexpr int kEditsPerSeed = 2000;

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += line + "\n";
  return out;
}

// Characters and words that mean something to YAML or to the schema, and bytes
// that do not belong in a text file.
const std::string kAlphabet =
    std::string(":-[]{},#&*!|>'\"%@` \t\r\n0123456789.+eE_abcxyz~?\xc3\xff") + '\0';
const std::vector<std::string> kWords{"period", "lag: ",   "true",  "-1",    "~",      "{",
                                      "]",      "fields", ": ",    "- ",    "engine", "1e400",
                                      "&a ",    "*a",     "!!str", "---",   "\"",     "nan",
                                      "version: 2", "source", "name: sst", "\t", "    "};

// One random edit: a character deleted, inserted or replaced; a word inserted; a line
// deleted, duplicated or swapped with another.
std::string mutate(const std::string& text, std::mt19937& random) {
  const auto pick = [&](std::size_t n) {
    return n == 0 ? std::size_t{0} : std::uniform_int_distribution<std::size_t>(0, n - 1)(random);
  };
  std::string out = text;
  std::vector<std::string> lines = lines_of(text);
  switch (pick(7)) {
    case 0:
      if (!out.empty()) out.erase(pick(out.size()), 1 + pick(4));
      return out;
    case 1:
      return out.insert(pick(out.size() + 1), 1, kAlphabet[pick(kAlphabet.size())]);
    case 2:
      if (!out.empty()) out[pick(out.size())] = kAlphabet[pick(kAlphabet.size())];
      return out;
    case 3:
      return out.insert(pick(out.size() + 1), kWords[pick(kWords.size())]);
    case 4:
      if (!lines.empty()) lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(pick(lines.size())));
      return joined(lines);
    case 5:
      if (!lines.empty()) {
        const std::size_t i = pick(lines.size());
        lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(i), lines[i]);
      }
      return joined(lines);
    default:
      if (lines.size() > 1) std::swap(lines[pick(lines.size())], lines[pick(lines.size())]);
      return joined(lines);
  }
}

std::size_t longest_line(const std::vector<std::string>& lines) {
  std::size_t longest = 0;
  for (const auto& line : lines) longest = std::max(longest, line.size());
  return longest;
}

// True if `text` is well-formed UTF-8 (no stray \xc3 or \xff bytes from mutate).
bool is_utf8(const std::string& text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const std::size_t length = lead < 0x80 ? 1 : lead >> 5 == 0x6 ? 2 : lead >> 4 == 0xe ? 3
                               : lead >> 3 == 0x1e ? 4 : 0;
    if (length == 0 || i + length > text.size()) return false;
    for (std::size_t k = 1; k < length; ++k)
      if (static_cast<unsigned char>(text[i + k]) >> 6 != 0x2) return false;
    i += length;
  }
  return true;
}

// What every configuration that parses must satisfy.
void expect_valid(const Config& c, const std::string& input) {
  EXPECT_EQ(c.version, 1) << input;
  EXPECT_GT(c.length, 0) << input;
  EXPECT_GE(c.watchdog_seconds, 0) << input;
  EXPECT_FALSE(c.exchanges.empty()) << input;
  std::set<std::string> names;
  for (const ExchangeConfig& x : c.exchanges) {
    EXPECT_TRUE(names.insert(x.name).second) << input;
    EXPECT_GT(x.period, 0) << input;
    EXPECT_GE(x.lag, 0) << input;
    EXPECT_GE(x.sequence, 0) << input;
    EXPECT_FALSE(x.source.fields.empty()) << input;
    EXPECT_EQ(x.source.fields.size(), x.target.fields.size()) << input;
    EXPECT_GE(x.where.line, 1) << input;
  }
  const Config again = parse_config(format_config(c), "written.yaml");
  EXPECT_EQ(again.exchanges.size(), c.exchanges.size()) << input;
  // YAML is Unicode: the writer (yaml-cpp's emitter) turns bytes that are not UTF-8
  // into U+FFFD, so only UTF-8 names come back byte for byte.
  if (!is_utf8(input)) return;
  for (std::size_t i = 0; i < c.exchanges.size() && i < again.exchanges.size(); ++i) {
    EXPECT_EQ(again.exchanges[i].name, c.exchanges[i].name) << input;
    EXPECT_EQ(again.exchanges[i].source.fields, c.exchanges[i].source.fields) << input;
    EXPECT_EQ(again.exchanges[i].engine_options, c.exchanges[i].engine_options) << input;
    EXPECT_EQ(again.exchanges[i].regrid.source, c.exchanges[i].regrid.source) << input;
    EXPECT_EQ(again.exchanges[i].regrid.weights, c.exchanges[i].regrid.weights) << input;
    EXPECT_EQ(again.exchanges[i].regrid.conservation, c.exchanges[i].regrid.conservation)
        << input;
  }
}

}  // namespace

TEST(ConfigFuzz, RandomEditsFailCleanlyWithAPosition) {
  const std::vector<std::string> seeds{read(kSource + "/examples/config/ocean_atmosphere.yaml"),
                                       read(kSource + "/examples/config/minimal.yaml"),
                                       config_reference_example()};
  const std::regex position(R"(^fuzz\.yaml:([0-9]+):([0-9]+): [^\n]+$)");
  std::mt19937 random(20240611);
  int valid = 0;
  int invalid = 0;
  for (const std::string& seed : seeds) {
    ASSERT_FALSE(seed.empty());
    for (int edit = 0; edit < kEditsPerSeed; ++edit) {
      std::string input = mutate(seed, random);
      if (edit % 3 == 0) input = mutate(input, random);  // some get two edits
      const std::vector<std::string> lines = lines_of(input);
      try {
        expect_valid(parse_config(input, "fuzz.yaml"), input);
        ++valid;
      } catch (const ferry::Error& e) {
        ++invalid;
        ASSERT_EQ(e.code(), ferry::Errc::Arg) << e.what() << "\ninput:\n" << input;
        std::smatch match;
        const std::string message = e.what();
        ASSERT_TRUE(std::regex_match(message, match, position)) << message << "\ninput:\n" << input;
        const long line = std::stol(match[1]);
        const long column = std::stol(match[2]);
        EXPECT_GE(line, 1) << message;
        EXPECT_LE(line, static_cast<long>(lines.size()) + 1) << message << "\ninput:\n" << input;
        EXPECT_GE(column, 1) << message;
        EXPECT_LE(column, static_cast<long>(longest_line(lines)) + 1) << message;
      } catch (const std::exception& e) {
        FAIL() << "not a ferry::Error: " << e.what() << "\ninput:\n" << input;
      }
    }
  }
  // Both outcomes occur, or the edits say little about the parser.
  EXPECT_GT(valid, kEditsPerSeed / 20);
  EXPECT_GT(invalid, kEditsPerSeed);
}

TEST(ConfigFuzz, RandomEditsOfANamcoupleFailCleanly) {
  // A namcouple the importer understands may still convert to a configuration the rules
  // refuse (a lag longer than the period, say).
  const std::regex position(R"(^(nc(:[0-9]+)?|converted\.yaml:[0-9]+:[0-9]+): [^\n]+$)");
  std::mt19937 random(20240612);
  for (const char* file : {"namcouple", "namcouple_remapping"}) {
    const std::string seed = read(kSource + "/tests/data/" + file);
    ASSERT_FALSE(seed.empty()) << file;
    for (int edit = 0; edit < kEditsPerSeed; ++edit) {
      const std::string input = mutate(seed, random);
      try {
        expect_valid(parse_config(import_namcouple(input, "nc").yaml, "converted.yaml"), input);
      } catch (const ferry::Error& e) {
        ASSERT_EQ(e.code(), ferry::Errc::Arg) << e.what() << "\ninput:\n" << input;
        ASSERT_TRUE(std::regex_match(std::string(e.what()), position)) << e.what();
      } catch (const std::exception& e) {
        FAIL() << "not a ferry::Error: " << e.what() << "\ninput:\n" << input;
      }
    }
  }
}
