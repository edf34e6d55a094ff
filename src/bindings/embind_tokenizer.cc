// Embind bindings of the BPE tokenizer. Text crosses through a buffer in the wasm heap that the JS layer
// fills with TextEncoder.encodeInto (native speed, no per-character JS loop), and ids come back through
// another buffer the JS layer copies out of HEAPU32.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bindings/boundary.h"
#include "bpe/bpe_trainer.h"
#include "bpe/gpt2_vocabulary_file.h"
#include "bpe/tiktoken_file.h"
#include "bpe/tokenizer.h"
#include "bpe/tokenizer_file.h"
#include "text/pre_tokenizer.h"
#include "text/utf8.h"

using emscripten::val;

namespace embedlab {
namespace bindings {
namespace {

// Named special tokens, as the JS layer passes them (an array of strings).
std::vector<std::string> ToStrings(const val& strings) { return emscripten::vecFromJSArray<std::string>(strings); }

// One JS Tokenizer handle. The Tokenizer itself is immutable and may be shared by several handles (see
// LiveTokenizers); each handle keeps its own buffers, so handles never disturb one another.
class TokenizerBinding {
 public:
  explicit TokenizerBinding(Tokenizer tokenizer, std::vector<BpeMerge> merges = {})
      : tokenizer_(std::make_shared<const Tokenizer>(std::move(tokenizer))), merges_(std::move(merges)) {}
  explicit TokenizerBinding(std::shared_ptr<const Tokenizer> tokenizer) : tokenizer_(std::move(tokenizer)) {}

  const std::shared_ptr<const Tokenizer>& shared_tokenizer() const { return tokenizer_; }

  // The trained merges in order: [{left, right, id, count}] (empty for loaded vocabularies).
  val Merges() const { return val::array(merges_); }

  // The project's tokenizer file: a JSON header line plus .tiktoken text, or the compact binary form.
  val Save(bool binary) const {
    return Guarded<val>(val::null(), [&] {
      return BytesToUint8Array(binary ? SaveTokenizerBinary(*tokenizer_) : SaveTokenizerFile(*tokenizer_));
    });
  }

  // Room for `bytes` bytes of input; the JS layer writes there and then calls an Encode*.
  uintptr_t InputBuffer(double bytes) {
    return Guarded<uintptr_t>(0, [&] {
      const auto size = static_cast<size_t>(ToInt64(bytes));
      ForgetIfOversized(&input_, size);
      input_.resize(size);
      return reinterpret_cast<uintptr_t>(input_.data());
    });
  }

  // Encodes input_[0, size). Returns the token count; ids at IdsPointer(), and byte spans at
  // StartsPointer()/EndsPointer() when with_spans. A policy of tiktoken's encode(); ordinary ignores it.
  double Encode(double size, bool ordinary, bool with_spans, bool allow_all, const val& allowed, bool disallow_all,
                const val& disallowed) {
    return Guarded<double>(-1, [&] {
      const std::string_view text(input_.data(), std::min<size_t>(static_cast<size_t>(ToInt64(size)), input_.size()));
      SpecialTokenPolicy policy = ordinary ? SpecialTokenPolicy::AllAsText() : SpecialTokenPolicy{};
      if (!ordinary) {
        policy.allow_all = allow_all;
        policy.allowed = ToStrings(allowed);
        policy.disallow_all = disallow_all;
        policy.disallowed = ToStrings(disallowed);
      }
      if (with_spans) {
        output_ = tokenizer_->EncodeWithSpans(text, policy);
      } else {
        output_.starts.clear();
        output_.ends.clear();
        output_.ids = tokenizer_->Encode(text, policy);
      }
      return static_cast<double>(output_.ids.size());
    });
  }

  uintptr_t InputPointer() const { return reinterpret_cast<uintptr_t>(input_.data()); }
  uintptr_t IdsPointer() const { return reinterpret_cast<uintptr_t>(output_.ids.data()); }
  uintptr_t StartsPointer() const { return reinterpret_cast<uintptr_t>(output_.starts.data()); }
  uintptr_t EndsPointer() const { return reinterpret_cast<uintptr_t>(output_.ends.data()); }

  // Room for `count` ids to decode; the JS layer writes them and calls Decode(count).
  uintptr_t IdBuffer(double count) {
    return Guarded<uintptr_t>(0, [&] {
      // Grows only, like bytes_ (shrinking and growing again would zero-fill the difference each time),
      // unless it is far larger than needed.
      const auto size = static_cast<size_t>(ToInt64(count));
      ForgetIfOversized(&id_input_, size);
      id_input_.resize(std::max(id_input_.size(), size));
      return reinterpret_cast<uintptr_t>(id_input_.data());
    });
  }

