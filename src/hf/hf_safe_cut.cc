// HfTokenizer::SafeCut: where a text may be cut so that its parts, encoded one after the other (the first with
// ends_at_cut, the rest with starts_after_cut), give the ids of the whole. Proven for two kinds of pipeline, none
// for any other (no cut is always safe):
//
// Regex pre-tokenizers. Every pre-tokenizer step is a Split with one of the regexes below (Isolated, not inverted),
// optionally followed by a ByteLevel without add_prefix_space; the normalizer is empty or NFC. None of these
// regexes looks behind; each puts a piece boundary at c under the local rules of src/js/tokenizer/safe_cut.js
// (A: X an ASCII letter or digit, Y ASCII but not a letter, digit or apostrophe; B: X not whitespace, Y a space or
// tab; C: X "\n", W not whitespace, Y neither whitespace nor "/"; D: X a CJK ideograph or kana, Y one of 、。，！？：；
// — X the character before c, Y the one at c, W the one before X), for the whole text and for any text ending at c
// alike (the only look-ahead, \s+(?!\S), and the end-of-text behaviour need whitespace before c, which only C
// has, where \s*[\r\n]+ — or gpt2's \s+ — takes the "\n" alone either way). DeepSeek V3's digit and CJK Splits never
// match across such a c, so the later Splits see the same characters either side. BPE never joins pieces.
// NFC changes nothing across c when Y starts a normalization boundary (ccc 0, NFC_QC Yes): checked below.
//
// One pre-token (no pre-tokenizer, or a Split on a literal the normalizer has just replaced, as in Gemma 3): the
// normalizer is Prepend (not repeated after a cut: starts_after_cut), one-character Replace, NFC; the BPE model cuts
// before "▁" where no merge joins across (BpeModel::CanCutBefore), and c is where a character normalized to "▁..."
// starts (Llama 2's and Gemma 3's spaces).
//
// Both: no added token may lie across c or touch it (AddedVocabulary::MayMatchAround), none may strip whitespace
// or match as a single word, and tokens matched on normalized text need an empty normalizer (they are then found
// in the input's bytes). Invalid UTF-8 is never next to a cut.
#include <string>
#include <string_view>

#include "hf/hf_tokenizer_impl.h"
#include "text/utf8.h"

