// Pre-tokenizers: split text into the pieces that BPE then encodes one by one. Each is a hand-written scanner
// that returns exactly the matches of one of tiktoken's regexes (as npm tiktoken 1.0.22 ships them), without
// a regex engine. Pieces tile the input: they are non-empty, contiguous and cover every byte.
#ifndef EMBEDLAB_TEXT_PRE_TOKENIZER_H_
#define EMBEDLAB_TEXT_PRE_TOKENIZER_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace embedlab {

enum class PreTokenizerPattern {
  kGpt2,    // r50k_base, p50k_base, p50k_edit, gpt2
  kCl100k,  // cl100k_base
  kO200k,   // o200k_base
};

// Every pattern, in the order the API lists them.
inline constexpr PreTokenizerPattern kPreTokenizerPatterns[] = {
    PreTokenizerPattern::kGpt2, PreTokenizerPattern::kCl100k, PreTokenizerPattern::kO200k};

// Returns the end of the piece that starts at start (start < text.size()).
// noexcept matters in wasm: with JS-based exceptions, a call that may throw from a function with
// destructors goes through a JS trampoline.
size_t NextGpt2Piece(std::string_view text, size_t start) noexcept;
size_t NextCl100kPiece(std::string_view text, size_t start) noexcept;
size_t NextO200kPiece(std::string_view text, size_t start) noexcept;

using PieceScanner = size_t (*)(std::string_view text, size_t start) noexcept;
PieceScanner ScannerFor(PreTokenizerPattern pattern);

// "gpt2", "cl100k" or "o200k"; PatternFromName throws std::invalid_argument for any other name.
std::string PatternName(PreTokenizerPattern pattern);
PreTokenizerPattern PatternFromName(std::string_view name);
// The regex the pattern's scanner matches, as tiktoken writes it (pat_str in npm tiktoken's encoder JSON).
std::string_view PatternRegex(PreTokenizerPattern pattern);

struct ByteSpan {
  size_t start;
  size_t end;
};

// All pieces of text, for tests and for showing the split on the page.
std::vector<ByteSpan> SplitIntoPieces(std::string_view text, PreTokenizerPattern pattern);

}  // namespace embedlab

#endif  // EMBEDLAB_TEXT_PRE_TOKENIZER_H_
