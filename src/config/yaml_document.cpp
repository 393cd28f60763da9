#include "config/yaml_document.hpp"

#include <yaml-cpp/eventhandler.h>

#include <optional>
#include <sstream>
#include <vector>

#include "config/yaml_check.hpp"
#include "config/yaml_syntax.hpp"

namespace ferry::config::detail {

namespace {

// Where one document's content starts, from the parser's events.
class DocumentStart : public YAML::EventHandler {
 public:
  void reset() {
    content_.reset();
    null_.reset();
  }
  const std::optional<YAML::Mark>& content() const { return content_; }
  const std::optional<YAML::Mark>& null() const { return null_; }

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override {
    if (!content_ && !null_) null_ = mark;
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { first(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                const std::string&) override {
    first(mark);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    first(mark);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    first(mark);
  }
  void OnMapEnd() override {}

 private:
  void first(const YAML::Mark& mark) {
    if (!content_) content_ = mark;
  }
  std::optional<YAML::Mark> content_;
  std::optional<YAML::Mark> null_;
};

bool same_place(const YAML::Mark& a, const YAML::Mark& b) { return a.pos == b.pos; }

// Walks the documents without building nodes and returns the index of the one
// with content. yaml-cpp 0.7 never consumes a ',' that starts a document and returns
// the same empty document forever (YAML::LoadAll then allocates until the process
// dies): two empty documents at the same place are that token, a syntax error.
std::size_t content_document(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentStart start;
  std::optional<YAML::Mark> previous_empty;
  std::optional<std::size_t> found;
  std::size_t index = 0;
  for (start.reset(); parser.HandleNextDocument(start); start.reset(), ++index) {
    if (start.content()) {
      if (found)
        fail_at(name, *start.content(),
                "a second YAML document starts here; keep one configuration per file");
      found = index;
      previous_empty.reset();
      continue;
    }
    if (start.null() && previous_empty && same_place(*start.null(), *previous_empty))
      fail_at(name, *start.null(), "YAML syntax error: a ',' outside [ ] or { }");
    previous_empty = start.null();
  }
  if (!found)
    fail_at(name, YAML::Mark(), "the file holds no configuration; it starts with \"version: 1\"");
  return *found;
}

}  // namespace

YAML::Node load_document(const std::string& text, const std::string& name) {
  try {
    const std::size_t index = content_document(text, name);
    return YAML::LoadAll(text).at(index);
  } catch (const YAML::Exception& e) {
    const SyntaxError error = explain_syntax_error(e, text);
    fail_at(name, error.mark, error.what);
  }
}

}  // namespace ferry::config::detail
