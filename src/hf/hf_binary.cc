// HfTokenizer::ToBinary / FromBinary. Layout (integers u32 little-endian, strings as u32 length + bytes):
//   "EMBLHF02", name, u8 clean_up_default, u8 byte_fallback, u8 fuse_unk, u8 ignore_merges, u32 unk_id,
//   vocabulary: u32 count, (u32 id, u32 length)[count], the strings' bytes in that order;
//   merges: u32 ranks (merges listed), u32 pairs, (u32 left, u32 right, u32 result, u32 rank)[pairs];
//   normalizer steps, pre-tokenizer steps, post-processor ids (prefix, suffix), decoder steps, added tokens;
//   u64 FNV-1a of all the bytes before it, so a corrupted file is refused rather than loaded as another tokenizer.
// Tokens are listed by id and merges by rank, so equal tokenizers give equal bytes; nothing is parsed as JSON or
// decimal text.
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "hf/hf_tokenizer_impl.h"

namespace embedlab {
namespace {

constexpr char kMagic[8] = {'E', 'M', 'B', 'L', 'H', 'F', '0', '2'};
constexpr size_t kChecksumBytes = 8;

uint64_t Fnv1a64(std::string_view data) {
  uint64_t hash = 0xCBF29CE484222325ull;
  for (char c : data) hash = (hash ^ static_cast<uint8_t>(c)) * 0x100000001B3ull;
  return hash;
}

class Writer {
 public:
  void U8(uint32_t v) { out_ += static_cast<char>(v); }
  void U32(uint32_t v) {
    for (int shift = 0; shift < 32; shift += 8) out_ += static_cast<char>((v >> shift) & 0xFF);
  }
  void Str(std::string_view s) {
    U32(static_cast<uint32_t>(s.size()));
    out_.append(s);
  }
  void Raw(std::string_view s) { out_.append(s); }
  std::string& out() { return out_; }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view data) : data_(data) {}
  [[noreturn]] static void Fail(const std::string& what) {
    throw std::invalid_argument("binary HF tokenizer: " + what);
  }
  void Need(size_t bytes) {
    if (data_.size() - pos_ < bytes) Fail("the data is truncated");
  }
  uint32_t U8() {
    Need(1);
    return static_cast<uint8_t>(data_[pos_++]);
  }
  bool Bool() {
    const uint32_t v = U8();
    if (v > 1) Fail("a flag is neither 0 nor 1");
    return v == 1;
  }
  uint32_t U32() {
    Need(4);
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<uint8_t>(data_[pos_ + i])) << (8 * i);
    pos_ += 4;
    return v;
  }
  // A count of items of at least item_bytes each: refused when the data cannot hold them (before allocating).
  uint32_t Count(size_t item_bytes, uint32_t max, const char* what) {
    const uint32_t n = U32();
    if (n > max) Fail(std::string(what) + ": too many (" + std::to_string(n) + ")");
    Need(size_t{n} * item_bytes);
    return n;
  }
  std::string_view Raw(size_t n) {
    Need(n);
    const std::string_view s = data_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  std::string Str() { return std::string(Raw(U32())); }
  bool AtEnd() const { return pos_ == data_.size(); }

 private:
  std::string_view data_;
  size_t pos_ = 0;
};

}  // namespace

bool IsHfBinary(std::string_view data) { return data.size() >= 8 && std::memcmp(data.data(), kMagic, 8) == 0; }

