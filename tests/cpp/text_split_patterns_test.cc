// Matches worked out by hand from the regexes (leftmost alternative wins, greedy with backtracking); the
// comparison with Tokenizers.js on random strings is tests/node/hf_split_patterns.test.mjs.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "random/prng.h"
#include "text/pre_tokenizer.h"
#include "text/split_patterns.h"

namespace {

namespace regex = embedlab::split_regex;
using V = std::vector<std::string>;

// Every match, in order, as the pieces of text it covers.
V Matches(std::string_view pattern, const std::string& text) {
  const embedlab::SplitMatcher matcher = embedlab::FindSplitMatcher(pattern);
  REQUIRE(matcher != nullptr);
  V matches;
  size_t start = 0;
  size_t end = 0;
  for (size_t from = 0; matcher(text, from, &start, &end); from = end) {
    REQUIRE(start >= from);
    REQUIRE(end > start);
    matches.push_back(text.substr(start, end - start));
  }
  return matches;
}

}  // namespace

TEST_CASE("Split patterns: only the exact known regexes have matchers", "[tokenizer]") {
  for (std::string_view known : {regex::kCl100k, regex::kQwen, regex::kO200k, regex::kGpt2, regex::kDeepSeekDigits,
                                 regex::kDeepSeekCjk, regex::kDeepSeekWords}) {
    REQUIRE(embedlab::FindSplitMatcher(known) != nullptr);
  }
  // tiktoken's strings are the same as the tokenizer.json ones.
  REQUIRE(embedlab::PatternRegex(embedlab::PreTokenizerPattern::kCl100k) == regex::kCl100k);
  REQUIRE(embedlab::PatternRegex(embedlab::PreTokenizerPattern::kO200k) == regex::kO200k);
  REQUIRE(embedlab::PatternRegex(embedlab::PreTokenizerPattern::kGpt2) == regex::kGpt2);
  REQUIRE(embedlab::FindSplitMatcher("") == nullptr);
  REQUIRE(embedlab::FindSplitMatcher(R"(\p{N}{1,2})") == nullptr);
  REQUIRE(embedlab::FindSplitMatcher(std::string(regex::kCl100k) + "|x") == nullptr);
  // DeepSeek's regex holds a real CR LF; the escaped spelling is another string.
  std::string escaped(regex::kDeepSeekWords);
  escaped.replace(escaped.find("\r\n"), 2, R"(\r\n)");
  REQUIRE(embedlab::FindSplitMatcher(escaped) == nullptr);
}

TEST_CASE("Split patterns: Llama 3 (cl100k) and Qwen differ in digits only", "[tokenizer]") {
  REQUIRE(Matches(regex::kCl100k, "I'm 12345 ok!\n\n") == V{"I", "'m", " ", "123", "45", " ok", "!\n\n"});
  REQUIRE(Matches(regex::kQwen, "I'm 12345 ok!\n\n") == V{"I", "'m", " ", "1", "2", "3", "4", "5", " ok", "!\n\n"});
  REQUIRE(Matches(regex::kQwen, "x\xD9\xA3\xD9\xA4y") == V{"x", "\xD9\xA3", "\xD9\xA4", "y"});  // Arabic-Indic digits
  // (?i) as Rust folds it: 'ſ (U+017F) is a contraction ('s); Tokenizers.js would take "'ſt" as one piece.
  REQUIRE(Matches(regex::kQwen, "he'\xC5\xBFt") == V{"he", "'\xC5\xBF", "t"});
  REQUIRE(Matches(regex::kCl100k, "IT'S") == V{"IT", "'S"});
}

TEST_CASE("Split patterns: DeepSeek V3's digits and CJK runs skip what they do not match", "[tokenizer]") {
  REQUIRE(Matches(regex::kDeepSeekDigits, "ab1234c5") == V{"123", "4", "5"});
  REQUIRE(Matches(regex::kDeepSeekDigits, "no digits").empty());
  // U+4E00..U+9FA5 and the two kana blocks; U+9FA6 and U+3005 (々) are outside.
  REQUIRE(Matches(regex::kDeepSeekCjk, "ab中文ひらがなカタカナ!\xE9\xBE\xA6\xE3\x80\x85字") ==
          V{"中文ひらがなカタカナ", "字"});
  REQUIRE(Matches(regex::kDeepSeekCjk, "\xE3\x80 \xE4\xB8").empty());  // truncated sequences are not characters
}

