#include "json_value.hpp"

#include <cstdlib>
#include <cstring>

#include "ferry/error.hpp"
#include "util/format.hpp"

namespace ferry::report {

const JsonValue* JsonValue::find(const std::string& key) const noexcept {
  for (const auto& [name, value] : members_)
    if (name == key) return &value;
  return nullptr;
}

/// Recursive descent over the text; the position is kept for error messages.
class JsonParser {
 public:
  JsonParser(const std::string& text, const std::string& source) : text_(text), source_(source) {}

  JsonValue document() {
    JsonValue v = value(0);
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the JSON value");
    return v;
  }

 private:
  // Deeper nesting than any file ferry writes means a broken file, not a reason to
  // exhaust the stack.
  static constexpr int kMaxDepth = 64;

  [[noreturn]] void fail(const std::string& what) const {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < pos_ && i < text_.size(); ++i) {
      column = text_[i] == '\n' ? 1 : column + 1;
      line += text_[i] == '\n';
    }
    throw Error(Errc::Io, detail::cat(source_, ":", line, ":", column, ": ", what,
                                      ". Is this a file ferry wrote?"));
  }

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\r' || text_[pos_] == '\n'))
      ++pos_;
  }

  // Takes `c` if it comes next.
  bool take(char c) {
    if (!next_is(c)) return false;
    ++pos_;
    return true;
  }

  bool next_is(char c) {
    skip_space();
    return pos_ < text_.size() && text_[pos_] == c;
  }

  void expect(char c) {
    if (!take(c)) fail(detail::cat("expected '", c, "'"));
  }

  JsonValue value(int depth) {
    if (depth > kMaxDepth) fail("values nested too deeply");
    skip_space();
    if (pos_ == text_.size()) fail("unexpected end of the file");
    JsonValue v;
    if (take('{')) {
      v.kind_ = JsonValue::Kind::Object;
      if (take('}')) return v;
      do {
        skip_space();
        std::string key = string_literal();
        expect(':');
        v.members_.emplace_back(std::move(key), value(depth + 1));
      } while (take(','));
      expect('}');
    } else if (take('[')) {
      v.kind_ = JsonValue::Kind::Array;
      if (take(']')) return v;
      do v.items_.push_back(value(depth + 1));
      while (take(','));
      expect(']');
    } else if (next_is('"')) {
      v.kind_ = JsonValue::Kind::String;
      v.string_ = string_literal();
    } else if (literal("true") || literal("false")) {
      v.kind_ = JsonValue::Kind::Bool;
    } else if (literal("null")) {
      v.kind_ = JsonValue::Kind::Null;
    } else {
      v.kind_ = JsonValue::Kind::Number;
      v.number_ = number();
    }
    return v;
  }

  bool literal(const char* word) {
    const std::size_t n = std::strlen(word);
    if (text_.compare(pos_, n, word) != 0) return false;
    pos_ += n;
    return true;
  }

  double number() {
    const char* begin = text_.c_str() + pos_;
    // strtod accepts more than JSON (hex, inf, nan); a JSON number starts like this.
    if (*begin != '-' && (*begin < '0' || *begin > '9')) fail("expected a value");
    char* end = nullptr;
    const double result = std::strtod(begin, &end);
    pos_ += static_cast<std::size_t>(end - begin);
    return result;
  }

  std::string string_literal() {
    if (pos_ >= text_.size() || text_[pos_] != '"') fail("expected a string");
    ++pos_;
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_++];
      if (c == '\\') {
        if (pos_ >= text_.size()) break;
        const char escaped = text_[pos_++];
        switch (escaped) {
          case 'n': c = '\n'; break;
          case 't': c = '\t'; break;
          case 'r': c = '\r'; break;
          case 'b': c = '\b'; break;
          case 'f': c = '\f'; break;
          case 'u': {
            if (pos_ + 4 > text_.size()) fail("a \\u escape needs four hex digits");
            const long code = std::strtol(text_.substr(pos_, 4).c_str(), nullptr, 16);
            pos_ += 4;
            c = code < 0x80 ? static_cast<char>(code) : '?';
            break;
          }
          default: c = escaped;  // \" \\ \/
        }
      }
      out += c;
    }
    if (pos_ >= text_.size()) fail("a string is not closed");
    ++pos_;
    return out;
  }

  const std::string& text_;
  const std::string& source_;
  std::size_t pos_ = 0;
};

JsonValue parse_json(const std::string& text, const std::string& source) {
  return JsonParser(text, source).document();
}

}  // namespace ferry::report
