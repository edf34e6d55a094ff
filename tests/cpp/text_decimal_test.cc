// The decimal conversions (text/decimal.h) against the C library they replace, as the reference: strtod and
// strtof for reading, snprintf's "%.*e" for writing, bit for bit and byte for byte, on random values of every
// binary exponent, exact binary halfway points and their nearest neighbours, and very long mantissas.
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

namespace {

uint64_t Bits(double v) {
  uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

uint32_t Bits(float v) {
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

bool SameAsStrtod(const std::string& text) {
  double ours = -1.0;
  return ParseDecimal(text, &ours) && Bits(ours) == Bits(std::strtod(text.c_str(), nullptr));
}

bool SameAsStrtof(const std::string& text) {
  float ours = -1.0f;
  return ParseDecimal(text, &ours) && Bits(ours) == Bits(std::strtof(text.c_str(), nullptr));
}

std::string Printf(const char* format, int precision, double value) {
  char text[1024];
  std::snprintf(text, sizeof text, format, precision, value);
  return text;
}

// A finite double of any binary exponent (subnormals and the largest ones often enough), either sign.
double RandomDouble(embedlab::Prng& prng) {
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

float RandomFloat(embedlab::Prng& prng) {
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
std::string Scientific(const std::string& digits, int exponent) {
  return digits.substr(0, 1) + (digits.size() > 1 ? "." + digits.substr(1) : "") + "e" + std::to_string(exponent);
}

// The exact decimal of (a + b) / 2 for positive finite doubles: the two expansions added and halved as digit strings.
DecimalDigits Midpoint(double a, double b) {
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
std::string Above(const DecimalDigits& exact, size_t extra) {
  return Scientific(exact.digits + std::string(extra - 1, '0') + "1", exact.exponent);
}
std::string Below(const DecimalDigits& exact, size_t extra) {
  std::string digits = exact.digits;
  --digits.back();  // no trailing zeros: the last digit is not 0
  return Scientific(digits + std::string(extra, '9'), exact.exponent);
}

}  // namespace

TEST_CASE("ParseDecimal equals strtod and strtof on random values printed every way", "[decimal]") {
  embedlab::Prng prng(2024);
  Mismatches doubles, floats;
  const char* formats[] = {"%.*g", "%.*e"};
  for (int i = 0; i < 60000; ++i) {
    const double d = RandomDouble(prng);
    for (const std::string& text : {Printf("%.*g", 17, d), Printf("%.*e", 24, d), Printf("%.*e", 2, d)}) {
      doubles.Add(SameAsStrtod(text), text);
      floats.Add(SameAsStrtof(text), text);  // overflow, underflow and double rounding for float
    }
    const double f = RandomFloat(prng);
    for (const std::string& text : {Printf("%.*g", 9, f), Printf("%.*e", 24, f), Printf("%.*e", 2, f)}) {
      floats.Add(SameAsStrtof(text), text);
      doubles.Add(SameAsStrtod(text), text);
    }
    // Short decimals (the fast paths) with random exponents around the fast range.
    const std::string text = Printf(formats[i % 2], static_cast<int>(prng.NextU32() % 9), d);
    const std::string shifted =
        std::to_string(prng.NextU32() % 100000000) + "e" + std::to_string(static_cast<int>(prng.NextU32() % 80) - 40);
    doubles.Add(SameAsStrtod(shifted), shifted);
    floats.Add(SameAsStrtof(shifted), shifted);
    doubles.Add(SameAsStrtod(text), text);
  }
  doubles.Require();
  floats.Require();
  CHECK(doubles.compared >= 200000);
  CHECK(floats.compared >= 200000);
}

TEST_CASE("ParseDecimal rounds exact halfway points to even and their neighbours to the nearer", "[decimal]") {
  embedlab::Prng prng(7);
  Mismatches doubles, floats;
  for (int i = 0; i < 20000; ++i) {
    const double a = std::fabs(RandomDouble(prng)), b = std::nextafter(a, HUGE_VAL);
    if (!std::isinf(b)) {
      const DecimalDigits half = Midpoint(a, b);
      const double even = (Bits(a) & 1) == 0 ? a : b;
      const size_t extra = 1 + prng.NextU32() % 60 + (i % 50 == 0 ? 900 : 0);  // past 800 digits now and then
      double ours;
      const std::string tie = Scientific(half.digits, half.exponent), up = Above(half, extra),
                        down = Below(half, extra);
      doubles.Add(SameAsStrtod(tie) && ParseDecimal(tie, &ours) && ours == even, tie);
      doubles.Add(SameAsStrtod(up) && ParseDecimal(up, &ours) && ours == b, up);
      doubles.Add(SameAsStrtod(down) && ParseDecimal(down, &ours) && ours == a, down);
      doubles.Add(SameAsStrtod("-" + tie) && ParseDecimal("-" + tie, &ours) && ours == -even, "-" + tie);
    }
    // A float halfway point is a double, so its exact digits come straight from ExactDigits.
    const float fa = std::fabs(RandomFloat(prng)), fb = std::nextafter(fa, HUGE_VALF);
    if (!std::isinf(fb)) {
      const DecimalDigits half = embedlab::ExactDigits((static_cast<double>(fa) + fb) / 2);
      const float even = (Bits(fa) & 1) == 0 ? fa : fb;
      const size_t extra = 1 + prng.NextU32() % 60;
      float ours;
      const std::string tie = Scientific(half.digits, half.exponent), up = Above(half, extra),
                        down = Below(half, extra);
      floats.Add(SameAsStrtof(tie) && ParseDecimal(tie, &ours) && ours == even, tie);
      floats.Add(SameAsStrtof(up) && ParseDecimal(up, &ours) && ours == fb, up);
      floats.Add(SameAsStrtof(down) && ParseDecimal(down, &ours) && ours == fa, down);
    }
  }
  doubles.Require();
  floats.Require();
}

TEST_CASE("ParseDecimal: long mantissas, extremes, zeros and the edges of the ranges", "[decimal]") {
  embedlab::Prng prng(99);
  Mismatches all;
  for (int i = 0; i < 2000; ++i) {
    std::string digits(700 + prng.NextU32() % 400, '0');
    for (char& c : digits) c = static_cast<char>('0' + prng.NextU32() % 10);
    const int exponent = static_cast<int>(prng.NextU32() % 1400) - 1100;
    const std::string text = (i % 3 == 0 ? "0." : "") + digits + "e" + std::to_string(exponent);
    all.Add(SameAsStrtod(text) && SameAsStrtof(text), text);
  }
  const char* cases[] = {"0",
                         "-0",
                         "+0",
                         "0.000",
                         "-0e999999999",
                         "0e-999999999",
                         "1e-400",
                         "-1e-400",
                         "1e400",
                         "-1e400",
                         "1e999999999",
                         "1e-999999999",
                         "123e99999999999999999999",
                         "1e-99999999999999999999",
                         "4.9406564584124654e-324",
                         "4.9406564584124653e-324",
                         "4.9406564584124655e-324",
                         "2.4703282292062327e-324",
                         "2.4703282292062328e-324",
                         "2.470328229206232720882e-324",
                         "2.4703282292062327208828439643411068618252990130716238221279284125033775364"
                         "51e-324",
                         "2.225073858507201e-308",
                         "2.2250738585072014e-308",
                         "2.2250738585072011e-308",
                         "1.7976931348623157e308",
                         "1.7976931348623158e308",
                         "1.7976931348623159e308",
                         "1.797693134862315807937289714053e308",
                         "1.797693134862315807937289714054e308",
                         "3.4028234663852886e38",
                         "3.4028235677973366e38",
                         "3.4028235677973367e38",
                         "3.40282357e38",
                         "3.4028236e38",
                         "1.17549435e-38",
                         "1.1754942e-38",
                         "1.40129846e-45",
                         "1.4e-45",
                         "7.0064923e-46",
                         "7.00649232162408535461e-46",
                         "7.006492321624085354618e-46",
                         "1e23",
                         "8.533e-316",
                         "9007199254740993",
                         "9007199254740992.5",
                         "0.1",
                         "0.30000000000000004",
                         ".5",
                         "5.",
                         "+.5e+1",
                         "00000000000000000000000000012.5e-1"};
  for (const char* text : cases) all.Add(SameAsStrtod(text) && SameAsStrtof(text), text);
  all.Require();
  double zero = 1.0;
  REQUIRE(ParseDecimal("-0", &zero));
  REQUIRE((zero == 0.0 && std::signbit(zero)));
  float min = 0.0f;
  REQUIRE(ParseDecimal("1.40129846e-45", &min));
  REQUIRE(min == std::numeric_limits<float>::denorm_min());
}

TEST_CASE("ParseDecimal refuses what is not a decimal number, and the callers keep their syntax", "[decimal]") {
  for (const char* text :
       {"",         "-",  "+",  "1e",   ".",     "e5",    "1e+", "1e-", "0x10",  "nan", "inf", "-inf",
        "infinity", " 1", "1 ", "1..2", "1.2.3", "1e5.5", "--1", "1,5", "1e5e5", ".e5", "1d5"}) {
    double d = 42.0;
    float f = 42.0f;
    CAPTURE(text);
    REQUIRE_FALSE(ParseDecimal(text, &d));
    REQUIRE_FALSE(ParseDecimal(text, &f));
    REQUIRE((d == 42.0 && f == 42.0f));
  }
  // GloVe text accepted "1." and ".5" through strtof and still does; JSON refuses both before converting.
  REQUIRE(embedlab::ParseGloveText("w 1. .5 -2.E1\n").vectors == std::vector<float>{1.0f, 0.5f, -20.0f});
  REQUIRE_FALSE(embedlab::ParseJson("1.").has_value());
  REQUIRE_FALSE(embedlab::ParseJson(".5").has_value());
  REQUIRE(embedlab::NumberOf(*embedlab::ParseJson("-2.5e-3")) == -2.5e-3);
}

TEST_CASE("FormatScientific equals snprintf %.*e", "[decimal]") {
  embedlab::Prng prng(5);
  Mismatches all;
  for (int i = 0; i < 40000; ++i) {
    const double v = RandomDouble(prng);
    const int n = 1 + static_cast<int>(prng.NextU32() % 30);
    all.Add(embedlab::FormatScientific(v, n) == Printf("%.*e", n - 1, v), Printf("%.*e", 30, v));
    if (i % 20 == 0) {  // every digit of the expansion ("%.800e" pads it with zeros)
      all.Add(embedlab::FormatScientific(v, 801) == Printf("%.*e", 800, v), Printf("%.*e", 30, v));
    }
    // Decimal ties: odd / 2^j ends in 5, so rounding to fewer digits than it has lands on a half.
    const double tie = static_cast<double>(2 * (prng.NextU32() % 1000000) + 1) / std::ldexp(1.0, 1 + i % 20);
    for (int m = 1; m <= 26; ++m)
      all.Add(embedlab::FormatScientific(tie, m) == Printf("%.*e", m - 1, tie), Printf("%.*e", 30, tie));
  }
  for (double v : {0.0, -0.0, 1.0, 9.5, 0.95, 99.5, 9.999999999999999e22, DBL_MAX, DBL_MIN, DBL_TRUE_MIN, 1e-300,
                   HUGE_VAL, -HUGE_VAL}) {
    for (int n = 1; n <= 30; ++n)
      all.Add(embedlab::FormatScientific(v, n) == Printf("%.*e", n - 1, v), Printf("%.*e", 30, v));
  }
  all.Require();
}

TEST_CASE("FormatGeneral equals snprintf %.*g", "[decimal]") {
  embedlab::Prng prng(6);
  Mismatches all;
  for (int i = 0; i < 40000; ++i) {
    // Random bit patterns, and values near the plain / exponent switches (1e-4 and 10^precision).
    const double v = i % 2 == 0
                         ? RandomDouble(prng)
                         : std::ldexp(static_cast<double>(prng.NextU32()), static_cast<int>(prng.NextU32() % 120) - 80);
    const int n = 1 + static_cast<int>(prng.NextU32() % 30);
    all.Add(embedlab::FormatGeneral(v, n) == Printf("%.*g", n, v), Printf("%.*e", 30, v));
  }
  for (double v : {0.0, -0.0, 1.0, 0.0001, 0.00001, 0.000099999, 9.5, 99999.5, 999999.5, 1e15, 1e16, 1e17, 123456789.0,
                   DBL_MAX, DBL_TRUE_MIN, HUGE_VAL, -HUGE_VAL}) {
    for (int n = 1; n <= 30; ++n) all.Add(embedlab::FormatGeneral(v, n) == Printf("%.*g", n, v), Printf("%.*e", 30, v));
  }
  all.Require();
}

TEST_CASE("FormatShortest reads back exactly with the fewest digits", "[decimal]") {
  embedlab::Prng prng(11);
  Mismatches doubles, floats;
  for (int i = 0; i < 20000; ++i) {
    const double v = RandomDouble(prng);
    const std::string text = embedlab::FormatShortest(v);
    double back;
    int fewest = 1;  // the reference: the fewest "%.*e" digits that strtod reads back
    while (fewest < 17 && std::strtod(Printf("%.*e", fewest - 1, v).c_str(), nullptr) != v) ++fewest;
    const DecimalDigits digits = embedlab::RoundDigits(embedlab::ExactDigits(v), fewest, DecimalRounding::kHalfEven);
    doubles.Add(ParseDecimal(text, &back) && Bits(back) == Bits(v) &&
                    text == (std::signbit(v) ? "-" : "") + embedlab::JavaScriptNotation(digits) &&
                    static_cast<int>(digits.digits.size()) == fewest,
                text);
    const float f = RandomFloat(prng);
    const std::string float_text = embedlab::FormatShortest(f);
    float float_back;
    int fewest_float = 1;
    while (fewest_float < 9 && std::strtof(Printf("%.*e", fewest_float - 1, f).c_str(), nullptr) != f) ++fewest_float;
    const DecimalDigits float_digits =
        embedlab::RoundDigits(embedlab::ExactDigits(f), fewest_float, DecimalRounding::kHalfEven);
    floats.Add(ParseDecimal(float_text, &float_back) && Bits(float_back) == Bits(f) &&
                   float_text == (std::signbit(f) ? "-" : "") + embedlab::JavaScriptNotation(float_digits),
               float_text);
  }
  doubles.Require();
  floats.Require();
  CHECK(embedlab::FormatShortest(0.1) == "0.1");
  CHECK(embedlab::FormatShortest(1e6) == "1000000");
  CHECK(embedlab::FormatShortest(1e21) == "1e+21");
  CHECK(embedlab::FormatShortest(-1.25e-7) == "-1.25e-7");
  CHECK(embedlab::FormatShortest(1e-3f) == "0.001");
  CHECK(embedlab::FormatShortest(-0.0) == "-0");
  CHECK(embedlab::FormatShortest(std::nan("")) == "NaN");
  CHECK(embedlab::FormatShortest(-HUGE_VAL) == "-Infinity");
}

TEST_CASE("The rewritten callers write what their snprintf versions wrote", "[decimal]") {
  // NineDigitDecimal was: "%.120e" (exact for a float), 9 digits rounded half up, JavaScript's layout.
  auto nine_digits_reference = [](float value) {
    const std::string exact = Printf("%.*e", 120, std::fabs(static_cast<double>(value)));
    DecimalDigits d{exact.substr(0, 1) + exact.substr(2, 120), std::atoi(exact.c_str() + exact.find('e') + 1)};
    while (d.digits.size() > 1 && d.digits.back() == '0') d.digits.pop_back();
    d = embedlab::RoundDigits(d, 9, DecimalRounding::kHalfUp);
    return (value < 0 ? "-" : "") + embedlab::JavaScriptNotation(d);
  };
  // FormatJsonNumber was: fewest "%.*e" digits that strtod reads back, then "%.*e", "%.0f" + ".0" or "%.*g".
  auto json_reference = [](double value) {
    int digits = 1;
    while (digits < 17 && std::strtod(Printf("%.*e", digits - 1, value).c_str(), nullptr) != value) ++digits;
    const std::string e = Printf("%.*e", digits - 1, value);
    const int exponent = std::atoi(e.c_str() + e.find('e') + 1);
    if (exponent < -4 || exponent > 14) return e;
    if (value == std::trunc(value)) return Printf("%.*f", 0, value) + ".0";
    return Printf("%.*g", digits, value);
  };
  embedlab::Prng prng(3);
  Mismatches glove, json;
  for (int i = 0; i < 20000; ++i) {
    const float f = RandomFloat(prng);
    if (std::isfinite(f) && f != 0.0f)
      glove.Add(embedlab::NineDigitDecimal(f) == nine_digits_reference(f), Printf("%.*g", 9, f));
    const double d = i % 2 == 0
                         ? RandomDouble(prng)
                         : std::ldexp(static_cast<double>(prng.NextU32()), static_cast<int>(prng.NextU32() % 80) - 40);
    if (std::isfinite(d)) json.Add(embedlab::FormatJsonNumber(d) == json_reference(d), Printf("%.*g", 17, d));
  }
  for (double d : {0.0, -0.0, 1.0, -8.0, 1e14, 1e15, 123456789012345.0, 0.0001, 0.00001, -0.5}) {
    json.Add(embedlab::FormatJsonNumber(d) == json_reference(d), Printf("%.*g", 17, d));
  }
  glove.Require();
  json.Require();
}
