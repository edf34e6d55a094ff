// NFC in two speeds. The quick check (UAX #15, NFC_Quick_Check plus canonical ordering) walks the text and
// leaves it as it is while every character is NFC_QC=Yes and the combining classes are in order. When a
// character fails, only the region around it is normalized: from the last "boundary" before it to the next
// boundary after it, a boundary being a character with ccc 0 and NFC_QC=Yes (nothing before it can combine with
// it or reorder past it), so normalizing the regions one by one equals normalizing the whole text.
#include "text/unicode_normalization.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "text/utf8.h"

namespace embedlab {
namespace {

#include "text/unicode_normalization.inc"

constexpr uint8_t kQuickCheckYes = 0;

// Hangul syllables compose and decompose by arithmetic (Unicode chapter 3.12).
constexpr uint32_t kHangulBase = 0xAC00;
constexpr uint32_t kJamoLeadBase = 0x1100;
constexpr uint32_t kJamoVowelBase = 0x1161;
constexpr uint32_t kJamoTrailBase = 0x11A7;  // one before the first trailing consonant
constexpr uint32_t kJamoLeadCount = 19;
constexpr uint32_t kJamoVowelCount = 21;
constexpr uint32_t kJamoTrailCount = 28;
constexpr uint32_t kHangulCount = kJamoLeadCount * kJamoVowelCount * kJamoTrailCount;

// ccc | NFC_QC << 8; code points above U+10FFFF (stand-ins for invalid bytes) are boundaries.
inline uint16_t InfoOf(uint32_t code_point) {
  if (code_point > 0x10FFFF) return 0;
  const uint32_t block = kNormalizationBlockIndex[code_point >> kNormalizationBlockShift];
  const uint32_t offset = code_point & ((1u << kNormalizationBlockShift) - 1);
  return kNormalizationBlocks[(block << kNormalizationBlockShift) | offset];
}
inline uint8_t CombiningClassOf(uint32_t code_point) { return InfoOf(code_point) & 0xFF; }
inline bool IsBoundary(uint16_t info) { return info == 0; }  // ccc 0 and NFC_QC=Yes

struct SourcedCodePoint {
  uint32_t code_point;
  uint32_t source;  // byte offset in the text where the code point's sequence starts
};

constexpr uint32_t kExcludedFromComposition = 1u << 31;  // set in a mapping's second part

// The index of code_point's canonical decomposition mapping in kDecomposedCodePoints, or kDecompositionCount.
size_t DecompositionIndex(uint32_t code_point) {
  const uint32_t* end = kDecomposedCodePoints + kDecompositionCount;
  const uint32_t* found = std::lower_bound(kDecomposedCodePoints, end, code_point);
  return found != end && *found == code_point ? found - kDecomposedCodePoints : kDecompositionCount;
}

void AppendDecomposition(uint32_t code_point, uint32_t source, std::vector<SourcedCodePoint>* buffer) {
  if (code_point >= kHangulBase && code_point < kHangulBase + kHangulCount) {
    const uint32_t index = code_point - kHangulBase;
    const uint32_t trail = index % kJamoTrailCount;
    buffer->push_back({kJamoLeadBase + index / (kJamoVowelCount * kJamoTrailCount), source});
    buffer->push_back({kJamoVowelBase + (index % (kJamoVowelCount * kJamoTrailCount)) / kJamoTrailCount, source});
    if (trail != 0) buffer->push_back({kJamoTrailBase + trail, source});
    return;
  }
  const size_t i = DecompositionIndex(code_point);
  if (i == kDecompositionCount) {
    buffer->push_back({code_point, source});
    return;
  }
  // Mappings nest a few levels: U+1F83 -> U+1F03 U+0345 -> U+1F01 U+0300 U+0345 -> U+03B1 U+0314 U+0300 U+0345.
  AppendDecomposition(kDecompositionParts[2 * i], source, buffer);
  const uint32_t second = kDecompositionParts[2 * i + 1] & ~kExcludedFromComposition;
  if (second != 0) AppendDecomposition(second, source, buffer);
}

struct Composition {
  uint64_t pair;  // first << 21 | second
  uint32_t composite;
  bool operator<(const Composition& other) const { return pair < other.pair; }
};

// The primary composites, sorted by pair: every two-part mapping that is not excluded from composition.
const std::vector<Composition>& Compositions() {
  static const std::vector<Composition> compositions = [] {
    std::vector<Composition> list;
    for (size_t i = 0; i < kDecompositionCount; ++i) {
      const uint32_t second = kDecompositionParts[2 * i + 1];
      if (second == 0 || (second & kExcludedFromComposition)) continue;
      list.push_back({(static_cast<uint64_t>(kDecompositionParts[2 * i]) << 21) | second, kDecomposedCodePoints[i]});
    }
    std::sort(list.begin(), list.end());
    return list;
  }();
  return compositions;
}

// The primary composite of first and second, or 0.
uint32_t Compose(uint32_t first, uint32_t second) {
  if (first >= kJamoLeadBase && first < kJamoLeadBase + kJamoLeadCount && second >= kJamoVowelBase &&
      second < kJamoVowelBase + kJamoVowelCount) {
    return kHangulBase + ((first - kJamoLeadBase) * kJamoVowelCount + (second - kJamoVowelBase)) * kJamoTrailCount;
  }
  if (first >= kHangulBase && first < kHangulBase + kHangulCount && (first - kHangulBase) % kJamoTrailCount == 0 &&
      second > kJamoTrailBase && second < kJamoTrailBase + kJamoTrailCount) {
    return first + (second - kJamoTrailBase);
  }
  if (first > 0x10FFFF || second > 0x10FFFF) return 0;  // stand-ins for invalid bytes
  const std::vector<Composition>& compositions = Compositions();
  const Composition key{(static_cast<uint64_t>(first) << 21) | second, 0};
  const auto found = std::lower_bound(compositions.begin(), compositions.end(), key);
  return found != compositions.end() && found->pair == key.pair ? found->composite : 0;
}

// Decomposes text[begin, end), orders the combining marks and composes, appending to out.
void NormalizeRegion(std::string_view text, size_t begin, size_t end, std::string* out,
                     std::vector<uint32_t>* out_to_source) {
  thread_local std::vector<SourcedCodePoint> buffer;
  buffer.clear();
  uint32_t sequence_start = static_cast<uint32_t>(begin);
  for (size_t pos = begin; pos < end;) {
    const DecodedCodePoint d = DecodeUtf8At(text, pos);
    const size_t first_new = buffer.size();
    AppendDecomposition(d.code_point, static_cast<uint32_t>(pos), &buffer);
    for (size_t i = first_new; i < buffer.size(); ++i) {
      if (CombiningClassOf(buffer[i].code_point) == 0) {
        sequence_start = buffer[i].source;
      } else {
        buffer[i].source = sequence_start;
      }
    }
    pos += d.length;
  }
  // Canonical ordering: a stable sort of each run of non-starters by combining class (a sort, not insertion:
  // a long run of alternating classes must not take quadratic time).
  for (size_t i = 0; i < buffer.size();) {
    if (CombiningClassOf(buffer[i].code_point) == 0) {
      ++i;
      continue;
    }
    size_t run_end = i + 1;
    while (run_end < buffer.size() && CombiningClassOf(buffer[run_end].code_point) != 0) ++run_end;
    if (run_end - i > 1) {
      std::stable_sort(buffer.begin() + i, buffer.begin() + run_end,
                       [](const SourcedCodePoint& a, const SourcedCodePoint& b) {
                         return CombiningClassOf(a.code_point) < CombiningClassOf(b.code_point);
                       });
    }
    i = run_end;
  }
  // Canonical composition (UAX #15's sample algorithm): a character combines with the last starter unless a
  // character of the same or a higher class, or a starter, stands between them.
  size_t kept = 0;
  size_t starter = 0;
  bool has_starter = false;
  int last_class = 0;
  // A starter that composes into the previous one (Hangul jamo, U+0B47 U+0B3E...) takes its sequence along.
  uint32_t merged_source = UINT32_MAX;
  uint32_t merged_into = 0;
  for (size_t i = 0; i < buffer.size(); ++i) {
    SourcedCodePoint c = buffer[i];
    if (c.source == merged_source) c.source = merged_into;
    const int ccc = CombiningClassOf(c.code_point);
    if (has_starter && (last_class < ccc || last_class == 0)) {
      const uint32_t composite = Compose(buffer[starter].code_point, c.code_point);
      if (composite != 0) {
        buffer[starter].code_point = composite;
        if (ccc == 0 && c.source != buffer[starter].source) {
          merged_source = c.source;
          merged_into = buffer[starter].source;
        }
        continue;
      }
    }
    if (ccc == 0) {
      starter = kept;
      has_starter = true;
    }
    last_class = ccc;
    buffer[kept++] = c;
  }
  for (size_t i = 0; i < kept; ++i) {
    const uint32_t cp = buffer[i].code_point;
    if (cp >= kInvalidByteBase) {
      out->push_back(static_cast<char>(cp - kInvalidByteBase));
    } else {
      AppendUtf8(cp, out);
    }
    if (out_to_source) out_to_source->resize(out->size(), buffer[i].source);
  }
}

void AppendUnchanged(std::string_view text, size_t begin, size_t end, std::string* out,
                     std::vector<uint32_t>* out_to_source) {
  out->append(text.data() + begin, end - begin);
  if (!out_to_source) return;
  const size_t size_before = out_to_source->size();
  out_to_source->resize(size_before + (end - begin));
  std::iota(out_to_source->begin() + size_before, out_to_source->end(), static_cast<uint32_t>(begin));
}

}  // namespace

void NormalizeNfc(std::string_view text, std::string* out, std::vector<uint32_t>* out_to_source) {
  out->clear();
  out->reserve(text.size());
  if (out_to_source) {
    out_to_source->clear();
    out_to_source->reserve(text.size() + 1);
  }
  size_t copied = 0;         // text[0, copied) is in *out
  size_t last_boundary = 0;  // start of the last boundary character seen
  uint8_t last_class = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    // Eight ASCII bytes at a time: ASCII characters are all boundaries.
    if (pos + 8 <= text.size()) {
      uint64_t word;
      std::memcpy(&word, text.data() + pos, 8);
      if ((word & 0x8080808080808080u) == 0) {
        pos += 8;
        last_boundary = pos - 1;
        last_class = 0;
        continue;
      }
    }
    const auto byte = static_cast<uint8_t>(text[pos]);
    if (byte < 0x80) {
      last_boundary = pos++;
      last_class = 0;
      continue;
    }
    const DecodedCodePoint d = DecodeUtf8At(text, pos);
    const uint16_t info = InfoOf(d.code_point);
    const uint8_t ccc = info & 0xFF;
    if ((info >> 8) == kQuickCheckYes && (ccc == 0 || ccc >= last_class)) {
      if (ccc == 0) last_boundary = pos;
      last_class = ccc;
      pos += d.length;
      continue;
    }
    size_t region_end = pos + d.length;
    while (region_end < text.size()) {
      const DecodedCodePoint next = DecodeUtf8At(text, region_end);
      if (IsBoundary(InfoOf(next.code_point))) break;
      region_end += next.length;
    }
    AppendUnchanged(text, copied, last_boundary, out, out_to_source);
    NormalizeRegion(text, last_boundary, region_end, out, out_to_source);
    copied = pos = last_boundary = region_end;
    last_class = 0;
  }
  AppendUnchanged(text, copied, text.size(), out, out_to_source);
  if (out_to_source) out_to_source->push_back(static_cast<uint32_t>(text.size()));
}

const char* NormalizationUnicodeVersion() { return kNormalizationUnicodeVersion; }

}  // namespace embedlab
