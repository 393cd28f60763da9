// Last-error storage of the extern "C" layer (see firewall.hpp).
#include "capi/firewall.hpp"

#include <cctype>
#include <string>
#include <string_view>

#include "ferry/ferry.h"

namespace ferry::detail {
namespace {

thread_local std::string t_last_error;
// Set instead of t_last_error when composing the message itself ran out of memory.
thread_local const char* t_static_error = nullptr;

// A class name: a capital letter, then letters, digits and underscores ("Remap").
bool class_name(std::string_view word) {
  if (word.empty() || word[0] < 'A' || word[0] > 'Z') return false;
  for (const char c : word)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

// A leading "Name::verb: ", "ferry_xyz: " or "Class: ": the function or class that
// raised, not the C function called.
std::string_view strip_raiser(std::string_view what) {
  const auto colon = what.find(": ");
  if (colon == std::string_view::npos) return what;
  const std::string_view head = what.substr(0, colon);
  const bool one_word = head.find(' ') == std::string_view::npos;
  const bool named = head.find("::") != std::string_view::npos || head.rfind("ferry_", 0) == 0 ||
                     class_name(head);
  return one_word && named ? what.substr(colon + 2) : what;
}

int keep(Errc code, const char* function, const char* lead, std::string_view text,
         const char* note) noexcept {
  try {
    t_last_error.assign(function).append(": ").append(lead).append(text).append(note);
    t_static_error = nullptr;
  } catch (...) {
    t_static_error = errc_name(code);
  }
  return static_cast<int>(code);
}

}  // namespace

int record_c_error(Errc code, const char* function, const char* what) noexcept {
  return keep(code, function, "", strip_raiser(what), "");
}

int record_unexpected_c_error(const char* function, const char* what) noexcept {
  return keep(Errc::Internal, function, "unexpected C++ exception: ", what,
              ". This is a bug in ferry, please report it");
}

}  // namespace ferry::detail

extern "C" const char* ferry_last_error_message(void) {
  return ferry::detail::t_static_error != nullptr ? ferry::detail::t_static_error
                                                  : ferry::detail::t_last_error.c_str();
}
