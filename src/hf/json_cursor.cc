#include "hf/json_cursor.h"

#include <stdexcept>
#include <utility>

#include "text/utf8.h"

namespace embedlab {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

JsonCursor::JsonCursor(std::string_view text, std::string what) : text_(text), what_(std::move(what)) {}

std::string JsonCursor::Path() const {
  std::string path;
  for (const Frame& frame : frames_) {
    if (frame.array) {
      path += "[" + std::to_string(frame.index) + "]";
    } else if (!frame.key.empty() || frame.index > 0) {
      if (!path.empty()) path += ".";
      // Long or odd keys (a vocabulary entry) are shown quoted and cut.
      std::string key(frame.key.substr(0, 40));
      bool plain = !key.empty();
      for (char c : key) plain = plain && (IsDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_');
      path += plain ? key : "\"" + key + (frame.key.size() > 40 ? "…" : "") + "\"";
    }
  }
  return path.empty() ? "the top level" : path;
}

void JsonCursor::FailAt(size_t pos, const std::string& message) const {
  size_t line = 1;
  size_t line_start = 0;
  const size_t end = pos < text_.size() ? pos : text_.size();
  for (size_t i = 0; i < end; ++i) {
    if (text_[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  throw std::invalid_argument(what_ + ": " + Path() + ": " + message + " (line " + std::to_string(line) + ", column " +
                              std::to_string(end - line_start + 1) + ")");
}

void JsonCursor::Fail(const std::string& message) const { FailAt(pos_, message); }

void JsonCursor::SkipSpace() {
  while (pos_ < text_.size() && IsSpace(text_[pos_])) ++pos_;
}

JsonCursor::Kind JsonCursor::Peek() {
  SkipSpace();
  if (pos_ >= text_.size()) return Kind::kEnd;
  switch (text_[pos_]) {
    case '{':
      return Kind::kObject;
    case '[':
      return Kind::kArray;
    case '"':
      return Kind::kString;
    case 't':
    case 'f':
      return Kind::kBoolean;
    case 'n':
      return Kind::kNull;
    default:
      if (text_[pos_] == '-' || IsDigit(text_[pos_])) return Kind::kNumber;
      Fail(std::string("unexpected character '") + text_[pos_] + "'");
  }
}

void JsonCursor::Expect(char c, const char* what) {
  SkipSpace();
  if (pos_ >= text_.size()) Fail(std::string("the text ends where ") + what + " was expected (truncated?)");
  if (text_[pos_] != c) Fail(std::string("expected ") + what);
  ++pos_;
}

void JsonCursor::Push(bool array) {
  if (static_cast<int>(frames_.size()) >= kMaxDepth) {
    Fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
  }
  frames_.push_back({array, 0, {}});
  first_.push_back(true);
}

void JsonCursor::BeginObject() {
  Expect('{', "an object");
  Push(false);
}

void JsonCursor::BeginArray() {
  Expect('[', "an array");
  Push(true);
}

bool JsonCursor::NextMember(std::string_view* key) {
  SkipSpace();
  if (pos_ < text_.size() && text_[pos_] == '}') {
    ++pos_;
    frames_.pop_back();
    first_.pop_back();
    return false;
  }
  if (!first_.back()) Expect(',', "',' or '}'");
  first_.back() = false;
  SkipSpace();
  if (pos_ >= text_.size()) Fail("the text ends inside an object (truncated?)");
  if (text_[pos_] != '"') Fail("expected a member name in quotes");
  const size_t raw_start = pos_ + 1;
  *key = ScanString(true);
  frames_.back().key = text_.substr(raw_start, pos_ - 1 - raw_start);
  ++frames_.back().index;
  Expect(':', "':'");
  SkipSpace();
  if (pos_ >= text_.size()) Fail("the text ends before the member's value (truncated?)");
  return true;
}

bool JsonCursor::NextItem() {
  SkipSpace();
  if (pos_ < text_.size() && text_[pos_] == ']') {
    ++pos_;
    frames_.pop_back();
    first_.pop_back();
    return false;
  }
  if (!first_.back()) {
    Expect(',', "',' or ']'");
    ++frames_.back().index;
  }
  first_.back() = false;
  SkipSpace();
  if (pos_ >= text_.size()) Fail("the text ends inside an array (truncated?)");
  return true;
}

uint32_t JsonCursor::ReadHex4() {
  if (text_.size() - pos_ < 4) FailAt(pos_, "a \\u escape needs four hex digits");
  uint32_t value = 0;
  for (int i = 0; i < 4; ++i) {
    const char c = text_[pos_ + i];
    uint32_t digit;
    if (IsDigit(c)) {
      digit = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      digit = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      digit = c - 'A' + 10;
    } else {
      FailAt(pos_, "a \\u escape needs four hex digits");
    }
    value = value << 4 | digit;
  }
  pos_ += 4;
  return value;
}

std::string_view JsonCursor::ScanString(bool decode) {
  const size_t start = ++pos_;  // after the quote
  bool escaped = false;
  const size_t n = text_.size();
  for (;;) {
    // Plain ASCII runs: the common case, one comparison chain per byte.
    while (pos_ < n) {
      const auto c = static_cast<uint8_t>(text_[pos_]);
      if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
      ++pos_;
    }
    if (pos_ >= n) FailAt(pos_, "the text ends inside a string (truncated?)");
    const auto c = static_cast<uint8_t>(text_[pos_]);
    if (c == '"') break;
    if (c < 0x20) FailAt(pos_, "a control character in a string must be escaped");
    if (c >= 0x80) {
      const DecodedCodePoint d = DecodeUtf8At(text_, pos_);
      if (d.code_point >= kInvalidByteBase) FailAt(pos_, "a string holds invalid UTF-8");
      pos_ += d.length;
      continue;
    }
    // A backslash: check the escape now, decode later.
    escaped = true;
    if (++pos_ >= n) FailAt(pos_, "the text ends inside a string (truncated?)");
    const char e = text_[pos_++];
    if (e == 'u') {
      const uint32_t unit = ReadHex4();
      if (unit >= 0xDC00 && unit <= 0xDFFF) FailAt(pos_ - 6, "a lone low surrogate escape");
      if (unit >= 0xD800 && unit <= 0xDBFF) {
        if (text_.substr(pos_, 2) != "\\u") FailAt(pos_ - 6, "a lone high surrogate escape");
        pos_ += 2;
        const uint32_t low = ReadHex4();
        if (low < 0xDC00 || low > 0xDFFF) FailAt(pos_ - 12, "a lone high surrogate escape");
      }
    } else if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos) {
      FailAt(pos_ - 2, std::string("an unknown escape '\\") + e + "'");
    }
  }
  const std::string_view raw = text_.substr(start, pos_ - start);
  ++pos_;  // the closing quote
  if (!escaped || !decode) return raw;
  scratch_.clear();
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '\\') {
      scratch_ += raw[i];
      continue;
    }
    const char e = raw[++i];
    switch (e) {
      case 'b':
        scratch_ += '\b';
        break;
      case 'f':
        scratch_ += '\f';
        break;
      case 'n':
        scratch_ += '\n';
        break;
      case 'r':
        scratch_ += '\r';
        break;
      case 't':
        scratch_ += '\t';
        break;
      case 'u': {
        auto hex = [&](size_t at) {
          return static_cast<uint32_t>(std::stoul(std::string(raw.substr(at, 4)), nullptr, 16));
        };
        uint32_t cp = hex(i + 1);
        i += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          cp = 0x10000 + ((cp - 0xD800) << 10) + (hex(i + 3) - 0xDC00);
          i += 6;
        }
        AppendUtf8(cp, &scratch_);
        break;
      }
      default:
        scratch_ += e;  // " \ /
    }
  }
  return scratch_;
}

std::string_view JsonCursor::ReadString() {
  if (Peek() != Kind::kString) Fail("expected a string");
  return ScanString(true);
}

std::string_view JsonCursor::ScanNumber() {
  const size_t start = pos_;
  const size_t n = text_.size();
  if (pos_ < n && text_[pos_] == '-') ++pos_;
  if (pos_ >= n || !IsDigit(text_[pos_])) FailAt(start, "a malformed number");
  if (text_[pos_] == '0') {
    ++pos_;
  } else {
    while (pos_ < n && IsDigit(text_[pos_])) ++pos_;
  }
  if (pos_ < n && text_[pos_] == '.') {
    if (++pos_ >= n || !IsDigit(text_[pos_])) FailAt(start, "a malformed number");
    while (pos_ < n && IsDigit(text_[pos_])) ++pos_;
  }
  if (pos_ < n && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
    ++pos_;
    if (pos_ < n && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
    if (pos_ >= n || !IsDigit(text_[pos_])) FailAt(start, "a malformed number");
    while (pos_ < n && IsDigit(text_[pos_])) ++pos_;
  }
  return text_.substr(start, pos_ - start);
}

int64_t JsonCursor::ReadInteger(int64_t min, int64_t max) {
  if (Peek() != Kind::kNumber) Fail("expected an integer");
  const size_t start = pos_;
  const std::string_view literal = ScanNumber();
  const bool negative = literal[0] == '-';
  const std::string range = " (allowed: " + std::to_string(min) + " to " + std::to_string(max) + ")";
  if (literal.find_first_of(".eE") != std::string_view::npos) {
    FailAt(start, "expected an integer, found " + std::string(literal.substr(0, 40)) + range);
  }
  uint64_t magnitude = 0;
  for (size_t i = negative ? 1 : 0; i < literal.size(); ++i) {
    magnitude = magnitude * 10 + static_cast<uint64_t>(literal[i] - '0');
    if (magnitude > (uint64_t{1} << 62)) FailAt(start, std::string(literal.substr(0, 40)) + " is out of range" + range);
  }
  const int64_t value = negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
  if (value < min || value > max) FailAt(start, std::string(literal) + " is out of range" + range);
  return value;
}

bool JsonCursor::ReadBoolean() {
  if (Peek() != Kind::kBoolean) Fail("expected true or false");
  if (text_.substr(pos_, 4) == "true") {
    pos_ += 4;
    return true;
  }
  if (text_.substr(pos_, 5) == "false") {
    pos_ += 5;
    return false;
  }
  Fail("expected true or false");
}

void JsonCursor::ReadNull() {
  if (Peek() != Kind::kNull || text_.substr(pos_, 4) != "null") Fail("expected null");
  pos_ += 4;
}

std::string_view JsonCursor::SkipValue() {
  const Kind kind = Peek();
  const size_t start = pos_;
  switch (kind) {
    case Kind::kEnd:
      Fail("the text ends where a value was expected (truncated?)");
    case Kind::kNull:
      ReadNull();
      break;
    case Kind::kBoolean:
      ReadBoolean();
      break;
    case Kind::kNumber:
      ScanNumber();
      break;
    case Kind::kString:
      ScanString(false);
      break;
    case Kind::kArray:
      BeginArray();
      while (NextItem()) SkipValue();
      break;
    case Kind::kObject: {
      BeginObject();
      std::string_view key;
      while (NextMember(&key)) SkipValue();
      break;
    }
  }
  return text_.substr(start, pos_ - start);
}

void JsonCursor::ExpectEnd() {
  SkipSpace();
  if (pos_ != text_.size()) Fail("unexpected text after the end of the JSON value");
}

}  // namespace embedlab
