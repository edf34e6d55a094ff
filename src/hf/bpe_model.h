// The BPE model of a tokenizer.json (model.type "BPE") as the Rust crate runs it on one pre-token: each character
// (each byte, for byte-level vocabularies) becomes its token, or its <0xNN> byte tokens (byte_fallback), or the
// unknown token (fused with the one before when fuse_unk); then the merges run (bpe_word.h). ignore_merges: a
// pre-token that is itself in the vocabulary is that one token. Results are cached per pre-token.
#ifndef EMBEDLAB_HF_BPE_MODEL_H_
#define EMBEDLAB_HF_BPE_MODEL_H_

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "bpe/piece_cache.h"
#include "hf/bpe_word.h"
#include "hf/merge_table.h"
#include "hf/token_table.h"

namespace embedlab {

struct BpeOptions {
  bool byte_level = false;  // pre-tokens are raw bytes; the vocabulary writes them in GPT-2's alphabet
  bool ignore_merges = false;
  bool byte_fallback = false;
  bool fuse_unk = false;
  uint32_t unk_id = TokenTable::kNone;
};

// Thrown by BpeModel::Tokenize for a part longer than BpeModel::kMaxMergedBytes: its start (as Tokenize's base
// counts) and length; the encoder names the input's byte.
struct PieceTooLong {
  uint32_t start;
  size_t length;
};

class BpeModel {
 public:
  // The merge loop over one part holds about 60 bytes per byte of it: a longer part (a run no pre-tokenizer or cut
  // splits, e.g. megabytes of spaces) is refused (PieceTooLong) rather than filling the wasm heap.
  static constexpr size_t kMaxMergedBytes = size_t{8} << 20;

  TokenTable& vocab() { return vocab_; }
  const TokenTable& vocab() const { return vocab_; }
  MergeTable& merges() { return merges_; }
  const MergeTable& merges() const { return merges_; }
  const BpeOptions& options() const { return options_; }
  // After the vocabulary and merges are in: fixes the options and builds the lookup tables.
  void Finish(const BpeOptions& options);

  // The piece cache for one encode, taken once by one thread with an atomic flag (as src/bpe's Tokenizer does):
  // an encode that finds it taken encodes without it rather than wait; wait: cache_size and ClearCache.
  class CacheUse {
   public:
    explicit CacheUse(const BpeModel& model, bool wait = false);
    ~CacheUse();
    CacheUse(const CacheUse&) = delete;
    CacheUse& operator=(const CacheUse&) = delete;
    PieceCache* cache() const { return model_ != nullptr ? &model_->cache_ : nullptr; }

   private:
    const BpeModel* model_ = nullptr;
  };
  // The pieces the cache holds and the bytes it has allocated; ClearCache forgets them and frees the memory.
  struct CacheSize {
    size_t pieces;
    size_t bytes;
  };
  CacheSize cache_size() const;
  void ClearCache() const;

  // Appends the tokens of one pre-token: ids, and when starts is not null each token's byte span in the
  // pre-token plus base (byte_fallback tokens of one character all get the character's span). cache: from a
  // CacheUse, or null.
  void Tokenize(std::string_view piece, uint32_t base, PieceCache* cache, std::vector<uint32_t>* ids,
                std::vector<uint32_t>* starts, std::vector<uint32_t>* ends) const;
  // Whether a pre-token may be cut at pos (0 < pos < size) with the same tokens as a whole: piece[pos] starts the
  // cut character ("▁") and no merge joins across (FindCutCharacter). Always false without a cut character.
  bool CanCutBefore(std::string_view piece, size_t pos) const {
    return !cut_character_.empty() && pos > 0 && piece.substr(pos, cut_character_.size()) == cut_character_ &&
           CanCutAfter(piece, pos);
  }

 private:
  void TokenizeUncached(std::string_view piece, std::vector<BpeSymbol>* symbols) const;
  void InitialSymbols(std::string_view piece, std::vector<BpeSymbol>* symbols) const;
  void TokenizePart(std::string_view piece, uint32_t base, PieceCache* cache, std::vector<uint32_t>* ids,
                    std::vector<uint32_t>* starts, std::vector<uint32_t>* ends) const;
  void TokenizeCut(std::string_view piece, uint32_t base, PieceCache* cache, std::vector<uint32_t>* ids,
                   std::vector<uint32_t>* starts, std::vector<uint32_t>* ends) const;
  void FindCutCharacter();

  TokenTable vocab_;
  MergeTable merges_;
  BpeOptions options_;
  std::array<uint32_t, 256> unit_ids_{};      // the token of each byte (byte-level) or ASCII character
  std::array<uint32_t, 256> fallback_ids_{};  // <0xNN>
  bool all_fallback_ = false;                 // every <0xNN> is a token
  // A long pre-token may be cut before this character where no merge can join across the cut
  // (FindCutCharacter): SentencePiece-style models whose text is one pre-token ("▁" before each word).
  std::string cut_character_;
  // Not after these characters: a merge joins a token ending with one to a token starting with the cut character.
  std::vector<uint32_t> no_cut_after_;
  bool CanCutAfter(std::string_view piece, size_t pos) const;
  // A piece's entry: its n ids, then its tokens' spans in the piece as bytes (start, end), two tokens per word
  // (a cached piece has at most 255 bytes): n + ceil(n / 2) words, about half of three words per token.
  mutable std::atomic<bool> cache_busy_{false};
  mutable PieceCache cache_;
};

}  // namespace embedlab

#endif  // EMBEDLAB_HF_BPE_MODEL_H_
