// Token strings by id and ids by string: the vocabulary of a tokenizer.json model (model.vocab), with holes
// allowed between ids as the format allows them. Strings are kept as the file writes them (byte-level
// vocabularies in GPT-2's alphabet); lookups hash the string.
#ifndef EMBEDLAB_HF_TOKEN_TABLE_H_
#define EMBEDLAB_HF_TOKEN_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace embedlab {

class TokenTable {
 public:
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  // Ids and entries above these are refused (the wasm heap is 4 GiB); checked before anything is allocated.
  static constexpr uint32_t kMaxTokens = uint32_t{1} << 22;

  // Adds token with id (id < kMaxTokens). Returns kNone, or the id the string already has (then nothing is
  // added), or, when id is already taken by another string, that id with *id_taken set.
  uint32_t Add(std::string_view token, uint32_t id, bool* id_taken);
  uint32_t Find(std::string_view token) const;
  // Find in two steps, for lookups in batches: Prepare hashes the token and prefetches its slot, so that the
  // memory latency of many lookups overlaps.
  struct Probe {
    uint64_t prefix;
    uint64_t hash;
    uint32_t tag;
  };
  Probe Prepare(std::string_view token) const;
  uint32_t Find(std::string_view token, const Probe& probe) const;
  bool Has(uint32_t id) const { return id < spans_.size() && spans_[id].length != kNone; }
  std::string_view String(uint32_t id) const { return {arena_.data() + spans_[id].offset, spans_[id].length}; }
  size_t size() const { return count_; }
  uint32_t id_end() const { return static_cast<uint32_t>(spans_.size()); }
  size_t bytes() const { return arena_.size(); }
  void Reserve(size_t tokens, size_t bytes);
  // Every id in table order (the binary form lists tokens so, and loading fills the table front to back).
  template <typename Fn>
  void ForEachInTableOrder(const Fn& fn) const {
    for (const Slot& s : slots_) {
      if (s.id != kNone) fn(s.id);
    }
  }

 private:
  struct Span {
    uint32_t offset;
    uint32_t length;
  };
  // The first 8 bytes and the length live in the slot: tokens up to 8 bytes compare without the arena.
  struct Slot {
    uint64_t prefix;
    uint32_t id;
    uint32_t tag;  // the hash's bits 8-31 and the length (up to 255)
  };
  void Rehash(size_t slot_count);
  bool SameString(uint32_t id, std::string_view token) const;
  size_t SlotOf(std::string_view token, uint64_t prefix, uint64_t hash, uint32_t tag) const;

  std::string arena_;
  std::vector<Span> spans_;  // by id; length kNone marks a hole
  std::vector<Slot> slots_;
  size_t count_ = 0;
  int shift_ = 64;
};

}  // namespace embedlab

#endif  // EMBEDLAB_HF_TOKEN_TABLE_H_
