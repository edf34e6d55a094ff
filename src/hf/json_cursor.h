// A pull reader over JSON text (RFC 8259) for the large tokenizer.json files: no tree is built, the caller walks
// the document and takes each value as it comes (a vocabulary of 262,144 entries goes straight into its table).
// Strict: invalid UTF-8, lone surrogate escapes, control characters in strings and nesting deeper than
// kMaxDepth are refused. Every error is a std::invalid_argument naming the JSON path of the value (e.g.
// `model.merges[12]`) and the line and column.
#ifndef EMBEDLAB_HF_JSON_CURSOR_H_
#define EMBEDLAB_HF_JSON_CURSOR_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace embedlab {

class JsonCursor {
 public:
  enum class Kind { kNull, kBoolean, kNumber, kString, kArray, kObject, kEnd };
  static constexpr int kMaxDepth = 64;

  // what names the document in messages ("tokenizer.json").
  JsonCursor(std::string_view text, std::string what);

  // The kind of the next value (whitespace skipped); kEnd at the end of the text.
  Kind Peek();

  // Objects: BeginObject, then NextMember until it returns false; NextMember gives the member's key (valid
  // until the next call on the cursor) and leaves the cursor on its value, which the caller must consume.
  void BeginObject();
  bool NextMember(std::string_view* key);
  // Arrays: BeginArray, then NextItem until false, consuming each item.
  void BeginArray();
  bool NextItem();

  // The string's decoded UTF-8 (valid until the next call on the cursor).
  std::string_view ReadString();
  // An integer literal (no fraction or exponent) in [min, max]; otherwise an error naming the range.
  int64_t ReadInteger(int64_t min, int64_t max);
  bool ReadBoolean();
  void ReadNull();
  // Skips one value of any kind, validating it, and returns its text.
  std::string_view SkipValue();
  // Requires the end of the text (only whitespace left).
  void ExpectEnd();

  // Throws std::invalid_argument: "<what>: <path>: <message> (line L, column C)".
  [[noreturn]] void Fail(const std::string& message) const;
  // The path of the value being read, e.g. "model.merges[12]" ("the top level" when empty).
  std::string Path() const;
  size_t position() const { return pos_; }

 private:
  struct Frame {
    bool array;
    size_t index;          // arrays: the current item
    std::string_view key;  // objects: the current key, as written (escapes undecoded)
  };
  void SkipSpace();
  void Expect(char c, const char* what);
  // Scans the string at pos_ (on its quote); decodes into scratch_ when it has escapes.
  std::string_view ScanString(bool decode);
  uint32_t ReadHex4();
  std::string_view ScanNumber();
  void Push(bool array);
  [[noreturn]] void FailAt(size_t pos, const std::string& message) const;

  std::string_view text_;
  std::string what_;
  size_t pos_ = 0;
  std::vector<Frame> frames_;
  std::vector<bool> first_;  // per frame: no member/item read yet
  std::string scratch_;
};

}  // namespace embedlab

#endif  // EMBEDLAB_HF_JSON_CURSOR_H_