std::string WriteHfBinary(const HfTokenizerImpl& impl) {
  Writer w;
  w.Raw(std::string_view(kMagic, 8));
  w.Str(impl.name);
  const BpeOptions& options = impl.model.options();
  w.U8(impl.clean_up_default);
  w.U8(options.byte_fallback);
  w.U8(options.fuse_unk);
  w.U8(options.ignore_merges);
  w.U32(options.unk_id);
  const TokenTable& vocab = impl.model.vocab();
  w.U32(static_cast<uint32_t>(vocab.size()));
  // Tokens by id and merges by rank: the hash tables' order depends on how they were filled (a probe that wrapped
  // round moves when the table is refilled in that order), so writing it made each round trip differ.
  std::vector<uint32_t> ids;
  ids.reserve(vocab.size());
  vocab.ForEachInTableOrder([&](uint32_t id) { ids.push_back(id); });
  std::sort(ids.begin(), ids.end());
  for (uint32_t id : ids) {
    w.U32(id);
    w.U32(static_cast<uint32_t>(vocab.String(id).size()));
  }
  for (uint32_t id : ids) w.Raw(vocab.String(id));
  const MergeTable& merges = impl.model.merges();
  w.U32(static_cast<uint32_t>(merges.size()));
  w.U32(static_cast<uint32_t>(merges.pairs()));
  std::vector<MergeTable::Entry> entries;
  entries.reserve(merges.pairs());
  merges.ForEach([&](const MergeTable::Entry& e) { entries.push_back(e); });
  std::sort(entries.begin(), entries.end(),
            [](const MergeTable::Entry& a, const MergeTable::Entry& b) { return a.rank < b.rank; });
  for (const MergeTable::Entry& e : entries) {
    w.U32(e.left);
    w.U32(e.right);
    w.U32(e.result);
    w.U32(e.rank);
  }
  w.U32(static_cast<uint32_t>(impl.normalizer.steps().size()));
  for (const NormalizerStep& s : impl.normalizer.steps()) {
    w.U8(static_cast<uint32_t>(s.kind));
    w.Str(s.pattern);
    w.Str(s.content);
  }
  w.U32(static_cast<uint32_t>(impl.pre_tokenizer.steps().size()));
  for (const PreTokenizerStep& s : impl.pre_tokenizer.steps()) {
    w.U8(static_cast<uint32_t>(s.kind));
    w.Str(s.pattern);
    w.U8(static_cast<uint32_t>(s.behavior));
    w.U8(s.invert);
    w.U8(s.add_prefix_space);
    w.U8(s.use_regex);
    w.U8(static_cast<uint32_t>(s.prepend));
    w.U8(s.split);
  }
  for (const auto* ids : {&impl.post_processor.prefix, &impl.post_processor.suffix}) {
    w.U32(static_cast<uint32_t>(ids->size()));
    for (uint32_t id : *ids) w.U32(id);
  }
  w.U32(static_cast<uint32_t>(impl.decoder.steps().size()));
  for (const DecoderStep& s : impl.decoder.steps()) {
    w.U8(static_cast<uint32_t>(s.kind));
    w.Str(s.pattern);
    w.Str(s.content);
    w.U32(s.start);
    w.U32(s.stop);
    w.U8(s.prepended);
  }
  w.U32(static_cast<uint32_t>(impl.added.tokens().size()));
  for (const AddedToken& t : impl.added.tokens()) {
    w.Str(t.content);
    w.U32(t.id);
    w.U8(t.special | t.normalized << 1 | t.lstrip << 2 | t.rstrip << 3 | t.single_word << 4);
  }
  const uint64_t checksum = Fnv1a64(w.out());
  w.U32(static_cast<uint32_t>(checksum));
  w.U32(static_cast<uint32_t>(checksum >> 32));
  return std::move(w.out());
}

