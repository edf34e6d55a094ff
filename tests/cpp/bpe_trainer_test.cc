// BPE training on corpora whose merges are worked out by hand in the comments.
#include "bpe/bpe_trainer.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bpe/tokenizer.h"
#include "bpe/tokenizer_file.h"
#include "random/prng.h"

using embedlab::BpeMerge;
using embedlab::BpeTrainerOptions;
using embedlab::PreTokenizerPattern;
using embedlab::TrainBpe;

namespace {

BpeTrainerOptions Options(size_t vocab_size, PreTokenizerPattern pattern = PreTokenizerPattern::kGpt2) {
  BpeTrainerOptions options;
  options.vocab_size = vocab_size;
  options.pattern = pattern;
  return options;
}

bool Same(const BpeMerge& m, uint32_t left, uint32_t right, uint32_t id, uint64_t count) {
  return m.left == left && m.right == right && m.id == id && m.count == count;
}

}  // namespace

TEST_CASE("BPE trainer: the classic aaabdaaabac example", "[tokenizer]") {
  // One piece. Pair counts: aa 4, ab 2, bd da ba ac 1 -> merge (a, a) = 256.
  // Now aa a b d aa a b a c: (aa, a) 2 and (a, b) 2 tie; the lower left id, a = 97, wins -> 257 "ab".
  // Now aa ab d aa ab a c: (aa, ab) 2 -> 258 "aaab". Then every pair counts 1: (a, c) has the lowest
  // left id -> 259 "ac"; then (d, aaab) -> 260 "daaab".
  const auto result = TrainBpe("aaabdaaabac", Options(261));
  REQUIRE(result.merges.size() == 5);
  REQUIRE(Same(result.merges[0], 'a', 'a', 256, 4));
  REQUIRE(Same(result.merges[1], 'a', 'b', 257, 2));
  REQUIRE(Same(result.merges[2], 256, 257, 258, 2));
  REQUIRE(Same(result.merges[3], 'a', 'c', 259, 1));
  REQUIRE(Same(result.merges[4], 'd', 258, 260, 1));
  REQUIRE(result.vocabulary.Bytes(258) == "aaab");
  REQUIRE(result.vocabulary.Bytes(260) == "daaab");
  REQUIRE_FALSE(result.cancelled);
  REQUIRE_FALSE(result.exhausted);
}

TEST_CASE("BPE trainer: merges stay inside pre-tokenizer pieces", "[tokenizer]") {
  // gpt2 pieces: "ab", " ab", " ab". (a, b) 3 -> 256; then (" ", ab) 2 -> 257 " ab"; then every piece is
  // one token and no pair is left.
  const auto result = TrainBpe("ab ab ab", Options(300));
  REQUIRE(result.merges.size() == 2);
  REQUIRE(Same(result.merges[0], 'a', 'b', 256, 3));
  REQUIRE(Same(result.merges[1], ' ', 256, 257, 2));
  REQUIRE(result.exhausted);
  // "b a" never became a token: b and " a" are in different pieces.
  REQUIRE(result.vocabulary.Rank("b ") == embedlab::Vocabulary::kNoRank);
}

TEST_CASE("BPE trainer: overlapping pairs merge left to right", "[tokenizer]") {
  // "aaaaa" (one piece, count 1): (a, a) 4 -> 256; aa aa a: (aa, aa) 1 and (aa, a) 1 tie at left id 256;
  // the lower right id, a = 97, wins -> 257 "aaa"; then aa aaa -> 258 "aaaaa".
  const auto result = TrainBpe("aaaaa", Options(259));
  REQUIRE(Same(result.merges[0], 'a', 'a', 256, 4));
  REQUIRE(Same(result.merges[1], 256, 'a', 257, 1));
  REQUIRE(Same(result.merges[2], 256, 257, 258, 1));
}

TEST_CASE("BPE trainer: special tokens are skipped in the corpus and get the ids after the vocabulary", "[tokenizer]") {
  BpeTrainerOptions options = Options(270);
  options.special_tokens = {"<|eot|>"};
  const auto result = TrainBpe("xy<|eot|>xy<|eot|>", options);
  REQUIRE(result.special_tokens.size() == 1);
  REQUIRE(result.special_tokens[0].id == 270);
  REQUIRE(result.merges.size() == 1);  // only "xy": nothing of "<|eot|>" is learned
  REQUIRE(Same(result.merges[0], 'x', 'y', 256, 2));
  const embedlab::Tokenizer tokenizer(result.vocabulary, result.pattern, result.special_tokens, "t");
  REQUIRE(tokenizer.Encode("xy<|eot|>", embedlab::SpecialTokenPolicy::AllowAll()) == std::vector<uint32_t>{256, 270});
  REQUIRE(tokenizer.vocab_size() == 271);
}

