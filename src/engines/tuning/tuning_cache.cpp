#include "engines/tuning/tuning_cache.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <set>
#include <thread>
#include <utility>

#include "util/format.hpp"

namespace ferry::detail {

namespace {

constexpr const char* kSeparator = " | ";
constexpr const char* kHeaderWord = "ferry-tuning-cache ";

// What a file turned out to hold.
struct CacheFile {
  enum class Kind { Missing, Cache, OtherVersion, Foreign, Unreadable } kind = Kind::Missing;
  std::string first_line;
  std::vector<std::string> lines;  // after the header
  std::string error;               // why it could not be read
  // The number of a last line without its end of line (being appended by another run,
  // or cut short), left out of `lines`; 0 if none.
  std::size_t unterminated_line = 0;
};

CacheFile read_file(const std::string& path) {
  CacheFile file;
  std::FILE* f = std::fopen(path.c_str(), "r");
  if (!f) {
    file.kind = errno == ENOENT ? CacheFile::Kind::Missing : CacheFile::Kind::Unreadable;
    file.error = std::strerror(errno);
    return file;
  }
  std::string text;
  char chunk[4096];
  std::size_t n = 0;
  while ((n = std::fread(chunk, 1, sizeof chunk, f)) > 0) text.append(chunk, n);
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) {
    file.kind = CacheFile::Kind::Unreadable;
    file.error = "read error";
    return file;
  }
  if (text.empty()) return file;  // an empty file holds no entries, like a missing one

  std::vector<std::string> lines;
  for (std::size_t begin = 0; begin < text.size();) {
    const auto end = text.find('\n', begin);
    std::string line = text.substr(begin, end == std::string::npos ? end : end - begin);
    if (!line.empty() && line.back() == '\r') line.pop_back();  // edited on Windows
    lines.push_back(std::move(line));
    begin = end == std::string::npos ? text.size() : end + 1;
  }
  file.first_line = lines.front();
  if (file.first_line == kTuningCacheHeader || file.first_line == kTuningCacheHeaderV1)
    file.kind = CacheFile::Kind::Cache;
  else if (file.first_line.rfind(kHeaderWord, 0) == 0)
    file.kind = CacheFile::Kind::OtherVersion;
  else
    file.kind = CacheFile::Kind::Foreign;
  if (text.back() != '\n' && lines.size() > 1) {
    file.unterminated_line = lines.size();
    lines.pop_back();
  }
  file.lines.assign(lines.begin() + 1, lines.end());
  return file;
}

bool is_entry_line(const std::string& line) {
  return line.find_first_not_of(" \t\r") != std::string::npos && line[0] != '#';
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4e", seconds);
  return text;
}

// The text of "label=seconds" as a measurement; nullopt if malformed.
std::optional<Measurement> parse_measurement(const std::string& word) {
  const auto eq = word.rfind('=');
  if (eq == std::string::npos) return std::nullopt;
  auto candidate = Candidate::parse(word.substr(0, eq));
  const std::string number = word.substr(eq + 1);
  char* end = nullptr;
  const double seconds = std::strtod(number.c_str(), &end);
  if (!candidate || number.empty() || *end != '\0' || !std::isfinite(seconds) || seconds < 0)
    return std::nullopt;
  return Measurement{*candidate, seconds};
}

// Adds `entry`, replacing an earlier one of its signature.
void keep_last(std::vector<CacheEntry>& entries, CacheEntry entry) {
  for (CacheEntry& e : entries)
    if (e.signature == entry.signature) {
      e = std::move(entry);
      return;
    }
  entries.push_back(std::move(entry));
}

// The conditions part "when=... load=... cores=..."; false if a word is not one of them.
bool parse_conditions(const std::string& text, MeasuredUnder& under) {
  for (std::size_t begin = 0; begin < text.size();) {
    const auto end = std::min(text.find(' ', begin), text.size());
    const std::string word = text.substr(begin, end - begin);
    begin = end + 1;
    if (word.empty()) continue;
    const auto eq = word.find('=');
    if (eq == std::string::npos) return false;
    const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
    char* stop = nullptr;
    if (key == "when") {
      under.when = value;
      continue;
    }
    const double number = std::strtod(value.c_str(), &stop);
    if (value.empty() || *stop != '\0' || !std::isfinite(number) || number < 0) return false;
    if (key == "load")
      under.load_average = number;
    else if (key == "cores")
      under.cores = static_cast<int>(number);
    else
      return false;
  }
  return true;
}

std::string header_text() {
  return cat(kTuningCacheHeader, "\n",
             "# Written by ferry's adaptive engine; safe to edit or delete. The last line\n",
             "# of a signature counts. One line per plan: signature | choice | median seconds\n",
             "# per candidate (slowest rank) | when, load average, cores\n");
}

std::string unterminated_warning(const std::string& path, std::size_t line) {
  return cat("tuning cache \"", path, "\" line ", line,
             " has no end of line (another run is writing it, or it was cut short); "
             "ignoring the line");
}

// Rewrites the file with the header and `lines`: a private temporary, then a rename
// over the file, so that readers see the old file or the new one, never a part.
std::vector<std::string> replace_file(const std::string& path, const std::string& lines) {
  const std::string text = header_text() + lines;
  // A private temporary name, so concurrent runs never write into the same file.
  const std::string temporary = cat(path, ".tmp.", ::getpid());
  std::FILE* f = std::fopen(temporary.c_str(), "w");
  if (!f)
    return {cat("cannot write the tuning cache: opening \"", temporary, "\" failed: ",
                std::strerror(errno), ". Check that the directory exists and is writable")};
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const bool closed = std::fclose(f) == 0;
  if (!written || !closed || std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string error = std::strerror(errno);
    std::remove(temporary.c_str());
    return {cat("cannot write the tuning cache \"", path, "\": ", error,
                ". Check the disk space and the permissions of its directory")};
  }
  return {};
}

// The file's entry lines, the last of each signature, in the order of their
// signatures' first lines; without the signature `dropped`.
std::string last_lines(const CacheFile& file, const std::string& dropped) {
  std::vector<std::pair<std::string, std::string>> kept;  // signature, line
  for (const std::string& line : file.lines) {
    std::string why;
    if (!is_entry_line(line)) continue;
    const auto entry = parse_entry(line, why);
    if (!entry || entry->signature == dropped) continue;
    auto same = std::find_if(kept.begin(), kept.end(),
                             [&](const auto& k) { return k.first == entry->signature; });
    if (same != kept.end())
      same->second = line;
    else
      kept.emplace_back(entry->signature, line);
  }
  std::string text;
  for (const auto& k : kept) text += k.second + "\n";
  return text;
}

std::string not_writing(const std::string& path, const CacheFile& file) {
  return cat("not writing the tuning cache: \"", path, "\" ",
             file.kind == CacheFile::Kind::Foreign ? "is not a ferry tuning cache"
                                                   : "cannot be read: " + file.error,
             ". Point the cache option or FERRY_TUNING_CACHE at another file");
}

}  // namespace

