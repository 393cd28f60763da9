#include "buffer/backoff.hpp"

#include <algorithm>
#include <thread>

namespace ferry::detail {

void Backoff::pause() {
  if (++polls_ <= kSpins) return;
  std::this_thread::sleep_for(sleep_);
  sleep_ = std::min(sleep_ * 2, kLongestSleep);
}

}  // namespace ferry::detail
