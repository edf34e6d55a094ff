// A Hugging Face tokenizer.json (model type BPE) in the core: normalizers, added tokens, pre-tokenizers, the BPE
// model (merges in both forms, ignore_merges, byte_fallback, fuse_unk, unk), post-processors and decoders, with
// the semantics of the Rust `tokenizers` crate as @huggingface/tokenizers (Tokenizers.js) reproduces them.
// Immutable after construction; const methods are safe to call from several threads at once.
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
  // Throws std::out_of_range naming the position and value of an id that is not in the vocabulary.
  std::string Decode(const uint32_t* ids, size_t count, const HfDecodeOptions& options) const;
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