MeasuredUnder MeasuredUnder::now() {
  MeasuredUnder under;
  const std::time_t t = std::time(nullptr);
  std::tm utc{};
  char text[32];
  if (gmtime_r(&t, &utc) && std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc) > 0)
    under.when = text;
  double load[1];
  if (getloadavg(load, 1) == 1) under.load_average = load[0];
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  if (cores > 0) under.cores = static_cast<int>(cores);
  return under;
}

std::optional<MeasuredUnder> MeasuredUnder::parse(const std::string& text) {
  MeasuredUnder under;
  if (!parse_conditions(text, under)) return std::nullopt;
  return under;
}

bool load_gone_since(const MeasuredUnder& then, const MeasuredUnder& now) {
  if (then.load_average < 0 || then.cores <= 0 || now.load_average < 0 || now.cores <= 0)
    return true;
  const double then_per_core = then.load_average / then.cores;
  const double now_per_core = now.load_average / now.cores;
  return then_per_core > 1 && now_per_core < then_per_core / 2;
}

std::string MeasuredUnder::text() const {
  std::string out;
  auto add = [&out](const std::string& word) { out += (out.empty() ? "" : " ") + word; };
  if (!when.empty()) add("when=" + when);
  if (load_average >= 0) {
    char number[32];
    std::snprintf(number, sizeof number, "%.2f", load_average);
    add(std::string("load=") + number);
  }
  if (cores > 0) add(cat("cores=", cores));
  return out;
}

std::string format_entry(const CacheEntry& entry) {
  std::string line = entry.signature + kSeparator + entry.choice.label() + kSeparator;
  for (std::size_t i = 0; i < entry.measured.size(); ++i)
    line += cat(i ? " " : "", entry.measured[i].candidate.label(), "=",
                seconds_text(entry.measured[i].median_seconds));
  const std::string conditions = entry.under.text();
  if (!conditions.empty()) line += kSeparator + conditions;
  return line;
}

