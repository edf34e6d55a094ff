// BPE on tiny vocabularies whose merges can be worked out by hand. Single bytes have their byte value as
// rank, so 'a' is 97; merged tokens start at 256.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "bpe/byte_pair_merge.h"
#include "bpe/tiktoken_file.h"
#include "bpe/tokenizer.h"
#include "random/prng.h"

using embedlab::SpecialTokenPolicy;
using embedlab::Tokenizer;
using embedlab::Vocabulary;
using Ids = std::vector<uint32_t>;

namespace {

Vocabulary ByteVocabulary(const std::vector<std::string>& merged) {
  Vocabulary v;
  for (int b = 0; b < 256; ++b) v.Add(std::string(1, static_cast<char>(b)), static_cast<uint32_t>(b));
  for (size_t i = 0; i < merged.size(); ++i) v.Add(merged[i], static_cast<uint32_t>(256 + i));
  return v;
}

Ids Merge(const Vocabulary& v, const std::string& piece, bool long_path = false) {
  Ids ids;
  if (long_path) {
    embedlab::BytePairEncodeLong(v, piece, 0, &ids, nullptr);
  } else {
    embedlab::BytePairEncode(v, piece, 0, &ids, nullptr);
  }
  return ids;
}

Tokenizer SmallTokenizer(embedlab::PreTokenizerPattern pattern = embedlab::PreTokenizerPattern::kGpt2) {
  return Tokenizer(ByteVocabulary({"ab", "bc", "abc", "cd", " a", "aa", "aaaa"}), pattern,
                   {{"<|endoftext|>", 300}, {"<|fim|>", 301}}, "small");
}

}  // namespace

TEST_CASE("BPE: the lowest rank merges first", "[tokenizer]") {
  const Vocabulary v = ByteVocabulary({"ab", "bc", "abc", "cd"});  // 256 257 258 259
  // ab(256) < bc(257) < cd(259): ab, then abc(258) beats cd; "abcd" is not a token.
  REQUIRE(Merge(v, "abcd") == Ids{258, 'd'});
  // bc(257) before cd(259); "bcd" is not a token.
  REQUIRE(Merge(v, "bcd") == Ids{257, 'd'});
  REQUIRE(Merge(v, "xyz") == Ids{'x', 'y', 'z'});
  REQUIRE(Merge(v, "a") == Ids{'a'});
}

TEST_CASE("BPE: equal ranks merge leftmost first", "[tokenizer]") {
  const Vocabulary v = ByteVocabulary({"aa"});  // 256
  REQUIRE(Merge(v, "aaa") == Ids{256, 'a'});
  REQUIRE(Merge(v, "aaaaa") == Ids{256, 256, 'a'});
  const Vocabulary v2 = ByteVocabulary({"aa", "aaaa"});  // 256 257
  REQUIRE(Merge(v2, "aaaaaaa") == Ids{257, 256, 'a'});
  REQUIRE(Merge(v2, "aaaaaaa", /*long_path=*/true) == Ids{257, 256, 'a'});
}

TEST_CASE("BPE: the heap path and the short path agree on random pieces", "[tokenizer]") {
  // Every string over {a, b, c} up to length 3 is a token, with shuffled ranks: lots of competing merges.
  std::vector<std::string> merged;
  for (int length = 2; length <= 4; ++length) {
    for (int code = 0; code < 81; ++code) {
      std::string s;
      for (int i = 0, c = code; i < length; ++i, c /= 3) s += static_cast<char>('a' + c % 3);
      if (static_cast<int>(s.size()) == length && std::find(merged.begin(), merged.end(), s) == merged.end()) {
        merged.push_back(s);
      }
    }
  }
  embedlab::Prng prng(11);
  for (size_t i = merged.size(); i > 1; --i) std::swap(merged[i - 1], merged[prng.NextU32() % i]);
  const Vocabulary v = ByteVocabulary(merged);
  for (int trial = 0; trial < 3000; ++trial) {
    std::string piece;
    const size_t length = 1 + prng.NextU32() % embedlab::kShortPieceLength;
    for (size_t i = 0; i < length; ++i) piece += static_cast<char>('a' + prng.NextU32() % 4);
    Ids short_ids, long_ids, short_ends, long_ends;
    embedlab::BytePairEncodeShort(v, piece, 5, &short_ids, &short_ends);
    embedlab::BytePairEncodeLong(v, piece, 5, &long_ids, &long_ends);
    REQUIRE(short_ids == long_ids);
    REQUIRE(short_ends == long_ends);
    REQUIRE(long_ends.back() == 5 + piece.size());
  }
}