TEST_CASE("Split patterns: DeepSeek V3's word regex", "[tokenizer]") {
  const auto words = regex::kDeepSeekWords;
  // ASCII punctuation takes ASCII letters; other punctuation and letters go their own ways.
  REQUIRE(Matches(words, ".Hello 'é") == V{".Hello", " '", "é"});
  // A digit (any non-letter, non-P/S, non-newline) may lead a letter run; a digit alone matches nothing.
  REQUIRE(Matches(words, "1abc 2 x") == V{"1abc", " ", " x"});
  REQUIRE(Matches(words, "e\xCC\x81\xCC\x81 \xCC\x81") == V{"e\xCC\x81\xCC\x81", " \xCC\x81"});
  REQUIRE(Matches(words, "a !!\n\nb") == V{"a", " !!\n\n", "b"});
  REQUIRE(Matches(words, "a  \n \n  b") == V{"a", "  \n \n", " ", " b"});
  REQUIRE(Matches(words, "a   ") == V{"a", "   "});
  REQUIRE(Matches(words,
                  "\t\xE2\x82\xAC"
                  "5") == V{"\t", "\xE2\x82\xAC"});  // € is a symbol; 5 is skipped
}

TEST_CASE("Split patterns: ByteLevel's GPT-2 regex", "[tokenizer]") {
  const embedlab::SplitMatcher byte_level = embedlab::ByteLevelMatcher();
  const std::string text = "Hello  world's\xC2\x85";  // NEL is White_Space, as in Rust
  V matches;
  size_t start = 0;
  size_t end = 0;
  for (size_t from = 0; byte_level(text, from, &start, &end); from = end)
    matches.push_back(text.substr(start, end - start));
  REQUIRE(matches == V{"Hello", " ", " world", "'s", "\xC2\x85"});
}

TEST_CASE("Split patterns: random bytes give ordered, non-empty matches and tiling patterns cover everything",
          "[tokenizer]") {
  const std::vector<std::string> alphabet = {
      "a",        "Z",    "1",        " ",        "\n",           "\r",           "'",
      "s",        "!",    "\xC2\x85", "\xCC\x81", "\xE4\xB8\xAD", "\xE3\x81\x82", "\xF0\x9F\x98\x80",
      "\xC5\xBF", "\xFF", "\xE4"};
  embedlab::Prng prng(7);
  for (std::string_view pattern : {regex::kCl100k, regex::kQwen, regex::kO200k, regex::kGpt2, regex::kDeepSeekDigits,
                                   regex::kDeepSeekCjk, regex::kDeepSeekWords}) {
    const bool tiles =
        pattern != regex::kDeepSeekDigits && pattern != regex::kDeepSeekCjk && pattern != regex::kDeepSeekWords;
    for (int trial = 0; trial < 2000; ++trial) {
      std::string text;
      const int length = static_cast<int>(prng.NextU32() % 30);
      for (int i = 0; i < length; ++i) text += alphabet[prng.NextU32() % alphabet.size()];
      size_t covered = 0;
      for (const std::string& match : Matches(pattern, text)) covered += match.size();
      if (tiles) REQUIRE(covered == text.size());
      REQUIRE(covered <= text.size());
    }
  }
}

TEST_CASE("Split patterns: 100,000-character runs are found in linear time", "[tokenizer]") {
  for (std::string_view pattern : {regex::kQwen, regex::kDeepSeekDigits, regex::kDeepSeekCjk, regex::kDeepSeekWords}) {
    for (const std::string unit : {"x", " ", "7", "\n", "!", "\xE4\xB8\xAD", "7a"}) {
      std::string text;
      for (int i = 0; i < 100000; ++i) text += unit;
      REQUIRE(Matches(pattern, text).size() <= text.size());
    }
  }
}
