#include "embed/glove_file.h"

#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>

using namespace embedlab;
using Catch::Matchers::Contains;

TEST_CASE("GloVe text: words and a row-major table", "[glove]") {
  const GloveTable table =
      ParseGloveText("the 0.418 0.24968 -0.41242\n, 0.013441 0.23682 -0.16899\nof 1e-3 -2.5E+2 7\n");
  REQUIRE(table.dim == 3);
  REQUIRE(table.words == std::vector<std::string>{"the", ",", "of"});
  REQUIRE(table.vectors ==
          std::vector<float>{0.418f, 0.24968f, -0.41242f, 0.013441f, 0.23682f, -0.16899f, 1e-3f, -250.0f, 7.0f});
}

TEST_CASE("GloVe text: word2vec header, CRLF, tabs, blank lines, no final newline", "[glove]") {
  const GloveTable table = ParseGloveText("2 2\r\n\r\nking\t0.5 -1\r\nqueen  .25 +3.\r\n\n");
  REQUIRE(table.dim == 2);
  REQUIRE(table.words == std::vector<std::string>{"king", "queen"});
  REQUIRE(table.vectors == std::vector<float>{0.5f, -1.0f, 0.25f, 3.0f});
  const GloveTable last = ParseGloveText("a 1 2\nb 3 4");
  REQUIRE(last.words.size() == 2);
  REQUIRE(last.vectors.back() == 4.0f);
}

TEST_CASE("GloVe text: a word with spaces takes everything before the last dim values", "[glove]") {
  const GloveTable table = ParseGloveText("a 1 2\nat name@x.com 3 4\n. . . 5 6\n");
  REQUIRE(table.words == std::vector<std::string>{"a", "at name@x.com", ". . ."});
  REQUIRE(table.vectors == std::vector<float>{1, 2, 3, 4, 5, 6});
}

TEST_CASE("GloVe text: malformed files name the line", "[glove]") {
  REQUIRE_THROWS_WITH(ParseGloveText(""), Contains("no vectors"));
  REQUIRE_THROWS_WITH(ParseGloveText("\n \n\t\n"), Contains("no vectors"));
  REQUIRE_THROWS_WITH(ParseGloveText("a 1 2\nb 3\n"),
                      Contains("line 2") && Contains("2 values") && Contains("line 1") && Contains("got 1 values"));
  REQUIRE_THROWS_WITH(ParseGloveText("a 1 2\n\nb 3 x\n"),
                      Contains("line 3") && Contains("value 2 of \"b\"") && Contains("\"x\""));
  REQUIRE_THROWS_WITH(ParseGloveText("lonely\n"), Contains("line 1") && Contains("word followed by its values"));
  for (const char* bad : {"nan", "inf", "-inf", "NaN", "1e39", "0x1p3", "1.2.3", "--1", "1e", ".", "+", "1,5"}) {
    INFO(bad);
    REQUIRE_THROWS_WITH(ParseGloveText(std::string("w 0 ") + bad + "\n"),
                        Contains("line 1") && Contains("not a finite number"));
  }
  // Header mismatches.
  REQUIRE_THROWS_WITH(ParseGloveText("3 2\na 1 2\nb 3 4\n"),
                      Contains("line 1") && Contains("announces 3 rows") && Contains("has 2"));
  REQUIRE_THROWS_WITH(ParseGloveText("1 2\na 1 2\nb 3 4\n"), Contains("line 3") && Contains("header's count (1)"));
  REQUIRE_THROWS_WITH(ParseGloveText("2 3\na 1 2\n"), Contains("line 2") && Contains("the header (line 1)"));
  REQUIRE_THROWS_AS(ParseGloveText("2 3\na 1 2\n"), std::invalid_argument);
  // A lying header does not allocate its count.
  REQUIRE_THROWS_WITH(ParseGloveText("4000000 64\na 1\n"), Contains("line 2"));
}

TEST_CASE("GloVe text: caps on dim, rows and values", "[glove]") {
  REQUIRE_THROWS_WITH(ParseGloveText("1 16385\n"), Contains("dim must be in [1, 16384]") && Contains("got 16385"));
  REQUIRE_THROWS_WITH(ParseGloveText("1 0\n"), Contains("dim must be in [1, 16384]") && Contains("got 0"));
  REQUIRE_THROWS_AS(ParseGloveText("1 16385\n"), std::out_of_range);
  std::string wide = "w";
  for (int i = 0; i < 16385; ++i) wide += " 0";
  REQUIRE_THROWS_WITH(ParseGloveText(wide), Contains("line 1") && Contains("got 16385"));
  GloveLimits limits;
  limits.max_rows = 2;
  REQUIRE(ParseGloveText("a 1\nb 2\n", limits).words.size() == 2);
  REQUIRE_THROWS_WITH(ParseGloveText("a 1\nb 2\nc 3\n", limits), Contains("line 3") && Contains("more than 2 rows"));
  REQUIRE_THROWS_WITH(ParseGloveText("3 1\n", limits), Contains("at most 2"));
  limits = GloveLimits();
  limits.max_values = 5;
  REQUIRE_THROWS_WITH(ParseGloveText("a 1 2\nb 3 4\nc 5 6\n", limits), Contains("line 3") && Contains("limit of 5"));
  REQUIRE_THROWS_WITH(ParseGloveText("3 2\n", limits), Contains("exceed the limit of 5"));
}

TEST_CASE("GloVe text: a header with count 0 gives an empty table of that dim", "[glove]") {
  const GloveTable table = ParseGloveText("0 50\n");
  REQUIRE(table.words.empty());
  REQUIRE(table.dim == 50);
}
