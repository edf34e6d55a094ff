// HfTokenizer::Encode and Count: the Rust crate's pipeline. Added tokens are found in the raw text first
// (normalized: false); each remaining section is normalized on its own, then split on the normalized added tokens;
// each remaining part is pre-tokenized and each pre-token goes through the BPE model; the post-processor's
// template adds its special tokens. Spans map back through every step to the input's bytes.
#include <stdexcept>
#include <string>
#include <vector>

#include "hf/hf_tokenizer_impl.h"
#include "text/utf8.h"

namespace embedlab {
namespace {

struct Sink {
  PieceCache* cache;  // the model's, taken for this encode (BpeModel::CacheUse), or null
  std::vector<uint32_t>* ids;
  std::vector<uint32_t>* starts;  // null: no spans wanted
  std::vector<uint32_t>* ends;
  void Emit(uint32_t id, uint32_t start, uint32_t end) const {
    ids->push_back(id);
    if (starts != nullptr) {
      starts->push_back(start);
      ends->push_back(end);
    }
  }
};

// One part of a normalized section with no added token in it. to_source maps a normalized offset to the input.
// continues_text: the input goes on from a cut (HfEncodeOptions::starts_after_cut), so offset 0 is no text start.
template <typename ToSource>
void EncodePart(const HfTokenizerImpl& impl, std::string_view part, uint32_t part_offset, const ToSource& to_source,
                bool continues_text, bool exact_offsets, const Sink& sink) {
  thread_local PreTokenized pre;
  struct ForgetLong {  // a long text's buffers are let go (also when the model refuses a part)
    ~ForgetLong() {
      if (pre.alignment.capacity() > (size_t{1} << 20) || pre.storage.capacity() > (size_t{4} << 20) ||
          pre.pieces.capacity() > (size_t{1} << 20)) {
        pre = PreTokenized();
      }
    }
  } forget_long;
  // The pre-tokens of pre.text: ids, then their spans mapped back to the input.
  auto encode_piece = [&](uint32_t piece_start, uint32_t piece_end) {
    const size_t first = sink.ids->size();
    impl.model.Tokenize(pre.text.substr(piece_start, piece_end - piece_start), piece_start, sink.cache, sink.ids,
                        sink.starts, sink.ends);
    if (sink.starts == nullptr) return;
    for (size_t k = first; k < sink.ids->size(); ++k) {
      uint32_t& start = (*sink.starts)[k];
      uint32_t& end = (*sink.ends)[k];
      if (!pre.alignment.empty()) {
        start = pre.alignment[start];
        end = pre.alignment[end];
      }
      start = to_source(part_offset + start);
      end = to_source(part_offset + end);
    }
  };
  try {
    if (const SplitMatcher matcher = impl.pre_tokenizer.isolated_matcher()) {
      // One Split into matches and gaps, each a pre-token (SplitPiece's kIsolated), tokenized as it is found.
      pre.text = part;
      pre.alignment.clear();
      const auto size = static_cast<uint32_t>(part.size());
      uint32_t previous = 0;
      size_t from = 0, start = 0, end = 0;
      while (from <= part.size() && matcher(part, from, &start, &end)) {
        if (start > previous) encode_piece(previous, static_cast<uint32_t>(start));
        if (end > start) encode_piece(static_cast<uint32_t>(start), static_cast<uint32_t>(end));
        previous = static_cast<uint32_t>(end);
        from = end > start ? end : end + (end < part.size() ? DecodeUtf8At(part, end).length : 1);
      }
      if (size > previous) encode_piece(previous, size);
    } else {
      impl.pre_tokenizer.Split(part, !continues_text && to_source(part_offset) == 0, &pre);
      for (const PieceRange& piece : pre.pieces) encode_piece(piece.start, piece.end);
    }
  } catch (const PieceTooLong& e) {
    const uint32_t start = pre.alignment.empty() ? e.start : pre.alignment[e.start];
    // Without spans a normalizer's alignment is not kept: the offset is then the normalized text's.
    const std::string where =
        exact_offsets ? "byte " + std::to_string(to_source(part_offset + start))
                      : "about byte " + std::to_string(to_source(part_offset + start)) + " (of the normalized text)";
    throw std::out_of_range("text: the text from " + where + " has no place to split it for " +
                            std::to_string(e.length) + " bytes (the model " + "merges at most " +
                            std::to_string(BpeModel::kMaxMergedBytes >> 20) +
                            " MiB in one go, e.g. of one run of spaces or letters); split the text there");
  }
}

void EncodeSection(const HfTokenizerImpl& impl, std::string_view section, uint32_t base, bool split_special,
                   bool continues_text, const Sink& sink) {
  // Per thread, not per section: a text with many added tokens has many sections.
  thread_local std::string storage;
  thread_local std::vector<uint32_t> alignment;
  thread_local std::vector<AddedSplit> splits;
  struct ForgetLong {
    ~ForgetLong() {
      if (storage.capacity() > (size_t{4} << 20)) std::string().swap(storage);
      if (alignment.capacity() > (size_t{1} << 20)) std::vector<uint32_t>().swap(alignment);
      if (splits.capacity() > (size_t{1} << 16)) std::vector<AddedSplit>().swap(splits);
    }
  } forget_long;
  std::string_view normalized = section;
  const bool aligned = sink.starts != nullptr && !impl.normalizer.empty();
  if (!impl.normalizer.empty()) {
    impl.normalizer.Apply(section, &storage, aligned ? &alignment : nullptr, continues_text);
    normalized = storage;
  }
  if (normalized.empty()) return;
  auto to_source = [&](uint32_t offset) { return base + (aligned ? alignment[offset] : offset); };
  const bool exact_offsets = aligned || impl.normalizer.empty();
  if (!impl.added.has_normalized()) {
    EncodePart(impl, normalized, 0, to_source, continues_text, exact_offsets, sink);
    return;
  }
  impl.added.Find(normalized, true, split_special, &splits);
  for (const AddedSplit& split : splits) {
    if (split.id != AddedVocabulary::kNone) {
      sink.Emit(split.id, to_source(split.start), to_source(split.end));
    } else if (split.end > split.start) {
      EncodePart(impl, normalized.substr(split.start, split.end - split.start), split.start, to_source, continues_text,
                 exact_offsets, sink);
    }
  }
}

void EncodeInto(const HfTokenizerImpl& impl, std::string_view text, const HfEncodeOptions& options, const Sink& sink) {
  const auto length = static_cast<uint32_t>(text.size());
  if (options.add_special_tokens && !options.starts_after_cut) {
    for (uint32_t id : impl.post_processor.prefix) sink.Emit(id, 0, 0);
  }
  std::vector<AddedSplit> splits;
  impl.added.Find(text, false, options.split_special_tokens, &splits);
  for (const AddedSplit& split : splits) {
    if (split.id != AddedVocabulary::kNone) {
      sink.Emit(split.id, split.start, split.end);
    } else if (split.end > split.start) {
      // Only a section at offset 0 can continue the text before the cut (SafeCut never cuts next to an added token).
      EncodeSection(impl, text.substr(split.start, split.end - split.start), split.start, options.split_special_tokens,
                    options.starts_after_cut && split.start == 0, sink);
    }
  }
  if (options.add_special_tokens && !options.ends_at_cut) {
    for (uint32_t id : impl.post_processor.suffix) sink.Emit(id, length, length);
  }
}

}  // namespace

HfEncoding HfTokenizer::Encode(std::string_view text, const HfEncodeOptions& options, bool with_spans) const {
  if (text.size() >= 0xFFFFFFF0u) throw std::invalid_argument("text: longer than 4 GB");
  HfEncoding encoding;
  encoding.ids.reserve(text.size() / 4 + 8);
  const BpeModel::CacheUse cache(impl_->model);
  EncodeInto(*impl_, text, options,
             Sink{cache.cache(), &encoding.ids, with_spans ? &encoding.starts : nullptr,
                  with_spans ? &encoding.ends : nullptr});
  return encoding;
}

size_t HfTokenizer::Count(std::string_view text, const HfEncodeOptions& options) const {
  return Encode(text, options, false).ids.size();
}

HfTokenizer::CacheSize HfTokenizer::cache_size() const {
  const BpeModel::CacheSize size = impl_->model.cache_size();
  return {size.pieces, size.bytes};
}

void HfTokenizer::ClearCache() const { impl_->model.ClearCache(); }

}  // namespace embedlab
