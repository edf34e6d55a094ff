// The BPE model of src/hf on hand-made tokenizer.json files, each expected result derived by hand from the Rust
// crate's rules (tokenizers/src/models/bpe: merge_word and Word::merge_all): the lowest merge rank first, the
// leftmost on a tie; byte_fallback, unk, fuse_unk; ignore_merges; and the merge loop in both of its forms.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "hf/bpe_word.h"
#include "hf_test_files.h"
#include "random/prng.h"

using hf_test::Ids;
using hf_test::Parts;
using Vec = std::vector<uint32_t>;

TEST_CASE("hf BPE merges by rank, the lowest first") {
  Parts parts;
  parts.vocab = {"a", "b", "c", "ab", "bc", "abc"};
  parts.merges = {{"b", "c"}, {"a", "b"}, {"ab", "c"}};
  // (b,c) has rank 0: a + bc, and no merge joins a and bc.
  CHECK(Ids(hf_test::Load(parts), "abc") == Vec{0, 4});
  parts.merges = {{"a", "b"}, {"b", "c"}, {"ab", "c"}};
  // (a,b) first, then (ab,c).
  CHECK(Ids(hf_test::Load(parts), "abc") == Vec{5});
  CHECK(Ids(hf_test::Load(parts), "cab") == Vec{2, 3});
}

TEST_CASE("hf BPE takes the leftmost pair on a tie") {
  Parts parts;
  parts.vocab = {"a", "aa"};
  parts.merges = {{"a", "a"}};
  const auto tokenizer = hf_test::Load(parts);
  CHECK(Ids(tokenizer, "aaa") == Vec{1, 0});
  CHECK(Ids(tokenizer, "aaaa") == Vec{1, 1});
  CHECK(Ids(tokenizer, "aaaaa") == Vec{1, 1, 0});
}

TEST_CASE("hf BPE ignore_merges takes a pre-token that is in the vocabulary whole") {
  Parts parts;
  parts.vocab = {"a", "b", "c", "ab", "abc"};  // "abc" is a token no merge reaches
  parts.merges = {{"a", "b"}};
  CHECK(Ids(hf_test::Load(parts), "abc") == Vec{3, 2});
  parts.model_options = "\"ignore_merges\": true";
  CHECK(Ids(hf_test::Load(parts), "abc") == Vec{4});
  CHECK(Ids(hf_test::Load(parts), "abcab") == Vec{3, 2, 3});  // not a token as a whole: the merges run
}

TEST_CASE("hf BPE byte_fallback, unk and fuse_unk follow the Rust crate") {
  Parts parts;
  parts.vocab = {"<unk>", "a", "<0xC3>", "<0xA9>"};  // é is C3 A9; ü (C3 BC) has no <0xBC>
  parts.model_options = R"("unk_token": "<unk>", "byte_fallback": true, "fuse_unk": true)";
  auto tokenizer = hf_test::Load(parts);
  CHECK(Ids(tokenizer,
            "a\xC3\xA9"
            "a") == Vec{1, 2, 3, 1});
  CHECK(Ids(tokenizer,
            "a\xC3\xBC"
            "a") == Vec{1, 0, 1});
  CHECK(Ids(tokenizer,
            "a\xC3\xBC\xC3\xBC"
            "a") == Vec{1, 0, 1});  // fused
  // The Rust crate writes a pending unknown token only when a character with a token of its own follows, so
  // byte-fallback tokens overtake it: ü é a -> <0xC3> <0xA9> <unk> a (Tokenizers.js: <unk> <0xC3> <0xA9> a).
  CHECK(Ids(tokenizer,
            "\xC3\xBC\xC3\xA9"
            "a") == Vec{2, 3, 0, 1});
  // Spans: both byte tokens of é get é's span; the fused unknown token covers both ü.
  const embedlab::HfEncoding spans = tokenizer.Encode(
      "\xC3\xA9\xC3\xBC\xC3\xBC"
      "a",
      {false, false}, true);
  CHECK(spans.ids == Vec{2, 3, 0, 1});
  CHECK(spans.starts == Vec{0, 0, 2, 6});
  CHECK(spans.ends == Vec{2, 2, 6, 7});
  parts.model_options = R"("unk_token": "<unk>", "byte_fallback": true, "fuse_unk": false)";
  CHECK(Ids(hf_test::Load(parts),
            "a\xC3\xBC\xC3\xBC"
            "a") == Vec{1, 0, 0, 1});
  parts.model_options = R"("unk_token": null, "byte_fallback": false)";
  CHECK(Ids(hf_test::Load(parts),
            "a\xC3\xBC"
            "a") == Vec{1, 1});  // no unknown token: the character is dropped
}

TEST_CASE("hf BPE refuses merges that name missing tokens, with the merge's index") {
  Parts parts;
  parts.vocab = {"a", "b", "ab"};
  parts.merges = {{"a", "b"}, {"a", "x"}};
  CHECK_THROWS_WITH(hf_test::Load(parts),
                    Catch::Contains("model.merges[1]") && Catch::Contains("\"x\" is not in the vocabulary"));
  parts.merges = {{"a", "b"}, {"b", "a"}};  // "ba" is not a token
  CHECK_THROWS_WITH(hf_test::Load(parts), Catch::Contains("model.merges[1]") && Catch::Contains("result \"ba\""));
  parts.merges = {};
  std::string json = hf_test::Json(parts);
  json.replace(json.find("\"merges\":[]"), 11, "\"merges\":[\"a b c\"]");
  CHECK_THROWS_WITH(embedlab::HfTokenizer::FromJson(json, "", "t"), Catch::Contains("one space"));
}

