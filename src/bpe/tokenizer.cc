#include "bpe/tokenizer.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <thread>

#include "bpe/byte_pair_merge.h"
#include "bpe/encodings.h"
#include "bpe/tiktoken_file.h"

namespace embedlab {
namespace {

// Spans are uint32 byte offsets (they cross to JS as Uint32Array).
constexpr size_t kMaxTextBytes = 0xFFFFFFFFu;

void RequireTextSize(std::string_view text) {
  if (text.size() > kMaxTextBytes) {
    throw std::out_of_range("text: " + std::to_string(text.size()) + " bytes is more than the limit of " +
                            std::to_string(kMaxTextBytes));
  }
}

}  // namespace

// The piece cache for the length of one call, when no other thread has it (wait: ClearCache, cache_size).
class Tokenizer::CacheUse {
 public:
  explicit CacheUse(SharedPieceCache* shared, bool wait = false) {
    while (shared->busy.exchange(true, std::memory_order_acquire)) {
      if (!wait) return;
      std::this_thread::yield();
    }
    shared_ = shared;
  }
  ~CacheUse() {
    if (shared_ != nullptr) shared_->busy.store(false, std::memory_order_release);
  }
  CacheUse(const CacheUse&) = delete;
  CacheUse& operator=(const CacheUse&) = delete;
  PieceCache* cache() const { return shared_ != nullptr ? &shared_->cache : nullptr; }

