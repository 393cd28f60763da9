// FailureNotice: how a rank that fails tells every other rank of a coupled run at once.
#pragma once

#include <mpi.h>

#include <array>
#include <optional>
#include <string>

#include "ferry/comm.hpp"

namespace ferry::coupling {

/// The text of a notice: who failed (`who`, e.g. `component "atm"`), its rank in the
/// run, the call it failed in and why.
std::string failure_text(const std::string& who, int rank, const std::string& call,
                         const std::string& what);

/// A small out-of-band channel over a private duplicate of the run's communicator. Each
/// rank keeps one receive posted for a notice from any rank; a rank that fails sends
/// its notice (one short text: who failed, in which call, why) to every other rank,
/// and every rank that waits for a partner polls for it, so it stops at once instead
/// of waiting for its watchdog. A rank that received a notice does not pass it on:
/// the rank that failed told everyone.
///
/// Nothing here waits for another rank except the constructor (a communicator
/// duplicate, when every rank is known to be there): tell() gives its sends a bounded
/// time, and the destructor cancels the posted receive.
class FailureNotice {
 public:
  /// The longest notice text; longer ones are cut.
  static constexpr std::size_t kMaxText = 1000;

  /// No channel: poll() never reports, tell() sends nothing.
  FailureNotice() = default;
  /// Collective over `run`, once every rank is known to have arrived: duplicates it and
  /// posts the receive.
  explicit FailureNotice(const Comm& run);
  FailureNotice(const FailureNotice&) = delete;
  FailureNotice& operator=(const FailureNotice&) = delete;
  ~FailureNotice();

  /// Not collective, never blocks: the text of the notice another rank sent, once it
  /// has arrived (the first one; later ones are not read).
  const std::optional<std::string>& poll();
  /// Not collective: sends `text` to every other rank of the run (or only to rank
  /// `only` of it, when >= 0), and waits at most
  /// one second for the sends to leave this rank (eager messages leave at once); a
  /// send still pending then completes, or not, on its own, so the object must live
  /// on (see Coupler::~Coupler). Once per object: later calls send nothing.
  void tell(const std::string& text, int only = -1);

  /// The channel's communicator, for other out-of-band messages (the roll call of
  /// run-wide agreements). Invalid for a default-constructed notice.
  const Comm& comm() const noexcept { return comm_; }

 private:
  Comm comm_;
  MPI_Request receive_ = MPI_REQUEST_NULL;
  std::array<char, kMaxText + 1> incoming_{};
  std::optional<std::string> received_;
  std::string outgoing_;
  bool told_ = false;
};

}  // namespace ferry::coupling
