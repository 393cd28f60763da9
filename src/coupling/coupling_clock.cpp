#include "coupling/coupling_clock.hpp"

#include <cmath>

namespace ferry::coupling {

CouplingClock::CouplingClock(double start, double length, double period, double lag)
    : start_(start), length_(length), period_(period), lag_(lag), tolerance_(1e-9 * period) {}

bool CouplingClock::same(double a, double b) const noexcept {
  return std::fabs(a - b) <= tolerance_;
}

bool CouplingClock::before(double a, double b) const noexcept { return a < b - tolerance_; }

}  // namespace ferry::coupling
