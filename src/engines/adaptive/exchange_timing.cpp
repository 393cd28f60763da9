#include "engines/adaptive/exchange_timing.hpp"

#include <utility>

namespace ferry::detail {

namespace {
ExchangeTiming& installed() {
  static ExchangeTiming timing;
  return timing;
}
}  // namespace

void set_exchange_timing(ExchangeTiming timing) { installed() = std::move(timing); }

double recorded_seconds(const Candidate& candidate, double measured) {
  const ExchangeTiming& timing = installed();
  return timing ? timing(candidate.label(), measured) : measured;
}

}  // namespace ferry::detail
