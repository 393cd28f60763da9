// ferry::ExchangeShare: what the exchanges over one plan share (a communicator, engine
// resources such as the rma engine's node window).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ferry/comm.hpp"

namespace ferry {

/// Something an engine keeps in an ExchangeShare for the next exchanges over it: freed
/// collectively by ExchangeShare::close(), never by its destructor.
class SharedResource {
 public:
  virtual ~SharedResource() = default;
  /// Collective over the ranks the resource was made on (every rank of the share's
  /// communicator calls it, in the order the resources were stored).
  virtual void close() = 0;
};

/// Who agrees on an error that the set-up of an exchange over an ExchangeShare meets on
/// one rank after its engine's last collective call (a failed MPI call setting up the
/// messages to its peers). Only with an engine whose set-up agrees once, in the
/// exchange's agreement on its fields (rma); others agree at the end of their set-up.
enum class LateSetupErrors {
  /// The Exchange constructor: every rank raises it (one more collective round).
  AgreedByExchange,
  /// Only that rank's constructor raises it; the caller agrees on the constructors'
  /// errors over the share's ranks itself, before any collective call that depends on
  /// them (the coupler: once for every exchange of its set-up).
  RaisedAlone,
};

/// Exchanges between the same layouts on the same ranks (an OASIS namcouple's entries
/// between two partitions, one per field) share one of these: one duplicate of the
/// communicator instead of one per exchange, each exchange keeping its messages apart
/// by a tag range of its own, and what their engines can share (the rma engine's
/// shared-memory window: one per share, each exchange its own part of it). Pass it to
/// the Exchange constructor; keep it until every exchange over it is closed, then
/// close() it.
///
/// Lifecycle: construct (collective), make exchanges over it (in the same order on
/// every rank), close() the exchanges, close() the share (collective), destroy. The
/// destructor never waits for another rank: what only every rank together can free
/// (windows) stays until MPI_Finalize unless close() freed it.
class ExchangeShare {
 public:
  /// Tags an exchange over a share may use: [tag_base, tag_base + kTagsPerExchange).
  static constexpr int kTagsPerExchange = 16;

  /// Collective over `comm`: duplicates it once. `expected_exchanges`: how many
  /// exchanges the caller will make over the share, a hint for engines that size a
  /// resource once for all of them (0: unknown, each sizes for itself).
  ExchangeShare(MPI_Comm comm, std::size_t expected_exchanges,
                LateSetupErrors late_errors = LateSetupErrors::AgreedByExchange);
  ExchangeShare(const ExchangeShare&) = delete;
  ExchangeShare& operator=(const ExchangeShare&) = delete;
  ~ExchangeShare();

  /// The shared duplicate.
  const Comm& comm() const noexcept { return comm_; }
  std::size_t expected_exchanges() const noexcept { return expected_; }
  LateSetupErrors late_setup_errors() const noexcept { return late_errors_; }
  /// Exchanges that took a tag range so far.
  std::size_t exchanges() const noexcept { return exchanges_; }
  /// Not collective (the same on every rank when exchanges are made in the same order):
  /// the first tag of the next exchange's range, or nullopt when the MPI's tag range is
  /// used up (that exchange then duplicates the communicator for itself).
  std::optional<int> next_tag_base();

  /// Not collective: the resource an engine stored under `key`, or null.
  std::shared_ptr<SharedResource> find(const std::string& key) const;
  /// Not collective: keeps `resource` under `key` (replacing the one found there, which
  /// close() still frees).
  void store(const std::string& key, std::shared_ptr<SharedResource> resource);

  /// Collective over comm(), idempotent: closes every resource stored, in order. After
  /// every exchange over the share was closed.
  void close();

 private:
  Comm comm_;
  std::size_t expected_ = 0;
  LateSetupErrors late_errors_ = LateSetupErrors::AgreedByExchange;
  std::size_t exchanges_ = 0;
  int tag_upper_bound_ = 32767;  // MPI_TAG_UB, at least this
  std::vector<std::pair<std::string, std::shared_ptr<SharedResource>>> resources_;
  bool closed_ = false;
};

}  // namespace ferry
