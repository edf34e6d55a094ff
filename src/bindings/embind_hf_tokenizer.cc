// Embind bindings of the Hugging Face tokenizer.json tokenizer (src/hf). The handle has the raw interface of the
// BPE tokenizer's (embind_tokenizer.cc): text in through a heap buffer the JS layer fills with
// TextEncoder.encodeInto, ids and byte spans out through pointers into HEAPU32, ids to decode through another
// buffer. So one JS class (src/js/tokenizer/tokenizer.js) drives both; only the encode and decode options differ.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bindings/boundary.h"
#include "hf/hf_tokenizer.h"
#include "text/utf8.h"

using emscripten::val;

namespace embedlab {
namespace bindings {
namespace {

class HfTokenizerBinding {
 public:
  explicit HfTokenizerBinding(HfTokenizer tokenizer) : tokenizer_(std::move(tokenizer)) {}

  // The compact binary form (HfTokenizer::ToBinary), which lab.tokenizerFromHuggingFace() reads back.
  val Save() const {
    return Guarded<val>(val::null(), [&] { return BytesToUint8Array(tokenizer_.ToBinary()); });
  }

  // Room for `bytes` bytes of input; the JS layer writes there and then calls Encode.
  uintptr_t InputBuffer(double bytes) {
    return Guarded<uintptr_t>(0, [&] {
      const auto size = static_cast<size_t>(ToInt64(bytes));
      ForgetIfOversized(&input_, size);
      input_.resize(size);
      return reinterpret_cast<uintptr_t>(input_.data());
    });
  }

  // Encodes input_[0, size); returns the token count (ids at IdsPointer(), spans at Starts/EndsPointer() when
  // with_spans). `ordinary`: no template tokens and special added tokens read as text (encodeOrdinary).
  // starts_after_cut/ends_at_cut: a part of a text cut at SafeCut positions (HfEncodeOptions).
  double Encode(double size, bool ordinary, bool with_spans, bool add_special_tokens, bool split_special_tokens,
                bool starts_after_cut, bool ends_at_cut) {
    return Guarded<double>(-1, [&] {
      const std::string_view text(input_.data(), std::min<size_t>(static_cast<size_t>(ToInt64(size)), input_.size()));
      HfEncodeOptions options;
      options.add_special_tokens = ordinary ? false : add_special_tokens;
      options.split_special_tokens = ordinary ? true : split_special_tokens;
      options.starts_after_cut = starts_after_cut;
      options.ends_at_cut = ends_at_cut;
      output_ = tokenizer_.Encode(text, options, with_spans);
      return static_cast<double>(output_.ids.size());
    });
  }

  // HfTokenizer::SafeCut over `bytes` (a Uint8Array, copied by Embind): the cut, or -1 when there is none.
  double SafeCut(const std::string& bytes, double from, double to) const {
    return Guarded<double>(-1, [&] {
      const size_t cut =
          tokenizer_.SafeCut(bytes, static_cast<size_t>(ToInt64(from)), static_cast<size_t>(ToInt64(to)));
      return cut == HfTokenizer::kNoCut ? -1.0 : static_cast<double>(cut);
    });
  }

  uintptr_t InputPointer() const { return reinterpret_cast<uintptr_t>(input_.data()); }
  uintptr_t IdsPointer() const { return reinterpret_cast<uintptr_t>(output_.ids.data()); }
  uintptr_t StartsPointer() const { return reinterpret_cast<uintptr_t>(output_.starts.data()); }
  uintptr_t EndsPointer() const { return reinterpret_cast<uintptr_t>(output_.ends.data()); }

  // Room for `count` ids to decode; the JS layer writes them and calls Decode(count, ...).
  uintptr_t IdBuffer(double count) {
    return Guarded<uintptr_t>(0, [&] {
      const auto size = static_cast<size_t>(ToInt64(count));
      ForgetIfOversized(&id_input_, size);
      id_input_.resize(std::max(id_input_.size(), size));
      return reinterpret_cast<uintptr_t>(id_input_.data());
    });
  }

  // Decodes id_input_[0, count) through the file's decoder to UTF-8 at BytesPointer(); returns the byte count.
  // clean_up: -1 the tokenizer_config.json default, 0 no, 1 yes.
  double Decode(double count, bool skip_special_tokens, double clean_up) {
    return Guarded<double>(-1, [&] {
      const size_t n = std::min<size_t>(static_cast<size_t>(ToInt64(count)), id_input_.size());
      HfDecodeOptions options;
      options.skip_special_tokens = skip_special_tokens;
      options.clean_up_tokenization_spaces = static_cast<int>(std::clamp<int64_t>(ToInt64(clean_up), -1, 1));
      bytes_ = tokenizer_.Decode(id_input_.data(), n, options);
      decoded_ascii_ = IsAscii(bytes_);
      return static_cast<double>(bytes_.size());
    });
  }

  uintptr_t BytesPointer() const { return reinterpret_cast<uintptr_t>(bytes_.data()); }
  bool DecodedAscii() const { return decoded_ascii_; }

  // The bytes one token stands for on its own, copied into a Uint8Array (the JS layer has checked the id).
  val TokenBytes(double id) {
    return Guarded<val>(val::null(), [&] { return BytesToUint8Array(tokenizer_.TokenBytes(CheckedId(id))); });
  }

  // The token's string as the vocabulary writes it ("ĠHello", "▁the", "<0x0A>").
  std::string TokenString(double id) {
    return Guarded<std::string>("", [&] { return tokenizer_.TokenString(CheckedId(id)); });
  }

