// The split regexes of Hugging Face tokenizer.json files that embedlab knows, each matched by a hand-written
// scanner over code points (no regex engine). A tokenizer.json names its regex as a string; FindSplitMatcher
// maps the exact string to its scanner, so an unknown regex is refused rather than approximated.
//
// Semantics are those of the Rust `tokenizers` crate (Oniguruma): \s is White_Space, and (?i) folds case by
// Unicode simple case folding, so (?i:'s) also matches 'ſ (U+017F). Tokenizers.js folds ASCII only and, for the
// ByteLevel pre-tokenizer's built-in regex, uses JavaScript's \s (with U+FEFF, without U+0085); otherwise the
// matches agree with Tokenizers.js (tests/node/hf_split_patterns.test.mjs). Classes are those of Unicode 16.0.
#ifndef EMBEDLAB_TEXT_SPLIT_PATTERNS_H_
#define EMBEDLAB_TEXT_SPLIT_PATTERNS_H_

#include <cstddef>
#include <string_view>

namespace embedlab {

// Finds the leftmost match of the pattern at or after `from` in `text` (a whole piece: `text` ends where the
// regex's input ends, so lookaheads see its end). Returns false when there is none. Matches are never empty.
using SplitMatcher = bool (*)(std::string_view text, size_t from, size_t* match_start, size_t* match_end) noexcept;

// The matcher for a regex as it appears in a tokenizer.json (`pattern.Regex`, exact string), or nullptr.
SplitMatcher FindSplitMatcher(std::string_view regex);

// The GPT-2 pattern the ByteLevel pre-tokenizer uses when use_regex is true.
SplitMatcher ByteLevelMatcher();

// The regexes FindSplitMatcher knows, as tokenizer.json files write them.
namespace split_regex {
// Llama 3 and 3.1; the same string as tiktoken's cl100k_base.
inline constexpr std::string_view kCl100k =
    R"re((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|)re"
    R"re(\s*[\r\n]+|\s+(?!\S)|\s+)re";
// Qwen 3 (and Qwen 2): cl100k with single digits.
inline constexpr std::string_view kQwen =
    R"re((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|)re"
    R"re(\s*[\r\n]+|\s+(?!\S)|\s+)re";
// tiktoken's o200k_base.
inline constexpr std::string_view kO200k =
    R"re([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|)re"
    R"re([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|)re"
    R"re(\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)re";
// GPT-2 (the ByteLevel pre-tokenizer's own regex, also tiktoken's r50k_base).
inline constexpr std::string_view kGpt2 =
    R"re('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)re";
// DeepSeek V3's three Splits, in the order it applies them. The third holds a real CR and LF (not escapes)
// in three of its classes, as the tokenizer.json does.
inline constexpr std::string_view kDeepSeekDigits = R"re(\p{N}{1,3})re";
inline constexpr std::string_view kDeepSeekCjk = "[\u4E00-\u9FA5\u3040-\u309F\u30A0-\u30FF]+";
inline constexpr std::string_view kDeepSeekWords = R"re([!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^)re"
                                                   "\r\n"
                                                   R"re(\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[)re"
                                                   "\r\n"
                                                   R"re(]*|\s*[)re"
                                                   "\r\n"
                                                   R"re(]+|\s+(?!\S)|\s+)re";
}  // namespace split_regex

}  // namespace embedlab

#endif  // EMBEDLAB_TEXT_SPLIT_PATTERNS_H_
