// Vocabulary formats: tiktoken's npm "bpe_ranks" and GPT-2's encoder.json + vocab.bpe (the binary form:
// bpe_vocabulary_binary_test.cc).
#include <catch2/catch.hpp>
#include <string>

#include "bpe/gpt2_vocabulary_file.h"
#include "bpe/tiktoken_file.h"
#include "bpe/tokenizer.h"
#include "bpe/tokenizer_file.h"
#include "text/utf8.h"

using embedlab::Vocabulary;

TEST_CASE("Vocabulary formats: npm tiktoken's compressed bpe_ranks", "[tokenizer]") {
  // "IQ==" "Ig==" "Iw==" are "!" "\"" "#"; the second line starts again at rank 10.
  const Vocabulary v = embedlab::ParseTiktokenNpmRanks("! 0 IQ== Ig== Iw==\n! 10 YWI=\n");
  REQUIRE(v.size() == 4);
  REQUIRE(v.Rank("\"") == 1);
  REQUIRE(v.Rank("ab") == 10);
  REQUIRE_THROWS_WITH(embedlab::ParseTiktokenNpmRanks("! x IQ==\n"), Catch::Contains("line 1"));
}

namespace {

// GPT-2's spelling, written out independently of the parser: bytes that print (except space) are
// themselves; the others, in byte order, are U+0100, U+0101, ...
std::string Spell(const std::string& bytes) {
  std::string out;
  for (unsigned char b : bytes) {
    int n = 0;
    uint32_t cp = b;
    const bool prints = b > 32 && !(b >= 127 && b <= 160) && b != 173;
    if (!prints) {
      for (int c = 0; c < b; ++c) n += !(c > 32 && !(c >= 127 && c <= 160) && c != 173);
      cp = 256 + n;
    }
    embedlab::AppendUtf8(cp, &out);
  }
  return out;
}

}  // namespace

TEST_CASE("Vocabulary formats: GPT-2 encoder.json and vocab.bpe", "[tokenizer]") {
  REQUIRE(Spell(" ") == "\xC4\xA0");   // 'Ġ'
  REQUIRE(Spell("\n") == "\xC4\x8A");  // 'Ċ'
  // Single bytes in GPT-2's order: the 188 printable ones, then the rest (space is 220, newline 198).
  std::string json = "{";
  int rank = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (int b = 0; b < 256; ++b) {
      const bool prints = b > 32 && !(b >= 127 && b <= 160) && b != 173;
      if (prints != (pass == 0)) continue;
      std::string key = Spell(std::string(1, static_cast<char>(b)));
      if (key == "\"" || key == "\\") key = "\\" + key;
      json += "\"" + key + "\": " + std::to_string(rank++) + ", ";
    }
  }
  json += "\"" + Spell(" t") + "\": 256, \"he\": 257, \"" + Spell(" the") + "\": 258, \"<|endoftext|>\": 259}";
  const std::string merges = "#version: 0.2\n" + Spell(" ") + " t\nh e\n" + Spell(" t") + " he\n";
  const Vocabulary v = embedlab::ParseGpt2Vocabulary(json, merges);
  REQUIRE(v.size() == 259);
  REQUIRE(v.Rank("!") == 0);
  REQUIRE(v.Rank(" ") == 220);
  REQUIRE(v.Rank("\n") == 198);
  REQUIRE(v.Rank(" the") == 258);
  REQUIRE(v.Rank("<|endoftext|>") == Vocabulary::kNoRank);
  REQUIRE_THROWS_WITH(embedlab::ParseGpt2Vocabulary(json, "#version: 0.2\nh e\n"), Catch::Contains("rank 256"));
  REQUIRE_THROWS_WITH(embedlab::ParseGpt2Vocabulary("[1]", ""), Catch::Contains("not a JSON object"));
  // Only the first line is a header: a later line starting with '#' is a merge ("# #" makes "##").
  std::string with_hash = json;
  const std::string end_of_text = "\"<|endoftext|>\": 259}";
  with_hash.replace(with_hash.find(end_of_text), end_of_text.size(), "\"##\": 259, \"<|endoftext|>\": 260}");
  const Vocabulary hashed = embedlab::ParseGpt2Vocabulary(with_hash, merges + "# #\n");
  REQUIRE(hashed.Rank("##") == 259);
}

TEST_CASE("Vocabulary: a rejected token leaves the vocabulary as it was, and bulk loading finds duplicates",
          "[tokenizer]") {
  Vocabulary v;
  v.Add("ab", 0);
  REQUIRE_THROWS_WITH(v.Add("ab", 7), Catch::Contains("appears twice"));
  REQUIRE(v.size() == 1);
  REQUIRE(v.rank_end() == 1);
  REQUIRE_FALSE(v.HasRank(7));
  REQUIRE_THROWS_AS(v.Add("c", 0), std::invalid_argument);  // rank taken
  REQUIRE_THROWS_AS(v.Add(std::string(256, 'x'), 1), std::out_of_range);
  REQUIRE(v.Rank("ab") == 0);

  Vocabulary bulk;
  for (uint32_t i = 0; i < 5000; ++i) bulk.AddDeferred("t" + std::to_string(i), i);
  bulk.FinishDeferred();
  REQUIRE(bulk.Rank("t4321") == 4321);
  REQUIRE(bulk.Rank("t5000") == Vocabulary::kNoRank);
  Vocabulary twice;
  twice.AddDeferred("same", 0);
  twice.AddDeferred("same", 1);
  REQUIRE_THROWS_WITH(twice.FinishDeferred(), Catch::Contains("'same' appears twice"));
}

TEST_CASE("Tokenizer file: a header with fields of the wrong JSON type is rejected cleanly", "[tokenizer]") {
  // Found by the tokenizer_file fuzzer: "format" as a string made nlohmann::json throw its own type_error.
  for (const char* header : {R"({"format":"1","pattern":"o200k"})", R"({"format":1.5,"pattern":"o200k"})",
                             R"({"format":1,"pattern":7})", R"({"format":1,"pattern":"o200k","special_tokens":[1]})",
                             R"({"format":1,"pattern":"o200k","special_tokens":{"x":"1"}})"}) {
    INFO(header);
    REQUIRE_THROWS_AS(embedlab::LoadTokenizerFile(std::string("#embedlab-bpe ") + header + "\nAA== 0\n"),
                      std::invalid_argument);
  }
}
