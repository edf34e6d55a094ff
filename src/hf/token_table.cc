#include "hf/token_table.h"

#include <cstring>
#include <stdexcept>

#include "bpe/token_hash.h"

namespace embedlab {
namespace {

struct Key {
  uint64_t prefix;
  uint64_t hash;
  uint32_t tag;
};

// LoadPrefix reads at least one byte; the empty string (a hostile vocabulary may hold it) has prefix 0.
Key KeyOf(std::string_view token) {
  const uint64_t prefix = token.empty() ? 0 : LoadPrefix(token.data(), token.size());
  const uint64_t hash = HashBytes(prefix, token.data(), token.size());
  const uint32_t length = token.size() < 255 ? static_cast<uint32_t>(token.size()) : 255;
  return {prefix, hash, (static_cast<uint32_t>(hash) & ~0xFFu) | length};
}

}  // namespace

// Called with equal prefixes and tags: for tokens of 9 to 254 bytes the lengths are equal too.
bool TokenTable::SameString(uint32_t id, std::string_view token) const {
  const Span& span = spans_[id];
  if (span.length != token.size()) return false;
  return token.size() < 255 ? SameTail(arena_.data() + span.offset, token.data(), token.size()) : String(id) == token;
}

void TokenTable::Reserve(size_t tokens, size_t bytes) {
  arena_.reserve(bytes);
  size_t slots = 1024;
  while (slots < 2 * tokens) slots *= 2;
  if (slots > slots_.size()) Rehash(slots);
}

size_t TokenTable::SlotOf(std::string_view token, uint64_t prefix, uint64_t hash, uint32_t tag) const {
  const size_t mask = slots_.size() - 1;
  for (size_t slot = hash >> shift_;; slot = (slot + 1) & mask) {
    const Slot& s = slots_[slot];
    if (s.id == kNone) return slot;
    if (s.tag == tag && s.prefix == prefix && (token.size() <= 8 || SameString(s.id, token))) return slot;
  }
}

void TokenTable::Rehash(size_t slot_count) {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(slot_count, Slot{0, kNone, 0});
  shift_ = 64;
  for (size_t n = slot_count; n > 1; n >>= 1) --shift_;
  for (const Slot& s : old) {
    if (s.id == kNone) continue;
    const std::string_view token = String(s.id);
    slots_[SlotOf(token, s.prefix, HashBytes(s.prefix, token.data(), token.size()), s.tag)] = s;
  }
}

uint32_t TokenTable::Add(std::string_view token, uint32_t id, bool* id_taken) {
  *id_taken = false;
  if (id >= kMaxTokens) throw std::invalid_argument("token id out of range");  // callers check first
  if (Has(id)) {
    *id_taken = true;
    return id;
  }
  if (slots_.empty() || 2 * (count_ + 1) > slots_.size()) Rehash(slots_.empty() ? 1024 : 2 * slots_.size());
  const Key key = KeyOf(token);
  const size_t slot = SlotOf(token, key.prefix, key.hash, key.tag);
  if (slots_[slot].id != kNone) return slots_[slot].id;
  if (arena_.size() + token.size() > 0xFFFFFFF0u) throw std::invalid_argument("the vocabulary's strings exceed 4 GB");
  if (id >= spans_.size()) spans_.resize(size_t{id} + 1, Span{0, kNone});
  spans_[id] = {static_cast<uint32_t>(arena_.size()), static_cast<uint32_t>(token.size())};
  arena_.append(token.data(), token.size());
  slots_[slot] = {key.prefix, id, key.tag};
  ++count_;
  return kNone;
}

TokenTable::Probe TokenTable::Prepare(std::string_view token) const {
  const Key key = KeyOf(token);
  if (!slots_.empty()) __builtin_prefetch(&slots_[key.hash >> shift_]);
  return {key.prefix, key.hash, key.tag};
}

uint32_t TokenTable::Find(std::string_view token, const Probe& probe) const {
  if (slots_.empty()) return kNone;
  return slots_[SlotOf(token, probe.prefix, probe.hash, probe.tag)].id;
}

uint32_t TokenTable::Find(std::string_view token) const {
  if (slots_.empty()) return kNone;
  const Key key = KeyOf(token);
  return slots_[SlotOf(token, key.prefix, key.hash, key.tag)].id;
}

}  // namespace embedlab
