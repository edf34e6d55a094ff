// A byte-level BPE tokenizer, byte-exact with tiktoken: pre-tokenizer pattern -> pieces -> rank-based
// merges, with tiktoken's special-token rules. Immutable after construction, but for a cache of the pieces
// it has encoded (bpe/piece_cache.h), which never changes results; const methods are safe to call from
// several threads at once.
#ifndef EMBEDLAB_BPE_TOKENIZER_H_
#define EMBEDLAB_BPE_TOKENIZER_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bpe/piece_cache.h"
#include "bpe/short_token_table.h"
#include "bpe/special_tokens.h"
#include "bpe/vocabulary.h"
#include "text/pre_tokenizer.h"

namespace embedlab {

// Tokens with their byte spans in the input: token i covers [starts[i], ends[i]). Spans tile the input.
struct EncodedTokens {
  std::vector<uint32_t> ids;
  std::vector<uint32_t> starts;
  std::vector<uint32_t> ends;
};

class Tokenizer {
 public:
  // A .tiktoken file's contents plus a named encoding (gpt2, r50k_base, p50k_base, p50k_edit, cl100k_base,
  // o200k_base), which fixes the pattern and the special tokens. Throws std::invalid_argument.
  static Tokenizer FromTiktoken(std::string_view tiktoken_file, std::string_view encoding_name);
  // The same from a vocabulary of any source (the package ships them in binary form, for start-up).
  static Tokenizer ForEncoding(Vocabulary vocabulary, std::string_view encoding_name);

  // Any vocabulary (e.g. a trained one). Every single byte must be a token, and no special token id may
  // be a rank of the vocabulary; otherwise throws std::invalid_argument.
  Tokenizer(Vocabulary vocabulary, PreTokenizerPattern pattern, std::vector<SpecialToken> special_tokens,
            std::string encoding_name);

  // Text is bytes: UTF-8 normally, but any bytes are accepted and round-trip (see text/utf8.h).
  // Throws std::invalid_argument when a disallowed special token appears, naming it.
  std::vector<uint32_t> Encode(std::string_view text, const SpecialTokenPolicy& policy = {}) const;
  // Special-token text is ordinary text.
  std::vector<uint32_t> EncodeOrdinary(std::string_view text) const;
  EncodedTokens EncodeWithSpans(std::string_view text, const SpecialTokenPolicy& policy = {}) const;

  // Throws std::out_of_range naming the position and value of an unknown id and the valid range.
  std::string DecodeBytes(const std::vector<uint32_t>& ids) const;
  std::string DecodeBytes(const uint32_t* ids, size_t count) const;
  // DecodeBytes into a buffer the caller keeps: writes from buffer->data(), grows the buffer when needed
  // (never shrinks it) and returns the byte count, which may be less than buffer->size().
  size_t DecodeInto(const uint32_t* ids, size_t count, std::string* buffer) const;
  std::string TokenBytes(uint32_t id) const;

  // One past the largest id, special tokens included (tiktoken's n_vocab).
  size_t vocab_size() const { return vocab_size_; }
  std::string pattern_name() const { return PatternName(pattern_); }
  PreTokenizerPattern pattern() const { return pattern_; }
  const std::string& encoding_name() const { return encoding_name_; }
  const std::vector<SpecialToken>& special_tokens() const { return special_tokens_.tokens(); }
  const Vocabulary& vocabulary() const { return vocabulary_; }

  // The piece cache: how many pieces it holds and the bytes it has allocated (at most
  // PieceCache::kMaxPieces and PieceCache::kMaxBytes); ClearCache forgets them and frees the memory.
  struct CacheSize {
    size_t pieces;
    size_t bytes;
  };
  CacheSize cache_size() const;
  void ClearCache() const;

 private:
  // The cache with a flag that serialises its use: an encode that finds it taken by another thread encodes
  // without it, rather than wait. A flag, not std::mutex, whose std::system_error costs the wasm module ~5 kB.
  struct SharedPieceCache {
    std::atomic<bool> busy{false};
    PieceCache cache;
  };
  class CacheUse;  // tokenizer.cc

  void EncodeInto(std::string_view text, const SpecialTokenPolicy& policy, std::vector<uint32_t>* ids,
                  std::vector<uint32_t>* ends) const;
  // Not inlined into EncodeInto on purpose: EncodeInto has locals with destructors, and with JS-based wasm
  // exceptions every possibly-throwing call in such a function goes through a JS trampoline.
  __attribute__((noinline)) void EncodeOrdinaryInto(std::string_view text, size_t base, PieceCache* cache,
                                                    std::vector<uint32_t>* ids, std::vector<uint32_t>* ends) const;

  [[noreturn]] void ThrowUnknownId(size_t index, uint32_t id) const;

  Vocabulary vocabulary_;
  ShortTokenTable short_tokens_;  // for decoding
  PreTokenizerPattern pattern_;
  PieceScanner next_piece_;
  SpecialTokenSet special_tokens_;
  std::string encoding_name_;
  size_t vocab_size_ = 0;
  std::unique_ptr<SharedPieceCache> cache_ = std::make_unique<SharedPieceCache>();
};

}  // namespace embedlab

#endif  // EMBEDLAB_BPE_TOKENIZER_H_
