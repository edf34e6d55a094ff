// Decoding as one copy per id: each token's decoded bytes in a table built from the decoder chain, where the
// chain allows it: Replace steps (per token), then ByteLevel (the bytes joined, one lossy UTF-8 pass only where
// they are invalid), or ByteFallback then Fuse (a lossy pass only over runs of <0xNN> bytes that are invalid UTF-8),
// or Fuse, or nothing more; then any steps on the one joined text (Strip, which looks at its ends only, …). The
// result is Decoder::Decode's to the byte; HfTokenizer::Decode uses Decoder::Decode for any other chain.
#ifndef EMBEDLAB_HF_DECODE_TABLE_H_
#define EMBEDLAB_HF_DECODE_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hf/decoder.h"

namespace embedlab {

class HfTokenizerImpl;

class DecodeTable {
 public:
  // Null when the chain is not one the table can run.
  static std::unique_ptr<DecodeTable> Build(const HfTokenizerImpl& impl);

  // The decoded text without the clean-up. Throws std::out_of_range, as HfTokenizer::Decode, for an unknown id.
  std::string Decode(const uint32_t* ids, size_t count, bool skip_special_tokens, const HfTokenizerImpl& impl) const;
  size_t bytes() const { return bytes_.capacity() + offsets_.capacity() * sizeof(uint32_t) + flags_.capacity(); }

 private:
  enum class Join : uint8_t { kConcat, kByteLevel, kByteFallback };
  enum Flag : uint8_t { kKnown = 1, kSpecial = 2, kFallbackByte = 4 };

  Join join_ = Join::kConcat;
  Decoder rest_;                   // the steps after the join, on one text
  std::vector<uint32_t> offsets_;  // id -> its bytes: bytes_[offsets_[id], offsets_[id + 1])
  std::string bytes_;
  std::vector<uint8_t> flags_;  // by id
};

}  // namespace embedlab

#endif  // EMBEDLAB_HF_DECODE_TABLE_H_
