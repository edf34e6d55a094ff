#include "bpe/bpe_trainer.h"

#include <algorithm>
#include <queue>
#include <stdexcept>
#include <unordered_map>

#include "errors/argument_checks.h"

namespace embedlab {
namespace {

uint64_t PairKey(uint32_t left, uint32_t right) { return (static_cast<uint64_t>(left) << 32) | right; }

// A distinct piece of the corpus as a sequence of token ids, with how often the piece occurs.
struct Word {
  uint32_t start;   // in TrainingState::symbols
  uint32_t length;  // shrinks as merges apply
  uint64_t count;
};

struct HeapEntry {
  uint64_t count;
  uint32_t left;
  uint32_t right;
};

// Max-heap order: higher count first, then lower left id, then lower right id.
struct HeapOrder {
  bool operator()(const HeapEntry& a, const HeapEntry& b) const {
    if (a.count != b.count) return a.count < b.count;
    if (a.left != b.left) return a.left > b.left;
    return a.right > b.right;
  }
};

// Per pair: its current count, the largest count among its heap entries (0 when none is current), and the
// pieces that contained it when it was counted (some may no longer contain it).
struct PairStats {
  int64_t count = 0;
  int64_t pushed = 0;
  std::vector<uint32_t> pieces;
};

class TrainingState {
 public:
  void AddPiece(std::string_view piece) {
    auto [it, inserted] = word_of_piece_.try_emplace(piece, static_cast<uint32_t>(words_.size()));
    if (inserted) {
      words_.push_back({static_cast<uint32_t>(symbols_.size()), static_cast<uint32_t>(piece.size()), 0});
      for (unsigned char c : piece) symbols_.push_back(c);
    }
    ++words_[it->second].count;
  }

  void CountAllPairs() {
    word_of_piece_ = {};  // its keys point into the corpus, which need not outlive the trainer
    word_stamp_.assign(words_.size(), 0);
    for (uint32_t w = 0; w < words_.size(); ++w) AddWordPairs(w, +1);
    PushIncreasedPairs();
  }

  // Pops the best pair (see the tie-breaking rule in the header); false when no pair is left. The heap is
  // lazy: an entry whose count is stale is re-pushed with the current count, or dropped at zero.
  bool PopBest(HeapEntry* best) {
    while (!heap_.empty()) {
      const HeapEntry top = heap_.top();
      heap_.pop();
      PairStats& stats = pairs_[PairKey(top.left, top.right)];
      if (stats.count <= 0) {
        stats.pushed = 0;
        continue;
      }
      if (static_cast<uint64_t>(stats.count) != top.count) {
        heap_.push({static_cast<uint64_t>(stats.count), top.left, top.right});
        stats.pushed = stats.count;
        continue;
      }
      stats.pushed = 0;  // merging sets its count to zero
      *best = top;
      return true;
    }
    return false;
  }

  // Rewrites every piece that contains (left, right), putting merged in its place, left to right.
  void ApplyMerge(uint32_t left, uint32_t right, uint32_t merged) {
    const std::vector<uint32_t> candidates = std::move(pairs_[PairKey(left, right)].pieces);
    ++merge_stamp_;
    for (uint32_t w : candidates) {
      if (word_stamp_[w] == merge_stamp_) continue;  // listed twice
      word_stamp_[w] = merge_stamp_;
      Word& word = words_[w];
      uint32_t* s = symbols_.data() + word.start;
      bool present = false;
      for (uint32_t i = 0; i + 1 < word.length && !present; ++i) present = (s[i] == left && s[i + 1] == right);
      if (!present) continue;
      // Pieces are short: removing all their pairs and adding the new ones back is simpler than patching
      // neighbours, and costs the same order of work.
      AddWordPairs(w, -1);
      uint32_t out = 0;
      for (uint32_t i = 0; i < word.length; ++out) {
        if (i + 1 < word.length && s[i] == left && s[i + 1] == right) {
          s[out] = merged;
          i += 2;
        } else {
          s[out] = s[i++];
        }
      }
      word.length = out;
      AddWordPairs(w, +1);
    }
    PushIncreasedPairs();
  }

 private:
  // Adds (sign +1) or removes (sign -1) the pairs of one piece, weighted by its count.
  void AddWordPairs(uint32_t w, int sign) {
    const Word& word = words_[w];
    const uint32_t* s = symbols_.data() + word.start;
    for (uint32_t i = 0; i + 1 < word.length; ++i) {
      const uint64_t key = PairKey(s[i], s[i + 1]);
      PairStats& stats = pairs_[key];
      stats.count += sign * static_cast<int64_t>(word.count);
      if (sign > 0) {
        if (stats.pieces.empty() || stats.pieces.back() != w) stats.pieces.push_back(w);
        increased_.push_back(key);
      }
    }
  }

  // Keeps the heap's invariant: every pair with a positive count has an entry at least as large.
  void PushIncreasedPairs() {
    for (uint64_t key : increased_) {
      PairStats& stats = pairs_[key];
      if (stats.count > stats.pushed) {
        heap_.push({static_cast<uint64_t>(stats.count), static_cast<uint32_t>(key >> 32), static_cast<uint32_t>(key)});
        stats.pushed = stats.count;
      }
    }
    increased_.clear();
  }