namespace embedlab {
namespace {

enum class CutKind { kNone, kRegexPieces, kOnePiece };

bool IsProvenRegex(std::string_view pattern) {
  using namespace split_regex;  // NOLINT(build/namespaces): the pattern names read better unqualified
  return pattern == kCl100k || pattern == kQwen || pattern == kO200k || pattern == kGpt2 ||
         pattern == kDeepSeekDigits || pattern == kDeepSeekCjk || pattern == kDeepSeekWords;
}

// Unicode White_Space (the regexes' \s).
bool IsWhitespace(uint32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}
bool IsAsciiAlnum(uint32_t c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool IsCjkLetter(uint32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3041 && c <= 0x3096) || (c >= 0x30A1 && c <= 0x30FA);
}
bool IsCjkPunctuation(uint32_t c) {
  return c == 0x3001 || c == 0x3002 || c == 0xFF0C || c == 0xFF01 || c == 0xFF1F || c == 0xFF1A || c == 0xFF1B;
}
// Characters with canonical combining class 0 and NFC_Quick_Check Yes (a normalization boundary before them), in
// ranges that are easy to state: below U+0300 (the first combining mark), kana, CJK ideographs, Hangul syllables.
bool StartsNfcBoundary(uint32_t c) {
  return c < 0x300 || IsCjkLetter(c) || IsCjkPunctuation(c) || (c >= 0xAC00 && c <= 0xD7A3);
}

CutKind KindOf(const HfTokenizerImpl& impl) {
  if (impl.added.any_strip_or_single_word()) return CutKind::kNone;
  if (impl.added.has_normalized() && !impl.normalizer.empty()) return CutKind::kNone;
  const std::vector<NormalizerStep>& normalizers = impl.normalizer.steps();
  const std::vector<PreTokenizerStep>& steps = impl.pre_tokenizer.steps();
  bool regex_pieces = !steps.empty();
  for (size_t i = 0; i < steps.size(); ++i) {
    const PreTokenizerStep& step = steps[i];
    const bool proven_split = step.kind == PreTokenizerStep::Kind::kSplitRegex && IsProvenRegex(step.pattern) &&
                              step.behavior == SplitBehavior::kIsolated && !step.invert;
    const bool plain_byte_level =
        step.kind == PreTokenizerStep::Kind::kByteLevel && !step.add_prefix_space && i + 1 == steps.size();
    regex_pieces = regex_pieces && (proven_split || plain_byte_level);
  }
  if (regex_pieces) {
    for (const NormalizerStep& step : normalizers) {
      if (step.kind != NormalizerStep::Kind::kNfc) return CutKind::kNone;
    }
    return CutKind::kRegexPieces;
  }
  // One pre-token: no step, or one Split on the literal the last normalizer step replaces (so it never occurs).
  if (steps.size() > 1) return CutKind::kNone;
  if (steps.size() == 1) {
    const PreTokenizerStep& split = steps[0];
    const bool replaced = !normalizers.empty() && normalizers.back().kind == NormalizerStep::Kind::kReplace &&
                          normalizers.back().pattern == split.pattern &&
                          normalizers.back().content.find(split.pattern) == std::string::npos;
    if (split.kind != PreTokenizerStep::Kind::kSplitString || !replaced) return CutKind::kNone;
  }
  for (const NormalizerStep& step : normalizers) {
    if (step.kind == NormalizerStep::Kind::kReplace && DecodeUtf8At(step.pattern, 0).length != step.pattern.size()) {
      return CutKind::kNone;  // a longer literal could lie across the cut
    }
  }
  return CutKind::kOnePiece;
}

// The character that ends at end (end > 0): its code point (>= kInvalidByteBase when not a whole valid one) and
// its first byte.
DecodedCodePoint CharacterBefore(std::string_view text, size_t end, size_t* start) {
  size_t s = end - 1;
  while (s > 0 && end - s < 4 && (static_cast<uint8_t>(text[s]) & 0xC0) == 0x80) --s;
  const DecodedCodePoint d = DecodeUtf8At(text, s);
  *start = s;
  return s + d.length == end ? d : DecodedCodePoint{kInvalidByteBase, 1};
}

// Rules A-D of the header comment at c, with x and y decoded, x starting at x_start.
bool RegexRulesAllow(std::string_view text, size_t x_start, uint32_t x, uint32_t y) {
  if (x < 0x80 && IsAsciiAlnum(x)) return y < 0x80 && !IsAsciiAlnum(y) && y != '\'';  // A
  if (x == '\n') {                                                                    // C
    if (x_start == 0) return false;
    size_t w_start = 0;
    const uint32_t w = CharacterBefore(text, x_start, &w_start).code_point;
    return w < kInvalidByteBase && !IsWhitespace(w) && !IsWhitespace(y) && y != '/';
  }
  if (y == ' ' || y == '\t') return !IsWhitespace(x);  // B
  return IsCjkPunctuation(y) && IsCjkLetter(x);        // D
}

bool HasNfc(const Normalizer& normalizer) {
  for (const NormalizerStep& step : normalizer.steps()) {
    if (step.kind == NormalizerStep::Kind::kNfc) return true;
  }
  return false;
}

}  // namespace

size_t HfTokenizer::SafeCut(std::string_view text, size_t from, size_t to) const {
  const HfTokenizerImpl& impl = *impl_;
  const CutKind kind = KindOf(impl);
  if (kind == CutKind::kNone || text.empty()) return kNoCut;
  const bool nfc = HasNfc(impl.normalizer);
  if (to >= text.size()) to = text.size() - 1;
  std::string pair;  // one-piece kind: the normalized X and Y
  // One-piece kind: the answer for the last pair (X, Y) seen, which depends on the two characters alone; a run of one
  // character (100 MB of spaces) is then normalized and looked up once, not at every byte.
  uint32_t last_x = kInvalidByteBase, last_y = kInvalidByteBase;
  bool last_allowed = false;
  for (size_t c = to; c >= from && c > 0; --c) {
    const DecodedCodePoint y = DecodeUtf8At(text, c);
    if (y.code_point >= kInvalidByteBase || (static_cast<uint8_t>(text[c]) & 0xC0) == 0x80) continue;
    size_t x_start = 0;
    const DecodedCodePoint x = CharacterBefore(text, c, &x_start);
    if (x.code_point >= kInvalidByteBase) continue;
    if (nfc && (!StartsNfcBoundary(y.code_point) || (kind == CutKind::kOnePiece && x.code_point >= 0x300))) {
      continue;
    }
    if (kind == CutKind::kRegexPieces) {
      if (!RegexRulesAllow(text, x_start, x.code_point, y.code_point)) continue;
    } else {
      if (x.code_point != last_x || y.code_point != last_y) {
        // X and Y normalized on their own equal their normalized context: every step is per character here (NFC
        // only next to boundaries, checked above) and Prepend adds nothing after a cut.
        std::string x_normalized;
        impl.normalizer.Apply(text.substr(x_start, c - x_start), &x_normalized, nullptr, true);
        impl.normalizer.Apply(text.substr(c, y.length), &pair, nullptr, true);
        const size_t cut = x_normalized.size();
        pair.insert(0, x_normalized);
        last_x = x.code_point;
        last_y = y.code_point;
        last_allowed = impl.model.CanCutBefore(pair, cut);
      }
      if (!last_allowed) continue;
    }
    if (impl.added.MayMatchAround(text, c)) continue;
    return c;
  }
  return kNoCut;
}

}  // namespace embedlab
