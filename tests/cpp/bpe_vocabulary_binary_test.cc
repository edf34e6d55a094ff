// The binary vocabulary form (EMBLVOC2): round trips, the hash-order fast path against ordinary inserts,
// the older EMBLVOC1 layout, and corrupt files.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "bpe/tokenizer.h"
#include "bpe/tokenizer_file.h"
#include "random/prng.h"

using embedlab::Vocabulary;

namespace {

std::string U32(uint32_t value) {
  std::string out;
  for (int shift = 0; shift < 32; shift += 8) out += static_cast<char>((value >> shift) & 0xFF);
  return out;
}

// All 256 bytes, then `extra` random distinct tokens of 2..24 bytes at shuffled ranks with gaps.
Vocabulary RandomVocabulary(uint64_t seed, int extra) {
  embedlab::Prng prng(seed);
  Vocabulary v;
  for (int b = 0; b < 256; ++b) v.Add(std::string(1, static_cast<char>(b)), static_cast<uint32_t>(b));
  uint32_t rank = 256;
  while (static_cast<int>(v.size()) < 256 + extra) {
    std::string token(2 + prng.NextU32() % 23, '\0');
    for (char& c : token) c = static_cast<char>("abcdefgh \xc3\xa9"[prng.NextU32() % 10]);
    rank += 1 + prng.NextU32() % 3;
    if (v.Rank(token) == Vocabulary::kNoRank) v.Add(token, rank);
  }
  return v;
}

// Every token of `expected` has the same rank in `actual`, and nothing else is a token there.
void RequireSameVocabulary(const Vocabulary& actual, const Vocabulary& expected) {
  REQUIRE(actual.size() == expected.size());
  REQUIRE(actual.rank_end() == expected.rank_end());
  size_t mismatches = 0;
  for (uint32_t rank = 0; rank < expected.rank_end(); ++rank) {
    if (actual.HasRank(rank) != expected.HasRank(rank)) ++mismatches;
    if (!expected.HasRank(rank)) continue;
    if (actual.Bytes(rank) != expected.Bytes(rank) || actual.Rank(expected.Bytes(rank)) != rank) ++mismatches;
    if (actual.Rank(std::string(expected.Bytes(rank)) + "z") !=
        expected.Rank(std::string(expected.Bytes(rank)) + "z")) {
      ++mismatches;
    }
  }
  REQUIRE(mismatches == 0);
}

// The binary form with its records (and their bytes) in reverse: not hash order, so every token loads
// through an ordinary insert.
std::string Reversed(const std::string& binary) {
  const auto read = [&](size_t at) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<uint8_t>(binary[at + i])) << (8 * i);
    return v;
  };
  const uint32_t tokens = read(12);
  std::vector<uint32_t> records;
  std::vector<std::string> bytes;
  size_t at = 16 + 4 * size_t{tokens};
  for (uint32_t k = 0; k < tokens; ++k) {
    records.push_back(read(16 + 4 * size_t{k}));
    bytes.push_back(binary.substr(at, records.back() & 0xFF));
    at += records.back() & 0xFF;
  }
  std::string out = binary.substr(0, 16);
  for (uint32_t k = tokens; k-- > 0;) out += U32(records[k]);
  for (uint32_t k = tokens; k-- > 0;) out += bytes[k];
  return out;
}

}  // namespace

TEST_CASE("Vocabulary binary form: round trips at many sizes, in hash order or not", "[tokenizer]") {
  for (const int extra : {0, 1, 7, 100, 1000, 5000, 20000}) {
    CAPTURE(extra);
    const Vocabulary v = RandomVocabulary(static_cast<uint64_t>(extra) + 11, extra);
    const std::string binary = v.ToBinary();
    REQUIRE(binary.substr(0, 8) == "EMBLVOC2");
    REQUIRE(Vocabulary::IsBinary(binary));
    REQUIRE_FALSE(Vocabulary::IsBinary("IQ== 0\n"));  // a .tiktoken line
    RequireSameVocabulary(Vocabulary::FromBinary(binary), v);
    RequireSameVocabulary(Vocabulary::FromBinary(Reversed(binary)), v);
    REQUIRE(Vocabulary::FromBinary(binary).ToBinary() == binary);  // canonical: the order is the hash's
  }
}

TEST_CASE("Vocabulary binary form: loads to the same tokenizer, with gaps, long tokens and specials", "[tokenizer]") {
  Vocabulary v;
  for (int b = 0; b < 256; ++b) v.Add(std::string(1, static_cast<char>(b)), static_cast<uint32_t>(b));
  v.Add("ab", 300);  // a gap in the ranks
  v.Add("abcdefghijklmnop", 301);
  v.Add(" the", 256);
  v.Add(std::string(255, 'q'), 257);  // the longest token the format holds
  const Vocabulary loaded = Vocabulary::FromBinary(v.ToBinary());
  RequireSameVocabulary(loaded, v);
  REQUIRE(loaded.Rank("abcdefghijklmnoq") == Vocabulary::kNoRank);
  REQUIRE_FALSE(loaded.HasRank(290));

  const embedlab::Tokenizer tokenizer(v, embedlab::PreTokenizerPattern::kCl100k, {{"<|endoftext|>", 302}}, "t");
  const embedlab::Tokenizer reloaded = embedlab::LoadTokenizerFile(embedlab::SaveTokenizerBinary(tokenizer));
  const std::string text = "ab the abcdefghijklmnop<|endoftext|>" + std::string(300, 'q');
  const auto ids = tokenizer.Encode(text, embedlab::SpecialTokenPolicy::AllowAll());
  REQUIRE(reloaded.Encode(text, embedlab::SpecialTokenPolicy::AllowAll()) == ids);
  REQUIRE(reloaded.DecodeBytes(ids) == text);
  REQUIRE(reloaded.pattern_name() == "cl100k");
}

