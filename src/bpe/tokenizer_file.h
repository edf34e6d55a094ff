// The project's own tokenizer files: one header line that names the pre-tokenizer pattern and the special
// tokens, then the vocabulary, either as .tiktoken text (for trained tokenizers; drop the first line and
// tiktoken itself loads the rest) or in binary form (Vocabulary::ToBinary, smaller and faster to load):
//   #embedlab-bpe {"format":1,"name":"mine","pattern":"o200k","special_tokens":{"<|endoftext|>":8000}}
//   IQ== 0
//   ...
// The binary form starts with "#embedlab-bpe-binary " and the same JSON.
#ifndef EMBEDLAB_BPE_TOKENIZER_FILE_H_
#define EMBEDLAB_BPE_TOKENIZER_FILE_H_

#include <string>
#include <string_view>

#include "bpe/tokenizer.h"

namespace embedlab {

std::string SaveTokenizerFile(const Tokenizer& tokenizer);
std::string SaveTokenizerBinary(const Tokenizer& tokenizer);
// Either form; throws std::invalid_argument for a missing or malformed header or vocabulary.
Tokenizer LoadTokenizerFile(std::string_view contents);

}  // namespace embedlab

#endif  // EMBEDLAB_BPE_TOKENIZER_FILE_H_