namespace {

// The rule itself, naively: rescan every adjacent pair, merge the lowest-ranked leftmost, repeat.
std::vector<embedlab::BpeSymbol> NaiveMerge(const embedlab::MergeTable& merges, std::vector<embedlab::BpeSymbol> s) {
  for (;;) {
    size_t best = s.size();
    uint32_t best_rank = embedlab::MergeTable::kNoRank;
    for (size_t i = 0; i + 1 < s.size(); ++i) {
      const uint32_t rank = merges.Find(s[i].id, s[i + 1].id).rank;
      if (rank < best_rank) {
        best_rank = rank;
        best = i;
      }
    }
    if (best == s.size()) return s;
    s[best] = {merges.Find(s[best].id, s[best + 1].id).result, s[best].start, s[best + 1].end};
    s.erase(s.begin() + best + 1);
  }
}

}  // namespace

TEST_CASE("hf BPE merge loops agree with the naive rule on random words, and the long one is O(n log n)") {
  // Tokens are the strings over {a, b} up to length 4 (ids by a base-3 code); merges every split of each, in a
  // shuffled order.
  auto code = [](const std::string& s) {
    uint32_t id = 0;
    for (char c : s) id = id * 3 + (c == 'a' ? 1 : 2);
    return id;
  };
  std::vector<std::string> strings = {"a", "b"};
  for (size_t i = 0; i < strings.size(); ++i) {
    if (strings[i].size() < 4) {
      strings.push_back(strings[i] + "a");
      strings.push_back(strings[i] + "b");
    }
  }
  embedlab::Prng prng(5);
  std::vector<embedlab::MergeTable::Entry> entries;
  for (const std::string& s : strings) {
    for (size_t cut = 1; cut < s.size(); ++cut)
      entries.push_back({code(s.substr(0, cut)), code(s.substr(cut)), code(s), 0});
  }
  for (size_t i = entries.size(); i > 1; --i) std::swap(entries[i - 1], entries[prng.NextU32() % i]);
  embedlab::MergeTable merges;
  for (const auto& e : entries) merges.Add(e.left, e.right, e.result);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<embedlab::BpeSymbol> word(1 + prng.NextU32() % 40);
    for (uint32_t i = 0; i < word.size(); ++i) word[i] = {prng.NextU32() % 2 ? code("a") : code("b"), i, i + 1};
    const auto expected = NaiveMerge(merges, word);
    auto shorter = word;
    auto longer = word;
    embedlab::MergeWordShort(merges, &shorter);
    embedlab::MergeWordLong(merges, &longer);
    REQUIRE(shorter.size() == expected.size());
    REQUIRE(longer.size() == expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      CHECK(shorter[i].id == expected[i].id);
      CHECK(longer[i].id == expected[i].id);
      CHECK(longer[i].end == expected[i].end);
    }
  }
  std::vector<embedlab::BpeSymbol> huge(1 << 20);
  for (uint32_t i = 0; i < huge.size(); ++i) huge[i] = {prng.NextU32() % 2 ? code("a") : code("b"), i, i + 1};
  // No wall-clock bound (no timed unit tests: one failed at 6.8 s under the sanitizers on a loaded machine): a
  // quadratic loop over 2^20 symbols, about 10^12 steps, would not end within the suite's time limit (ctest
  // --timeout 600, test.sh's per-suite limit), which is the bound; bench covers the speed.
  embedlab::MergeWord(merges, &huge);
  CHECK(huge.back().end == (1u << 20));
}

TEST_CASE("hf BPE cuts a long SentencePiece pre-token only where no merge joins across the cut") {
  // Pre-tokens over 64 bytes are cut before "▁" for speed, except after a character that some merge's left token
  // ends with when its right token starts with "▁": here ">" (the merge > + ▁a).
  Parts parts;
  parts.vocab = {"\xE2\x96\x81",
                 "a",
                 ">",
                 "\xE2\x96\x81"
                 "a",
                 ">\xE2\x96\x81"
                 "a",
                 "b"};
  parts.merges = {{"\xE2\x96\x81", "a"},
                  {">",
                   "\xE2\x96\x81"
                   "a"}};
  std::string text;
  Vec expected;
  for (int i = 0; i < 20; ++i) {
    text +=
        "b\xE2\x96\x81"
        "a>\xE2\x96\x81"
        "a";
    expected.insert(expected.end(), {5, 3, 4});  // b, ▁a, >▁a
  }
  REQUIRE(text.size() > 64);
  const auto tokenizer = hf_test::Load(parts);
  CHECK(Ids(tokenizer, text) == expected);
  const embedlab::HfEncoding spans = tokenizer.Encode(text, {false, false}, true);
  CHECK(spans.starts[2] == 5);  // after b (1 byte) and ▁a (4 bytes), >▁a takes 5 bytes
  CHECK(spans.ends[2] == 10);
}
