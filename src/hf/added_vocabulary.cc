#include "hf/added_vocabulary.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "text/unicode_class.h"
#include "text/utf8.h"

namespace embedlab {
namespace {

// Rust regex's \w: Alphabetic, marks, decimal digits, connector punctuation, joiners. The class table has no
// Alphabetic, Nd or Pc: letters, marks and all numbers (No too) stand in, with the connector punctuation listed.
bool IsWordCharacter(uint32_t cp) {
  if (FlagsOf(cp) & (kFlagLetter | kFlagNumber)) return true;
  if (ClassOf(cp) == CharClass::kMark) return true;
  return cp == '_' || cp == 0x200C || cp == 0x200D || cp == 0x203F || cp == 0x2040 || cp == 0x2054 || cp == 0xFE33 ||
         cp == 0xFE34 || (cp >= 0xFE4D && cp <= 0xFE4F) || cp == 0xFF3F;
}

bool IsSpaceCharacter(uint32_t cp) { return (FlagsOf(cp) & kFlagSpace) != 0; }

// The start of the character that ends at pos (pos > 0).
size_t PreviousCharacter(std::string_view text, size_t pos) {
  size_t start = pos - 1;
  while (start > 0 && pos - start < 4 && (static_cast<uint8_t>(text[start]) & 0xC0) == 0x80) --start;
  const DecodedCodePoint d = DecodeUtf8At(text, start);
  return start + d.length == pos ? start : pos - 1;
}

}  // namespace

void AddedVocabulary::Trie::Insert(std::string_view pattern, uint32_t token) {
  if (nodes.empty()) nodes.emplace_back();
  uint32_t node = 0;
  for (char c : pattern) {
    const auto byte = static_cast<uint8_t>(c);
    uint32_t child = nodes[node].first_child;
    while (child != kNone && nodes[child].byte != byte) child = nodes[child].next_sibling;
    if (child == kNone) {
      child = static_cast<uint32_t>(nodes.size());
      Node fresh;
      fresh.byte = byte;
      fresh.next_sibling = nodes[node].first_child;
      nodes.push_back(fresh);
      nodes[node].first_child = child;
    }
    node = child;
  }
  const auto first = static_cast<uint8_t>(pattern[0]);
  only_first_byte = count == 0 || only_first_byte == first ? first : -1;
  first_bytes[first] = true;
  longest = std::max(longest, pattern.size());
  if (nodes[node].token == kNone) nodes[node].token = token;  // the first of equal patterns wins
  ++count;
}

bool AddedVocabulary::Trie::MayReach(std::string_view text, size_t q, size_t pos) const {
  uint32_t node = 0;
  for (size_t i = q; i < text.size(); ++i) {
    const auto byte = static_cast<uint8_t>(text[i]);
    uint32_t child = nodes[node].first_child;
    while (child != kNone && nodes[child].byte != byte) child = nodes[child].next_sibling;
    if (child == kNone) return false;
    node = child;
    if (nodes[node].token != kNone && i + 1 >= pos) return true;
  }
  return nodes[node].first_child != kNone;  // text ends inside a pattern: the next bytes may complete it
}

bool AddedVocabulary::MayMatchAround(std::string_view text, size_t pos) const {
  for (const Trie* trie : {&raw_, &normalized_}) {
    if (trie->nodes.empty() || trie->count == 0) continue;
    if (pos < trie->longest) return true;  // a pattern could start before text
    for (size_t q = pos - trie->longest; q <= pos && q < text.size(); ++q) {
      if (trie->first_bytes[static_cast<uint8_t>(text[q])] && trie->MayReach(text, q, pos)) return true;
    }
  }
  return false;
}

bool AddedVocabulary::any_strip_or_single_word() const {
  for (const AddedToken& token : tokens_) {
    if (token.lstrip || token.rstrip || token.single_word) return true;
  }
  return false;
}

uint32_t AddedVocabulary::Trie::LongestAt(std::string_view text, size_t pos, size_t* length) const {
  uint32_t found = kNone;
  uint32_t node = 0;
  for (size_t i = pos; i < text.size(); ++i) {
    const auto byte = static_cast<uint8_t>(text[i]);
    uint32_t child = nodes[node].first_child;
    while (child != kNone && nodes[child].byte != byte) child = nodes[child].next_sibling;
    if (child == kNone) break;
    node = child;
    if (nodes[node].token != kNone) {
      found = nodes[node].token;
      *length = i + 1 - pos;
    }
  }
  return found;
}

AddedVocabulary::AddedVocabulary(std::vector<AddedToken> tokens, const std::vector<std::string>& normalized_contents)
    : tokens_(std::move(tokens)) {
  // The Rust crate lists special tokens before the others in its matchers; equal patterns keep the first.
  std::vector<uint32_t> order(tokens_.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_partition(order.begin(), order.end(), [&](uint32_t i) { return tokens_[i].special; });
  for (uint32_t i : order) {
    const AddedToken& token = tokens_[i];
    if (!token.normalized) {
      if (!token.content.empty()) raw_.Insert(token.content, i);
    } else if (!normalized_contents[i].empty()) {
      normalized_.Insert(normalized_contents[i], i);
    }
  }
  index_by_id_.resize(tokens_.size());
  std::iota(index_by_id_.begin(), index_by_id_.end(), 0);
  std::sort(index_by_id_.begin(), index_by_id_.end(),
            [&](uint32_t a, uint32_t b) { return tokens_[a].id < tokens_[b].id; });
  for (uint32_t i : index_by_id_) by_id_.push_back(tokens_[i].id);
}

const AddedToken* AddedVocabulary::ById(uint32_t id) const {
  const auto it = std::lower_bound(by_id_.begin(), by_id_.end(), id);
  if (it == by_id_.end() || *it != id) return nullptr;
  return &tokens_[index_by_id_[it - by_id_.begin()]];
}

void AddedVocabulary::Find(std::string_view text, bool normalized_set, bool split_special,
                           std::vector<AddedSplit>* out) const {
  out->clear();
  const Trie& trie = normalized_set ? normalized_ : raw_;
  const auto n = static_cast<uint32_t>(text.size());
  uint32_t done = 0;  // the Rust crate's start_offset
  if (trie.count > 0) {
    for (size_t pos = 0; pos < n;) {
      if (trie.only_first_byte >= 0) {
        const void* next = std::memchr(text.data() + pos, trie.only_first_byte, n - pos);
        if (next == nullptr) break;
        pos = static_cast<const char*>(next) - text.data();
      } else if (!trie.first_bytes[static_cast<uint8_t>(text[pos])]) {
        ++pos;
        continue;
      }
      size_t length = 0;
      const uint32_t index = trie.LongestAt(text, pos, &length);
      if (index == kNone) {
        ++pos;
        continue;
      }
      const AddedToken& token = tokens_[index];
      auto start = static_cast<uint32_t>(pos);
      auto stop = static_cast<uint32_t>(pos + length);
      pos += length;  // the search goes on after the match, whatever becomes of it
      if (split_special && token.special) continue;
      if (token.single_word) {
        const bool word_before =
            start > 0 && IsWordCharacter(DecodeUtf8At(text, PreviousCharacter(text, start)).code_point);
        const bool word_after = stop < n && IsWordCharacter(DecodeUtf8At(text, stop).code_point);
        if (word_before || word_after) continue;
      }
      if (token.lstrip) {
        uint32_t new_start = start;
        while (new_start > 0) {
          const size_t previous = PreviousCharacter(text, new_start);
          if (!IsSpaceCharacter(DecodeUtf8At(text, previous).code_point)) break;
          new_start = static_cast<uint32_t>(previous);
        }
        start = std::max(new_start, done);
      }
      if (token.rstrip) {
        while (stop < n) {
          const DecodedCodePoint d = DecodeUtf8At(text, stop);
          if (!IsSpaceCharacter(d.code_point)) break;
          stop += d.length;
        }
      }
      if (done < start) out->push_back({done, start, kNone});
      out->push_back({start, stop, token.id});
      done = stop;
    }
  }
  if (done != n) out->push_back({done, n, kNone});
}

}  // namespace embedlab
