#include "collectives/swap_schedule.hpp"

namespace ferry::detail {

namespace {

// Round k of the circle method on an odd number of ranks `n`: partners sum to k mod n.
int circle_partner(int rank, int k, int n) { return ((k - rank) % n + n) % n; }

bool is_power_of_two(int n) { return n > 0 && (n & (n - 1)) == 0; }

}  // namespace

std::vector<int> swap_partners(int rank, int size) {
  std::vector<int> partners;
  if (is_power_of_two(size)) {
    for (int k = 1; k < size; ++k) partners.push_back(rank ^ k);
  } else if (size % 2 == 1) {
    for (int k = 0; k < size; ++k) {
      const int partner = circle_partner(rank, k, size);
      partners.push_back(partner == rank ? -1 : partner);
    }
  } else {
    const int odd = size - 1;  // ranks 0..odd-1 play the odd tournament; rank odd fills in
    for (int k = 0; k < odd; ++k) {
      if (rank == odd) {
        // The rank idle in round k of the odd tournament: 2q = k mod odd, and
        // (odd + 1) / 2 is the inverse of 2 modulo odd.
        partners.push_back(static_cast<int>(static_cast<long long>(k) * ((odd + 1) / 2) % odd));
      } else {
        const int partner = circle_partner(rank, k, odd);
        partners.push_back(partner == rank ? odd : partner);
      }
    }
  }
  return partners;
}

}  // namespace ferry::detail