TEST_CASE("BPE: 100k repeated characters encode without quadratic blow-up", "[tokenizer]") {
  const Tokenizer tokenizer = SmallTokenizer();
  for (char c : {'x', 'a', ' ', '7'}) {
    const std::string text(100000, c);
    const Ids ids = tokenizer.EncodeOrdinary(text);
    REQUIRE(tokenizer.DecodeBytes(ids) == text);
  }
  REQUIRE(tokenizer.EncodeOrdinary(std::string(100000, 'a')).size() == 25000);  // all "aaaa"
}

TEST_CASE("Tokenizer: decode(encode(x)) == x for random bytes", "[tokenizer]") {
  embedlab::Prng prng(5);
  for (auto pattern : {embedlab::PreTokenizerPattern::kGpt2, embedlab::PreTokenizerPattern::kCl100k,
                       embedlab::PreTokenizerPattern::kO200k}) {
    const Tokenizer tokenizer = SmallTokenizer(pattern);
    for (int trial = 0; trial < 2000; ++trial) {
      std::string text;
      const int length = static_cast<int>(prng.NextU32() % 64);
      for (int i = 0; i < length; ++i) {
        const uint32_t r = prng.NextU32();
        text += (r % 3 == 0) ? static_cast<char>(r >> 8) : "abcd \n'"[(r >> 8) % 7];
      }
      const embedlab::EncodedTokens tokens = tokenizer.EncodeWithSpans(text, SpecialTokenPolicy::AllAsText());
      REQUIRE(tokenizer.DecodeBytes(tokens.ids) == text);
      REQUIRE(tokens.ids == tokenizer.EncodeOrdinary(text));
      for (size_t i = 0; i < tokens.ids.size(); ++i) {
        REQUIRE(tokenizer.TokenBytes(tokens.ids[i]) ==
                text.substr(tokens.starts[i], tokens.ends[i] - tokens.starts[i]));
      }
    }
  }
}

TEST_CASE("Tokenizer: special tokens follow tiktoken's rules", "[tokenizer]") {
  const Tokenizer tokenizer = SmallTokenizer();
  const std::string text = "ab<|endoftext|>cd<|fim|>";
  // Default: every special token is disallowed, and the error names the one found.
  REQUIRE_THROWS_AS(tokenizer.Encode(text), std::invalid_argument);
  REQUIRE_THROWS_WITH(tokenizer.Encode(text), Catch::Contains("<|endoftext|>") && Catch::Contains("byte 2"));
  // Allowed ones become their ids, with the spans of their text.
  const auto tokens = tokenizer.EncodeWithSpans(text, SpecialTokenPolicy::AllowAll());
  REQUIRE(tokens.ids == Ids{256, 300, 259, 301});
  REQUIRE(tokens.starts == Ids{0, 2, 15, 17});
  REQUIRE(tokens.ends == Ids{2, 15, 17, 24});
  // Allowing one and disallowing the rest still rejects the other.
  SpecialTokenPolicy only_eot;
  only_eot.allowed = {"<|endoftext|>"};
  REQUIRE_THROWS_WITH(tokenizer.Encode(text, only_eot), Catch::Contains("<|fim|>"));
  REQUIRE(tokenizer.Encode("ab<|endoftext|>", only_eot) == Ids{256, 300});
  // Neither allowed nor disallowed: plain text, as EncodeOrdinary does.
  SpecialTokenPolicy none;
  none.disallow_all = false;
  REQUIRE(tokenizer.Encode(text, none) == tokenizer.EncodeOrdinary(text));
  REQUIRE(tokenizer.DecodeBytes(tokenizer.EncodeOrdinary(text)) == text);
  // Unknown names are errors, not silently ignored.
  SpecialTokenPolicy typo;
  typo.allowed = {"<|endoftxt|>"};
  REQUIRE_THROWS_WITH(tokenizer.Encode("x", typo), Catch::Contains("<|endoftxt|>"));
}

TEST_CASE("Tokenizer: errors name the argument and the valid range", "[tokenizer]") {
  const Tokenizer tokenizer = SmallTokenizer();
  REQUIRE(tokenizer.vocab_size() == 302);
  REQUIRE(tokenizer.pattern_name() == "gpt2");
  REQUIRE(tokenizer.DecodeBytes({300}) == "<|endoftext|>");
  REQUIRE_THROWS_AS(tokenizer.DecodeBytes({97, 290}), std::out_of_range);
  REQUIRE_THROWS_WITH(tokenizer.DecodeBytes({97, 290}),
                      Catch::Contains("ids[1]") && Catch::Contains("290") && Catch::Contains("[0, 302)"));
  REQUIRE_THROWS_WITH(Tokenizer::FromTiktoken("", "cl99k"), Catch::Contains("cl100k_base"));
  REQUIRE_THROWS_WITH(embedlab::ParseTiktokenFile("YQ== 0\nYg== x\n"), Catch::Contains("line 2"));
  REQUIRE_THROWS_WITH(embedlab::ParseTiktokenFile("YQ== 0\nYQ== 1\n"), Catch::Contains("twice"));
  REQUIRE_THROWS_WITH(Tokenizer(ByteVocabulary({}), embedlab::PreTokenizerPattern::kGpt2, {{"<|x|>", 65}}, "t"),
                      Catch::Contains("id 65"));
  Vocabulary missing_byte;
  missing_byte.Add("a", 0);
  REQUIRE_THROWS_WITH(Tokenizer(std::move(missing_byte), embedlab::PreTokenizerPattern::kGpt2, {}, "t"),
                      Catch::Contains("byte 0"));
}

