#include "engines/tuning/paired_statistics.hpp"

#include <algorithm>
#include <cmath>

namespace ferry::detail {

double median_of(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::optional<Interval> median_interval(std::vector<double> values, double confidence) {
  const std::size_t n = values.size();
  const double tail = (1 - confidence) / 2;
  // below = P(X < k) for X ~ Binomial(n, 1/2), grown one k at a time.
  double below = 0;
  double term = std::pow(0.5, static_cast<double>(n));  // P(X = 0)
  std::size_t k = 0;
  while (k < n / 2 && below + term <= tail) {
    below += term;
    term *= static_cast<double>(n - k) / static_cast<double>(k + 1);  // P(X = k + 1)
    ++k;
  }
  if (k == 0) return std::nullopt;
  std::sort(values.begin(), values.end());
  return Interval{values[k - 1], values[n - k]};
}

std::vector<double> paired_ratios(const std::vector<double>& a, const std::vector<double>& b,
                                  double descheduled) {
  const std::size_t n = std::min(a.size(), b.size());
  const auto fastest = [n](const std::vector<double>& v) {
    double low = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (v[i] > 0 && (low == 0 || v[i] < low)) low = v[i];
    return low;
  };
  const double a_slow = descheduled * fastest(a), b_slow = descheduled * fastest(b);
  std::vector<double> ratios;
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] > 0 && b[i] > 0 && !(descheduled > 0 && a[i] > a_slow && b[i] > b_slow))
      ratios.push_back(a[i] / b[i]);
  return ratios;
}

}  // namespace ferry::detail
