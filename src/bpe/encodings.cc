#include "bpe/encodings.h"

#include <stdexcept>

namespace embedlab {

EncodingSpec EncodingSpecFor(std::string_view name) {
  const std::string n(name);
  if (n == "gpt2" || n == "r50k_base" || n == "p50k_base") {
    // p50k_base's file adds 24 whitespace-run tokens to r50k's (ranks 50257 to 50280).
    return {n, PreTokenizerPattern::kGpt2, {{"<|endoftext|>", 50256}}, n == "p50k_base" ? 50280u : 50256u, 262};
  }
  if (n == "p50k_edit") {
    return {n,
            PreTokenizerPattern::kGpt2,
            {{"<|endoftext|>", 50256}, {"<|fim_prefix|>", 50281}, {"<|fim_middle|>", 50282}, {"<|fim_suffix|>", 50283}},
            50280,
            262};
  }
  if (n == "cl100k_base") {
    return {n,
            PreTokenizerPattern::kCl100k,
            {{"<|endoftext|>", 100257},
             {"<|fim_prefix|>", 100258},
             {"<|fim_middle|>", 100259},
             {"<|fim_suffix|>", 100260},
             {"<|endofprompt|>", 100276}},
            100256,
            279};
  }
  if (n == "o200k_base") {
    return {n, PreTokenizerPattern::kO200k, {{"<|endoftext|>", 199999}, {"<|endofprompt|>", 200018}}, 199998, 290};
  }
  throw std::invalid_argument(
      "encoding must be one of gpt2, r50k_base, p50k_base, p50k_edit, cl100k_base, o200k_base; got '" + n + "'");
}

}  // namespace embedlab
