#include "text/split_patterns.h"

#include "text/pre_tokenizer.h"
#include "text/split_scanners.h"

namespace embedlab {
namespace {

// A pattern whose pieces tile the text matches at every position: the leftmost match at from is the piece
// that starts there.
template <PieceScanner next_piece>
bool FindTilingPiece(std::string_view text, size_t from, size_t* match_start, size_t* match_end) noexcept {
  if (from >= text.size()) return false;
  *match_start = from;
  *match_end = next_piece(text, from);
  return true;
}

struct KnownPattern {
  std::string_view regex;
  SplitMatcher matcher;
};

const KnownPattern kKnownPatterns[] = {
    {split_regex::kCl100k, FindTilingPiece<NextCl100kPiece>}, {split_regex::kQwen, FindTilingPiece<NextQwenPiece>},
    {split_regex::kO200k, FindTilingPiece<NextO200kPiece>},   {split_regex::kGpt2, FindTilingPiece<NextGpt2Piece>},
    {split_regex::kDeepSeekDigits, FindDeepSeekDigits},       {split_regex::kDeepSeekCjk, FindDeepSeekCjk},
    {split_regex::kDeepSeekWords, FindDeepSeekWords},
};

}  // namespace

SplitMatcher FindSplitMatcher(std::string_view regex) {
  for (const KnownPattern& known : kKnownPatterns) {
    if (regex == known.regex) return known.matcher;
  }
  return nullptr;
}

SplitMatcher ByteLevelMatcher() { return FindTilingPiece<NextGpt2Piece>; }

}  // namespace embedlab