std::optional<CacheEntry> parse_entry(const std::string& line, std::string& why) {
  const auto first = line.find(kSeparator);
  const auto second = first == std::string::npos ? first : line.find(kSeparator, first + 3);
  const auto third = second == std::string::npos ? second : line.find(kSeparator, second + 3);
  if (second == std::string::npos ||
      (third != std::string::npos && line.find(kSeparator, third + 3) != std::string::npos)) {
    why = "expected three or four parts separated by \" | \": signature | choice | medians "
          "[| conditions]";
    return std::nullopt;
  }
  CacheEntry entry;
  entry.signature = line.substr(0, first);
  if (entry.signature.rfind("ranks=", 0) != 0) {
    why = "the signature does not start with \"ranks=\"";
    return std::nullopt;
  }
  const std::string choice = line.substr(first + 3, second - first - 3);
  auto candidate = Candidate::parse(choice);
  if (!candidate) {
    why = cat("the choice \"", choice, "\" is not an engine name or butterfly:STAGES");
    return std::nullopt;
  }
  entry.choice = *candidate;
  const std::string medians =
      line.substr(second + 3, third == std::string::npos ? third : third - second - 3);
  if (third != std::string::npos && !parse_conditions(line.substr(third + 3), entry.under)) {
    why = cat("the conditions \"", line.substr(third + 3),
              "\" are not words when=TIME load=NUMBER cores=NUMBER");
    return std::nullopt;
  }
  for (std::size_t begin = 0; begin < medians.size();) {
    const auto end = std::min(medians.find(' ', begin), medians.size());
    const std::string word = medians.substr(begin, end - begin);
    begin = end + 1;
    if (word.empty()) continue;
    auto measurement = parse_measurement(word);
    if (!measurement) {
      why = cat("\"", word, "\" is not LABEL=SECONDS");
      return std::nullopt;
    }
    entry.measured.push_back(*measurement);
  }
  return entry;
}

CacheLookup find_entries(const std::string& path,
                         const std::function<bool(const std::string& signature)>& wanted) {
  CacheLookup lookup;
  const CacheFile file = read_file(path);
  switch (file.kind) {
    case CacheFile::Kind::Missing: return lookup;
    case CacheFile::Kind::Unreadable:
      lookup.warnings.push_back(
          cat("cannot read the tuning cache \"", path, "\": ", file.error, "; profiling instead"));
      return lookup;
    case CacheFile::Kind::OtherVersion:
      lookup.warnings.push_back(
          cat("tuning cache \"", path, "\" has another format (first line \"", file.first_line,
              "\"; this ferry reads \"", kTuningCacheHeader,
              "\"); ignoring it, profiling, and replacing it with this run's decision"));
      return lookup;
    case CacheFile::Kind::Foreign:
      lookup.warnings.push_back(
          cat("\"", path, "\" is not a ferry tuning cache (first line \"",
              file.first_line.substr(0, 60), "\", expected \"", kTuningCacheHeader,
              "\"); ignoring it and leaving it unchanged. Point the cache option or "
              "FERRY_TUNING_CACHE at another file"));
      return lookup;
    case CacheFile::Kind::Cache: break;
  }
  std::set<std::string> signatures;
  std::size_t well_formed = 0;
  for (std::size_t i = 0; i < file.lines.size(); ++i) {
    if (!is_entry_line(file.lines[i])) continue;
    std::string why;
    auto entry = parse_entry(file.lines[i], why);
    if (!entry) {
      lookup.warnings.push_back(cat("tuning cache \"", path, "\" line ", i + 2,
                                    " is malformed (", why, "); ignoring the line"));
      continue;
    }
    ++well_formed;
    signatures.insert(entry->signature);
    if (wanted(entry->signature)) keep_last(lookup.entries, std::move(*entry));
  }
  if (file.unterminated_line > 0)
    lookup.warnings.push_back(unterminated_warning(path, file.unterminated_line));
  lookup.signatures = signatures.size();
  lookup.superseded = well_formed - signatures.size();
  return lookup;
}

CacheLookup find_entry(const std::string& path, const std::string& signature) {
  return find_entries(path, [&](const std::string& s) { return s == signature; });
}

