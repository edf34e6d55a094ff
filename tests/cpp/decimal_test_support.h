// Helpers of the decimal conversion tests (text_decimal_parse_test.cc, text_decimal_format_test.cc): bit patterns,
// the mismatch collector, the C library's formatting as the reference, random finite values of every exponent, and
// exact decimal digit strings of binary halfway points.
#pragma once
#include <catch2/catch.hpp>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "embed/glove_file.h"
#include "embed/glove_text_writer.h"
#include "random/prng.h"
#include "text/decimal.h"
#include "text/json_value.h"

using embedlab::DecimalDigits;
using embedlab::DecimalRounding;
using embedlab::ParseDecimal;

namespace decimal_test {

inline uint64_t Bits(double v) {
  uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

inline uint32_t Bits(float v) {
  uint32_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// Collects the inputs that disagree with the reference (the first few), and counts the comparisons.
struct Mismatches {
  std::vector<std::string> first;
  size_t compared = 0;
  void Add(bool same, const std::string& input) {
    ++compared;
    if (!same && first.size() < 5) first.push_back(input);
  }
  void Require() const {
    CAPTURE(compared, first);
    REQUIRE(first.empty());
  }
};

inline bool SameAsStrtod(const std::string& text) {
  double ours = -1.0;
  return ParseDecimal(text, &ours) && Bits(ours) == Bits(std::strtod(text.c_str(), nullptr));
}

inline bool SameAsStrtof(const std::string& text) {
  float ours = -1.0f;
  return ParseDecimal(text, &ours) && Bits(ours) == Bits(std::strtof(text.c_str(), nullptr));
}

inline std::string Printf(const char* format, int precision, double value) {
  char text[1024];
  std::snprintf(text, sizeof text, format, precision, value);
  return text;
}

// A finite double of any binary exponent (subnormals and the largest ones often enough), either sign.
inline double RandomDouble(embedlab::Prng& prng) {
  const uint64_t mantissa = (uint64_t{prng.NextU32()} << 32 | prng.NextU32()) & ((uint64_t{1} << 52) - 1);
  const uint32_t pick = prng.NextU32() % 16;
  const uint64_t exponent = pick == 0   ? prng.NextU32() % 3
                            : pick == 1 ? 2044 + prng.NextU32() % 3
                                        : prng.NextU32() % 2047;
  const uint64_t bits = (uint64_t{prng.NextU32() % 2} << 63) | exponent << 52 | mantissa;
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

inline float RandomFloat(embedlab::Prng& prng) {
  const uint32_t pick = prng.NextU32() % 16;
  const uint32_t exponent = pick == 0   ? prng.NextU32() % 3
                            : pick == 1 ? 252 + prng.NextU32() % 3
                                        : prng.NextU32() % 255;
  const uint32_t bits = (prng.NextU32() % 2) << 31 | exponent << 23 | (prng.NextU32() & ((1u << 23) - 1));
  float v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

// "d.ddd...e<exponent>" for a digit string and the exponent of its first digit.
inline std::string Scientific(const std::string& digits, int exponent) {
  return digits.substr(0, 1) + (digits.size() > 1 ? "." + digits.substr(1) : "") + "e" + std::to_string(exponent);
}

// The exact decimal of (a + b) / 2 for positive finite doubles: the two expansions added and halved as digit strings.
inline DecimalDigits Midpoint(double a, double b) {
  const DecimalDigits x = embedlab::ExactDigits(a), y = embedlab::ExactDigits(b);
  // As integers times 10^low, low being the lower of the two last-digit positions.
  const int low_x = x.exponent - static_cast<int>(x.digits.size()) + 1;
  const int low_y = y.exponent - static_cast<int>(y.digits.size()) + 1;
  const int low = std::min(low_x, low_y) - 1;  // one more digit so that the half is exact
  const std::string sx = x.digits + std::string(static_cast<size_t>(low_x - low), '0');
  const std::string sy = y.digits + std::string(static_cast<size_t>(low_y - low), '0');
  const size_t width = std::max(sx.size(), sy.size()) + 1;
  const std::string px = std::string(width - sx.size(), '0') + sx, py = std::string(width - sy.size(), '0') + sy;
  std::string sum(width, '0');
  int carry = 0;
  for (size_t i = width; i-- > 0;) {
    const int d = (px[i] - '0') + (py[i] - '0') + carry;
    sum[i] = static_cast<char>('0' + d % 10);
    carry = d / 10;
  }
  std::string half(width, '0');
  int remainder = 0;
  for (size_t i = 0; i < width; ++i) {
    const int d = remainder * 10 + (sum[i] - '0');
    half[i] = static_cast<char>('0' + d / 2);
    remainder = d % 2;
  }
  REQUIRE(remainder == 0);
  const size_t first = half.find_first_not_of('0');
  const size_t last = half.find_last_not_of('0');
  return {half.substr(first, last - first + 1), low + static_cast<int>(width - 1 - first)};
}

// Digit strings just above and below `exact`: `extra` (>= 1) more digits, the last of them moved by one unit.
inline std::string Above(const DecimalDigits& exact, size_t extra) {
  return Scientific(exact.digits + std::string(extra - 1, '0') + "1", exact.exponent);
}
inline std::string Below(const DecimalDigits& exact, size_t extra) {
  std::string digits = exact.digits;
  --digits.back();  // no trailing zeros: the last digit is not 0
  return Scientific(digits + std::string(extra, '9'), exact.exponent);
}

}  // namespace decimal_test