TEST_CASE("Tokenizer: .tiktoken text round-trips", "[tokenizer]") {
  const Vocabulary v = ByteVocabulary({"ab", " a", std::string("\xFF\x00z", 3)});
  const std::string file = embedlab::FormatTiktokenFile(v);
  REQUIRE(file.substr(0, 7) == "AA== 0\n");
  const Vocabulary parsed = embedlab::ParseTiktokenFile(file);
  REQUIRE(parsed.size() == v.size());
  REQUIRE(embedlab::FormatTiktokenFile(parsed) == file);
  REQUIRE(parsed.Rank(std::string("\xFF\x00z", 3)) == 258);
}

TEST_CASE("Tokenizer: the piece cache changes nothing", "[tokenizer]") {
  // The first encode fills the cache, the later ones hit it (ids, and spans worked out from token lengths);
  // all must equal plain per-piece BPE, with spans that cover each token's bytes.
  const Tokenizer tokenizer = SmallTokenizer(embedlab::PreTokenizerPattern::kO200k);
  embedlab::Prng prng(23);
  const std::vector<std::string> words = {"abcd", " abc", "aaaaaaa", " bcd", "dcba", "\xFF\xFE", " aa"};
  std::string text;
  while (text.size() < 20000) text += words[prng.NextU32() % words.size()];
  Ids expected;
  for (const auto& span : embedlab::SplitIntoPieces(text, tokenizer.pattern())) {
    const std::string piece = text.substr(span.start, span.end - span.start);
    const uint32_t whole = tokenizer.vocabulary().Rank(piece);
    if (whole != Vocabulary::kNoRank) {
      expected.push_back(whole);
    } else {
      embedlab::BytePairEncode(tokenizer.vocabulary(), piece, 0, &expected, nullptr);
    }
  }
  REQUIRE(tokenizer.cache_size().pieces == 0);
  REQUIRE(tokenizer.EncodeOrdinary(text) == expected);
  REQUIRE(tokenizer.cache_size().pieces > 0);
  REQUIRE(tokenizer.EncodeOrdinary(text) == expected);
  for (int run = 0; run < 2; ++run) {
    const auto tokens = tokenizer.EncodeWithSpans(text, SpecialTokenPolicy::AllAsText());
    REQUIRE(tokens.ids == expected);
    REQUIRE(tokenizer.DecodeBytes(tokens.ids) == text);
    for (size_t i = 0; i < tokens.ids.size(); ++i) {
      REQUIRE(tokenizer.TokenBytes(tokens.ids[i]) == text.substr(tokens.starts[i], tokens.ends[i] - tokens.starts[i]));
    }
  }
  tokenizer.ClearCache();
  REQUIRE(tokenizer.cache_size().pieces == 0);
  REQUIRE(tokenizer.cache_size().bytes == 0);
  REQUIRE(tokenizer.EncodeOrdinary(text) == expected);
}

TEST_CASE("Tokenizer: DecodeInto reuses and grows one buffer, and its bytes match token by token", "[tokenizer]") {
  const std::string long_special(1000, 's');
  const Tokenizer tokenizer(ByteVocabulary({"ab", std::string(255, 'L'), "abcdefghijklmnopq"}),
                            embedlab::PreTokenizerPattern::kGpt2, {{long_special, 400}, {"<|x|>", 401}}, "t");
  embedlab::Prng prng(3);
  const Ids choices = {97, 256, 257, 258, 400, 401, 0, 255};
  std::string buffer;
  for (const size_t count : {size_t{0}, size_t{1}, size_t{5000}, size_t{3}, size_t{20000}, size_t{2}}) {
    Ids ids(count);
    std::string expected;
    for (uint32_t& id : ids) {
      id = choices[prng.NextU32() % choices.size()];
      expected += id == 400 ? long_special : id == 401 ? "<|x|>" : std::string(tokenizer.vocabulary().Bytes(id));
    }
    const size_t size = tokenizer.DecodeInto(ids.data(), ids.size(), &buffer);
    REQUIRE(size == expected.size());
    REQUIRE(buffer.size() >= size);
    REQUIRE(buffer.compare(0, size, expected) == 0);
  }
  REQUIRE_THROWS_WITH(tokenizer.DecodeInto(Ids{97, 300}.data(), 2, &buffer), Catch::Contains("ids[1]: 300"));
}
