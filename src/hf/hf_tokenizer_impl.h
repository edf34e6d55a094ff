// The parts of an HfTokenizer (hf_tokenizer.h), shared by its readers (tokenizer.json, binary form) and the
// encoding and decoding code. Internal to src/hf.
#ifndef EMBEDLAB_HF_HF_TOKENIZER_IMPL_H_
#define EMBEDLAB_HF_HF_TOKENIZER_IMPL_H_

#include <atomic>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hf/added_vocabulary.h"
#include "hf/bpe_model.h"
#include "hf/decoder.h"
#include "hf/hf_tokenizer.h"
#include "hf/normalizer.h"
#include "hf/post_processor.h"
#include "hf/pre_tokenizer.h"

namespace embedlab {

class DecodeTable;  // decode_table.h

class HfTokenizerImpl {
 public:
  HfTokenizerImpl() = default;
  HfTokenizerImpl(const HfTokenizerImpl&) = delete;
  HfTokenizerImpl& operator=(const HfTokenizerImpl&) = delete;
  ~HfTokenizerImpl();

  std::string name;
  BpeModel model;
  AddedVocabulary added;
  Normalizer normalizer;
  PreTokenizer pre_tokenizer;
  PostProcessor post_processor;
  Decoder decoder;
  bool clean_up_default = false;
  std::vector<HfTokenizer::AddedTokenInfo> added_infos;
  uint32_t vocab_size = 0;

  // Checks the added tokens against the vocabulary (ids as the Rust crate assigns them), builds the added-token
  // matchers and the derived tables. Throws std::invalid_argument.
  void Finish(std::vector<AddedToken> added_tokens, const BpeOptions& options);
  // The token's string (added tokens first, as the Rust crate looks them up), or false for an unknown id.
  bool Lookup(uint32_t id, std::string_view* token) const;
  // The decoder's table (decode_table.h), built on the first decode rather than at load (it costs memory a
  // tokenizer that only encodes does not need); null when the chain needs Decoder::Decode.
  const DecodeTable* decode_table() const;

 private:
  mutable std::atomic<DecodeTable*> decode_table_{nullptr};
  mutable std::atomic<bool> decode_table_built_{false};
};

// tokenizer.json (and tokenizer_config.json, may be empty) into a new tokenizer. Throws std::invalid_argument.
std::unique_ptr<HfTokenizerImpl> ReadTokenizerJson(std::string_view json, std::string_view config, std::string name);
// ToBinary's form and back (hf_binary.cc).
std::string WriteHfBinary(const HfTokenizerImpl& impl);
std::unique_ptr<HfTokenizerImpl> ReadHfBinary(std::string_view data);
bool IsHfBinary(std::string_view data);

}  // namespace embedlab

#endif  // EMBEDLAB_HF_HF_TOKENIZER_IMPL_H_
