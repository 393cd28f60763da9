// reprosum: exact sums in integers, in the spirit of Mirin and Worley's fixed-point
// method (CESM/E3SM shr_reprosum), but with enough levels never to round.
//
// Every finite double is m * 2^(s - 1074) with an integer m < 2^53 and 0 <= s <= 2045.
// Each sum is a fixed-point number in base 2^32: digit i weighs 2^(32 i - 1074), and a
// term adds its m, shifted by s, to three digits. Integer additions are exact and
// associative, so the sum is the same for any order, process count and layout; it is
// rounded to double once, correctly (except for results in the subnormal range).
// Two reductions: MAX of the largest s (how many digits are needed), SUM of the digits.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "ferry/error.hpp"
#include "regrid/global_sum_methods.hpp"
#include "util/format.hpp"
#include "util/mpi.hpp"

namespace ferry::regrid::detail {
namespace {

constexpr int kDigitBits = 32;
constexpr std::uint64_t kDigitMask = (std::uint64_t{1} << kDigitBits) - 1;
// A term adds less than 2^32 to a digit: carrying after 2^30 points keeps every digit
// below 2^62 in magnitude.
constexpr std::size_t kCarryEvery = std::size_t{1} << 30;
// Digits above the largest term's: room for the carries of up to 2^64 terms.
constexpr int kHeadroomDigits = 2;

struct Term {
  std::uint64_t m = 0;  // magnitude, < 2^53; 0 for a zero term
  int s = 0;            // shift of m above 2^-1074
  bool negative = false;
  bool finite = true;
};

Term split(double x) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  Term t;
  t.negative = (bits >> 63) != 0;
  const int exponent = static_cast<int>((bits >> 52) & 0x7ff);
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
  if (exponent == 0x7ff) {
    t.finite = false;
  } else if (exponent == 0) {  // zero or subnormal: fraction * 2^-1074
    t.m = fraction;
  } else {
    t.m = fraction | (std::uint64_t{1} << 52);
    t.s = exponent - 1;
  }
  return t;
}

// Adds the term to digits[level], [level + 1], [level + 2], each part below 2^32.
void add(const Term& t, std::int64_t* digits) {
  const int level = t.s / kDigitBits;
  const int shift = t.s % kDigitBits;
  const std::int64_t sign = t.negative ? -1 : 1;
  // Only the low 32 bits of m << shift are kept, so the shift overflowing is harmless.
  const std::uint64_t low = (t.m << shift) & kDigitMask;
  const std::uint64_t rest = t.m >> (kDigitBits - shift);
  digits[level] += sign * static_cast<std::int64_t>(low);
  digits[level + 1] += sign * static_cast<std::int64_t>(rest & kDigitMask);
  digits[level + 2] += sign * static_cast<std::int64_t>(rest >> kDigitBits);
}

// Brings digits 0 .. levels-2 into [0, 2^32); the top digit keeps the sign.
void carry(std::int64_t* digits, int levels) {
  for (int i = 0; i + 1 < levels; ++i) {
    const auto low = static_cast<std::int64_t>(static_cast<std::uint64_t>(digits[i]) &
                                               kDigitMask);
    digits[i + 1] += (digits[i] - low) / (std::int64_t{1} << kDigitBits);
    digits[i] = low;
  }
}

// The carried digits as the nearest double (ties to even).
double to_double(std::vector<std::int64_t> digits) {
  const int levels = static_cast<int>(digits.size());
  int top = levels - 1;
  while (top >= 0 && digits[top] == 0) --top;
  if (top < 0) return 0.0;
  // The lower digits are not negative, so the highest non-zero one carries the sign.
  const bool negative = digits[top] < 0;
  if (negative) {
    for (auto& d : digits) d = -d;
    carry(digits.data(), levels);
    // A borrow may have emptied the top digit.
    while (digits[top] == 0) --top;
  }
  // The top 64 bits of the magnitude, then a sticky bit for anything non-zero below
  // them, so that converting to double rounds as the exact value would.
  const auto digit = [&](int i) { return static_cast<std::uint64_t>(i >= 0 ? digits[i] : 0); };
  int width = 0;  // bits in the top digit, 1 .. 32
  while (width < kDigitBits && (digit(top) >> width) != 0) ++width;
  std::uint64_t word = digit(top) << (64 - width);
  word |= digit(top - 1) << (kDigitBits - width);
  word |= digit(top - 2) >> width;
  bool sticky = (digit(top - 2) & ((std::uint64_t{1} << width) - 1)) != 0;
  for (int i = top - 3; i >= 0 && !sticky; --i) sticky = digits[i] != 0;
  const double magnitude =
      std::ldexp(static_cast<double>(word | (sticky ? 1u : 0u)),
                 kDigitBits * top + width - 64 - 1074);
  return negative ? -magnitude : magnitude;
}

}  // namespace

std::vector<double> sum_reprosum(MPI_Comm comm, int count, std::size_t points,
                                 const double* values) {
  int rank = 0;
  FERRY_CALL_MPI(MPI_Comm_rank(comm, &rank));
  const std::size_t n = points * static_cast<std::size_t>(count);

  // Reduction 1: the largest shift of any term, and the highest rank holding a term
  // that is not finite (+1; 0 when none), so every rank raises alike.
  int local[2] = {0, 0};
  for (std::size_t i = 0; i < n; ++i) {
    const Term t = split(values[i]);
    if (!t.finite) local[1] = rank + 1;
    if (t.m != 0) local[0] = std::max(local[0], t.s);
  }
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, local, 2, MPI_INT, MPI_MAX, comm));
  if (local[1] != 0)
    throw Error(Errc::Arg,
                ferry::detail::cat("ferry::global_sums: reprosum needs finite terms; rank ",
                                   local[1] - 1,
                                   " holds a NaN or an infinity. Check the field, or use "
                                   "lsum8, which lets it propagate"));

  // Reduction 2: the digits of every sum, digits[j * levels + i].
  const int levels = local[0] / kDigitBits + 3 + kHeadroomDigits;
  std::vector<std::int64_t> digits(static_cast<std::size_t>(count) * levels, 0);
  for (std::size_t begin = 0; begin < points; begin += kCarryEvery) {
    const std::size_t end = std::min(points, begin + kCarryEvery);
    for (std::size_t p = begin; p < end; ++p)
      for (int j = 0; j < count; ++j) {
        const Term t = split(values[p * count + j]);
        if (t.m != 0) add(t, &digits[static_cast<std::size_t>(j) * levels]);
      }
    for (int j = 0; j < count; ++j) carry(&digits[static_cast<std::size_t>(j) * levels], levels);
  }
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, digits.data(),
                               ferry::detail::mpi_count<int>(digits.size(), "global_sums digits"),
                               MPI_INT64_T, MPI_SUM, comm));

  std::vector<double> sums(static_cast<std::size_t>(count));
  for (int j = 0; j < count; ++j) {
    const auto first = digits.begin() + static_cast<std::ptrdiff_t>(j) * levels;
    std::vector<std::int64_t> sum(first, first + levels);
    carry(sum.data(), levels);
    sums[j] = to_double(std::move(sum));
  }
  return sums;
}

}  // namespace ferry::regrid::detail
