// "Did you mean ...?": the closest known word to a misspelt key or value.
#pragma once

#include <string>
#include <vector>

namespace ferry::config::detail {

/// Edits (insert, delete, replace, swap of neighbours) that turn `a` into `b`,
/// ignoring case.
std::size_t edit_distance(const std::string& a, const std::string& b);

/// The candidate closest to `word` if it is close enough to be a likely typo
/// (at most one edit per three letters, at most three), else "". Ties go to the
/// earlier candidate, so the answer does not depend on anything but the inputs.
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

/// "; did you mean \"x\"?" for the closest match, or "" if there is none.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace ferry::config::detail
