#include "hf/token_table.h"

#include <cstring>
#include <stdexcept>

#include "bpe/token_hash.h"

namespace embedlab {
namespace {

// HashOf reads at least one byte; the empty string (a hostile vocabulary may hold it) gets a constant.
uint64_t TokenHash(std::string_view token) {
  return token.empty() ? 0x9E3779B97F4A7C15ull : HashOf(token.data(), token.size());
}

}  // namespace

void TokenTable::Reserve(size_t tokens, size_t bytes) {
  arena_.reserve(bytes);
  size_t slots = 1024;
  while (slots < 2 * tokens) slots *= 2;
  if (slots > slots_.size()) Rehash(slots);
}

size_t TokenTable::SlotOf(std::string_view token, uint64_t hash) const {
  const size_t mask = slots_.size() - 1;
  const auto tag = static_cast<uint32_t>(hash);
  for (size_t slot = hash >> shift_;; slot = (slot + 1) & mask) {
    const Slot& s = slots_[slot];
    if (s.id == kNone) return slot;
    if (s.tag == tag && String(s.id) == token) return slot;
  }
}

void TokenTable::Rehash(size_t slot_count) {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(slot_count, Slot{kNone, 0});
  shift_ = 64;
  for (size_t n = slot_count; n > 1; n >>= 1) --shift_;
  for (const Slot& s : old) {
    if (s.id == kNone) continue;
    const std::string_view token = String(s.id);
    const uint64_t hash = TokenHash(token);
    slots_[SlotOf(token, hash)] = {s.id, static_cast<uint32_t>(hash)};
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
  const uint64_t hash = TokenHash(token);
  const size_t slot = SlotOf(token, hash);
  if (slots_[slot].id != kNone) return slots_[slot].id;
  if (arena_.size() + token.size() > 0xFFFFFFF0u) throw std::invalid_argument("the vocabulary's strings exceed 4 GB");
  if (id >= spans_.size()) spans_.resize(size_t{id} + 1, Span{0, kNone});
  spans_[id] = {static_cast<uint32_t>(arena_.size()), static_cast<uint32_t>(token.size())};
  arena_.append(token.data(), token.size());
  slots_[slot] = {id, static_cast<uint32_t>(hash)};
  ++count_;
  return kNone;
}

uint32_t TokenTable::Find(std::string_view token) const {
  if (slots_.empty()) return kNone;
  return slots_[SlotOf(token, TokenHash(token))].id;
}

}  // namespace embedlab
