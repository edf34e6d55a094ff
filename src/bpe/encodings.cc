#include "bpe/encodings.h"

#include <stdexcept>
#include <string>
#include <vector>

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
  if (n == "o200k_harmony") {
    // gpt-oss's encoding: o200k_base's ranks and pattern, with the harmony chat format's tokens and every other
    // id in [200000, 201088) reserved. 200018 has two names, as in tiktoken: <|endofprompt|> (listed first, so
    // it is the one decoding shows) and <|reserved_200018|>.
    std::vector<SpecialToken> special = {{"<|startoftext|>", 199998}, {"<|endoftext|>", 199999}, {"<|return|>", 200002},
                                         {"<|constrain|>", 200003},   {"<|channel|>", 200005},   {"<|start|>", 200006},
                                         {"<|end|>", 200007},         {"<|message|>", 200008},   {"<|call|>", 200012},
                                         {"<|endofprompt|>", 200018}};
    for (uint32_t id : {200000u, 200001u, 200004u, 200009u, 200010u, 200011u}) {
      special.push_back({"<|reserved_" + std::to_string(id) + "|>", id});
    }
    for (uint32_t id = 200013; id < 201088; ++id) special.push_back({"<|reserved_" + std::to_string(id) + "|>", id});
    return {n, PreTokenizerPattern::kO200k, std::move(special), 199998, 290};
  }
  throw std::invalid_argument(
      "encoding must be one of gpt2, r50k_base, p50k_base, p50k_edit, cl100k_base, o200k_base, o200k_harmony; got '" +
      n + "'");
}

}  // namespace embedlab
