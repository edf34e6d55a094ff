// The project's own tokenizer file: a .tiktoken vocabulary preceded by one header line that names the
// pre-tokenizer pattern and the special tokens, so a trained tokenizer saves and loads as one file:
//   #embedlab-bpe {"format":1,"name":"mine","pattern":"o200k","special_tokens":{"<|endoftext|>":8000}}
//   IQ== 0
//   ...
// Dropping the first line leaves a file that tiktoken itself loads.
#ifndef EMBEDLAB_BPE_TOKENIZER_FILE_H_
#define EMBEDLAB_BPE_TOKENIZER_FILE_H_

#include <string>
#include <string_view>

#include "bpe/tokenizer.h"

namespace embedlab {

std::string SaveTokenizerFile(const Tokenizer& tokenizer);
// Throws std::invalid_argument for a missing or malformed header or vocabulary.
Tokenizer LoadTokenizerFile(std::string_view contents);

}  // namespace embedlab

#endif  // EMBEDLAB_BPE_TOKENIZER_FILE_H_
