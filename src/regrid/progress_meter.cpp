// ProgressMeter: bounded-rate progress reports to a callback and to the log.
#include "regrid/progress_meter.hpp"

#include <exception>
#include <string>

#include "util/check.hpp"
#include "util/log.hpp"

namespace ferry::regrid::detail {

namespace {

// The log gets a line at most this often, and one at the end of each step.
constexpr std::chrono::seconds kLogInterval{10};

}  // namespace

ProgressMeter::ProgressMeter(const char* what, const char* stage, int rank, std::int64_t total,
                             const std::function<void(const WeightProgress&)>& callback,
                             double seconds)
    : what_(what),
      stage_(stage),
      rank_(rank),
      total_(total),
      callback_(callback),
      interval_(std::chrono::duration_cast<Clock::duration>(
          std::chrono::duration<double>(seconds > 0 ? seconds : 0))),
      start_(Clock::now()),
      last_call_(start_),
      last_log_(start_) {
  call(0);
}

void ProgressMeter::finish() {
  call(total_);
  log(total_);
}

void ProgressMeter::report_if_due(std::int64_t done) {
  const Clock::time_point now = Clock::now();
  if (now - last_call_ >= interval_) {
    last_call_ = now;
    call(done);
  }
  if (now - last_log_ >= kLogInterval) {
    last_log_ = now;
    log(done);
  }
}

void ProgressMeter::call(std::int64_t done) {
  if (!callback_) return;
  const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
  // A foreign exception (from Python, say) becomes a ferry::Error, which the caller's
  // agreement hands to every rank.
  try {
    callback_(WeightProgress{stage_, done, total_, elapsed});
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(Errc::Arg, ferry::detail::cat(what_, ": the progress callback raised on rank ", rank_, ": ",
                               e.what()),
                rank_);
  }
}

void ProgressMeter::log(std::int64_t done) const {
  const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
  FERRY_LOG_INFO(rank_, what_, ": ", stage_, " ", done, " of ", total_, " (",
                 total_ > 0 ? 100 * done / total_ : 100, "%) on this rank after ", elapsed, " s");
}

}  // namespace ferry::regrid::detail
