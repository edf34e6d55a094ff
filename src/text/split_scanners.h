// The scanners behind split_patterns.h that pre_tokenizer.h does not already have. Internal to src/text.
#ifndef EMBEDLAB_TEXT_SPLIT_SCANNERS_H_
#define EMBEDLAB_TEXT_SPLIT_SCANNERS_H_

#include <cstddef>
#include <string_view>

namespace embedlab {

// Qwen's pattern tiles the text like cl100k's: the end of the piece that starts at start (start < text.size()).
size_t NextQwenPiece(std::string_view text, size_t start) noexcept;

// DeepSeek V3's patterns do not tile: each finds the leftmost match at or after from.
bool FindDeepSeekDigits(std::string_view text, size_t from, size_t* match_start, size_t* match_end) noexcept;
bool FindDeepSeekCjk(std::string_view text, size_t from, size_t* match_start, size_t* match_end) noexcept;
bool FindDeepSeekWords(std::string_view text, size_t from, size_t* match_start, size_t* match_end) noexcept;

}  // namespace embedlab

#endif  // EMBEDLAB_TEXT_SPLIT_SCANNERS_H_
