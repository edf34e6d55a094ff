// The decoders of a tokenizer.json this core runs, on token strings as the Rust crate chains them: ByteLevel,
// Replace (a literal pattern), ByteFallback, Fuse, Strip, Metaspace, and Sequence of them (flattened); then
// transformers' clean_up_tokenization_spaces when asked. Others are refused by name.
#ifndef EMBEDLAB_HF_DECODER_H_
#define EMBEDLAB_HF_DECODER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "text/json_value.h"

namespace embedlab {

struct DecoderStep {
  enum class Kind : uint8_t { kByteLevel = 0, kReplace = 1, kByteFallback = 2, kFuse = 3, kStrip = 4, kMetaspace = 5 };
  Kind kind;
  std::string pattern;    // Replace
  std::string content;    // Replace: the replacement; Strip: the character to strip; Metaspace: the replacement
  uint32_t start = 0;     // Strip: at most this many characters from the start
  uint32_t stop = 0;      // Strip: and from the end
  bool prepended = true;  // Metaspace: prepend_scheme is not "never" (the first token loses its replacements)
};

class Decoder {
 public:
  Decoder() = default;
  explicit Decoder(std::vector<DecoderStep> steps) : steps_(std::move(steps)) {}
  static Decoder FromJson(const JsonValue& json, const std::string& path);

  const std::vector<DecoderStep>& steps() const { return steps_; }
  // The text of the token strings (no decoder: joined with spaces, as the Rust crate does).
  std::string Decode(std::vector<std::string> tokens) const;
  // What one token stands for alone: byte-level characters mapped back, Replace applied, <0xNN> as its byte.
  std::string TokenBytes(std::string_view token) const;

 private:
  std::vector<DecoderStep> steps_;
};

// transformers' clean_up_tokenization: " ." -> "." and the like, in its order (ten replace-alls, one after the other;
// done in one pass where that gives the same text).
std::string CleanUpTokenizationSpaces(std::string text);
// The ten replace-alls one after the other, as transformers runs them (exposed for tests).
std::string CleanUpTokenizationSpacesInTurn(std::string text);
// Every occurrence of pattern (non-empty) replaced, left to right.
std::string ReplaceAll(std::string_view text, std::string_view pattern, std::string_view content);
// The byte of a "<0xNN>" token as the Rust crate's ByteFallback reads it, or -1.
int FallbackByte(std::string_view token);
// A token's bytes under the ByteLevel decoder: its characters mapped back, or its own UTF-8 when one is not in
// the alphabet.
void AppendByteLevelBytes(std::string_view token, std::string* out);
// UTF-8 with each maximal invalid subsequence replaced by U+FFFD (Rust's from_utf8_lossy, WHATWG's decoder).
std::string LossyUtf8(std::string_view bytes);

}  // namespace embedlab

#endif  // EMBEDLAB_HF_DECODER_H_
