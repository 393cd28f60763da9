// ferry::Traffic: what one exchange costs a rank on the wire.
#pragma once

#include <cstdint>

namespace ferry {

/// What one exchange of every field costs this rank on the wire: messages and bytes
/// it sends (its own points excluded) and the rounds of messages it waits through.
struct Traffic {
  std::int64_t messages = 0;
  std::int64_t bytes = 0;
  int rounds = 0;
};

}  // namespace ferry
