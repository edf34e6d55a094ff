// HfTokenizer::Encode and Count: the Rust crate's pipeline. Added tokens are found in the raw text first
// (normalized: false); each remaining section is normalized on its own, then split on the normalized added tokens;
// each remaining part is pre-tokenized and each pre-token goes through the BPE model; the post-processor's
// template adds its special tokens. Spans map back through every step to the input's bytes.
#include <string>
#include <vector>

#include "hf/hf_tokenizer_impl.h"

namespace embedlab {
namespace {

struct Sink {
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
template <typename ToSource>
void EncodePart(const HfTokenizerImpl& impl, std::string_view part, uint32_t part_offset, const ToSource& to_source,
                const Sink& sink) {
  thread_local PreTokenized pre;
  impl.pre_tokenizer.Split(part, to_source(part_offset) == 0, &pre);
  for (const PieceRange& piece : pre.pieces) {
    const size_t first = sink.ids->size();
    impl.model.Tokenize(pre.text.substr(piece.start, piece.end - piece.start), piece.start, sink.ids, sink.starts,
                        sink.ends);
    if (sink.starts == nullptr) continue;
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
  }
}

void EncodeSection(const HfTokenizerImpl& impl, std::string_view section, uint32_t base, bool split_special,
                   const Sink& sink) {
  std::string storage;
  std::vector<uint32_t> alignment;
  std::string_view normalized = section;
  const bool aligned = sink.starts != nullptr && !impl.normalizer.empty();
  if (!impl.normalizer.empty()) {
    impl.normalizer.Apply(section, &storage, aligned ? &alignment : nullptr);
    normalized = storage;
  }
  if (normalized.empty()) return;
  auto to_source = [&](uint32_t offset) { return base + (aligned ? alignment[offset] : offset); };
  if (!impl.added.has_normalized()) {
    EncodePart(impl, normalized, 0, to_source, sink);
    return;
  }
  std::vector<AddedSplit> splits;
  impl.added.Find(normalized, true, split_special, &splits);
  for (const AddedSplit& split : splits) {
    if (split.id != AddedVocabulary::kNone) {
      sink.Emit(split.id, to_source(split.start), to_source(split.end));
    } else if (split.end > split.start) {
      EncodePart(impl, normalized.substr(split.start, split.end - split.start), split.start, to_source, sink);
    }
  }
}

void EncodeInto(const HfTokenizerImpl& impl, std::string_view text, const HfEncodeOptions& options, const Sink& sink) {
  const auto length = static_cast<uint32_t>(text.size());
  if (options.add_special_tokens) {
    for (uint32_t id : impl.post_processor.prefix) sink.Emit(id, 0, 0);
  }
  std::vector<AddedSplit> splits;
  impl.added.Find(text, false, options.split_special_tokens, &splits);
  for (const AddedSplit& split : splits) {
    if (split.id != AddedVocabulary::kNone) {
      sink.Emit(split.id, split.start, split.end);
    } else if (split.end > split.start) {
      EncodeSection(impl, text.substr(split.start, split.end - split.start), split.start, options.split_special_tokens,
                    sink);
    }
  }
  if (options.add_special_tokens) {
    for (uint32_t id : impl.post_processor.suffix) sink.Emit(id, length, length);
  }
}

}  // namespace

HfEncoding HfTokenizer::Encode(std::string_view text, const HfEncodeOptions& options, bool with_spans) const {
  if (text.size() >= 0xFFFFFFF0u) throw std::invalid_argument("text: longer than 4 GB");
  HfEncoding encoding;
  EncodeInto(*impl_, text, options,
             Sink{&encoding.ids, with_spans ? &encoding.starts : nullptr, with_spans ? &encoding.ends : nullptr});
  return encoding;
}

size_t HfTokenizer::Count(std::string_view text, const HfEncodeOptions& options) const {
  return Encode(text, options, false).ids.size();
}

}  // namespace embedlab