  // Decodes id_input_[0, count) to bytes at BytesPointer(); returns the byte count.
  double Decode(double count) {
    return Guarded<double>(-1, [&] {
      const size_t n = std::min<size_t>(static_cast<size_t>(ToInt64(count)), id_input_.size());
      // bytes_ is kept between calls and only grows (resizing it each time would zero-fill it each time),
      // unless it is far larger than n tokens of 16 bytes, which is more than nearly all tokens have.
      ForgetIfOversized(&bytes_, 16 * n);
      const size_t size = tokenizer_->DecodeInto(id_input_.data(), n, &bytes_);
      decoded_ascii_ = IsAscii(std::string_view(bytes_.data(), size));
      return static_cast<double>(size);
    });
  }

  uintptr_t BytesPointer() const { return reinterpret_cast<uintptr_t>(bytes_.data()); }
  // Whether the last decode gave ASCII only, which JS can turn into a string faster than UTF-8.
  bool DecodedAscii() const { return decoded_ascii_; }

  // The bytes of one token (ordinary or special), copied into a Uint8Array.
  val TokenBytes(double id) {
    return Guarded<val>(val::null(), [&] {
      const int64_t checked = ToInt64(id);
      if (checked < 0 || checked >= static_cast<int64_t>(tokenizer_->vocab_size())) {
        throw std::out_of_range("id must be an integer in [0, " + std::to_string(tokenizer_->vocab_size() - 1) +
                                "], got " + std::to_string(checked));
      }
      return BytesToUint8Array(tokenizer_->TokenBytes(static_cast<uint32_t>(checked)));
    });
  }

  double VocabSize() const { return static_cast<double>(tokenizer_->vocab_size()); }
  std::string EncodingName() const { return tokenizer_->encoding_name(); }
  std::string PatternName() const { return tokenizer_->pattern_name(); }

  val SpecialTokens() const { return val::array(tokenizer_->special_tokens()); }

  // The piece cache of the tokenizer, which the handles sharing it share: {pieces, bytes} it holds now.
  val CacheSize() const {
    const Tokenizer::CacheSize size = tokenizer_->cache_size();
    val result = val::object();
    result.set("pieces", static_cast<double>(size.pieces));
    result.set("bytes", static_cast<double>(size.bytes));
    return result;
  }
  void ClearCache() { tokenizer_->ClearCache(); }

