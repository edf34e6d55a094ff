// Token bytes <-> rank. The rank of a token is also its id and its merge priority (lower merges first).
// All token bytes live in one arena. Lookups go through an open-addressing table of 16-byte slots that hold
// a token's first 8 bytes inline, so most lookups (tokens average ~6 bytes) touch one cache line and never
// the arena; the 256 single bytes and 65536 byte pairs have direct tables, since BPE asks for them most.
// A parallel array of one-byte tags (7 hash bits, 0 = empty) is probed first: about half of BPE's lookups
// miss, and the tags (256 KB for cl100k, against 4 MB of slots) answer most misses from cache.
#ifndef EMBEDLAB_BPE_VOCABULARY_H_
#define EMBEDLAB_BPE_VOCABULARY_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace embedlab {

class Vocabulary {
 public:
  static constexpr uint32_t kNoRank = 0xFFFFFFFFu;
  // Limits of the packed slots: far above every real vocabulary (OpenAI's longest token is 128 bytes).
  static constexpr size_t kMaxTokenBytes = 255;
  static constexpr uint32_t kMaxRank = (1u << 24) - 1;

  // Adds a token; throws std::invalid_argument when its bytes or its rank are already present, or the
  // bytes are empty, and std::out_of_range beyond kMaxTokenBytes or kMaxRank. Lookups work after every Add.
  void Add(std::string_view bytes, uint32_t rank);
  void Reserve(size_t tokens, size_t total_bytes);

  // Bulk loading, for the file parsers: AddDeferred stores a token without indexing it, and
  // FinishDeferred indexes all of them at once in hash order, which turns the random writes of 200k
  // inserts into a sequential sweep without probing. Rank() misses deferred tokens until
  // FinishDeferred, which throws std::invalid_argument for duplicate bytes.
  void AddDeferred(std::string_view bytes, uint32_t rank);
  void FinishDeferred();

  // kNoRank when the bytes are not a token.
  uint32_t Rank(const char* data, size_t size) const noexcept {
    if (size == 2) return pair_rank_[(static_cast<uint8_t>(data[0]) << 8) | static_cast<uint8_t>(data[1])];
    if (size == 1) return byte_rank_[static_cast<uint8_t>(data[0])];
    return LookUp(data, size);
  }
  uint32_t Rank(std::string_view bytes) const noexcept { return Rank(bytes.data(), bytes.size()); }

  bool HasRank(uint32_t rank) const noexcept { return Length(rank) != 0; }
  // Requires HasRank(rank).
  std::string_view Bytes(uint32_t rank) const noexcept {
    return std::string_view(arena_.data() + spans_[rank].start, spans_[rank].length);
  }

  // The byte count of a token, 0 for a rank not in use (any rank, however large).
  uint32_t Length(uint32_t rank) const noexcept { return rank < spans_.size() ? spans_[rank].length : 0; }
  // Writes the bytes of a token at `out` and returns their count. May write up to kCopyOverrun bytes
  // past them: one fixed 16-byte copy instead of a variable memcpy, which is a library call in wasm.
  // Requires HasRank(rank).
  static constexpr size_t kCopyOverrun = 16;
  size_t CopyBytes(uint32_t rank, char* out) const noexcept {
    const auto [start, length] = spans_[rank];
    if (length <= 16 && start + size_t{16} <= arena_.size()) {
      std::memcpy(out, arena_.data() + start, 16);
    } else {
      std::memcpy(out, arena_.data() + start, length);
    }
    return length;
  }

  // A compact binary form for fast start-up (see vocabulary_binary.cc): no base64 or decimal parsing.
  std::string ToBinary() const;
  // Throws std::invalid_argument for data that is truncated or inconsistent.
  static Vocabulary FromBinary(std::string_view data);
  // Whether `data` starts as a binary form does (of any version), rather than as a text format.
  static bool IsBinary(std::string_view data) { return data.substr(0, 7) == "EMBLVOC"; }

  size_t size() const { return token_count_; }
  // One past the largest rank, 0 when empty.
  uint32_t rank_end() const { return static_cast<uint32_t>(spans_.size()); }

