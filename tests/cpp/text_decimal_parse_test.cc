// ParseDecimal (text/decimal.h) against the C library it replaces, as the reference: strtod and strtof, bit for bit,
// on random values of every binary exponent, exact binary halfway points and their nearest neighbours, very long
// mantissas and the edges of the ranges.
#include <catch2/catch.hpp>

#include "decimal_test_support.h"

using namespace decimal_test;

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
