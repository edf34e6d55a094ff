// Byte-level BPE training: start from the 256 single bytes and repeatedly add the most frequent adjacent
// pair of tokens as a new token, counting pairs only inside the pieces of a pre-tokenizer pattern (so
// merges never cross a word boundary), as OpenAI's vocabularies were built.
//
// Pair counts are kept up to date incrementally: a merge rewrites only the distinct pieces that contain
// the pair (found through a pair -> pieces index) and adjusts the counts of the pairs it destroys and
// creates; a max-heap with lazy deletion yields the next pair. No full rescan per merge.
//
// Tie-breaking (deterministic): the highest count wins; among equal counts, the pair whose left token has
// the lowest id, then the pair whose right token has the lowest id. Within a piece, occurrences merge left
// to right without overlap ("aaa" with pair (a, a) becomes "aa" + "a"). A pair whose merged token would be
// longer than Vocabulary::kMaxTokenBytes (255) is never merged.
#ifndef EMBEDLAB_BPE_BPE_TRAINER_H_
#define EMBEDLAB_BPE_BPE_TRAINER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bpe/special_tokens.h"
#include "bpe/vocabulary.h"
#include "text/pre_tokenizer.h"

namespace embedlab {

struct BpeMerge {
  uint32_t left;
  uint32_t right;
  uint32_t id;     // the new token's id (= rank)
  uint64_t count;  // occurrences of the pair in the corpus when it was merged
};

struct BpeTrainingProgress {
  size_t merges_done;
  size_t merges_wanted;
  const BpeMerge* last_merge;   // null before the first merge
  std::string_view last_token;  // bytes of the token just made
};

struct BpeTrainerOptions {
  // Ordinary tokens wanted, the 256 single bytes included; in [256, kMaxVocabSize].
  size_t vocab_size = 256;
  PreTokenizerPattern pattern = PreTokenizerPattern::kO200k;
  // Get ids vocab_size, vocab_size + 1, ... Their text in the corpus is skipped, not learned.
  std::vector<std::string> special_tokens;
  // Called after every `progress_interval` merges and once at the end; returning false cancels training.
  std::function<bool(const BpeTrainingProgress&)> on_progress;
  size_t progress_interval = 1;
};

struct BpeTrainingResult {
  Vocabulary vocabulary;
  std::vector<SpecialToken> special_tokens;
  PreTokenizerPattern pattern;
  std::vector<BpeMerge> merges;
  bool cancelled = false;  // stopped by on_progress; the vocabulary holds the merges made so far
  bool exhausted = false;  // stopped early because no adjacent pair was left
};

// Training in steps, so that a caller on a UI thread can yield between them (the page trains on the
// main thread in slices) and show each merge as it happens.
class BpeTrainer {
 public:
  // Pre-tokenizes the corpus and counts its pairs; the corpus need not outlive the constructor.
  // Throws std::out_of_range for a vocab_size outside [256, kMaxVocabSize] and std::invalid_argument for
  // an empty or duplicate special token.
  BpeTrainer(std::string_view corpus, const BpeTrainerOptions& options);
  ~BpeTrainer();
  BpeTrainer(BpeTrainer&&) noexcept;
  BpeTrainer& operator=(BpeTrainer&&) noexcept;

  // Makes up to max_merges merges; returns how many it made (0 once done()).
  size_t Step(size_t max_merges);
  // The wanted vocabulary size is reached, or no adjacent pair is left (exhausted()).
  bool done() const;
  bool exhausted() const;
  size_t merges_wanted() const;
  const std::vector<BpeMerge>& merges() const;
  const Vocabulary& vocabulary() const;
  // The vocabulary so far, with the special tokens; leaves the trainer empty.
  BpeTrainingResult TakeResult();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Trains to completion (or cancellation through options.on_progress).
BpeTrainingResult TrainBpe(std::string_view corpus, const BpeTrainerOptions& options);

}  // namespace embedlab

#endif  // EMBEDLAB_BPE_BPE_TRAINER_H_
