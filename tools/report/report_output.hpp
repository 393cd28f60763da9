// Writing `ferry report`: an aligned table, or one JSON object per line.
#pragma once

#include <string>
#include <vector>

#include "time_breakdown.hpp"

namespace ferry::report {

/// The share of each run's time per part (with the efficiency and rate columns when
/// a component was given at several rank counts), a legend, then every run's timers
/// per exchange.
std::string report_table(const std::vector<ComponentRun>& runs);

/// One line per run ("report": "component": seconds and percent per part, and the
/// efficiency), then one per timer ("report": "exchange"), each ending in a newline.
std::string report_json(const std::vector<ComponentRun>& runs);

}  // namespace ferry::report
