// A test seam: the times the adaptive engine records for its exchanges.
#pragma once

#include <functional>
#include <string>

#include "engines/tuning/candidate.hpp"

namespace ferry::detail {

/// Given a candidate's label and the seconds an exchange with it took on this rank,
/// the seconds to record instead. Tests install one to inject timings (a candidate
/// made slower, a drift after the decision) and so check the decisions without
/// relying on the machine's load.
using ExchangeTiming = std::function<double(const std::string& label, double measured)>;

/// Not collective and not thread-safe: set before the exchanges it should affect;
/// an empty function restores the measured times.
void set_exchange_timing(ExchangeTiming timing);

/// The seconds the adaptive engine records: `measured`, unless a timing is set.
/// Allocates nothing unless a timing is set.
double recorded_seconds(const Candidate& candidate, double measured);

}  // namespace ferry::detail
