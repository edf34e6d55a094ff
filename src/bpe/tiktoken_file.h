// tiktoken's vocabulary formats: the .tiktoken file, one token per line, "<base64 bytes> <rank>"; and the
// compressed "bpe_ranks" string of npm tiktoken's encoders/*.json, where each line is
// "<ignored> <first rank> <base64 token> <base64 token> ..." with consecutive ranks.
#ifndef EMBEDLAB_BPE_TIKTOKEN_FILE_H_
#define EMBEDLAB_BPE_TIKTOKEN_FILE_H_

#include <string>
#include <string_view>

#include "bpe/vocabulary.h"

namespace embedlab {

// Throws std::invalid_argument naming the line of the first malformed entry.
Vocabulary ParseTiktokenFile(std::string_view contents);
// Throws std::invalid_argument naming the line of the first malformed entry.
Vocabulary ParseTiktokenNpmRanks(std::string_view bpe_ranks);
// Lines in rank order, so that writing then parsing gives the same vocabulary.
std::string FormatTiktokenFile(const Vocabulary& vocabulary);

}  // namespace embedlab

#endif  // EMBEDLAB_BPE_TIKTOKEN_FILE_H_