 private:
  std::shared_ptr<const Tokenizer> tokenizer_;
  std::vector<BpeMerge> merges_;
  std::string input_;
  EncodedTokens output_;
  std::vector<uint32_t> id_input_;
  std::string bytes_;
  bool decoded_ascii_ = false;
};

// The vocabulary of a named encoding is in the staging buffer: a .tiktoken file, or the binary form the
// package ships (see Vocabulary::ToBinary).
TokenizerBinding* TokenizerForEncoding(std::string encoding_name) {
  TokenizerBinding* result = Guarded<TokenizerBinding*>(nullptr, [&] {
    const std::string_view staged = Staging();
    if (Vocabulary::IsBinary(staged)) {
      return new TokenizerBinding(Tokenizer::ForEncoding(Vocabulary::FromBinary(staged), encoding_name));
    }
    return new TokenizerBinding(Tokenizer::FromTiktoken(staged, encoding_name));
  });
  ReleaseStaging();
  return result;
}

// Tokenizers built from the package's own vocabulary files, by a key the JS layer chooses (the encoding name,
// plus any extra special tokens), for as long as some handle holds them: getTokenizer('o200k_base') called five
// times builds one o200k tokenizer (~15 MB of wasm heap), not five. Disposing a handle releases only its share.
std::map<std::string, std::weak_ptr<const Tokenizer>>& LiveTokenizers() {
  static auto* live = new std::map<std::string, std::weak_ptr<const Tokenizer>>();
  return *live;
}

// A new handle on the live tokenizer of `key`, or null when no handle holds one.
TokenizerBinding* SharedTokenizer(std::string key) {
  auto& live = LiveTokenizers();
  const auto it = live.find(key);
  if (it == live.end()) return nullptr;
  std::shared_ptr<const Tokenizer> tokenizer = it->second.lock();
  if (tokenizer == nullptr) {
    live.erase(it);
    return nullptr;
  }
  return Guarded<TokenizerBinding*>(nullptr, [&] { return new TokenizerBinding(std::move(tokenizer)); });
}

// Makes `binding`'s tokenizer the live one of `key` (forgetting keys whose tokenizers are gone).
void ShareTokenizer(const TokenizerBinding& binding, std::string key) {
  auto& live = LiveTokenizers();
  for (auto it = live.begin(); it != live.end();) it = it->second.expired() ? live.erase(it) : std::next(it);
  live[key] = binding.shared_tokenizer();
}

// `base` with extra special tokens [{text, id}] (tiktoken's extend_special_tokens): the same vocabulary, pattern
// and name. The core refuses an id that is the rank of an ordinary token; the JS layer checks the rest.
TokenizerBinding* ExtendTokenizer(const TokenizerBinding& base, const val& special_tokens) {
  return Guarded<TokenizerBinding*>(nullptr, [&] {
    const Tokenizer& tokenizer = *base.shared_tokenizer();
    std::vector<SpecialToken> special = tokenizer.special_tokens();
    for (SpecialToken& token : emscripten::vecFromJSArray<SpecialToken>(special_tokens)) special.push_back(token);
    return new TokenizerBinding(
        Tokenizer(tokenizer.vocabulary(), tokenizer.pattern(), std::move(special), tokenizer.encoding_name()));
  });
}

// A tokenizer file (text or binary form) is in the staging buffer.
TokenizerBinding* LoadTokenizer() {
  TokenizerBinding* result =
      Guarded<TokenizerBinding*>(nullptr, [&] { return new TokenizerBinding(LoadTokenizerFile(Staging())); });
  ReleaseStaging();
  return result;
}

// A tokenizer from vocabulary files in the staging buffer: kind "tiktoken" (a .tiktoken file), "npm-ranks"
// (npm tiktoken's bpe_ranks string) or "gpt2" (encoder.json in the first `split` bytes, vocab.bpe after
// it), with a pattern name and special tokens [{text, id}].
TokenizerBinding* TokenizerFromVocabulary(std::string kind, double split, std::string pattern,
                                          const val& special_tokens, std::string name) {
  TokenizerBinding* result = Guarded<TokenizerBinding*>(nullptr, [&] {
    const std::string_view staged = Staging();
    Vocabulary vocabulary;
    if (kind == "tiktoken") {
      vocabulary = ParseTiktokenFile(staged);
    } else if (kind == "npm-ranks") {
      vocabulary = ParseTiktokenNpmRanks(staged);
    } else if (kind == "gpt2") {
      const size_t at = std::min<size_t>(static_cast<size_t>(std::max<int64_t>(0, ToInt64(split))), staged.size());
      vocabulary = ParseGpt2Vocabulary(staged.substr(0, at), staged.substr(at));
    } else {
      throw std::invalid_argument("kind must be tiktoken, npm-ranks or gpt2, got " + kind);
    }
    return new TokenizerBinding(Tokenizer(std::move(vocabulary), PatternFromName(pattern),
                                          emscripten::vecFromJSArray<SpecialToken>(special_tokens), name));
  });
  ReleaseStaging();
  return result;
}

// The pre-tokenizer patterns' names, in the core's order.
val PatternNames() { return NamesOf(kPreTokenizerPatterns, PatternName); }

// The name of the pattern whose tiktoken regex is `regex`, or "" when no pre-tokenizer implements it.
std::string PatternOfRegex(std::string regex) {
  for (PreTokenizerPattern pattern : kPreTokenizerPatterns) {
    if (PatternRegex(pattern) == regex) return PatternName(pattern);
  }
  return "";
}

// A merge's count crosses as a JS number (a uint64 field would need BigInt).
double GetMergeCount(const BpeMerge& merge) { return static_cast<double>(merge.count); }
void SetMergeCount(BpeMerge& merge, double count) {
  merge.count = static_cast<uint64_t>(std::max<int64_t>(0, ToInt64(count)));
}

// Step-wise BPE training, so the JS layer can train in slices and stay responsive (and cancellable).
class TrainerBinding {
 public:
  explicit TrainerBinding(BpeTrainer trainer) : trainer_(std::move(trainer)) {}

  // Makes up to max_merges merges; returns how many it made.
  double Step(double max_merges) {
    return Guarded<double>(-1, [&] {
      return static_cast<double>(trainer_.Step(static_cast<size_t>(std::max<int64_t>(1, ToInt64(max_merges)))));
    });
  }
  bool Done() const { return trainer_.done(); }
  double MergesDone() const { return static_cast<double>(trainer_.merges().size()); }
  double MergesWanted() const { return static_cast<double>(trainer_.merges_wanted()); }

