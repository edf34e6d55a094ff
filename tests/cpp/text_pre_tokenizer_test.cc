// Pieces worked out by hand from tiktoken's regexes (leftmost alternative wins, greedy with backtracking);
// the byte-exact comparison on real text is scripts/check-tiktoken-parity.mjs.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "random/prng.h"
#include "text/pre_tokenizer.h"

using embedlab::PreTokenizerPattern;

namespace {

std::vector<std::string> Pieces(const std::string& text, PreTokenizerPattern pattern) {
  std::vector<std::string> pieces;
  for (const auto& span : embedlab::SplitIntoPieces(text, pattern)) {
    pieces.push_back(text.substr(span.start, span.end - span.start));
  }
  return pieces;
}

using V = std::vector<std::string>;

}  // namespace

TEST_CASE("Pre-tokenizer gpt2: hand-checked pieces", "[tokenizer]") {
  const auto p = PreTokenizerPattern::kGpt2;
  REQUIRE(Pieces("Hello world", p) == V{"Hello", " world"});
  // The space before "here" goes with it; the other space stands alone; a final newline is its own piece.
  REQUIRE(Pieces("I'm  here\n", p) == V{"I", "'m", " ", " here", "\n"});
  REQUIRE(Pieces("x  \t y", p) == V{"x", "  \t", " y"});
  REQUIRE(Pieces("'S", p) == V{"'", "S"});  // contractions are case-sensitive in gpt2
  REQUIRE(Pieces("12345abc", p) == V{"12345", "abc"});
  REQUIRE(Pieces("a\xC2\x85"
                 "b",
                 p) == V{"a", "\xC2\x85", "b"});  // U+0085 is whitespace
  REQUIRE(Pieces("  ", p) == V{"  "});
  REQUIRE(Pieces(" !!", p) == V{" !!"});
}

TEST_CASE("Pre-tokenizer cl100k: hand-checked pieces", "[tokenizer]") {
  const auto p = PreTokenizerPattern::kCl100k;
  REQUIRE(Pieces("12345", p) == V{"123", "45"});
  REQUIRE(Pieces("'S", p) == V{"'S"});
  REQUIRE(Pieces("DON'T", p) == V{"DON", "'T"});
  REQUIRE(Pieces(" \n\n  x", p) == V{" \n\n", " ", " x"});
  REQUIRE(Pieces("hello!!\n\nworld", p) == V{"hello", "!!\n\n", "world"});
  REQUIRE(Pieces("\tfoo", p) == V{"\tfoo"});
  REQUIRE(Pieces(".Net", p) == V{".Net"});
  REQUIRE(Pieces("x'\xC5\xBF", p) == V{"x", "'\xC5\xBF"});  // (?i) folds long s to s
}

TEST_CASE("Pre-tokenizer o200k: hand-checked pieces", "[tokenizer]") {
  const auto p = PreTokenizerPattern::kO200k;
  REQUIRE(Pieces("HELLOworld", p) == V{"HELLOworld"});
  REQUIRE(Pieces("helloWORLD", p) == V{"hello", "WORLD"});
  REQUIRE(Pieces("DON'T don't", p) == V{"DON'T", " don't"});
  REQUIRE(Pieces("\xC7\x85ungla", p) == V{"\xC7\x85ungla"});  // ǅ (Lt) then lower case
  // A mark is in both classes: with "A " after it, the regex backtracks to the mark alone.
  REQUIRE(Pieces("\xCC\x81"
                 "A ",
                 p) == V{"\xCC\x81", "A", " "});
  REQUIRE(Pieces("a/b//\n", p) == V{"a", "/b", "//\n"});
  REQUIRE(Pieces("1234567", p) == V{"123", "456", "7"});
}

TEST_CASE("Pre-tokenizers: pieces are non-empty and tile random inputs", "[tokenizer]") {
  // Bytes drawn from a small alphabet that covers every class, plus raw bytes (invalid UTF-8 included).
  const std::vector<std::string> alphabet = {"a",
                                             "Z",
                                             "'",
                                             "s",
                                             "S",
                                             "l",
                                             "9",
                                             " ",
                                             "  ",
                                             "\n",
                                             "\r",
                                             "\t",
                                             "/",
                                             "!",
                                             "\xC2\x85",
                                             "\xEF\xBB\xBF",
                                             "\xCC\x81",
                                             "\xC7\x85",
                                             "\xCA\xB0",
                                             "\xE4\xB8\xAD",
                                             "\xF0\x9F\x98\x80",
                                             "\xC5\xBF",
                                             "\xBD",
                                             "\xFF",
                                             "\xE4"};
  embedlab::Prng prng(3);
  for (auto pattern : {PreTokenizerPattern::kGpt2, PreTokenizerPattern::kCl100k, PreTokenizerPattern::kO200k}) {
    for (int trial = 0; trial < 2000; ++trial) {
      std::string text;
      const int length = static_cast<int>(prng.NextU32() % 40);
      for (int i = 0; i < length; ++i) {
        if (prng.NextU32() % 8 == 0) {
          text += static_cast<char>(prng.NextU32() & 0xFF);
        } else {
          text += alphabet[prng.NextU32() % alphabet.size()];
        }
      }
      size_t expected_start = 0;
      for (const auto& span : embedlab::SplitIntoPieces(text, pattern)) {
        REQUIRE(span.start == expected_start);
        REQUIRE(span.end > span.start);
        expected_start = span.end;
      }
      REQUIRE(expected_start == text.size());
    }
  }
}

TEST_CASE("Pre-tokenizers: 100k-character runs split in linear time", "[tokenizer]") {
  for (auto pattern : {PreTokenizerPattern::kGpt2, PreTokenizerPattern::kCl100k, PreTokenizerPattern::kO200k}) {
    for (char c : {'x', ' ', '7', '\n', '!'}) {
      const auto pieces = embedlab::SplitIntoPieces(std::string(100000, c), pattern);
      REQUIRE(!pieces.empty());
      REQUIRE(pieces.back().end == 100000);
    }
  }
}

TEST_CASE("Pre-tokenizers: pattern names", "[tokenizer]") {
  REQUIRE(embedlab::PatternFromName("o200k") == PreTokenizerPattern::kO200k);
  REQUIRE(embedlab::PatternName(PreTokenizerPattern::kCl100k) == "cl100k");
  REQUIRE_THROWS_WITH(embedlab::PatternFromName("gpt5"), Catch::Contains("gpt2, cl100k, o200k"));
}
