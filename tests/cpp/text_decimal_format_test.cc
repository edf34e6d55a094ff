// The decimal writers (text/decimal.h) against the C library they replace, as the reference: snprintf's "%.*e" and
// "%.*g" byte for byte, the shortest round-trip form, and the callers rewritten on them.
#include <catch2/catch.hpp>

#include "decimal_test_support.h"

using namespace decimal_test;
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
