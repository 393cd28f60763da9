// `ferry report --png`: the runs' shares as stacked bars, drawn by matplotlib.
#pragma once

#include <string>
#include <vector>

#include "time_breakdown.hpp"

namespace ferry::report {

/// Not collective. Runs plot_report.py with a Python interpreter ($FERRY_PYTHON, else
/// the .venv of ferry's source tree if there is one, else python3), feeding it the
/// runs as report_json() writes them, and the script writes `png`. Raises
/// Errc::Unsupported when the interpreter is missing or has no matplotlib, Errc::Io
/// when the script fails.
void plot_report(const std::vector<ComponentRun>& runs, const std::string& png);

}  // namespace ferry::report
