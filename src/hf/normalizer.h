// The normalizers of a tokenizer.json this core runs: NFC, Replace (a literal pattern), Prepend, and Sequence
// of them (flattened). Each keeps an alignment from normalized bytes back to the input bytes, for token spans.
// Others (Lowercase, NFD, NFKC, NFKD, Strip, BertNormalizer, Precompiled, …) are refused by name.
#ifndef EMBEDLAB_HF_NORMALIZER_H_
#define EMBEDLAB_HF_NORMALIZER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "text/json_value.h"

namespace embedlab {

struct NormalizerStep {
  enum class Kind : uint8_t { kNfc = 0, kReplace = 1, kPrepend = 2 };
  Kind kind;
  std::string pattern;  // Replace: the literal to find
  std::string content;  // Replace: its replacement; Prepend: the prefix
};

class Normalizer {
 public:
  Normalizer() = default;
  explicit Normalizer(std::vector<NormalizerStep> steps) : steps_(std::move(steps)) {}
  // The "normalizer" member (null for none); path names it in errors. Throws std::invalid_argument.
  static Normalizer FromJson(const JsonValue& json, const std::string& path);

  bool empty() const { return steps_.empty(); }
  const std::vector<NormalizerStep>& steps() const { return steps_; }

  // out = normalized text. When alignment is not null it receives out->size() + 1 non-decreasing offsets into
  // text: normalized byte i came from text byte (*alignment)[i]; inserted bytes map to where they were inserted.
  // continues_text: the text goes on from a cut inside a section (HfTokenizer::SafeCut), so Prepend adds nothing.
  void Apply(std::string_view text, std::string* out, std::vector<uint32_t>* alignment,
             bool continues_text = false) const;

 private:
  std::vector<NormalizerStep> steps_;
};

}  // namespace embedlab

#endif  // EMBEDLAB_HF_NORMALIZER_H_
