#include "text/json_value.h"

#include <utility>

#include "text/utf8.h"

namespace embedlab {
namespace {

constexpr int kMaxDepth = 256;

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  std::optional<JsonValue> Document() {
    JsonValue value;
    SkipSpace();
    if (!Value(&value, 0)) return std::nullopt;
    SkipSpace();
    if (pos_ != text_.size()) return std::nullopt;
    return value;
  }

 private:
  bool Value(JsonValue* out, int depth) {
    if (pos_ >= text_.size() || depth > kMaxDepth) return false;
    switch (text_[pos_]) {
      case '{':
        return Object(out, depth);
      case '[':
        return Array(out, depth);
      case '"':
        out->kind = JsonValue::Kind::kString;
        return String(&out->string);
      case 't':
        out->kind = JsonValue::Kind::kBoolean;
        out->boolean = true;
        return Literal("true");
      case 'f':
        out->kind = JsonValue::Kind::kBoolean;
        return Literal("false");
      case 'n':
        return Literal("null");
      default:
        return Number(out);
    }
  }

  bool Object(JsonValue* out, int depth) {
    out->kind = JsonValue::Kind::kObject;
    ++pos_;  // '{'
    SkipSpace();
    if (Take('}')) return true;
    while (true) {
      std::string key;
      JsonValue value;
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '"' || !String(&key)) return false;
      SkipSpace();
      if (!Take(':')) return false;
      SkipSpace();
      if (!Value(&value, depth + 1)) return false;
      out->members.insert_or_assign(std::move(key), std::move(value));
      SkipSpace();
      if (Take('}')) return true;
      if (!Take(',')) return false;
    }
  }

  bool Array(JsonValue* out, int depth) {
    out->kind = JsonValue::Kind::kArray;
    ++pos_;  // '['
    SkipSpace();
    if (Take(']')) return true;
    while (true) {
      JsonValue value;
      SkipSpace();
      if (!Value(&value, depth + 1)) return false;
      out->items.push_back(std::move(value));
      SkipSpace();
      if (Take(']')) return true;
      if (!Take(',')) return false;
    }
  }

  // A string literal at pos_ (its opening quote), unescaped into *out.
  bool String(std::string* out) {
    ++pos_;  // '"'
    while (pos_ < text_.size()) {
      const auto c = static_cast<unsigned char>(text_[pos_]);
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (c < 0x20) return false;  // control characters must be escaped
      if (c == '\\') {
        if (!Escape(out)) return false;
        continue;
      }
      if (c < 0x80) {
        out->push_back(static_cast<char>(c));
        ++pos_;
        continue;
      }
      const DecodedCodePoint d = DecodeUtf8At(text_, pos_);
      if (d.code_point >= kInvalidByteBase) return false;
      out->append(text_.substr(pos_, d.length));
      pos_ += d.length;
    }
    return false;  // unterminated
  }

  bool Escape(std::string* out) {
    if (pos_ + 1 >= text_.size()) return false;
    const char e = text_[pos_ + 1];
    pos_ += 2;
    switch (e) {
      case '"':
      case '\\':
      case '/':
        out->push_back(e);
        return true;
      case 'b':
        out->push_back('\b');
        return true;
      case 'f':
        out->push_back('\f');
        return true;
      case 'n':
        out->push_back('\n');
        return true;
      case 'r':
        out->push_back('\r');
        return true;
      case 't':
        out->push_back('\t');
        return true;
      case 'u':
        break;
      default:
        return false;
    }
    uint32_t unit;
    if (!Hex4(&unit)) return false;
    if (unit >= 0xDC00 && unit <= 0xDFFF) return false;  // a low surrogate with no high one before it
    if (unit >= 0xD800 && unit <= 0xDBFF) {
      uint32_t low;
      if (pos_ + 1 >= text_.size() || text_[pos_] != '\\' || text_[pos_ + 1] != 'u') return false;
      pos_ += 2;
      if (!Hex4(&low) || low < 0xDC00 || low > 0xDFFF) return false;
      unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
    }
    AppendUtf8(unit, out);
    return true;
  }

  bool Hex4(uint32_t* out) {
    if (text_.size() - pos_ < 4) return false;
    uint32_t value = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = text_[pos_ + i];
      const int digit = h >= '0' && h <= '9'   ? h - '0'
                        : h >= 'a' && h <= 'f' ? h - 'a' + 10
                        : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                               : -1;
      if (digit < 0) return false;
      value = value * 16 + static_cast<uint32_t>(digit);
    }
    pos_ += 4;
    *out = value;
    return true;
  }

  // RFC 8259's number grammar: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
  bool Number(JsonValue* out) {
    const size_t start = pos_;
    const bool negative = Take('-');
    if (pos_ >= text_.size() || !IsDigit(text_[pos_])) return false;
    if (text_[pos_] == '0') {
      ++pos_;
    } else {
      while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
    }
    const size_t integer_end = pos_;
    if (Take('.')) {
      if (!Digits()) return false;
    }
    if (Take('e') || Take('E')) {
      if (!Take('+')) Take('-');
      if (!Digits()) return false;
    }
    out->kind = JsonValue::Kind::kNumber;
    out->negative = negative;
    if (integer_end == pos_) {
      // Integers that fit 64 bits, as nlohmann::json's number_integer / number_unsigned.
      uint64_t magnitude = 0;
      bool fits = true;
      for (size_t i = start + (negative ? 1 : 0); i < integer_end && fits; ++i) {
        const uint64_t digit = static_cast<uint64_t>(text_[i] - '0');
        fits = magnitude <= (UINT64_MAX - digit) / 10;
        magnitude = magnitude * 10 + digit;
      }
      if (fits && !negative) {
        out->integer = true;
        out->uint_value = magnitude;
        out->int_value = magnitude <= static_cast<uint64_t>(INT64_MAX) ? static_cast<int64_t>(magnitude) : 0;
      } else if (fits && magnitude <= uint64_t{1} << 63) {
        out->integer = true;
        out->int_value = magnitude == uint64_t{1} << 63 ? INT64_MIN : -static_cast<int64_t>(magnitude);
      }
    }
    if (!out->integer) out->string.assign(text_.substr(start, pos_ - start));
    return true;
  }

  bool Digits() {
    const size_t start = pos_;
    while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
    return pos_ > start;
  }

  static bool IsDigit(char c) { return c >= '0' && c <= '9'; }

  bool Literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  bool Take(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  void SkipSpace() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

const JsonValue* JsonValue::Find(const std::string& key) const {
  if (kind != Kind::kObject) return nullptr;
  const auto it = members.find(key);
  return it == members.end() ? nullptr : &it->second;
}

std::optional<JsonValue> ParseJson(std::string_view text) { return Parser(text).Document(); }

std::string QuoteJson(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (size_t pos = 0; pos < text.size();) {
    const DecodedCodePoint d = DecodeUtf8At(text, pos);
    const uint32_t c = d.code_point;
    if (c >= kInvalidByteBase) {
      out += "\xEF\xBF\xBD";  // U+FFFD
    } else if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      // The short escapes where JSON has them, \u00XX otherwise (as nlohmann::json::dump writes them).
      const char* short_escape = c == '\b'   ? "\\b"
                                 : c == '\f' ? "\\f"
                                 : c == '\n' ? "\\n"
                                 : c == '\r' ? "\\r"
                                 : c == '\t' ? "\\t"
                                             : nullptr;
      if (short_escape != nullptr) {
        out += short_escape;
      } else {
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 15];
      }
    } else {
      out.append(text.substr(pos, d.length));
    }
    pos += d.length;
  }
  out += '"';
  return out;
}

}  // namespace embedlab
