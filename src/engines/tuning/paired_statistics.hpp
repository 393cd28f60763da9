// Distribution-free statistics for comparing exchange times taken under noise.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace ferry::detail {

/// The median of `values` (the mean of the middle two for an even count); 0 for none.
/// Not collective.
double median_of(std::vector<double> values);

/// A closed interval [low, high].
struct Interval {
  double low = 0;
  double high = 0;
};

/// The order-statistic confidence interval of the median of `values`: [x_(k),
/// x_(n+1-k)] of the sorted values, with k the largest index such that a Binomial(n,
/// 1/2) count falls below k with probability at most (1 - confidence) / 2. It holds
/// the true median with probability at least `confidence` whatever the distribution
/// (no normality assumed: exchange times under load have long tails). nullopt when n
/// is too small for that confidence (n < 5 at 0.9). Not collective.
std::optional<Interval> median_interval(std::vector<double> values, double confidence);

/// The ratios a[i] / b[i] of the entries where both are set (> 0): paired samples,
/// taken in the same round, so a burst of load that slows one slows the other too.
/// With `descheduled` > 0, rounds in which both samples were descheduled (each over
/// `descheduled` times its own side's fastest set sample) are left out: on a core
/// shared with other processes an exchange either ends within its time slice or
/// waits for a later one (4 to 30 ms against 0.1 ms), and the ratio of two waits is
/// a coin toss about the scheduler that says nothing about the two candidates. They
/// are ties of a sign test; rounds in which one side waited and the other did not
/// stay in (that one side is descheduled less often is a difference the user sees).
/// Not collective.
std::vector<double> paired_ratios(const std::vector<double>& a, const std::vector<double>& b,
                                  double descheduled = 0);

}  // namespace ferry::detail