TEST_CASE("Vocabulary binary form: EMBLVOC1 files still load", "[tokenizer]") {
  // "EMBLVOC1", u32 rank_end, u8 length by rank (0: unused), bytes in rank order.
  std::string v1 = "EMBLVOC1" + U32(259);
  for (int b = 0; b < 256; ++b) v1 += '\x01';
  v1 += std::string("\x00\x02\x03", 3);
  for (int b = 0; b < 256; ++b) v1 += static_cast<char>(b);
  v1 += "abxyz";
  const Vocabulary loaded = Vocabulary::FromBinary(v1);
  REQUIRE(loaded.size() == 258);
  REQUIRE(loaded.Rank("ab") == 257);
  REQUIRE(loaded.Rank("xyz") == 258);
  REQUIRE_FALSE(loaded.HasRank(256));
  REQUIRE_THROWS_WITH(Vocabulary::FromBinary(v1.substr(0, v1.size() - 1)), Catch::Contains("do not match"));
  // An unused rank at the end.
  std::string v1_tail = "EMBLVOC1" + U32(2) + std::string("\x01\x00", 2) + "a";
  REQUIRE_THROWS_WITH(Vocabulary::FromBinary(v1_tail),
                      Catch::Contains("\"rank_end\" 2 is not one past the highest rank"));
}

TEST_CASE("Vocabulary binary form: corrupt files are refused with the reason", "[tokenizer]") {
  Vocabulary v;
  v.Add("a", 0);
  v.Add("b", 1);
  v.Add("ab", 2);
  const std::string raw = v.ToBinary();
  const auto with_record = [&](size_t k, uint32_t record) {
    std::string out = raw;
    out.replace(16 + 4 * k, 4, U32(record));
    return out;
  };
  REQUIRE_THROWS_WITH(Vocabulary::FromBinary("EMBLVOC3" + U32(0) + U32(0)), Catch::Contains("not an EMBLVOC2"));
  REQUIRE_THROWS_WITH(Vocabulary::FromBinary(raw.substr(0, 20)), Catch::Contains("truncated"));
  REQUIRE_THROWS_WITH(Vocabulary::FromBinary(raw.substr(0, raw.size() - 1)), Catch::Contains("do not match"));
  REQUIRE_THROWS_WITH(Vocabulary::FromBinary(raw + "x"), Catch::Contains("do not match"));
  REQUIRE_THROWS_WITH(Vocabulary::FromBinary(with_record(0, 9u << 8 | 1)), Catch::Contains("not below \"rank_end\" 3"));
  REQUIRE_THROWS_WITH(Vocabulary::FromBinary(with_record(0, 0u << 8 | 0)), Catch::Contains("has no bytes"));
  REQUIRE_THROWS_WITH(Vocabulary::FromBinary("EMBLVOC2" + U32(1) + U32(2)), Catch::Contains("more tokens than ranks"));
  REQUIRE_THROWS_WITH(Vocabulary::FromBinary("EMBLVOC2" + U32(1u << 25) + U32(0)), Catch::Contains("above 2^24"));

  // Two records with one rank, and one token twice (at two ranks).
  const auto record_of = [&](uint32_t rank) { return rank << 8 | static_cast<uint32_t>(v.Bytes(rank).size()); };
  std::string same_rank = "EMBLVOC2" + U32(3) + U32(2) + U32(record_of(0)) + U32(record_of(0)) + "aa";
  REQUIRE_THROWS_WITH(Vocabulary::FromBinary(same_rank), Catch::Contains("rank 0 is given to two tokens"));
  std::string same_bytes = "EMBLVOC2" + U32(3) + U32(2) + U32(0u << 8 | 1) + U32(1u << 8 | 1) + "aa";
  REQUIRE_THROWS_WITH(Vocabulary::FromBinary(same_bytes), Catch::Contains("appears twice"));

  // rank_end past the highest rank (found by fuzzing: such a vocabulary was larger than its own text form).
  std::string unused_tail = "EMBLVOC2" + U32(4) + U32(2) + U32(0u << 8 | 1) + U32(1u << 8 | 1) + "ab";
  REQUIRE_THROWS_WITH(Vocabulary::FromBinary(unused_tail),
                      Catch::Contains("\"rank_end\" 4 is not one past the highest rank"));
  REQUIRE_THROWS_WITH(Vocabulary::FromBinary("EMBLVOC2" + U32(1) + U32(0)), Catch::Contains("\"rank_end\" 1"));
  REQUIRE(Vocabulary::FromBinary("EMBLVOC2" + U32(0) + U32(0)).size() == 0);
}