  // {token: bytes of the newest token, count: occurrences of its pair}, or null before the first merge.
  val LastMerge() const {
    if (trainer_.merges().empty()) return val::null();
    const BpeMerge& merge = trainer_.merges().back();
    val last = val::object();
    last.set("token", BytesToUint8Array(std::string(trainer_.vocabulary().Bytes(merge.id))));
    last.set("count", static_cast<double>(merge.count));
    return last;
  }

  // The tokenizer trained so far; the trainer is empty afterwards.
  TokenizerBinding* Finish(std::string name) {
    return Guarded<TokenizerBinding*>(nullptr, [&] {
      BpeTrainingResult trained = trainer_.TakeResult();
      return new TokenizerBinding(
          Tokenizer(std::move(trained.vocabulary), trained.pattern, std::move(trained.special_tokens), name),
          std::move(trained.merges));
    });
  }

 private:
  BpeTrainer trainer_;
};

// Counts the pairs of the corpus in the staging buffer.
TrainerBinding* CreateBpeTrainer(double vocab_size, std::string pattern, const val& special_tokens) {
  TrainerBinding* result = Guarded<TrainerBinding*>(nullptr, [&] {
    BpeTrainerOptions options;
    options.vocab_size = static_cast<size_t>(std::max<int64_t>(0, ToInt64(vocab_size)));
    options.pattern = PatternFromName(pattern);
    options.special_tokens = ToStrings(special_tokens);
    return new TrainerBinding(BpeTrainer(Staging(), options));
  });
  ReleaseStaging();
  return result;
}

}  // namespace

EMSCRIPTEN_BINDINGS(embedlab_tokenizer) {
  using emscripten::allow_raw_pointers;
  emscripten::value_object<SpecialToken>("SpecialToken")
      .field("text", &SpecialToken::text)
      .field("id", &SpecialToken::id);
  emscripten::value_object<BpeMerge>("BpeMerge")
      .field("left", &BpeMerge::left)
      .field("right", &BpeMerge::right)
      .field("id", &BpeMerge::id)
      .field("count", &GetMergeCount, &SetMergeCount);
  emscripten::class_<TokenizerBinding>("Tokenizer")
      .function("inputBuffer", &TokenizerBinding::InputBuffer)
      .function("encode", &TokenizerBinding::Encode)
      .function("inputPointer", &TokenizerBinding::InputPointer)
      .function("idsPointer", &TokenizerBinding::IdsPointer)
      .function("startsPointer", &TokenizerBinding::StartsPointer)
      .function("endsPointer", &TokenizerBinding::EndsPointer)
      .function("idBuffer", &TokenizerBinding::IdBuffer)
      .function("decode", &TokenizerBinding::Decode)
      .function("bytesPointer", &TokenizerBinding::BytesPointer)
      .function("decodedAscii", &TokenizerBinding::DecodedAscii)
      .function("tokenBytes", &TokenizerBinding::TokenBytes)
      .function("vocabSize", &TokenizerBinding::VocabSize)
      .function("encodingName", &TokenizerBinding::EncodingName)
      .function("patternName", &TokenizerBinding::PatternName)
      .function("specialTokens", &TokenizerBinding::SpecialTokens)
      .function("cacheSize", &TokenizerBinding::CacheSize)
      .function("clearCache", &TokenizerBinding::ClearCache)
      .function("merges", &TokenizerBinding::Merges)
      .function("save", &TokenizerBinding::Save);
  emscripten::function("loadTokenizer", &LoadTokenizer, allow_raw_pointers());
  emscripten::class_<TrainerBinding>("BpeTrainer")
      .function("step", &TrainerBinding::Step)
      .function("done", &TrainerBinding::Done)
      .function("mergesDone", &TrainerBinding::MergesDone)
      .function("mergesWanted", &TrainerBinding::MergesWanted)
      .function("lastMerge", &TrainerBinding::LastMerge)
      .function("finish", &TrainerBinding::Finish, allow_raw_pointers());
  emscripten::function("createBpeTrainer", &CreateBpeTrainer, allow_raw_pointers());
  emscripten::function("tokenizerFromVocabulary", &TokenizerFromVocabulary, allow_raw_pointers());
  emscripten::function("tokenizerForEncoding", &TokenizerForEncoding, allow_raw_pointers());
  emscripten::function("sharedTokenizer", &SharedTokenizer, allow_raw_pointers());
  emscripten::function("shareTokenizer", &ShareTokenizer);
  emscripten::function("extendTokenizer", &ExtendTokenizer, allow_raw_pointers());
  emscripten::function("patternNames", &PatternNames);
  emscripten::function("patternOfRegex", &PatternOfRegex);
}

}  // namespace bindings
}  // namespace embedlab
