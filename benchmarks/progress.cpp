#include "progress.hpp"

namespace ferry::bench {

namespace {

class Silent : public Progress {
 public:
  void stage(const std::string&) override {}
  void step(std::int64_t, std::int64_t) override {}
};

Silent silent;
Progress* current = &silent;

}  // namespace

Progress& progress() { return *current; }

void set_progress(Progress* reporter) { current = reporter ? reporter : &silent; }

}  // namespace ferry::bench
