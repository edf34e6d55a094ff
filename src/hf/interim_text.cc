// INTERIM (deleted when src/text's NFC and split patterns land): the Llama 3 pattern (cl100k's) and GPT-2's
// from the existing tiling scanners, and NFC only where it is the identity.
#include <stdexcept>

#include "hf/text_dependencies.h"
#include "text/pre_tokenizer.h"
#include "text/utf8.h"

namespace embedlab {
namespace {

template <PieceScanner scanner>
bool Tiling(std::string_view text, size_t from, size_t* start, size_t* end) noexcept {
  if (from >= text.size()) return false;
  *start = from;
  *end = scanner(text, from);
  return true;
}

}  // namespace

void NormalizeNfc(std::string_view text, std::string* out, std::vector<uint32_t>* out_to_source) {
  // Below U+0300 there are no combining characters and nothing changes under NFC.
  for (size_t pos = 0; pos < text.size();) {
    const DecodedCodePoint d = DecodeUtf8At(text, pos);
    if (d.code_point >= 0x300 && d.code_point < kInvalidByteBase) {
      throw std::invalid_argument("NFC of text beyond U+02FF is not built yet (interim)");
    }
    pos += d.length;
  }
  out->assign(text);
  if (out_to_source != nullptr) {
    out_to_source->resize(text.size() + 1);
    for (size_t i = 0; i <= text.size(); ++i) (*out_to_source)[i] = static_cast<uint32_t>(i);
  }
}

SplitMatcher FindSplitMatcher(std::string_view regex) {
  if (regex == PatternRegex(PreTokenizerPattern::kCl100k)) return &Tiling<NextCl100kPiece>;
  return nullptr;
}

SplitMatcher ByteLevelMatcher() { return &Tiling<NextGpt2Piece>; }

}  // namespace embedlab
