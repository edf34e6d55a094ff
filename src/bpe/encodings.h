// OpenAI's named encodings: which pre-tokenizer pattern and which special tokens go with a vocabulary.
// Values as in tiktoken's tiktoken_ext/openai_public.py (and npm tiktoken's encoders/*.json).
#ifndef EMBEDLAB_BPE_ENCODINGS_H_
#define EMBEDLAB_BPE_ENCODINGS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bpe/special_tokens.h"
#include "text/pre_tokenizer.h"

namespace embedlab {

struct EncodingSpec {
  std::string name;
  PreTokenizerPattern pattern;
  std::vector<SpecialToken> special_tokens;
  // The published vocabulary, to refuse another encoding's file given under this name: its number of ordinary
  // tokens and the rank of " the".
  size_t token_count;
  uint32_t the_rank;
};

// gpt2, r50k_base, p50k_base, p50k_edit, cl100k_base, o200k_base or o200k_harmony; throws std::invalid_argument
// otherwise.
EncodingSpec EncodingSpecFor(std::string_view name);

}  // namespace embedlab

#endif  // EMBEDLAB_BPE_ENCODINGS_H_
