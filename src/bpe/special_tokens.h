// Special tokens (<|endoftext|> ...) and tiktoken's rules for them. By default none is allowed and all are
// disallowed: text containing one is an error, so that user text cannot smuggle in control tokens.
#ifndef EMBEDLAB_BPE_SPECIAL_TOKENS_H_
#define EMBEDLAB_BPE_SPECIAL_TOKENS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace embedlab {

struct SpecialToken {
  std::string text;
  uint32_t id;
};

// tiktoken's encode(text, allowed_special, disallowed_special).
struct SpecialTokenPolicy {
  bool allow_all = false;               // allowed_special="all"
  std::vector<std::string> allowed;     // encoded as their special id where they appear
  bool disallow_all = true;             // disallowed_special="all": every special token not allowed
  std::vector<std::string> disallowed;  // used when !disallow_all

  static SpecialTokenPolicy AllowAll() { return {true, {}, true, {}}; }
  // Special-token text is encoded as ordinary text (tiktoken's encode_ordinary).
  static SpecialTokenPolicy AllAsText() { return {false, {}, false, {}}; }
};

// The special tokens of one tokenizer, split by a policy into the ones to encode as specials and the ones
// whose appearance is an error.
class SpecialTokenSet {
 public:
  SpecialTokenSet() = default;
  explicit SpecialTokenSet(std::vector<SpecialToken> tokens);

  const std::vector<SpecialToken>& tokens() const { return tokens_; }
  // Throws std::invalid_argument for a policy that names a token this set does not have.
  void Resolve(const SpecialTokenPolicy& policy, std::vector<const SpecialToken*>* allowed,
               std::vector<const SpecialToken*>* disallowed) const;
  // The special token with this id, or null.
  const SpecialToken* FindById(uint32_t id) const;

 private:
  std::vector<SpecialToken> tokens_;
};

// Finds the leftmost occurrence of any candidate at or after pos (the longest on a tie). With few candidates it
// remembers, per candidate, where it next occurs, so scanning a whole text costs one pass per candidate. With many
// (o200k_harmony has 1090) that would be 1090 passes: it then makes one pass, stopping only at bytes a candidate
// starts with, and looks the text there up by each candidate length.
class SpecialTokenFinder {
 public:
  SpecialTokenFinder(std::string_view text, std::vector<const SpecialToken*> candidates);
  // Returns the token and sets *start, or returns null when none occurs at or after pos. pos never decreases
  // from one call to the next.
  const SpecialToken* Next(size_t pos, size_t* start);

 private:
  static constexpr size_t kMaxCandidatesSearchedOneByOne = 8;
  const SpecialToken* NextInOnePass(size_t pos, size_t* start);

  std::string_view text_;
  std::vector<const SpecialToken*> candidates_;
  std::vector<size_t> next_at_;  // cached occurrence at or after the last searched position
  // The one-pass search: candidates by text, their distinct lengths (longest first), their first bytes, and the
  // last result, which stays valid for any pos in [searched_from_, found_at_].
  std::unordered_map<std::string_view, const SpecialToken*> by_text_;
  std::vector<size_t> lengths_;
  std::array<bool, 256> first_byte_{};
  size_t searched_from_;
  size_t found_at_ = 0;
  const SpecialToken* found_ = nullptr;
};

}  // namespace embedlab

#endif  // EMBEDLAB_BPE_SPECIAL_TOKENS_H_
