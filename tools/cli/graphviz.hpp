// Rendering DOT text with Graphviz's `dot` program.
#pragma once

#include <string>

namespace ferry::cli {

/// Runs `dot -T<format> -o <output>` with `dot_text` on its standard input (no shell).
/// Errc::Io if `dot` is not on PATH (with how to install it) or fails. Not collective.
void render_with_dot(const std::string& dot_text, const std::string& format,
                     const std::string& output);

}  // namespace ferry::cli