  // The token strings of the last Encode's ids, as a JS array (one crossing instead of one per token).
  val EncodedTokenStrings() const {
    val strings = val::array();
    for (const uint32_t id : output_.ids) strings.call<void>("push", tokenizer_.TokenString(id));
    return strings;
  }

  // The BPE model's piece cache, as the BPE tokenizer's binding reports it: {pieces, bytes}.
  val CacheSize() const {
    const HfTokenizer::CacheSize size = tokenizer_.cache_size();
    val result = val::object();
    result.set("pieces", static_cast<double>(size.pieces));
    result.set("bytes", static_cast<double>(size.bytes));
    return result;
  }
  void ClearCache() { tokenizer_.ClearCache(); }

  double VocabSize() const { return static_cast<double>(tokenizer_.vocab_size()); }
  std::string EncodingName() const { return tokenizer_.name(); }

  // [{text, id}] of the special added tokens, as the BPE tokenizer lists its special tokens.
  val SpecialTokens() const {
    val tokens = val::array();
    for (const HfTokenizer::AddedTokenInfo& added : tokenizer_.added_tokens()) {
      if (!added.special) continue;
      val token = val::object();
      token.set("text", added.content);
      token.set("id", added.id);
      tokens.call<void>("push", token);
    }
    return tokens;
  }

  // [{text, id, special}] of every added token, in the file's order.
  val AddedTokens() const {
    val tokens = val::array();
    for (const HfTokenizer::AddedTokenInfo& added : tokenizer_.added_tokens()) {
      val token = val::object();
      token.set("text", added.content);
      token.set("id", added.id);
      token.set("special", added.special);
      tokens.call<void>("push", token);
    }
    return tokens;
  }

 private:
  uint32_t CheckedId(double id) const {
    const int64_t checked = ToInt64(id);
    if (checked < 0 || checked >= static_cast<int64_t>(tokenizer_.vocab_size())) {
      throw std::out_of_range("id must be an integer in [0, " + std::to_string(tokenizer_.vocab_size() - 1) +
                              "], got " + std::to_string(checked));
    }
    return static_cast<uint32_t>(checked);
  }

  HfTokenizer tokenizer_;
  std::string input_;
  HfEncoding output_;
  std::vector<uint32_t> id_input_;
  std::string bytes_;
  bool decoded_ascii_ = false;
};

// tokenizer.json in the staging buffer's first `json_bytes` bytes, tokenizer_config.json (or nothing) after them.
HfTokenizerBinding* HfTokenizerFromJson(double json_bytes, std::string name) {
  HfTokenizerBinding* result = Guarded<HfTokenizerBinding*>(nullptr, [&] {
    const std::string_view staged = Staging();
    const size_t split =
        std::min<size_t>(static_cast<size_t>(std::max<int64_t>(0, ToInt64(json_bytes))), staged.size());
    return new HfTokenizerBinding(HfTokenizer::FromJson(staged.substr(0, split), staged.substr(split), name));
  });
  ReleaseStaging();
  return result;
}

// The binary form of HfTokenizer::ToBinary in the staging buffer (lab.loadTokenizer() sends a file here when it begins
// as that form does).
HfTokenizerBinding* LoadHfTokenizer() {
  HfTokenizerBinding* result =
      Guarded<HfTokenizerBinding*>(nullptr, [&] { return new HfTokenizerBinding(HfTokenizer::FromBinary(Staging())); });
  ReleaseStaging();
  return result;
}

}  // namespace

EMSCRIPTEN_BINDINGS(embedlab_hf_tokenizer) {
  using emscripten::allow_raw_pointers;
  emscripten::class_<HfTokenizerBinding>("HfTokenizer")
      .function("inputBuffer", &HfTokenizerBinding::InputBuffer)
      .function("encode", &HfTokenizerBinding::Encode)
      .function("safeCut", &HfTokenizerBinding::SafeCut)
      .function("inputPointer", &HfTokenizerBinding::InputPointer)
      .function("idsPointer", &HfTokenizerBinding::IdsPointer)
      .function("startsPointer", &HfTokenizerBinding::StartsPointer)
      .function("endsPointer", &HfTokenizerBinding::EndsPointer)
      .function("idBuffer", &HfTokenizerBinding::IdBuffer)
      .function("decode", &HfTokenizerBinding::Decode)
      .function("bytesPointer", &HfTokenizerBinding::BytesPointer)
      .function("decodedAscii", &HfTokenizerBinding::DecodedAscii)
      .function("tokenBytes", &HfTokenizerBinding::TokenBytes)
      .function("tokenString", &HfTokenizerBinding::TokenString)
      .function("encodedTokenStrings", &HfTokenizerBinding::EncodedTokenStrings)
      .function("vocabSize", &HfTokenizerBinding::VocabSize)
      .function("encodingName", &HfTokenizerBinding::EncodingName)
      .function("specialTokens", &HfTokenizerBinding::SpecialTokens)
      .function("addedTokens", &HfTokenizerBinding::AddedTokens)
      .function("cacheSize", &HfTokenizerBinding::CacheSize)
      .function("clearCache", &HfTokenizerBinding::ClearCache)
      .function("save", &HfTokenizerBinding::Save);
  emscripten::function("hfTokenizerFromJson", &HfTokenizerFromJson, allow_raw_pointers());
  emscripten::function("loadHfTokenizer", &LoadHfTokenizer, allow_raw_pointers());
}

}  // namespace bindings
}  // namespace embedlab
