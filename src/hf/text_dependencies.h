// What src/hf needs from src/text beyond the existing headers: NFC with an alignment, and the split-pattern
// matchers. INTERIM: declared here, with the signatures src/text/unicode_normalization.h and
// src/text/split_patterns.h will have, until those land; then this file only includes them and
// interim_text.cc goes.
#ifndef EMBEDLAB_HF_TEXT_DEPENDENCIES_H_
#define EMBEDLAB_HF_TEXT_DEPENDENCIES_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace embedlab {

// out_to_source: out->size() + 1 non-decreasing source byte offsets.
void NormalizeNfc(std::string_view text, std::string* out, std::vector<uint32_t>* out_to_source);

// The leftmost match at or after from, JS/Oniguruma semantics; false when there is none.
using SplitMatcher = bool (*)(std::string_view text, size_t from, size_t* match_start, size_t* match_end) noexcept;
// The matcher of one of the known regexes (exact string), or nullptr.
SplitMatcher FindSplitMatcher(std::string_view regex);
// The ByteLevel pre-tokenizer's own regex (GPT-2's).
SplitMatcher ByteLevelMatcher();

}  // namespace embedlab

#endif  // EMBEDLAB_HF_TEXT_DEPENDENCIES_H_
