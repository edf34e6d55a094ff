#include "hf/bpe_model.h"

#include <algorithm>
#include <cstdio>
#include <thread>

#include "hf/byte_level_alphabet.h"
#include "text/utf8.h"

namespace embedlab {
namespace {

constexpr uint32_t kNone = TokenTable::kNone;
constexpr size_t kCutPieceBytes = 64;          // shorter pre-tokens are not worth cutting
constexpr char kMetaspace[] = "\xE2\x96\x81";  // ▁ U+2581

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// A cache entry of n tokens has n + ceil(n / 2) words (BpeModel::cache_), so n = floor(2 * words / 3).
size_t TokensInEntry(size_t words) { return 2 * words / 3; }
size_t EntryWords(size_t tokens) { return tokens + (tokens + 1) / 2; }

}  // namespace

void BpeModel::Finish(const BpeOptions& options) {
  options_ = options;
  std::string key;
  for (int b = 0; b < 256; ++b) {
    key.clear();
    if (options_.byte_level) {
      AppendByteLevelString(std::string_view(reinterpret_cast<const char*>(&b), 1), &key);
    } else {
      key = std::string(1, static_cast<char>(b));
    }
    unit_ids_[b] = (options_.byte_level || b < 0x80) ? vocab_.Find(key) : kNone;
    char name[8];
    std::snprintf(name, sizeof(name), "<0x%02X>", b);
    fallback_ids_[b] = vocab_.Find(name);
  }
  all_fallback_ = true;
  for (uint32_t id : fallback_ids_) all_fallback_ = all_fallback_ && id != kNone;
  FindCutCharacter();
}

// A merge can join across a cut before "▁" (following another character c) only when its right token starts with
// "▁" and its left token ends with c's token string. Cuts are made only after a character that is its own token
// (not byte_fallback or unknown) and that no such merge's left token ends with.
void BpeModel::FindCutCharacter() {
  cut_character_.clear();
  no_cut_after_.clear();
  if (options_.byte_level || options_.ignore_merges || vocab_.Find(kMetaspace) == kNone) return;
  // One pass over the strings (in memory order) marks the tokens that start with the cut character; the merges
  // are then checked by id.
  std::vector<bool> starts_with_cut(vocab_.id_end(), false);
  for (uint32_t id = 0; id < vocab_.id_end(); ++id) {
    starts_with_cut[id] = vocab_.Has(id) && vocab_.String(id).substr(0, 3) == kMetaspace;
  }
  merges_.ForEach([&](const MergeTable::Entry& merge) {
    if (!starts_with_cut[merge.right]) return;
    const std::string_view left = vocab_.String(merge.left);
    if (left.empty() || EndsWith(left, kMetaspace)) return;
    size_t last = left.size() - 1;
    while (last > 0 && (static_cast<uint8_t>(left[last]) & 0xC0) == 0x80) --last;
    const uint32_t c = DecodeUtf8At(left, last).code_point;
    if (std::find(no_cut_after_.begin(), no_cut_after_.end(), c) == no_cut_after_.end()) no_cut_after_.push_back(c);
  });
  if (no_cut_after_.size() <= 64) cut_character_ = kMetaspace;  // more would not be worth the checks
}

bool BpeModel::CanCutAfter(std::string_view piece, size_t pos) const {
  size_t start = pos - 1;
  while (start > 0 && pos - start < 4 && (static_cast<uint8_t>(piece[start]) & 0xC0) == 0x80) --start;
  const DecodedCodePoint d = DecodeUtf8At(piece, start);
  if (start + d.length != pos) return false;  // not a whole character (invalid UTF-8)
  // The cheap test first: in a run of "▁" (spaces) it decides at every position.
  if (piece.substr(start, d.length) == cut_character_) return false;
  if (std::find(no_cut_after_.begin(), no_cut_after_.end(), d.code_point) != no_cut_after_.end()) return false;
  const uint32_t id =
      d.length == 1 ? unit_ids_[static_cast<uint8_t>(piece[start])] : vocab_.Find(piece.substr(start, d.length));
  return id != kNone;
}

// The Rust crate's merge_word: note that a pending unknown token is written only when the next character has a
// token of its own, so byte-fallback tokens can come before it (a quirk kept for exactness).
void BpeModel::InitialSymbols(std::string_view piece, std::vector<BpeSymbol>* symbols) const {
  symbols->clear();
  bool pending = false;
  BpeSymbol unk{};
  const size_t n = piece.size();
  for (size_t pos = 0; pos < n;) {
    const auto byte = static_cast<uint8_t>(piece[pos]);
    size_t length = 1;
    uint32_t id;
    if (options_.byte_level || byte < 0x80) {
      id = unit_ids_[byte];
    } else {
      length = DecodeUtf8At(piece, pos).length;
      id = vocab_.Find(piece.substr(pos, length));
    }
    const auto start = static_cast<uint32_t>(pos);
    const auto end = static_cast<uint32_t>(pos + length);
    pos += length;
    if (id != kNone) {
      if (pending) symbols->push_back(unk);
      pending = false;
      symbols->push_back({id, start, end});
      continue;
    }
    if (options_.byte_fallback) {
      bool all = true;
      for (size_t i = start; i < end && !all_fallback_ && all; ++i) {
        all = fallback_ids_[static_cast<uint8_t>(piece[i])] != kNone;
      }
      if (all) {
        for (size_t i = start; i < end; ++i)
          symbols->push_back({fallback_ids_[static_cast<uint8_t>(piece[i])], start, end});
        continue;
      }
    }
    if (options_.unk_id == kNone) continue;  // no unknown token: the character is dropped
    if (pending && options_.fuse_unk) {
      unk.end = end;
    } else {
      if (pending) symbols->push_back(unk);
      unk = {options_.unk_id, start, end};
      pending = true;
    }
  }
  if (pending) symbols->push_back(unk);
}

void BpeModel::TokenizeUncached(std::string_view piece, std::vector<BpeSymbol>* symbols) const {
  if (options_.ignore_merges) {
    uint32_t id = kNone;
    if (options_.byte_level) {
      thread_local std::string key;  // not allocated per piece
      key.clear();
      AppendByteLevelString(piece, &key);
      id = vocab_.Find(key);
      if (key.capacity() > (size_t{1} << 16)) std::string().swap(key);  // one long piece: let it go
    } else {
      id = vocab_.Find(piece);
    }
    if (id != kNone) {
      symbols->assign(1, BpeSymbol{id, 0, static_cast<uint32_t>(piece.size())});
      return;
    }
  }
  InitialSymbols(piece, symbols);
  MergeWord(merges_, symbols);
}

BpeModel::CacheUse::CacheUse(const BpeModel& model, bool wait) {
  while (model.cache_busy_.exchange(true, std::memory_order_acquire)) {
    if (!wait) return;
    std::this_thread::yield();
  }
  model_ = &model;
}

BpeModel::CacheUse::~CacheUse() {
  if (model_ != nullptr) model_->cache_busy_.store(false, std::memory_order_release);
}

BpeModel::CacheSize BpeModel::cache_size() const {
  const CacheUse use(*this, /*wait=*/true);
  return {cache_.pieces(), cache_.bytes()};
}

void BpeModel::ClearCache() const {
  const CacheUse use(*this, /*wait=*/true);
  cache_.Clear();
}

void BpeModel::Tokenize(std::string_view piece, uint32_t base, PieceCache* cache, std::vector<uint32_t>* ids,
                        std::vector<uint32_t>* starts, std::vector<uint32_t>* ends) const {
  if (piece.empty()) return;
  if (!cut_character_.empty() && piece.size() > kCutPieceBytes) {
    return TokenizeCut(piece, base, cache, ids, starts, ends);
  }
  TokenizePart(piece, base, cache, ids, starts, ends);
}

void BpeModel::TokenizePart(std::string_view piece, uint32_t base, PieceCache* cache, std::vector<uint32_t>* ids,
                            std::vector<uint32_t>* starts, std::vector<uint32_t>* ends) const {
  thread_local std::vector<uint32_t> entry;
  thread_local std::vector<BpeSymbol> symbols;
  const bool cacheable = cache != nullptr && piece.size() <= PieceCache::kMaxPieceBytes;
  if (cacheable) {
    size_t words = 0;
    if (const uint32_t* found = cache->Lookup(piece, &words)) {
      const size_t n = TokensInEntry(words);
      if (n == 1) {
        ids->push_back(found[0]);  // most pieces are one token: no range insert
      } else {
        ids->insert(ids->end(), found, found + n);
      }
      if (starts != nullptr) {
        const auto* spans = reinterpret_cast<const uint8_t*>(found + n);
        for (size_t i = 0; i < n; ++i) {
          starts->push_back(base + spans[2 * i]);
          ends->push_back(base + spans[2 * i + 1]);
        }
      }
      return;
    }
  }
  if (piece.size() > kMaxMergedBytes) throw PieceTooLong{base, piece.size()};
  TokenizeUncached(piece, &symbols);
  for (const BpeSymbol& s : symbols) {
    ids->push_back(s.id);
    if (starts != nullptr) {
      starts->push_back(base + s.start);
      ends->push_back(base + s.end);
    }
  }
  if (symbols.capacity() > (size_t{1} << 20)) std::vector<BpeSymbol>().swap(symbols);  // one long part: let it go
  if (cacheable && !symbols.empty()) {
    const size_t n = symbols.size();
    entry.assign(EntryWords(n), 0);
    auto* spans = reinterpret_cast<uint8_t*>(entry.data() + n);
    for (size_t i = 0; i < n; ++i) {
      entry[i] = symbols[i].id;
      spans[2 * i] = static_cast<uint8_t>(symbols[i].start);
      spans[2 * i + 1] = static_cast<uint8_t>(symbols[i].end);
    }
    cache->Store(piece, entry.data(), entry.size());
  }
}

// Cuts before each cut character where CanCutAfter allows: FindCutCharacter proved no merge joins the parts.
void BpeModel::TokenizeCut(std::string_view piece, uint32_t base, PieceCache* cache, std::vector<uint32_t>* ids,
                           std::vector<uint32_t>* starts, std::vector<uint32_t>* ends) const {
  const std::string_view cut = cut_character_;
  size_t part_start = 0;
  size_t pos = piece.find(cut, 1);
  while (pos != std::string_view::npos) {
    if (CanCutAfter(piece, pos)) {
      const std::string_view part = piece.substr(part_start, pos - part_start);
      TokenizePart(part, base + static_cast<uint32_t>(part_start), cache, ids, starts, ends);
      part_start = pos;
    }
    // The rest of a run of cut characters follows a cut character, where no cut is allowed (CanCutAfter): skipped.
    size_t next = pos + cut.size();
    while (piece.size() - next >= cut.size() && std::equal(cut.begin(), cut.end(), piece.begin() + next)) {
      next += cut.size();
    }
    pos = piece.find(cut, next);
  }
  TokenizePart(piece.substr(part_start), base + static_cast<uint32_t>(part_start), cache, ids, starts, ends);
}

}  // namespace embedlab
