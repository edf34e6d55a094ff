#include "embed/glove_text_writer.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace embedlab {
namespace {

constexpr int kDigits = 9;  // enough for any float32 to survive a round trip through decimal

bool IsWhitespace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

}  // namespace

std::string NineDigitDecimal(float value) {
  if (!std::isfinite(value)) throw std::invalid_argument("a GloVe value must be finite");
  if (value == 0.0f) return "0";
  if (value < 0.0f) return "-" + NineDigitDecimal(-value);
  // A float's exact decimal expansion has at most 112 significant digits, so 120 after the point are exact:
  // the rounding below sees every digit.
  char exact[160];
  std::snprintf(exact, sizeof exact, "%.120e", static_cast<double>(value));
  std::string digits(1, exact[0]);
  const char* p = exact + 2;  // past "d."
  for (; *p != 'e'; ++p) digits += *p;
  int exponent = std::atoi(p + 1);
  // Round to kDigits digits, halves up in magnitude as JavaScript's toPrecision does.
  const bool round_up = digits[kDigits] >= '5';
  digits.resize(kDigits);
  if (round_up) {
    int i = kDigits - 1;
    for (; i >= 0 && digits[i] == '9'; --i) digits[i] = '0';
    if (i >= 0) {
      ++digits[i];
    } else {
      digits.insert(digits.begin(), '1');  // 9.99999999|5 -> 10.0000000
      digits.pop_back();
      ++exponent;
    }
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  // JavaScript's Number::toString: digits s (k of them) times 10^(n - k).
  const int k = static_cast<int>(digits.size()), n = exponent + 1;
  if (k <= n && n <= 21) return digits + std::string(n - k, '0');
  if (0 < n && n <= 21) return digits.substr(0, n) + "." + digits.substr(n);
  if (-6 < n && n <= 0) return "0." + std::string(-n, '0') + digits;
  const std::string mantissa = k == 1 ? digits : digits.substr(0, 1) + "." + digits.substr(1);
  return mantissa + "e" + (n - 1 >= 0 ? "+" : "-") + std::to_string(std::abs(n - 1));
}

std::string WriteGloveText(const std::vector<std::string>& words, const float* vectors, size_t dim) {
  if (dim == 0) throw std::out_of_range("dim must be at least 1, got 0");
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i];
    bool blank = word.empty();
    for (const char c : word) blank = blank || IsWhitespace(c);
    if (blank) {
      throw std::invalid_argument("words[" + std::to_string(i) +
                                  "] must be a non-empty word without whitespace, got \"" + word + "\"");
    }
  }
  std::string text;
  for (size_t i = 0; i < words.size(); ++i) {
    text += words[i];
    for (size_t c = 0; c < dim; ++c) {
      text += ' ';
      text += NineDigitDecimal(vectors[i * dim + c]);
    }
    text += '\n';
  }
  return text;
}

}  // namespace embedlab