TEST_CASE("BPE trainer: progress is reported and training can be cancelled", "[tokenizer]") {
  BpeTrainerOptions options = Options(1000);
  std::vector<size_t> seen;
  options.on_progress = [&](const embedlab::BpeTrainingProgress& p) {
    seen.push_back(p.merges_done);
    REQUIRE(p.merges_wanted == 744);
    REQUIRE(p.last_merge != nullptr);
    return p.merges_done < 3;
  };
  const auto result = TrainBpe("the cat sat on the mat with the hat that the rat ate", options);
  REQUIRE(result.cancelled);
  REQUIRE(result.merges.size() == 3);
  REQUIRE(seen == std::vector<size_t>{1, 2, 3});
}

TEST_CASE("BPE trainer: a trained tokenizer round-trips text and saves and loads", "[tokenizer]") {
  std::string corpus;
  for (int i = 0; i < 50; ++i) corpus += "low lower lowest newer newest wider widest\n";
  BpeTrainerOptions options = Options(300, PreTokenizerPattern::kO200k);
  options.special_tokens = {"<|endoftext|>"};
  const auto result = TrainBpe(corpus, options);
  REQUIRE(result.vocabulary.size() > 256);
  const embedlab::Tokenizer tokenizer(result.vocabulary, result.pattern, result.special_tokens, "mine");
  const std::string text = "the lowest and the newest\xFF widest";
  REQUIRE(tokenizer.DecodeBytes(tokenizer.EncodeOrdinary(text)) == text);
  REQUIRE(tokenizer.EncodeOrdinary(" lowest").size() == 1);  // a whole word of the corpus

  const std::string file = embedlab::SaveTokenizerFile(tokenizer);
  REQUIRE(file.rfind("#embedlab-bpe {", 0) == 0);
  const embedlab::Tokenizer loaded = embedlab::LoadTokenizerFile(file);
  REQUIRE(loaded.pattern_name() == "o200k");
  REQUIRE(loaded.encoding_name() == "mine");
  REQUIRE(loaded.vocab_size() == tokenizer.vocab_size());
  REQUIRE(loaded.Encode(text + "<|endoftext|>", embedlab::SpecialTokenPolicy::AllowAll()) ==
          tokenizer.Encode(text + "<|endoftext|>", embedlab::SpecialTokenPolicy::AllowAll()));
  REQUIRE_THROWS_WITH(embedlab::LoadTokenizerFile("IQ== 0\n"), Catch::Contains("#embedlab-bpe"));
}

TEST_CASE("BPE trainer: argument errors", "[tokenizer]") {
  REQUIRE_THROWS_AS(TrainBpe("x", Options(255)), std::out_of_range);
  REQUIRE_THROWS_WITH(TrainBpe("x", Options(255)), Catch::Contains("vocabSize"));
  BpeTrainerOptions twice = Options(300);
  twice.special_tokens = {"<|a|>", "<|a|>"};
  REQUIRE_THROWS_WITH(TrainBpe("x", twice), Catch::Contains("twice"));
}

namespace {

// The textbook trainer: recount every pair of every piece occurrence before each merge. Slow and obvious.
std::vector<BpeMerge> NaiveMerges(const std::string& corpus, size_t vocab_size, PreTokenizerPattern pattern) {
  std::vector<std::vector<uint32_t>> words;
  for (const auto& span : embedlab::SplitIntoPieces(corpus, pattern)) {
    std::vector<uint32_t> word;
    for (size_t i = span.start; i < span.end; ++i) word.push_back(static_cast<uint8_t>(corpus[i]));
    words.push_back(word);
  }
  std::vector<std::string> bytes;
  for (int b = 0; b < 256; ++b) bytes.push_back(std::string(1, static_cast<char>(b)));
  std::vector<BpeMerge> merges;
  while (bytes.size() < vocab_size) {
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> counts;
    for (const auto& w : words) {
      for (size_t i = 0; i + 1 < w.size(); ++i) ++counts[{w[i], w[i + 1]}];
    }
    if (counts.empty()) break;
    auto best = counts.begin();  // map order: lowest (left, right) first, so ">" keeps the first maximum
    for (auto it = counts.begin(); it != counts.end(); ++it) {
      if (it->second > best->second) best = it;
    }
    const auto [left, right] = best->first;
    const std::string token = bytes[left] + bytes[right];
    auto found = std::find(bytes.begin(), bytes.end(), token);
    const auto id = static_cast<uint32_t>(found - bytes.begin());
    if (found == bytes.end()) bytes.push_back(token);
    merges.push_back({left, right, id, best->second});
    for (auto& w : words) {
      std::vector<uint32_t> merged;
      for (size_t i = 0; i < w.size();) {
        if (i + 1 < w.size() && w[i] == left && w[i + 1] == right) {
          merged.push_back(id);
          i += 2;
        } else {
          merged.push_back(w[i++]);
        }
      }
      w = merged;
    }
  }
  return merges;
}

}  // namespace