  std::unordered_map<std::string_view, uint32_t> word_of_piece_;
  std::vector<Word> words_;
  std::vector<uint32_t> symbols_;
  std::unordered_map<uint64_t, PairStats> pairs_;
  std::priority_queue<HeapEntry, std::vector<HeapEntry>, HeapOrder> heap_;
  std::vector<uint64_t> increased_;
  std::vector<uint32_t> word_stamp_;
  uint32_t merge_stamp_ = 0;
};

}  // namespace

struct BpeTrainer::State {
  TrainingState counts;
  BpeTrainingResult result;
  size_t vocab_size = 256;
  uint32_t next_id = 256;
};

BpeTrainer::BpeTrainer(std::string_view corpus, const BpeTrainerOptions& options) : state_(std::make_unique<State>()) {
  RequireInRange("vocabSize", static_cast<int64_t>(options.vocab_size), 256, kMaxVocabSize);
  BpeTrainingResult& result = state_->result;
  state_->vocab_size = options.vocab_size;
  result.pattern = options.pattern;
  for (size_t i = 0; i < options.special_tokens.size(); ++i) {
    const std::string& text = options.special_tokens[i];
    if (text.empty()) throw std::invalid_argument("specialTokens: a special token must not be empty");
    for (const SpecialToken& t : result.special_tokens) {
      if (t.text == text) throw std::invalid_argument("specialTokens: '" + text + "' is listed twice");
    }
    result.special_tokens.push_back({text, static_cast<uint32_t>(options.vocab_size + i)});
  }
  for (int b = 0; b < 256; ++b) {
    result.vocabulary.Add(std::string(1, static_cast<char>(b)), static_cast<uint32_t>(b));
  }
  // Pieces of the corpus, with special-token text cut out.
  const PieceScanner next_piece = ScannerFor(options.pattern);
  std::vector<const SpecialToken*> specials;
  for (const SpecialToken& t : result.special_tokens) specials.push_back(&t);
  SpecialTokenFinder finder(corpus, specials);
  for (size_t pos = 0;;) {
    size_t special_start = 0;
    const SpecialToken* special = finder.Next(pos, &special_start);
    const std::string_view segment = corpus.substr(pos, (special ? special_start : corpus.size()) - pos);
    for (size_t start = 0; start < segment.size();) {
      const size_t end = next_piece(segment, start);
      state_->counts.AddPiece(segment.substr(start, end - start));
      start = end;
    }
    if (special == nullptr) break;
    pos = special_start + special->text.size();
  }
  state_->counts.CountAllPairs();
}

BpeTrainer::~BpeTrainer() = default;
BpeTrainer::BpeTrainer(BpeTrainer&&) noexcept = default;
BpeTrainer& BpeTrainer::operator=(BpeTrainer&&) noexcept = default;

size_t BpeTrainer::Step(size_t max_merges) {
  State& s = *state_;
  size_t made = 0;
  std::string token;
  while (made < max_merges && !done()) {
    HeapEntry best;
    if (!s.counts.PopBest(&best)) {
      s.result.exhausted = true;
      break;
    }
    const std::string_view left = s.result.vocabulary.Bytes(best.left);
    const std::string_view right = s.result.vocabulary.Bytes(best.right);
    // A token longer than the vocabulary allows is never made; the pair stays out of the heap for good
    // unless its count grows again, and is skipped again then.
    if (left.size() + right.size() > Vocabulary::kMaxTokenBytes) continue;
    token.assign(left);
    token.append(right);
    // Two merge paths can spell the same bytes ("ab"+"c", "a"+"bc"); the bytes keep their first id.
    uint32_t id = s.result.vocabulary.Rank(token);
    if (id == Vocabulary::kNoRank) {
      id = s.next_id++;
      s.result.vocabulary.Add(token, id);
    }
    s.result.merges.push_back({best.left, best.right, id, best.count});
    s.counts.ApplyMerge(best.left, best.right, id);
    ++made;
  }
  return made;
}

bool BpeTrainer::done() const { return state_->next_id >= state_->vocab_size || state_->result.exhausted; }
bool BpeTrainer::exhausted() const { return state_->result.exhausted; }
size_t BpeTrainer::merges_wanted() const { return state_->vocab_size - 256; }
const std::vector<BpeMerge>& BpeTrainer::merges() const { return state_->result.merges; }
const Vocabulary& BpeTrainer::vocabulary() const { return state_->result.vocabulary; }

BpeTrainingResult BpeTrainer::TakeResult() {
  BpeTrainingResult result = std::move(state_->result);
  state_ = std::make_unique<State>();
  state_->result.exhausted = true;  // an empty trainer has nothing left to do
  return result;
}

BpeTrainingResult TrainBpe(std::string_view corpus, const BpeTrainerOptions& options) {
  RequireInRange("progressInterval", static_cast<int64_t>(options.progress_interval), 1, INT32_MAX);
  BpeTrainer trainer(corpus, options);
  bool cancelled = false;
  size_t reported = static_cast<size_t>(-1);
  for (;;) {
    const size_t made = trainer.Step(options.progress_interval);
    const std::vector<BpeMerge>& merges = trainer.merges();
    if (options.on_progress && (made > 0 || reported != merges.size())) {
      reported = merges.size();
      const BpeMerge* last = merges.empty() ? nullptr : &merges.back();
      const std::string_view token = last ? trainer.vocabulary().Bytes(last->id) : std::string_view();
      if (!options.on_progress({merges.size(), trainer.merges_wanted(), last, token}) && !trainer.done()) {
        cancelled = true;
        break;
      }
    }
    if (made == 0 || trainer.done()) break;
  }
  BpeTrainingResult result = trainer.TakeResult();
  result.cancelled = cancelled;
  return result;
}

}  // namespace embedlab
