#include "util/json_text.hpp"

#include <nlohmann/json.hpp>

namespace ferry::detail {

std::string json_string(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace ferry::detail
