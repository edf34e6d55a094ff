#include "hf/decode_table.h"

#include <stdexcept>
#include <utility>

#include "hf/hf_tokenizer_impl.h"
#include "text/utf8.h"

namespace embedlab {
namespace {

constexpr char kReplacementCharacter[] = "\xEF\xBF\xBD";

// Where text stops being valid UTF-8 (its size when it is valid); ASCII eight bytes at a time.
size_t FirstInvalid(std::string_view text) {
  size_t pos = 0;
  while (pos < text.size()) {
    if (pos + 8 <= text.size()) {
      uint64_t word = 0;
      for (int k = 0; k < 8; ++k) word |= uint64_t{static_cast<uint8_t>(text[pos + k])} << (8 * k);
      if ((word & 0x8080808080808080ull) == 0) {
        pos += 8;
        continue;
      }
    }
    const DecodedCodePoint d = DecodeUtf8At(text, pos);
    if (d.code_point >= kInvalidByteBase) return pos;
    pos += d.length;
  }
  return text.size();
}

// A run of <0xNN> bytes at the end of out, from run_start: kept when valid UTF-8, else one U+FFFD per byte (the
// Rust crate's ByteFallback).
void FinishFallbackRun(std::string* out, size_t run_start) {
  const std::string_view run = std::string_view(*out).substr(run_start);
  if (FirstInvalid(run) == run.size()) return;
  const size_t bytes = run.size();
  out->resize(run_start);
  for (size_t i = 0; i < bytes; ++i) out->append(kReplacementCharacter);
}

}  // namespace

std::unique_ptr<DecodeTable> DecodeTable::Build(const HfTokenizerImpl& impl) {
  const std::vector<DecoderStep>& steps = impl.decoder.steps();
  if (steps.empty()) return nullptr;  // tokens joined with spaces
  size_t next = 0;
  std::vector<const DecoderStep*> replaces;
  while (next < steps.size() && steps[next].kind == DecoderStep::Kind::kReplace) replaces.push_back(&steps[next++]);
  auto table = std::make_unique<DecodeTable>();
  if (next < steps.size() && steps[next].kind == DecoderStep::Kind::kByteLevel) {
    table->join_ = Join::kByteLevel;
    ++next;
  } else if (next < steps.size() && steps[next].kind == DecoderStep::Kind::kByteFallback) {
    table->join_ = Join::kByteFallback;
    ++next;
    // After ByteFallback the tokens must be joined before any other step sees them one by one.
    if (next < steps.size() && steps[next].kind != DecoderStep::Kind::kFuse) return nullptr;
    if (next < steps.size()) ++next;
  } else if (next < steps.size() && steps[next].kind == DecoderStep::Kind::kFuse) {
    ++next;
  } else if (next < steps.size()) {
    return nullptr;  // Strip or Metaspace on each token
  }
  table->rest_ = Decoder(std::vector<DecoderStep>(steps.begin() + static_cast<std::ptrdiff_t>(next), steps.end()));
  const uint32_t n = impl.vocab_size;
  table->offsets_.reserve(size_t{n} + 1);
  table->flags_.assign(n, 0);
  std::string token;
  for (uint32_t id = 0; id < n; ++id) {
    table->offsets_.push_back(static_cast<uint32_t>(table->bytes_.size()));
    std::string_view found;
    if (!impl.Lookup(id, &found)) continue;
    uint8_t flags = kKnown;
    const AddedToken* added = impl.added.ById(id);
    if (added != nullptr && added->special) flags |= kSpecial;
    token.assign(found);
    for (const DecoderStep* step : replaces) token = ReplaceAll(token, step->pattern, step->content);
    if (table->join_ == Join::kByteLevel) {
      AppendByteLevelBytes(token, &table->bytes_);
    } else if (table->join_ == Join::kByteFallback && FallbackByte(token) >= 0) {
      flags |= kFallbackByte;
      table->bytes_ += static_cast<char>(FallbackByte(token));
    } else {
      table->bytes_ += token;
    }
    table->flags_[id] = flags;
  }
  table->offsets_.push_back(static_cast<uint32_t>(table->bytes_.size()));
  table->bytes_.shrink_to_fit();
  return table;
}

std::string DecodeTable::Decode(const uint32_t* ids, size_t count, bool skip_special_tokens,
                                const HfTokenizerImpl& impl) const {
  std::string out;
  out.reserve(count * 4);
  constexpr size_t kNoRun = static_cast<size_t>(-1);
  size_t run_start = kNoRun;  // where the current run of <0xNN> bytes started in out
  for (size_t i = 0; i < count; ++i) {
    const uint32_t id = ids[i];
    const uint8_t flags = id < flags_.size() ? flags_[id] : 0;
    if ((flags & kKnown) == 0) {
      throw std::out_of_range("ids[" + std::to_string(i) + "] = " + std::to_string(id) + " is not a token of " +
                              impl.name + " (ids 0 to " + std::to_string(impl.vocab_size - 1) + ")");
    }
    if (skip_special_tokens && (flags & kSpecial) != 0) continue;  // removed before the decoder sees the tokens
    if ((flags & kFallbackByte) != 0) {
      if (run_start == kNoRun) run_start = out.size();
    } else if (run_start != kNoRun) {
      FinishFallbackRun(&out, run_start);
      run_start = kNoRun;
    }
    out.append(bytes_, offsets_[id], offsets_[id + 1] - offsets_[id]);
  }
  if (run_start != kNoRun) FinishFallbackRun(&out, run_start);
  if (join_ == Join::kByteLevel) {
    const size_t invalid = FirstInvalid(out);
    if (invalid != out.size()) {
      std::string rest = LossyUtf8(std::string_view(out).substr(invalid));
      out.resize(invalid);
      out += rest;
    }
  }
  if (rest_.steps().empty()) return out;
  std::vector<std::string> joined;
  joined.push_back(std::move(out));
  return rest_.Decode(std::move(joined));
}

}  // namespace embedlab
