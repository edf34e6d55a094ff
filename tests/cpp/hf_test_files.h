// Small hand-made tokenizer.json texts for the tests of src/hf: a model section built from a vocabulary and merges,
// with the other parts given as JSON text.
#ifndef EMBEDLAB_TESTS_CPP_HF_TEST_FILES_H_
#define EMBEDLAB_TESTS_CPP_HF_TEST_FILES_H_

#include <string>
#include <utility>
#include <vector>

#include "hf/hf_tokenizer.h"
#include "text/json_value.h"

namespace hf_test {

struct Parts {
  std::vector<std::string> vocab;  // token i has id i
  std::vector<std::pair<std::string, std::string>> merges;
  std::string model_options = "\"unk_token\": null";
  std::string added_tokens = "[]";
  std::string normalizer = "null";
  std::string pre_tokenizer = "null";
  std::string post_processor = "null";
  std::string decoder = "null";
};

inline std::string Json(const Parts& parts) {
  std::string vocab, merges;
  for (size_t i = 0; i < parts.vocab.size(); ++i) {
    vocab += (i ? "," : "") + embedlab::QuoteJson(parts.vocab[i]) + ":" + std::to_string(i);
  }
  for (size_t i = 0; i < parts.merges.size(); ++i) {
    merges += std::string(i ? "," : "") + "[" + embedlab::QuoteJson(parts.merges[i].first) + "," +
              embedlab::QuoteJson(parts.merges[i].second) + "]";
  }
  return "{\"version\":\"1.0\",\"truncation\":null,\"padding\":null,\"added_tokens\":" + parts.added_tokens +
         ",\"normalizer\":" + parts.normalizer + ",\"pre_tokenizer\":" + parts.pre_tokenizer +
         ",\"post_processor\":" + parts.post_processor + ",\"decoder\":" + parts.decoder +
         ",\"model\":{\"type\":\"BPE\"," + parts.model_options + ",\"vocab\":{" + vocab + "},\"merges\":[" + merges +
         "]}}";
}

inline embedlab::HfTokenizer Load(const Parts& parts, const std::string& config = "") {
  return embedlab::HfTokenizer::FromJson(Json(parts), config, "test");
}

inline std::vector<uint32_t> Ids(const embedlab::HfTokenizer& tokenizer, const std::string& text,
                                 bool special = false) {
  embedlab::HfEncodeOptions options;
  options.add_special_tokens = special;
  return tokenizer.Encode(text, options, false).ids;
}

inline std::string Decode(const embedlab::HfTokenizer& tokenizer, const std::vector<uint32_t>& ids,
                          embedlab::HfDecodeOptions options = {}) {
  return tokenizer.Decode(ids.data(), ids.size(), options);
}

}  // namespace hf_test

#endif  // EMBEDLAB_TESTS_CPP_HF_TEST_FILES_H_