namespace {

// How long a writer waits for the lock before it writes unlocked. Writers hold it for
// microseconds (an append) to tens of milliseconds (a rewrite on a slow disk); a
// holder that is stopped must not stall an exchange.
constexpr int kLockWaitMilliseconds = 500;

// Takes the exclusive lock of `fd`, waiting kLockWaitMilliseconds at most; false if
// not taken (held that long, or no locks on this file system).
bool lock_within_bound(int fd) {
  for (int waited = 0; waited <= kLockWaitMilliseconds; ++waited) {
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return true;
    if (errno != EWOULDBLOCK && errno != EINTR) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

// The writers' exclusive lock (flock) on the cache file, so that an append never
// lands in a file a rewrite is replacing, nor two rewrites lose each other's entry.
// The file is reopened if a rewrite replaced it while this waited. Readers take no
// lock: they see a rewrite's old file or new one, and ignore a last line cut short.
// Where the file system has no locks (some network ones), or the lock stays held
// past the bound, the writer goes unlocked.
class WriterLock {
 public:
  explicit WriterLock(const std::string& path) {
    for (int attempt = 0; attempt < 100; ++attempt) {
      fd_ = ::open(path.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
      if (fd_ < 0 || !lock_within_bound(fd_)) return;
      struct stat locked {}, named {};
      if (::fstat(fd_, &locked) == 0 && ::stat(path.c_str(), &named) == 0 &&
          locked.st_dev == named.st_dev && locked.st_ino == named.st_ino)
        return;
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~WriterLock() {
    if (fd_ >= 0) ::close(fd_);  // releases the lock
  }
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;
  /// The open file, locked if the file system allows; < 0 if it could not be opened.
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
};

// store_entry() with the lock held.
std::vector<std::string> store_locked(const std::string& path, const CacheEntry& entry) {
  const CacheFile file = read_file(path);
  if (file.kind == CacheFile::Kind::Foreign || file.kind == CacheFile::Kind::Unreadable)
    return {not_writing(path, file)};
  const std::string kept = file.kind == CacheFile::Kind::Cache ? last_lines(file, entry.signature)
                                                               : std::string();
  return replace_file(path, kept + format_entry(entry) + "\n");
}

// Whether the open file starts with this version's header and ends with a whole line,
// so that a line appended to it is read as an entry; true also if it is empty.
bool takes_a_line(int fd, bool& empty) {
  struct stat status {};
  if (::fstat(fd, &status) != 0) return false;
  empty = status.st_size == 0;
  if (empty) return true;
  const std::string header = std::string(kTuningCacheHeader) + "\n";
  std::string head(header.size(), '\0');
  char last = '\0';
  return ::pread(fd, head.data(), head.size(), 0) == static_cast<ssize_t>(head.size()) &&
         head == header && ::pread(fd, &last, 1, status.st_size - 1) == 1 && last == '\n';
}

}  // namespace

std::vector<std::string> store_entry(const std::string& path, const CacheEntry& entry) {
  const WriterLock lock(path);
  return store_locked(path, entry);
}

std::vector<std::string> append_entry(const std::string& path, const CacheEntry& entry) {
  const WriterLock lock(path);
  if (lock.fd() < 0)
    return {cat("cannot write the tuning cache \"", path, "\": opening it failed: ",
                std::strerror(errno), ". Check that the directory exists and is writable")};
  // Another version, not a cache, or a last line cut short (which a line appended
  // would end, making an entry of it): the rewrite deals with them.
  bool empty = false;
  if (!takes_a_line(lock.fd(), empty)) return store_locked(path, entry);
  const std::string text = (empty ? header_text() : std::string()) + format_entry(entry) + "\n";
  // A write cut short leaves a last line without its end of line, which readers ignore.
  errno = 0;
  const bool written =
      ::write(lock.fd(), text.data(), text.size()) == static_cast<ssize_t>(text.size());
  if (!written)
    return {cat("cannot write the tuning cache \"", path, "\": ",
                std::strerror(errno != 0 ? errno : ENOSPC),
                ". Check the disk space and the permissions of its directory")};
  return {};
}

std::vector<std::string> compact_if_superseded(const std::string& path,
                                               const CacheLookup& lookup) {
  if (lookup.superseded == 0 || lookup.superseded < lookup.signatures) return {};
  const WriterLock lock(path);
  const CacheFile file = read_file(path);
  if (file.kind != CacheFile::Kind::Cache) return {};  // changed since: leave it to the writers
  return replace_file(path, last_lines(file, ""));
}

}  // namespace ferry::detail
