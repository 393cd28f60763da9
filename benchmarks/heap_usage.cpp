#include "heap_usage.hpp"

#include <cstdlib>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ferry::bench {

std::optional<std::int64_t> heap_in_use() {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  const struct mallinfo2 info = mallinfo2();
  return static_cast<std::int64_t>(info.uordblks + info.hblkhd);
#else
  return std::nullopt;
#endif
}

}  // namespace ferry::bench