 private:
  SharedPieceCache* shared_ = nullptr;
};

Tokenizer Tokenizer::FromTiktoken(std::string_view tiktoken_file, std::string_view encoding_name) {
  EncodingSpecFor(encoding_name);  // a bad name fails before the file is parsed
  return ForEncoding(ParseTiktokenFile(tiktoken_file), encoding_name);
}

Tokenizer Tokenizer::ForEncoding(Vocabulary vocabulary, std::string_view encoding_name) {
  EncodingSpec spec = EncodingSpecFor(encoding_name);
  const uint32_t the_rank = vocabulary.Rank(" the", 4);
  if (vocabulary.size() != spec.token_count || the_rank != spec.the_rank) {
    throw std::invalid_argument(
        "vocabulary: " + spec.name + " has " + std::to_string(spec.token_count) + " tokens with \" the\" at rank " +
        std::to_string(spec.the_rank) + "; this file has " + std::to_string(vocabulary.size()) + " tokens and " +
        (the_rank == Vocabulary::kNoRank ? std::string("no \" the\"")
                                         : "\" the\" at rank " + std::to_string(the_rank)) +
        ": it is another encoding's vocabulary (load it with its own encoding name, or as a custom vocabulary)");
  }
  return Tokenizer(std::move(vocabulary), spec.pattern, std::move(spec.special_tokens), std::move(spec.name));
}

Tokenizer::Tokenizer(Vocabulary vocabulary, PreTokenizerPattern pattern, std::vector<SpecialToken> special_tokens,
                     std::string encoding_name)
    : vocabulary_(std::move(vocabulary)),
      short_tokens_(vocabulary_),
      pattern_(pattern),
      next_piece_(ScannerFor(pattern)),
      special_tokens_(std::move(special_tokens)),
      encoding_name_(std::move(encoding_name)) {
  for (int b = 0; b < 256; ++b) {
    const char byte = static_cast<char>(b);
    if (vocabulary_.Rank(&byte, 1) == Vocabulary::kNoRank) {
      throw std::invalid_argument("vocabulary: byte " + std::to_string(b) +
                                  " is not a token; byte-level BPE needs all 256 single bytes");
    }
  }
  vocab_size_ = vocabulary_.rank_end();
  for (const SpecialToken& t : special_tokens_.tokens()) {
    if (vocabulary_.HasRank(t.id)) {
      throw std::invalid_argument("special tokens: id " + std::to_string(t.id) + " of " + t.text +
                                  " is already the rank of an ordinary token");
    }
    if (t.id == Vocabulary::kNoRank) throw std::out_of_range("special tokens: id must be below 4294967295");
    vocab_size_ = std::max<size_t>(vocab_size_, size_t{t.id} + 1);
  }
}

void Tokenizer::EncodeOrdinaryInto(std::string_view text, size_t base, PieceCache* cache, std::vector<uint32_t>* ids,
                                   std::vector<uint32_t>* ends) const {
  for (size_t start = 0; start < text.size();) {
    const size_t end = next_piece_(text, start);
    const std::string_view piece = text.substr(start, end - start);
    // tiktoken looks the whole piece up first: most words are one token.
    const uint32_t rank = vocabulary_.Rank(piece);
    if (rank != Vocabulary::kNoRank) {
      ids->push_back(rank);
      if (ends != nullptr) ends->push_back(static_cast<uint32_t>(base + end));
    } else {
      const size_t first = ids->size();
      if (cache != nullptr && cache->Find(piece, ids)) {
        // The tokens tile the piece: their ends follow from their lengths.
        auto token_end = static_cast<uint32_t>(base + start);
        for (size_t i = first; ends != nullptr && i < ids->size(); ++i) {
          token_end += vocabulary_.Length((*ids)[i]);
          ends->push_back(token_end);
        }
      } else {
        BytePairEncode(vocabulary_, piece, static_cast<uint32_t>(base + start), ids, ends);
        if (cache != nullptr) cache->Store(piece, ids->data() + first, ids->size() - first);
      }
    }
    start = end;
  }
}

void Tokenizer::EncodeInto(std::string_view text, const SpecialTokenPolicy& policy, std::vector<uint32_t>* ids,
                           std::vector<uint32_t>* ends) const {
  RequireTextSize(text);
  std::vector<const SpecialToken*> allowed;
  std::vector<const SpecialToken*> disallowed;
  special_tokens_.Resolve(policy, &allowed, &disallowed);
  if (!disallowed.empty()) {
    size_t at = 0;
    const SpecialToken* found = SpecialTokenFinder(text, disallowed).Next(0, &at);
    if (found != nullptr) {
      throw std::invalid_argument("text contains the disallowed special token " + found->text + " at byte " +
                                  std::to_string(at) +
                                  "; allow it (allowedSpecial), or encode it as text (disallowedSpecial: [] or "
                                  "encodeOrdinary)");
    }
  }
  // A segment between special tokens is pre-tokenized as a text of its own, as tiktoken does: the
  // patterns' end-of-text lookaheads see the segment's end.
  SpecialTokenFinder finder(text, std::move(allowed));
  const CacheUse cache(cache_.get());
  for (size_t pos = 0;;) {
    size_t special_start = 0;
    const SpecialToken* special = finder.Next(pos, &special_start);
    const size_t segment_end = special ? special_start : text.size();
    EncodeOrdinaryInto(text.substr(pos, segment_end - pos), pos, cache.cache(), ids, ends);
    if (special == nullptr) break;
    pos = special_start + special->text.size();
    ids->push_back(special->id);
    if (ends != nullptr) ends->push_back(static_cast<uint32_t>(pos));
  }
}

std::vector<uint32_t> Tokenizer::Encode(std::string_view text, const SpecialTokenPolicy& policy) const {
  std::vector<uint32_t> ids;
  ids.reserve(text.size() / 4 + 8);
  EncodeInto(text, policy, &ids, nullptr);
  return ids;
}

std::vector<uint32_t> Tokenizer::EncodeOrdinary(std::string_view text) const {
  RequireTextSize(text);
  std::vector<uint32_t> ids;
  ids.reserve(text.size() / 4 + 8);
  const CacheUse cache(cache_.get());
  EncodeOrdinaryInto(text, 0, cache.cache(), &ids, nullptr);
  return ids;
}

Tokenizer::CacheSize Tokenizer::cache_size() const {
  const CacheUse use(cache_.get(), /*wait=*/true);
  return {use.cache()->pieces(), use.cache()->bytes()};
}

void Tokenizer::ClearCache() const {
  const CacheUse use(cache_.get(), /*wait=*/true);
  use.cache()->Clear();
}

EncodedTokens Tokenizer::EncodeWithSpans(std::string_view text, const SpecialTokenPolicy& policy) const {
  EncodedTokens out;
  EncodeInto(text, policy, &out.ids, &out.ends);
  out.starts.resize(out.ends.size());
  for (size_t i = 0; i < out.ends.size(); ++i) out.starts[i] = (i == 0) ? 0 : out.ends[i - 1];
  return out;
}

void Tokenizer::ThrowUnknownId(size_t index, uint32_t id) const {
  const std::string why = id < vocab_size_ ? " is an unused id of " : " is not a token id of ";
  throw std::out_of_range("ids[" + std::to_string(index) + "]: " + std::to_string(id) + why + encoding_name_ +
                          " (ids are in [0, " + std::to_string(vocab_size_) + "))");
}

size_t Tokenizer::DecodeInto(const uint32_t* ids, size_t count, std::string* buffer) const {
  // One pass: room for the longest token plus CopyBytes' overrun is checked per token and the buffer
  // grows geometrically, which is cheaper than a first pass that counts the bytes.
  constexpr size_t kRoom = Vocabulary::kMaxTokenBytes + Vocabulary::kCopyOverrun;
  static_assert(ShortTokenTable::kMaxBytes + ShortTokenTable::kCopyOverrun <= kRoom);
  if (buffer->size() < kRoom) buffer->resize(kRoom);
  char* out = buffer->data();  // locals, not buffer->size(): stores through char* may alias the string
  size_t capacity = buffer->size();
  size_t size = 0;
  const auto reserve = [&](size_t bytes) {
    if (capacity - size >= bytes) return;
    buffer->resize(std::max(2 * capacity, size + bytes));
    out = buffer->data();
    capacity = buffer->size();
  };
  for (size_t i = 0; i < count; ++i) {
    const uint32_t id = ids[i];
    reserve(kRoom);
    if (const size_t length = short_tokens_.Copy(id, out + size)) {
      size += length;
    } else if (vocabulary_.HasRank(id)) {
      size += vocabulary_.CopyBytes(id, out + size);
    } else if (const SpecialToken* special = special_tokens_.FindById(id)) {
      reserve(special->text.size());
      std::memcpy(out + size, special->text.data(), special->text.size());
      size += special->text.size();
    } else {
      ThrowUnknownId(i, id);
    }
  }
  return size;
}

std::string Tokenizer::DecodeBytes(const uint32_t* ids, size_t count) const {
  std::string out;
  out.resize(DecodeInto(ids, count, &out));
  return out;
}

std::string Tokenizer::DecodeBytes(const std::vector<uint32_t>& ids) const {
  return DecodeBytes(ids.data(), ids.size());
}

std::string Tokenizer::TokenBytes(uint32_t id) const { return DecodeBytes(&id, 1); }

}  // namespace embedlab
