// The added tokens of a tokenizer.json (special or not) and how the Rust crate finds them in text: two sets, the
// tokens matched on the raw text (normalized: false) and those matched on normalized text (their contents
// normalized), each searched leftmost-longest; single_word, lstrip and rstrip as its AddedVocabulary applies them,
// and with split_special_tokens the special ones found are left as text.
#ifndef EMBEDLAB_HF_ADDED_VOCABULARY_H_
#define EMBEDLAB_HF_ADDED_VOCABULARY_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace embedlab {

struct AddedToken {
  std::string content;
  uint32_t id = 0;
  bool special = false;
  bool normalized = false;
  bool lstrip = false;
  bool rstrip = false;
  bool single_word = false;
};

// A split of a text: [start, end), either an added token (id) or text for the next stage (id kNone).
struct AddedSplit {
  uint32_t start;
  uint32_t end;
  uint32_t id;
};

class AddedVocabulary {
 public:
  static constexpr uint32_t kNone = 0xFFFFFFFFu;

  // normalized_contents[i]: token i's content as the normalizer writes it (used when tokens[i].normalized).
  AddedVocabulary(std::vector<AddedToken> tokens, const std::vector<std::string>& normalized_contents);
  AddedVocabulary() = default;

  const std::vector<AddedToken>& tokens() const { return tokens_; }
  bool has_normalized() const { return !normalized_.nodes.empty() && normalized_.count > 0; }
  // The token with this id, or nullptr.
  const AddedToken* ById(uint32_t id) const;

  // The splits of text against the raw set (normalized false) or the normalized set; they cover the text
  // (an rstrip can make one overlap the next match, as in the Rust crate).
  void Find(std::string_view text, bool normalized_set, bool split_special, std::vector<AddedSplit>* out) const;

  // For safe cuts: whether some token's content (either set, special or not) may occur in text at [q, q + length)
  // with q <= pos <= q + length, counting a content that runs past text's end while matching as far as it goes
  // (the bytes after text are unknown). Bytes before text are unknown too: true when such a content could start
  // before it. A cut at pos where this is false is inside no added token and next to none.
  bool MayMatchAround(std::string_view text, size_t pos) const;
  // Some token strips the whitespace next to it or matches only as a single word (cuts are then not proven safe).
  bool any_strip_or_single_word() const;

 private:
  struct Node {
    uint32_t first_child = kNone;
    uint32_t next_sibling = kNone;
    uint32_t token = kNone;  // index in tokens_ of the pattern ending here
    uint8_t byte = 0;
  };
  struct Trie {
    std::vector<Node> nodes;  // nodes[0] is the root
    std::array<bool, 256> first_bytes{};
    int only_first_byte = -1;  // the first byte of every pattern when they all share one (memchr finds them)
    size_t count = 0;
    size_t longest = 0;  // bytes of the longest pattern
    void Insert(std::string_view pattern, uint32_t token);
    // The longest pattern starting at pos: its token index (kNone when none) and *length.
    uint32_t LongestAt(std::string_view text, size_t pos, size_t* length) const;
    // Whether a pattern may match at q (read as far as text goes) and end at or after pos.
    bool MayReach(std::string_view text, size_t q, size_t pos) const;
  };

  std::vector<AddedToken> tokens_;
  Trie raw_;
  Trie normalized_;
  std::vector<uint32_t> by_id_;  // sorted ids, and the token index of each
  std::vector<uint32_t> index_by_id_;
};

}  // namespace embedlab

#endif  // EMBEDLAB_HF_ADDED_VOCABULARY_H_
