// Qwen's pattern: cl100k's with \p{N} where cl100k has \p{N}{1,3}:
//   (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|
//   \s+(?!\S)|\s+
// Every piece that does not start with a number is cl100k's piece, so only the number alternative is new.
#include "text/piece_scanning.h"
#include "text/pre_tokenizer.h"
#include "text/split_scanners.h"

namespace embedlab {

size_t NextQwenPiece(std::string_view text, size_t start) noexcept {
  using namespace scanning;
  const Char first = CharAt(text, start);
  // A number never starts a contraction or a letter run ([^\r\n\p{L}\p{N}]? excludes it), so \p{N} decides.
  if (first.flags & kFlagNumber) return start + first.length;
  return NextCl100kPiece(text, start);
}

}  // namespace embedlab
