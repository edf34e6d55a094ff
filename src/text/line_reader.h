// Reads a text line by line: lines end at '\n', a trailing '\r' is dropped, and lines are numbered from 1
// so parsers can name the line of an error. The last line need not end in '\n'.
#ifndef EMBEDLAB_TEXT_LINE_READER_H_
#define EMBEDLAB_TEXT_LINE_READER_H_

#include <cstddef>
#include <string_view>

namespace embedlab {

class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}

  // Sets *line to the next line (without its end) and returns true, or returns false at the end.
  bool Next(std::string_view* line) {
    if (pos_ >= text_.size()) return false;
    size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    *line = text_.substr(pos_, end - pos_);
    if (!line->empty() && line->back() == '\r') line->remove_suffix(1);
    pos_ = end + 1;
    ++number_;
    return true;
  }

  // The number of the line Next returned last (1 for the first).
  size_t number() const { return number_; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  size_t number_ = 0;
};

}  // namespace embedlab

#endif  // EMBEDLAB_TEXT_LINE_READER_H_
