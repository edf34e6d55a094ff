// GPT-2's original vocabulary files. encoder.json maps token strings to ids, spelling each byte as one
// printable character: bytes that print (except space) stand for themselves, the other 68 for U+0100 + n
// in byte order (so space is 'Ġ' and newline 'Ċ'). vocab.bpe lists the merges in rank order; ids equal
// ranks, the 256 single bytes first.
#ifndef EMBEDLAB_BPE_GPT2_VOCABULARY_FILE_H_
#define EMBEDLAB_BPE_GPT2_VOCABULARY_FILE_H_

#include <string_view>

#include "bpe/vocabulary.h"

namespace embedlab {

// <|endoftext|> and <|startoftext|> are skipped (they are special tokens, not mergeable ones). When
// vocab_bpe is not empty, each merge must produce the token of the next rank, as tiktoken checks.
// Throws std::invalid_argument.
Vocabulary ParseGpt2Vocabulary(std::string_view encoder_json, std::string_view vocab_bpe);

}  // namespace embedlab

#endif  // EMBEDLAB_BPE_GPT2_VOCABULARY_FILE_H_