TEST_CASE("BPE trainer: same merges as the textbook trainer on random corpora", "[tokenizer]") {
  embedlab::Prng prng(17);
  const std::vector<std::string> alphabet = {"a", "b", "c", "ab", " ", " a", "\n", "'s", "1", "\xC3\xA9"};
  for (int trial = 0; trial < 40; ++trial) {
    std::string corpus;
    const int length = 20 + static_cast<int>(prng.NextU32() % 400);
    for (int i = 0; i < length; ++i) corpus += alphabet[prng.NextU32() % alphabet.size()];
    const auto pattern = (trial % 2 == 0) ? PreTokenizerPattern::kGpt2 : PreTokenizerPattern::kO200k;
    const size_t vocab_size = 256 + prng.NextU32() % 120;
    const auto fast = TrainBpe(corpus, Options(vocab_size, pattern)).merges;
    const auto naive = NaiveMerges(corpus, vocab_size, pattern);
    REQUIRE(fast.size() == naive.size());
    for (size_t i = 0; i < fast.size(); ++i) {
      INFO("trial " << trial << " merge " << i);
      REQUIRE(Same(fast[i], naive[i].left, naive[i].right, naive[i].id, naive[i].count));
    }
  }
}

TEST_CASE("BPE trainer: training in steps gives the same merges", "[tokenizer]") {
  std::string corpus;
  for (int i = 0; i < 20; ++i) corpus += "the theme of these thermal themes is the theory\n";
  const auto whole = TrainBpe(corpus, Options(320, PreTokenizerPattern::kCl100k));
  auto trainer = std::make_unique<embedlab::BpeTrainer>(std::string(corpus),  // a temporary corpus
                                                        Options(320, PreTokenizerPattern::kCl100k));
  REQUIRE(trainer->merges_wanted() == 64);
  size_t steps = 0;
  while (trainer->Step(5) > 0) ++steps;
  REQUIRE(trainer->done());
  REQUIRE(steps >= whole.merges.size() / 5);
  const auto stepped = trainer->TakeResult();
  REQUIRE(stepped.merges.size() == whole.merges.size());
  for (size_t i = 0; i < whole.merges.size(); ++i) {
    REQUIRE(Same(stepped.merges[i], whole.merges[i].left, whole.merges[i].right, whole.merges[i].id,
                 whole.merges[i].count));
  }
  REQUIRE(stepped.exhausted == whole.exhausted);
  REQUIRE(trainer->Step(5) == 0);  // empty after TakeResult
}

TEST_CASE("BPE trainer: long runs of one byte stop at the token-length limit instead of failing", "[tokenizer]") {
  // "xxxx..." (2000 bytes, one piece) keeps doubling x, xx, xxxx, ... until a merge would pass 255 bytes.
  const std::string corpus(2000, 'x');
  embedlab::BpeTrainerOptions options;
  options.vocab_size = 300;
  embedlab::BpeTrainingResult result = embedlab::TrainBpe(corpus, options);
  size_t longest = 0;
  for (const embedlab::BpeMerge& merge : result.merges)
    longest = std::max(longest, result.vocabulary.Bytes(merge.id).size());
  REQUIRE(longest <= embedlab::Vocabulary::kMaxTokenBytes);
  REQUIRE(longest >= 128);  // it got as far as the limit allows
  embedlab::Tokenizer tokenizer(std::move(result.vocabulary), result.pattern, result.special_tokens, "runs");
  REQUIRE(tokenizer.DecodeBytes(tokenizer.EncodeOrdinary(corpus)) == corpus);
}
