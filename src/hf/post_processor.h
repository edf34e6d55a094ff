// The post-processors of a tokenizer.json this core runs, for one sequence: TemplateProcessing's "single"
// template (special tokens around Sequence A), ByteLevel (nothing to do for ids), and Sequence of them. Others, a
// template naming Sequence B or an unknown special token, are refused.
#ifndef EMBEDLAB_HF_POST_PROCESSOR_H_
#define EMBEDLAB_HF_POST_PROCESSOR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "text/json_value.h"

namespace embedlab {

struct PostProcessor {
  std::vector<uint32_t> prefix;  // ids before the sequence when special tokens are added
  std::vector<uint32_t> suffix;  // and after it

  static PostProcessor FromJson(const JsonValue& json, const std::string& path);
};

}  // namespace embedlab

#endif  // EMBEDLAB_HF_POST_PROCESSOR_H_
