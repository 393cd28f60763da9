// What a ferry_layout handle holds; shared by the C API files that take layouts.
#pragma once

#include "ferry/layout.hpp"

struct ferry_layout {
  static constexpr const char* kWhat = "layout";
  ferry::Layout layout;
};
