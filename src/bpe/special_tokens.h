// Special tokens (<|endoftext|> ...) and tiktoken's rules for them. By default none is allowed and all are
// disallowed: text containing one is an error, so that user text cannot smuggle in control tokens.
#ifndef EMBEDLAB_BPE_SPECIAL_TOKENS_H_
#define EMBEDLAB_BPE_SPECIAL_TOKENS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
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

// Finds the leftmost occurrence of any candidate at or after pos (the longest on a tie). Remembers, per
// candidate, where it next occurs, so scanning a whole text costs one pass per candidate.
class SpecialTokenFinder {
 public:
  SpecialTokenFinder(std::string_view text, std::vector<const SpecialToken*> candidates);
  // Returns the token and sets *start, or returns null when none occurs at or after pos.
  const SpecialToken* Next(size_t pos, size_t* start);

 private:
  std::string_view text_;
  std::vector<const SpecialToken*> candidates_;
  std::vector<size_t> next_at_;  // cached occurrence at or after the last searched position
};

}  // namespace embedlab

#endif  // EMBEDLAB_BPE_SPECIAL_TOKENS_H_