 private:
  struct Slot {
    uint64_t prefix;       // first min(8, length) bytes, little-endian, zero-padded
    uint32_t start;        // in arena_
    uint32_t rank_length;  // rank << 8 | length; 0 marks an empty slot (length is never 0)
  };

  uint32_t LookUp(const char* data, size_t size) const noexcept;
  // Inserts the token stored at arena_[start, start + length) unless those bytes are already a token;
  // returns the existing token's rank, or kNoRank after inserting.
  uint32_t Insert(uint32_t start, uint32_t length, uint32_t rank);
  uint32_t InsertHashed(uint64_t hash, uint32_t start, uint32_t length, uint32_t rank) noexcept;
  // Indexing tokens one after another in ascending hash order fills the table front to back: a token
  // whose hash is above every earlier one cannot repeat one of them, and lands at max(home, cursor) with
  // no probing. Any other order still indexes correctly, through InsertHashed. Returns the rank of an
  // earlier token with the same bytes (not indexing this one), else kNoRank. noexcept on purpose: with
  // wasm's JS-based exceptions, a call that may throw from a function with destructors goes through a JS
  // trampoline, which per token made loading 3x slower.
  struct HashOrderFill {
    size_t cursor = 0;  // one past the slot filled last; slots [home, cursor) are all taken
    uint64_t previous_hash = 0;
    bool in_order = true;
    bool first = true;
  };
  // Inline: it runs once per token of a loading vocabulary. `prefix` is LoadPrefix of the token's bytes.
  uint32_t IndexNext(HashOrderFill* fill, uint64_t hash, uint64_t prefix, uint32_t start, uint32_t length,
                     uint32_t rank) noexcept {
    fill->in_order = fill->in_order && (fill->first || hash > fill->previous_hash);
    fill->first = false;
    fill->previous_hash = hash;
    const size_t slot = std::max<size_t>(hash >> hash_shift_, fill->cursor);
    if (fill->in_order && slot < slots_.size() && slots_[slot].rank_length == 0) {
      slots_[slot] = Slot{prefix, start, (rank << 8) | length};
      tags_[slot] = TagOf(hash);
      fill->cursor = slot + 1;
    } else {
      const uint32_t existing = InsertHashed(hash, start, length, rank);
      if (existing != kNoRank) return existing;
    }
    const auto* bytes = reinterpret_cast<const uint8_t*>(arena_.data() + start);
    if (length == 1) byte_rank_[bytes[0]] = rank;
    if (length == 2) pair_rank_[(bytes[0] << 8) | bytes[1]] = rank;
    return kNoRank;
  }
  // Checks and stores a token in the arena and the rank tables; returns its arena offset.
  uint32_t Store(std::string_view bytes, uint32_t rank);
  [[noreturn]] void ThrowDuplicate(uint32_t rank, uint32_t existing) const;
  static Vocabulary FromBinaryV1(std::string_view data);
  void Grow();

  // Hash bits 32-38 (the slot index takes the top bits) with the high bit set, so that 0 means empty.
  static uint8_t TagOf(uint64_t hash) noexcept { return static_cast<uint8_t>(0x80 | ((hash >> 32) & 0x7F)); }

  std::string arena_;
  std::vector<Slot> slots_;    // power-of-two size, at most half full
  std::vector<uint8_t> tags_;  // per slot: TagOf(its token's hash), 0 when empty
  int hash_shift_ = 64;        // 64 - log2(slots_.size())
  struct Span {
    uint32_t start;   // in arena_
    uint32_t length;  // 0 for a rank not in use
  };
  std::vector<Span> spans_;  // by rank; one load per token when decoding
  std::vector<uint32_t> byte_rank_ = std::vector<uint32_t>(256, kNoRank);
  std::vector<uint32_t> pair_rank_ = std::vector<uint32_t>(65536, kNoRank);
  size_t token_count_ = 0;
  std::vector<uint32_t> deferred_;  // ranks added by AddDeferred, not yet indexed
};

}  // namespace embedlab

#endif  // EMBEDLAB_BPE_VOCABULARY_H_
