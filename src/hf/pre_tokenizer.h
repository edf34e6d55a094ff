// The pre-tokenizers of a tokenizer.json this core runs: Split (a known regex through src/text's matchers, or a
// String literal; behaviours Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous; invert),
// Metaspace (replacement, prepend_scheme, split), ByteLevel (add_prefix_space, use_regex; it must come last, since
// it turns bytes into characters), and Sequence of them (flattened). Others are refused by name; an unknown regex
// is refused quoting it.
#ifndef EMBEDLAB_HF_PRE_TOKENIZER_H_
#define EMBEDLAB_HF_PRE_TOKENIZER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "hf/text_dependencies.h"
#include "text/json_value.h"

namespace embedlab {

enum class SplitBehavior : uint8_t { kRemoved, kIsolated, kMergedWithPrevious, kMergedWithNext, kContiguous };

struct PreTokenizerStep {
  enum class Kind : uint8_t { kSplitRegex = 0, kSplitString = 1, kByteLevel = 2, kMetaspace = 3 };
  enum class Prepend : uint8_t { kAlways = 0, kFirst = 1, kNever = 2 };
  Kind kind;
  std::string pattern;  // Split: the regex or the literal; Metaspace: the replacement character
  SplitBehavior behavior = SplitBehavior::kIsolated;
  bool invert = false;
  bool add_prefix_space = false;       // ByteLevel
  bool use_regex = true;               // ByteLevel
  Prepend prepend = Prepend::kAlways;  // Metaspace
  bool split = true;                   // Metaspace: split before each replacement character
  SplitMatcher matcher = nullptr;      // kSplitRegex: resolved from pattern
};

struct PieceRange {
  uint32_t start;
  uint32_t end;
};

// The pre-tokens of one text: ranges of `text`, which is the input itself unless a step rewrote it (ByteLevel's
// add_prefix_space, Metaspace); then text is held in storage and alignment maps its bytes (size + 1) to the input's.
struct PreTokenized {
  std::string_view text;
  std::string storage;
  std::vector<uint32_t> alignment;
  std::vector<PieceRange> pieces;
};

class PreTokenizer {
 public:
  PreTokenizer() = default;
  // Throws std::invalid_argument for an unknown regex (quoted) or an unsupported step or option.
  explicit PreTokenizer(std::vector<PreTokenizerStep> steps);
  static PreTokenizer FromJson(const JsonValue& json, const std::string& path);

  const std::vector<PreTokenizerStep>& steps() const { return steps_; }
  // The last step is ByteLevel: the model sees bytes.
  bool byte_level() const { return !steps_.empty() && steps_.back().kind == PreTokenizerStep::Kind::kByteLevel; }

  // The matcher of a pre-tokenizer that is one Split with behavior Isolated (then perhaps a ByteLevel that neither
  // adds a space nor splits): its matches and the gaps between them are the pre-tokens, of the text as it is, so
  // the encoder takes them as the matcher finds them. Null for any other pre-tokenizer.
  SplitMatcher isolated_matcher() const { return isolated_matcher_; }
  // at_text_start: the text begins the input (Metaspace's prepend_scheme "first").
  void Split(std::string_view text, bool at_text_start, PreTokenized* out) const;

 private:
  std::vector<PreTokenizerStep> steps_;
  SplitMatcher isolated_matcher_ = nullptr;
};

// Exposed for tests: one Split step's pieces of one piece, as the Rust crate's NormalizedString::split makes them
// (empty pieces dropped). Appends to out, offset by base.
void SplitPiece(const PreTokenizerStep& step, std::string_view piece, uint32_t base, std::vector<PieceRange>* out);

}  // namespace embedlab

#endif  // EMBEDLAB_HF_PRE_TOKENIZER_H_
