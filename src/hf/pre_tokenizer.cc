#include "hf/pre_tokenizer.h"

#include <stdexcept>
#include <utility>

#include "hf/json_parts.h"
#include "text/utf8.h"

namespace embedlab {
namespace {

struct Segment {
  uint32_t start;
  uint32_t end;
  bool is_match;
};

// The pattern's matches and the gaps between them, tiling the piece (the Rust crate's Pattern::find_matches), in
// order: on_segment(start, end, is_match).
template <typename OnSegment>
void ForEachSegment(const PreTokenizerStep& step, std::string_view piece, const OnSegment& on_segment) {
  uint32_t previous = 0;
  auto add = [&](size_t start, size_t end) {
    if (previous != start) on_segment(previous, static_cast<uint32_t>(start), false);
    on_segment(static_cast<uint32_t>(start), static_cast<uint32_t>(end), true);
    previous = static_cast<uint32_t>(end);
  };
  if (step.kind == PreTokenizerStep::Kind::kSplitString) {
    for (size_t at = piece.find(step.pattern); at != std::string_view::npos;
         at = piece.find(step.pattern, at + step.pattern.size())) {
      add(at, at + step.pattern.size());
    }
  } else {
    size_t from = 0;
    size_t start, end;
    while (from <= piece.size() && step.matcher(piece, from, &start, &end)) {
      add(start, end);
      // After an empty match the search resumes one character on, as Oniguruma's iterator does.
      from = end > start ? end : end + (end < piece.size() ? DecodeUtf8At(piece, end).length : 1);
    }
  }
  if (previous != piece.size()) on_segment(previous, static_cast<uint32_t>(piece.size()), false);
}

void FindSegments(const PreTokenizerStep& step, std::string_view piece, std::vector<Segment>* segments) {
  segments->clear();
  ForEachSegment(step, piece, [&](uint32_t start, uint32_t end, bool is_match) {
    segments->push_back({start, end, is_match});
  });
}

SplitBehavior BehaviorFromName(const std::string& name, const std::string& path) {
  if (name == "Removed") return SplitBehavior::kRemoved;
  if (name == "Isolated") return SplitBehavior::kIsolated;
  if (name == "MergedWithPrevious") return SplitBehavior::kMergedWithPrevious;
  if (name == "MergedWithNext") return SplitBehavior::kMergedWithNext;
  if (name == "Contiguous") return SplitBehavior::kContiguous;
  RefuseAt(path, "the split behavior \"" + name +
                     "\" is not one of Removed, Isolated, MergedWithPrevious, "
                     "MergedWithNext, Contiguous");
}

void AddSteps(const JsonValue& json, const std::string& path, std::vector<PreTokenizerStep>* steps) {
  const std::string type = RequireType(json, path);
  if (type == "Sequence") {
    const JsonValue& list = RequireMember(json, path, "pretokenizers", JsonValue::Kind::kArray);
    for (size_t i = 0; i < list.items.size(); ++i) {
      AddSteps(list.items[i], path + ".pretokenizers[" + std::to_string(i) + "]", steps);
    }
    return;
  }
  PreTokenizerStep step{};
  if (type == "Split") {
    const JsonValue& pattern = RequireMember(json, path, "pattern", JsonValue::Kind::kObject);
    if (const JsonValue* regex = pattern.Find("Regex")) {
      if (!regex->IsString()) RefuseAt(path + ".pattern.Regex", "expected a string");
      if (FindSplitMatcher(regex->string) == nullptr) {  // refused here too, where the file's path is known
        RefuseAt(path + ".pattern.Regex",
                 "the Split regex " + QuoteJson(regex->string) + " is not supported (no scanner for it)");
      }
      step.kind = PreTokenizerStep::Kind::kSplitRegex;
      step.pattern = regex->string;
    } else {
      step.kind = PreTokenizerStep::Kind::kSplitString;
      step.pattern = LiteralPattern(pattern, path + ".pattern");
    }
    step.behavior =
        BehaviorFromName(RequireMember(json, path, "behavior", JsonValue::Kind::kString).string, path + ".behavior");
    step.invert = OptionalBoolean(json, path, "invert", false);
  } else if (type == "Metaspace") {
    step.kind = PreTokenizerStep::Kind::kMetaspace;
    step.pattern = RequireMember(json, path, "replacement", JsonValue::Kind::kString).string;
    if (step.pattern.empty() || DecodeUtf8At(step.pattern, 0).length != step.pattern.size()) {
      RefuseAt(path + ".replacement", "expected one character");
    }
    const JsonValue* scheme = json.Find("prepend_scheme");
    if (scheme != nullptr && scheme->IsString()) {
      const std::string& name = scheme->string;
      if (name != "always" && name != "first" && name != "never") {
        RefuseAt(path + ".prepend_scheme", "expected \"always\", \"first\" or \"never\"");
      }
      step.prepend = name == "always"  ? PreTokenizerStep::Prepend::kAlways
                     : name == "first" ? PreTokenizerStep::Prepend::kFirst
                                       : PreTokenizerStep::Prepend::kNever;
    } else {  // older files: add_prefix_space
      step.prepend = OptionalBoolean(json, path, "add_prefix_space", true) ? PreTokenizerStep::Prepend::kAlways
                                                                           : PreTokenizerStep::Prepend::kNever;
    }
    step.split = OptionalBoolean(json, path, "split", true);
  } else if (type == "ByteLevel") {
    step.kind = PreTokenizerStep::Kind::kByteLevel;
    // The Rust crate's defaults (ByteLevel::default()); Tokenizers.js defaults add_prefix_space to false.
    step.add_prefix_space = OptionalBoolean(json, path, "add_prefix_space", true);
    step.use_regex = OptionalBoolean(json, path, "use_regex", true);
  } else {
    RefuseAt(path,
             "the pre-tokenizer \"" + type + "\" is not supported (supported: Split, Metaspace, ByteLevel, Sequence)");
  }
  if (!steps->empty() && steps->back().kind == PreTokenizerStep::Kind::kByteLevel) {
    RefuseAt(path, "a pre-tokenizer after ByteLevel is not supported");
  }
  steps->push_back(std::move(step));
}

}  // namespace

PreTokenizer::PreTokenizer(std::vector<PreTokenizerStep> steps) : steps_(std::move(steps)) {
  for (size_t i = 0; i < steps_.size(); ++i) {
    PreTokenizerStep& step = steps_[i];
    if (step.kind == PreTokenizerStep::Kind::kSplitRegex) {
      step.matcher = FindSplitMatcher(step.pattern);
      if (step.matcher == nullptr) {
        throw std::invalid_argument("tokenizer.json: the Split regex " + QuoteJson(step.pattern) +
                                    " is not supported (no scanner for it)");
      }
    }
    if ((step.kind == PreTokenizerStep::Kind::kSplitString || step.kind == PreTokenizerStep::Kind::kMetaspace) &&
        step.pattern.empty()) {
      throw std::invalid_argument("tokenizer.json: a Split or Metaspace with an empty pattern is not supported");
    }
    if (step.kind == PreTokenizerStep::Kind::kByteLevel && i + 1 != steps_.size()) {
      throw std::invalid_argument("tokenizer.json: a pre-tokenizer after ByteLevel is not supported");
    }
  }
  const bool plain_byte_level = steps_.size() == 2 && steps_[1].kind == PreTokenizerStep::Kind::kByteLevel &&
                                !steps_[1].add_prefix_space && !steps_[1].use_regex;
  if ((steps_.size() == 1 || plain_byte_level) && steps_[0].kind == PreTokenizerStep::Kind::kSplitRegex &&
      steps_[0].behavior == SplitBehavior::kIsolated) {
    isolated_matcher_ = steps_[0].matcher;
  }
}

PreTokenizer PreTokenizer::FromJson(const JsonValue& json, const std::string& path) {
  std::vector<PreTokenizerStep> steps;
  if (json.kind != JsonValue::Kind::kNull) AddSteps(json, path, &steps);
  return PreTokenizer(std::move(steps));
}

void SplitPiece(const PreTokenizerStep& step, std::string_view piece, uint32_t base, std::vector<PieceRange>* out) {
  if (step.behavior == SplitBehavior::kIsolated) {  // every segment is a piece (invert changes nothing)
    ForEachSegment(step, piece, [&](uint32_t start, uint32_t end, bool) {
      if (end > start) out->push_back({base + start, base + end});
    });
    return;
  }
  thread_local std::vector<Segment> segments;
  FindSegments(step, piece, &segments);
  if (step.invert) {
    for (Segment& s : segments) s.is_match = !s.is_match;
  }
  auto emit = [&](uint32_t start, uint32_t end) {
    if (end > start) out->push_back({base + start, base + end});
  };
  const size_t n = segments.size();
  switch (step.behavior) {
    case SplitBehavior::kIsolated:
      for (const Segment& s : segments) emit(s.start, s.end);
      return;
    case SplitBehavior::kRemoved:
      for (const Segment& s : segments) {
        if (!s.is_match) emit(s.start, s.end);
      }
      return;
    case SplitBehavior::kContiguous:
    case SplitBehavior::kMergedWithPrevious: {
      // Contiguous joins a segment to the one before when both are matches or both are not; MergedWithPrevious
      // joins a match to a non-match before it.
      std::vector<Segment> merged;
      bool previous_match = false;
      for (const Segment& s : segments) {
        const bool join =
            step.behavior == SplitBehavior::kContiguous ? s.is_match == previous_match : s.is_match && !previous_match;
        if (join && !merged.empty()) {
          merged.back().end = s.end;
        } else {
          merged.push_back(s);
        }
        previous_match = s.is_match;
      }
      for (const Segment& s : merged) emit(s.start, s.end);
      return;
    }
    case SplitBehavior::kMergedWithNext: {
      // From the end: a match joins the non-match after it.
      std::vector<Segment> merged;
      bool previous_match = false;
      for (size_t k = n; k-- > 0;) {
        const Segment& s = segments[k];
        if (s.is_match && !previous_match && !merged.empty()) {
          merged.back().start = s.start;
        } else {
          merged.push_back(s);
        }
        previous_match = s.is_match;
      }
      for (size_t k = merged.size(); k-- > 0;) emit(merged[k].start, merged[k].end);
      return;
    }
  }
}

namespace {

// Rewrites every piece into a new text (write appends a piece's new bytes and their offsets in the current
// text), composing the alignment with the one the text already has.
template <typename Write>
void Rewrite(PreTokenized* out, std::string_view input, const Write& write) {
  std::string storage;
  std::vector<uint32_t> alignment;
  std::vector<PieceRange> pieces;
  for (const PieceRange& piece : out->pieces) {
    const auto start = static_cast<uint32_t>(storage.size());
    write(piece, &storage, &alignment);
    pieces.push_back({start, static_cast<uint32_t>(storage.size())});
  }
  alignment.push_back(static_cast<uint32_t>(out->text.size()));
  if (!out->alignment.empty()) {
    for (uint32_t& a : alignment) a = out->alignment[a];
  } else {
    alignment.back() = static_cast<uint32_t>(input.size());
  }
  out->storage = std::move(storage);
  out->alignment = std::move(alignment);
  out->text = out->storage;
  out->pieces = std::move(pieces);
}

void SplitAll(const PreTokenizerStep& step, PreTokenized* out) {
  thread_local std::vector<PieceRange> next;
  next.clear();
  for (const PieceRange& piece : out->pieces) {
    SplitPiece(step, out->text.substr(piece.start, piece.end - piece.start), piece.start, &next);
  }
  out->pieces.swap(next);
}

}  // namespace

void PreTokenizer::Split(std::string_view text, bool at_text_start, PreTokenized* out) const {
  out->text = text;
  out->storage.clear();
  out->alignment.clear();
  out->pieces.clear();
  if (!text.empty()) out->pieces.push_back({0, static_cast<uint32_t>(text.size())});
  for (const PreTokenizerStep& step : steps_) {
    switch (step.kind) {
      case PreTokenizerStep::Kind::kSplitRegex:
      case PreTokenizerStep::Kind::kSplitString:
        SplitAll(step, out);
        break;
      case PreTokenizerStep::Kind::kMetaspace: {
        // The Rust crate: spaces become the replacement, which is prepended to a piece not starting with it
        // (always, or for the piece at the start of the input: "first"); then a split before each replacement.
        const std::string_view replacement = step.pattern;
        Rewrite(out, text, [&](const PieceRange& piece, std::string* storage, std::vector<uint32_t>* alignment) {
          const std::string_view bytes = out->text.substr(piece.start, piece.end - piece.start);
          const bool first = at_text_start && piece.start == 0;
          const bool starts_with = bytes.substr(0, replacement.size()) == replacement;
          if (!starts_with && (step.prepend == PreTokenizerStep::Prepend::kAlways ||
                               (step.prepend == PreTokenizerStep::Prepend::kFirst && first))) {
            storage->append(replacement);
            alignment->insert(alignment->end(), replacement.size(), piece.start);
          }
          for (uint32_t i = piece.start; i < piece.end; ++i) {
            if (out->text[i] == ' ') {
              storage->append(replacement);
              alignment->insert(alignment->end(), replacement.size(), i);
            } else {
              *storage += out->text[i];
              alignment->push_back(i);
            }
          }
        });
        if (step.split) {
          PreTokenizerStep cut{PreTokenizerStep::Kind::kSplitString, step.pattern, SplitBehavior::kMergedWithNext};
          SplitAll(cut, out);
        }
        break;
      }
      case PreTokenizerStep::Kind::kByteLevel: {
        if (step.add_prefix_space) {
          // Each piece not starting with a space gets one (the Rust crate's ByteLevel).
          Rewrite(out, text, [&](const PieceRange& piece, std::string* storage, std::vector<uint32_t>* alignment) {
            if (out->text[piece.start] != ' ') {
              *storage += ' ';
              alignment->push_back(piece.start);
            }
            storage->append(out->text.substr(piece.start, piece.end - piece.start));
            for (uint32_t i = piece.start; i < piece.end; ++i) alignment->push_back(i);
          });
        }
        if (step.use_regex) {
          PreTokenizerStep gpt2{PreTokenizerStep::Kind::kSplitRegex, "", SplitBehavior::kIsolated};
          gpt2.matcher = ByteLevelMatcher();
          SplitAll(gpt2, out);
        }
        break;
      }
    }
  }
}

}  // namespace embedlab
