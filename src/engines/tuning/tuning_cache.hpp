// The tuning cache: a small text file of past adaptive decisions, keyed by plan signature.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engines/tuning/candidate_search.hpp"

namespace ferry::detail {

/// The first line of a cache file; the number is the format version. Files of
/// version 1 (entries without the conditions part) are read too.
inline constexpr const char* kTuningCacheHeader = "ferry-tuning-cache 2";
inline constexpr const char* kTuningCacheHeaderV1 = "ferry-tuning-cache 1";

/// Under what conditions an entry was measured, as rank 0 saw them.
struct MeasuredUnder {
  std::string when;          ///< UTC, "2025-06-01T12:00:00Z"; empty if unknown
  double load_average = -1;  ///< the 1-minute load average; < 0 if unknown
  int cores = 0;             ///< cores online; 0 if unknown
  /// This process's conditions now (rank 0 calls it when it records an entry).
  static MeasuredUnder now();
  /// "when=... load=... cores=...", the unknown parts left out.
  std::string text() const;
  /// Parses text(); nullopt if a word is not one of its parts.
  static std::optional<MeasuredUnder> parse(const std::string& text);
};

/// Whether `then` (an entry's conditions) had a load that `now` does not: more
/// runnable processes than cores then, and now under half as many per core. True if
/// either load or core count is unknown, since nothing then says the load stayed.
bool load_gone_since(const MeasuredUnder& then, const MeasuredUnder& now);

/// One decision: for plans of this signature, `choice` was fastest.
struct CacheEntry {
  std::string signature;  ///< plan_signature()
  Candidate choice;
  std::vector<Measurement> measured;  ///< every candidate's median, as profiled
  MeasuredUnder under;
};

/// The entry as one line (no newline): "signature | choice | label=median label=median ...
/// | when=... load=... cores=...", medians in seconds; the last part only if some
/// condition is known.
std::string format_entry(const CacheEntry& entry);
/// Parses one line of format_entry; nullopt and `why` set if it is malformed.
std::optional<CacheEntry> parse_entry(const std::string& line, std::string& why);

/// The result of looking up signatures.
struct CacheLookup {
  std::vector<CacheEntry> entries;    ///< those wanted, one per signature
  std::vector<std::string> warnings;  ///< problems with the file, for the log and the report
  /// Of every signature in the file (wanted or not), how many entries there are, and how
  /// many of them a later line of the same signature supersedes (append_entry() adds).
  std::size_t signatures = 0;
  std::size_t superseded = 0;
};

/// Not collective (the adaptive engine calls these on rank 0 only). The entries whose
/// signature is `wanted`; of several with one signature, the last in the file. A
/// missing file has no entries. A file whose first line is not kTuningCacheHeader, and
/// each malformed line, are ignored with a warning.
CacheLookup find_entries(const std::string& path,
                         const std::function<bool(const std::string& signature)>& wanted);
/// find_entries() of one signature: at most one entry.
CacheLookup find_entry(const std::string& path, const std::string& signature);

/// Writers (the three functions below) hold an exclusive flock(2) on the file while
/// they read and write it, and reopen it if a rewrite replaced it while they waited:
/// concurrent runs neither cut nor lose each other's entries. Readers take no lock. On
/// a file system without locks, or when the lock stays held for over half a second (a
/// stopped process), the writers go unlocked (an entry may then be lost, never cut).

/// Not collective. Rewrites the file with `entry` replacing any entry of its
/// signature and the last well-formed entry of every other signature kept: writes
/// "<path>.tmp.<pid>", then renames it over `path`, so readers see the old file or the
/// new one, never a part. A file of another format version is replaced; a file that is
/// not a tuning cache at all is left alone. Returns the problems (empty on success).
/// A rename over a file costs a flush on some file systems (ext4: 0.1 to 25 ms
/// measured): for set-up, not inside an exchange.
std::vector<std::string> store_entry(const std::string& path, const CacheEntry& entry);

/// Not collective. Adds `entry` as one line at the end of the file, in one write(2):
/// no read of the entries, no rename, so no flush (tens of microseconds on a local
/// disk, where store_entry() took milliseconds). The line supersedes earlier ones of
/// its signature, since readers keep the last; a reader that sees the line half
/// written ignores it (a last line without its end of line). A missing or empty file
/// gets the header first; a file that does not start with this version's header, or
/// whose last line was cut short, is rewritten by store_entry() instead. Returns the
/// problems (empty on success).
std::vector<std::string> append_entry(const std::string& path, const CacheEntry& entry);

/// Not collective. Rewrites the file with the last entry of each signature only, as
/// store_entry() does, when appended lines supersede at least as many entries as the
/// file keeps (`lookup`, the file's last find_entries(), says so), so that the file
/// stays about twice its compacted size at most. Returns the problems (empty if
/// nothing needed doing).
std::vector<std::string> compact_if_superseded(const std::string& path,
                                               const CacheLookup& lookup);

}  // namespace ferry::detail
