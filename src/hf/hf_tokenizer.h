// A Hugging Face tokenizer.json (model type BPE) in the core: normalizers, added tokens, pre-tokenizers, the BPE
// model (merges in both forms, ignore_merges, byte_fallback, fuse_unk, unk), post-processors and decoders, with
// the semantics of the Rust `tokenizers` crate as @huggingface/tokenizers (Tokenizers.js) reproduces them.
// Immutable after construction, but for a cache of encoded pieces that never changes results; const methods are
// safe to call from several threads at once.
#ifndef EMBEDLAB_HF_HF_TOKENIZER_H_
#define EMBEDLAB_HF_HF_TOKENIZER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace embedlab {

struct HfEncodeOptions {
  bool add_special_tokens = true;     // the post-processor's template (BOS/EOS); Tokenizers.js' default
  bool split_special_tokens = false;  // true: special added tokens are ordinary text (non-special ones still match)
  // A text in parts cut at SafeCut positions: every part after the first starts_after_cut (no template prefix, and
  // its start is no section start for Prepend or Metaspace's "first"), every part before the last ends_at_cut (no
  // template suffix). The parts' ids, one after the other, are then the whole text's.
  bool starts_after_cut = false;
  bool ends_at_cut = false;
};

struct HfDecodeOptions {
  bool skip_special_tokens = false;
  // transformers' clean-up (" ." -> "." …); the default is the tokenizer_config.json value given at load, if any.
  int clean_up_tokenization_spaces = -1;  // -1 the loaded default, 0 no, 1 yes
};

// Token i: its id and the byte span [starts[i], ends[i]) in the UTF-8 input it came from (template tokens get
// an empty span; tokens of one character split by byte_fallback all get that character's span).
struct HfEncoding {
  std::vector<uint32_t> ids;
  std::vector<uint32_t> starts;
  std::vector<uint32_t> ends;
};

class HfTokenizerImpl;  // hf_tokenizer.cc

class HfTokenizer {
 public:
  // tokenizer.json text; config_json is tokenizer_config.json text or empty (read: clean_up_tokenization_spaces).
  // Throws std::invalid_argument naming what is wrong and where (a JSON path such as `model.merges[12]`), and
  // naming any unsupported part (another model.type, an unknown normalizer, a regex with no scanner, quoted).
  static HfTokenizer FromJson(std::string_view tokenizer_json, std::string_view config_json, std::string name);
  // The compact binary form (ToBinary): no JSON parsing, for fast start-up. Throws std::invalid_argument.
  static HfTokenizer FromBinary(std::string_view data);
  static bool IsBinary(std::string_view data);  // data starts as ToBinary's output does
  std::string ToBinary() const;

  // Text is UTF-8 (lone surrogates from JS arrive as U+FFFD, as TextEncoder writes them).
  HfEncoding Encode(std::string_view text, const HfEncodeOptions& options, bool with_spans) const;
  size_t Count(std::string_view text, const HfEncodeOptions& options) const;
  // The largest p in [from, to] where text may be cut: for any bytes that may follow `text`, encoding text[0, p)
  // with ends_at_cut and the rest with starts_after_cut gives the ids of encoding it whole. kNoCut when there is
  // none. Bytes before `from` are read as context (text need not start at a text start or a cut: a p too close to
  // text's start to see its context is not returned), bytes past text's end as unknown. Conservative: a pipeline
  // not proven safe (hf_safe_cut.cc says which) has no cut.
  static constexpr size_t kNoCut = static_cast<size_t>(-1);
  size_t SafeCut(std::string_view text, size_t from, size_t to) const;
  // Throws std::out_of_range naming the position and value of an id that is not in the vocabulary.
  std::string Decode(const uint32_t* ids, size_t count, const HfDecodeOptions& options) const;
  // The BPE model's cache of the pieces it has encoded (never changing results; bounded as src/bpe's PieceCache):
  // the pieces it holds and the bytes it has allocated. ClearCache forgets them and frees the memory.
  struct CacheSize {
    size_t pieces;
    size_t bytes;
  };
  CacheSize cache_size() const;
  void ClearCache() const;
  // The token's string as the vocabulary writes it ("ĠHello", "▁the", "<0x0A>", "<|begin_of_text|>").
  std::string TokenString(uint32_t id) const;
  // The bytes a token stands for on its own (byte-level mapped back, "▁" -> " " per the decoder, <0xNN> -> byte).
  std::string TokenBytes(uint32_t id) const;

  const std::string& name() const;
  size_t vocab_size() const;  // one past the largest id, added tokens included
  struct AddedTokenInfo {
    std::string content;
    uint32_t id;
    bool special;
  };
  const std::vector<AddedTokenInfo>& added_tokens() const;

  HfTokenizer(HfTokenizer&&) noexcept;
  HfTokenizer& operator=(HfTokenizer&&) noexcept;
  ~HfTokenizer();

 private:
  explicit HfTokenizer(std::unique_ptr<HfTokenizerImpl> impl);
  std::unique_ptr<HfTokenizerImpl> impl_;
};

}  // namespace embedlab

#endif  // EMBEDLAB_HF_HF_TOKENIZER_H_
