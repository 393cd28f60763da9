// CouplingClock: the coupling times of one configured exchange.
#pragma once

namespace ferry::coupling {

/// Times of one exchange, in seconds of model time. The destination gets at the
/// target times start + k * period that fall inside the run [start, start + length);
/// the source puts the value for target T at time T - lag, so its coupling times are
/// start - lag + k * period (k >= 0). With lag > 0 the value for the first target,
/// put at start - lag, comes from the previous run's restart file (or from a put at
/// start - lag right after enddef). Puts between two coupling times only feed the
/// time transform. Times are compared with a tolerance of 1e-9 periods.
class CouplingClock {
 public:
  CouplingClock() = default;
  CouplingClock(double start, double length, double period, double lag);

  double start() const noexcept { return start_; }
  double end() const noexcept { return start_ + length_; }
  double period() const noexcept { return period_; }
  double lag() const noexcept { return lag_; }

  /// The source's first coupling time: start - lag.
  double first_put_time() const noexcept { return start_ - lag_; }
  /// The destination's first coupling time: start.
  double first_get_time() const noexcept { return start_; }
  /// The coupling time after `t` (a coupling time): t + period.
  double next(double t) const noexcept { return t + period_; }

  /// a == b within the tolerance.
  bool same(double a, double b) const noexcept;
  /// a < b by more than the tolerance.
  bool before(double a, double b) const noexcept;

  /// The target time of the value put at source coupling time t: t + lag.
  double target_of(double put_time) const noexcept { return put_time + lag_; }
  /// True if a value for `target` is received inside this run (else it goes to the restart).
  bool received_in_run(double target) const noexcept { return before(target, end()); }
  /// True if the get at `get_time` receives a value put before this run started.
  bool from_previous_run(double get_time) const noexcept { return before(get_time - lag_, start_); }

 private:
  double start_ = 0;
  double length_ = 0;
  double period_ = 1;
  double lag_ = 0;
  double tolerance_ = 1e-9;
};

}  // namespace ferry::coupling
