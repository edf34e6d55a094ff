#include "embed/glove_text_writer.h"

#include <cmath>
#include <stdexcept>

#include "text/decimal.h"

namespace embedlab {
namespace {

constexpr int kDigits = 9;  // enough for any float32 to survive a round trip through decimal

bool IsWhitespace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

}  // namespace

std::string NineDigitDecimal(float value) {
  if (!std::isfinite(value)) throw std::invalid_argument("a GloVe value must be finite");
  if (value == 0.0f) return "0";
  if (value < 0.0f) return "-" + NineDigitDecimal(-value);
  // Rounded from the exact expansion, halves up in magnitude as JavaScript's toPrecision rounds them.
  return JavaScriptNotation(RoundDigits(ExactDigits(value), kDigits, DecimalRounding::kHalfUp));
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
