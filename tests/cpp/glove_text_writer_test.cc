// GloVe text writing: values in JavaScript's shortest form of their 9-significant-digit rounding (pinned
// strings, written out by hand), and a round trip through ParseGloveText that gives back every float bit for bit.
#include "embed/glove_text_writer.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "embed/glove_file.h"
#include "random_vectors.h"

TEST_CASE("GloVe values: 9 significant digits in JavaScript's number form", "[embed]") {
  using embedlab::NineDigitDecimal;
  CHECK(NineDigitDecimal(0.0f) == "0");
  CHECK(NineDigitDecimal(-0.0f) == "0");
  CHECK(NineDigitDecimal(1.0f) == "1");
  CHECK(NineDigitDecimal(-2.5f) == "-2.5");
  CHECK(NineDigitDecimal(0.1f) == "0.100000001");             // 0.100000001490116...
  CHECK(NineDigitDecimal(123456789.0f) == "123456792");       // the float nearest 123456789
  CHECK(NineDigitDecimal(1e21f) == "1.00000002e+21");         // 1.00000002004087734272e21
  CHECK(NineDigitDecimal(1e20f) == "100000002000000000000");  // 100000002004087734272: n = 21, no exponent
  CHECK(NineDigitDecimal(1e-6f) == "9.99999997e-7");          // 9.99999997475242707878e-7: n = -6
  CHECK(NineDigitDecimal(1e-5f) == "0.00000999999975");       // 9.99999974737875163555e-6: n = -5
  CHECK(NineDigitDecimal(16777.21875f) == "16777.2188");      // an exact tie: halves round up
  CHECK(NineDigitDecimal(-16777.21875f) == "-16777.2188");
  CHECK(NineDigitDecimal(99999999.5f) == "100000000");  // 1e8 as a float; rounding carries
  CHECK(NineDigitDecimal(std::numeric_limits<float>::denorm_min()) == "1.40129846e-45");
  CHECK(NineDigitDecimal(std::numeric_limits<float>::max()) == "3.40282347e+38");
  REQUIRE_THROWS_AS(NineDigitDecimal(std::nanf("")), std::invalid_argument);
}

TEST_CASE("GloVe text round trip: the parser reads back every float bit for bit", "[embed]") {
  const size_t dim = 7;
  const std::vector<std::string> words = {"the", "dog", "bites", "man", "ünïcödé", "狗", "1"};
  std::vector<float> vectors = RandomVector(words.size() * dim, 31, 3.0);
  vectors[3] = 1e-30f;
  vectors[4] = -3e30f;
  vectors[5] = std::numeric_limits<float>::denorm_min();
  const std::string text = embedlab::WriteGloveText(words, vectors.data(), dim);
  REQUIRE(text.substr(0, 4) == "the ");
  REQUIRE(text.back() == '\n');
  const embedlab::GloveTable table = embedlab::ParseGloveText(text);
  REQUIRE(table.words == words);
  REQUIRE(table.dim == static_cast<int64_t>(dim));
  REQUIRE(std::memcmp(table.vectors.data(), vectors.data(), vectors.size() * sizeof(float)) == 0);
  REQUIRE(embedlab::WriteGloveText({}, nullptr, 3).empty());
  REQUIRE_THROWS_AS(embedlab::WriteGloveText({"a b"}, vectors.data(), 1), std::invalid_argument);
  REQUIRE_THROWS_AS(embedlab::WriteGloveText({""}, vectors.data(), 1), std::invalid_argument);
  REQUIRE_THROWS_AS(embedlab::WriteGloveText({"a\tb"}, vectors.data(), 1), std::invalid_argument);
  REQUIRE_THROWS_AS(embedlab::WriteGloveText({"a"}, vectors.data(), 0), std::out_of_range);
}