std::unique_ptr<HfTokenizerImpl> ReadHfBinary(std::string_view data) {
  if (data.size() < 8 && std::string_view(kMagic, 8).substr(0, data.size()) == data)
    Reader::Fail("the data is truncated");
  if (!IsHfBinary(data)) Reader::Fail("not an EMBLHF02 file");
  if (data.size() < 8 + kChecksumBytes) Reader::Fail("the data is truncated");
  const std::string_view body = data.substr(0, data.size() - kChecksumBytes);
  uint64_t stored = 0;
  for (size_t i = 0; i < kChecksumBytes; ++i)
    stored |= uint64_t{static_cast<uint8_t>(data[body.size() + i])} << (8 * i);
  if (Fnv1a64(body) != stored) Reader::Fail("the checksum does not match (the data is truncated or corrupted)");
  Reader r(body.substr(8));
  auto impl = std::make_unique<HfTokenizerImpl>();
  impl->name = r.Str();
  impl->clean_up_default = r.Bool();
  BpeOptions options;
  options.byte_fallback = r.Bool();
  options.fuse_unk = r.Bool();
  options.ignore_merges = r.Bool();
  options.unk_id = r.U32();
  TokenTable& vocab = impl->model.vocab();
  const uint32_t tokens = r.Count(8, TokenTable::kMaxTokens, "tokens");
  std::vector<uint32_t> ids(tokens), lengths(tokens);
  size_t total = 0;
  for (uint32_t i = 0; i < tokens; ++i) {
    ids[i] = r.U32();
    lengths[i] = r.U32();
    if (ids[i] >= TokenTable::kMaxTokens) Reader::Fail("a token id is out of range");
    total += lengths[i];
  }
  const std::string_view bytes = r.Raw(total);
  vocab.Reserve(tokens, total);
  size_t at = 0;
  for (uint32_t i = 0; i < tokens; ++i) {
    bool id_taken = false;
    if (vocab.Add(bytes.substr(at, lengths[i]), ids[i], &id_taken) != TokenTable::kNone || id_taken) {
      Reader::Fail("a token or an id appears twice");
    }
    at += lengths[i];
  }
  if (options.unk_id != TokenTable::kNone && !vocab.Has(options.unk_id))
    Reader::Fail("the unknown token is not a token");
  const uint32_t ranks = r.U32();
  if (ranks > MergeTable::kMaxMerges) Reader::Fail("too many merges");
  const uint32_t pairs = r.Count(16, ranks, "merge pairs");
  MergeTable& merge_table = impl->model.merges();
  merge_table.Reserve(pairs);
  merge_table.set_ranks(ranks);
  std::vector<bool> rank_used(ranks, false);
  for (uint32_t i = 0; i < pairs; ++i) {
    const uint32_t left = r.U32(), right = r.U32(), result = r.U32(), rank = r.U32();
    if (!vocab.Has(left) || !vocab.Has(right) || !vocab.Has(result) ||
        vocab.String(result).size() != vocab.String(left).size() + vocab.String(right).size() || rank >= ranks ||
        rank_used[rank]) {
      Reader::Fail("merge " + std::to_string(i) + " is inconsistent with the vocabulary or the other merges");
    }
    rank_used[rank] = true;
    if (!merge_table.AddRanked(left, right, result, rank)) Reader::Fail("a merge pair appears twice");
  }
  std::vector<NormalizerStep> normalizer_steps(r.Count(9, 1024, "normalizer steps"));
  for (NormalizerStep& s : normalizer_steps) {
    const uint32_t kind = r.U8();
    if (kind > 2) Reader::Fail("an unknown normalizer step");
    s.kind = static_cast<NormalizerStep::Kind>(kind);
    s.pattern = r.Str();
    s.content = r.Str();
    if (s.kind == NormalizerStep::Kind::kReplace && s.pattern.empty()) Reader::Fail("an empty Replace pattern");
  }
  impl->normalizer = Normalizer(std::move(normalizer_steps));
  std::vector<PreTokenizerStep> pre_steps(r.Count(11, 1024, "pre-tokenizer steps"));
  for (PreTokenizerStep& s : pre_steps) {
    const uint32_t kind = r.U8();
    if (kind > 3) Reader::Fail("an unknown pre-tokenizer step");
    s.kind = static_cast<PreTokenizerStep::Kind>(kind);
    s.pattern = r.Str();
    const uint32_t behavior = r.U8();
    if (behavior > 4) Reader::Fail("an unknown split behavior");
    s.behavior = static_cast<SplitBehavior>(behavior);
    s.invert = r.Bool();
    s.add_prefix_space = r.Bool();
    s.use_regex = r.Bool();
    const uint32_t prepend = r.U8();
    if (prepend > 2) Reader::Fail("an unknown prepend scheme");
    s.prepend = static_cast<PreTokenizerStep::Prepend>(prepend);
    s.split = r.Bool();
  }
  impl->pre_tokenizer = PreTokenizer(std::move(pre_steps));  // resolves (or refuses) each regex
  for (auto* list : {&impl->post_processor.prefix, &impl->post_processor.suffix}) {
    list->resize(r.Count(4, 1024, "template ids"));
    for (uint32_t& id : *list) id = r.U32();
  }
  std::vector<DecoderStep> decoder_steps(r.Count(18, 1024, "decoder steps"));
  for (DecoderStep& s : decoder_steps) {
    const uint32_t kind = r.U8();
    if (kind > 5) Reader::Fail("an unknown decoder step");
    s.kind = static_cast<DecoderStep::Kind>(kind);
    s.pattern = r.Str();
    s.content = r.Str();
    s.start = r.U32();
    s.stop = r.U32();
    s.prepended = r.Bool();
    if (s.kind == DecoderStep::Kind::kReplace && s.pattern.empty()) Reader::Fail("an empty Replace pattern");
    if ((s.kind == DecoderStep::Kind::kStrip || s.kind == DecoderStep::Kind::kMetaspace) && s.content.empty()) {
      Reader::Fail("a Strip or Metaspace without its character");
    }
  }
  impl->decoder = Decoder(std::move(decoder_steps));
  std::vector<AddedToken> added(r.Count(9, TokenTable::kMaxTokens, "added tokens"));
  for (AddedToken& t : added) {
    t.content = r.Str();
    t.id = r.U32();
    const uint32_t flags = r.U8();
    if (flags > 31) Reader::Fail("unknown added-token flags");
    t.special = flags & 1;
    t.normalized = flags & 2;
    t.lstrip = flags & 4;
    t.rstrip = flags & 8;
    t.single_word = flags & 16;
  }
  if (!r.AtEnd()) Reader::Fail("unexpected data after the end");
  options.byte_level = impl->pre_tokenizer.byte_level();
  impl->Finish(std::move(added), options);
  return impl;
}

}  // namespace embedlab
