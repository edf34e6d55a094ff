// Writes the seed corpora of the fuzz targets into OUT/<target>/ (scripts/fuzz.sh: build/fuzz/seeds).
// Written in C++ so that the seeds come from the project's own writers (tokenizer files in both forms,
// safetensors) and are valid by construction; libFuzzer mutates from there. Usage: make_seeds VOCAB_DIR OUT
#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "bpe/base64.h"
#include "bpe/tiktoken_file.h"
#include "bpe/tokenizer.h"
#include "bpe/tokenizer_file.h"
#include "checkpoint/safetensors_writer.h"
#include "fuzz_common.h"
#include "hf_seeds.h"
#include "model/rope_scaling.h"
#include "training/gpt_trainer.h"
#include "training/model_checkpoint.h"
#include "training/rope_scaling_json.h"

using namespace embedlab;

namespace {

std::string out_dir;

void Write(const std::string& target, const std::string& name, const std::string& contents) {
  const std::string dir = out_dir + "/" + target;
  mkdir(out_dir.c_str(), 0755);
  mkdir(dir.c_str(), 0755);
  const std::string path = dir + "/" + name;
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    std::perror(path.c_str());
    std::exit(1);
  }
  std::fwrite(contents.data(), 1, contents.size(), file);
  std::fclose(file);
}

const std::vector<std::string> kTexts = {
    "Hello, world! It's 2024: tokens 'll 've 're.",
    "  leading and trailing spaces   \n\n\ttabs\r\n",
    "def f(x):\n    return x ** 2  # comment\n",
    "12345678901234567890 3.14159 1,000,000",
    "Ünïcödé: 日本語のテキスト, 中文, 한국어, Ελληνικά, русский, עברית, العربية",
    "emoji 👍🏽👨‍👩‍👧 flags 🇩🇪 and combining e\xCC\x81",
    "<|endoftext|> special <|fim_prefix|> tokens <|endofprompt|>",
    std::string("invalid \xFF\xFE utf8 \xC3 trailing \xE2\x82", 29),
    "HTTPServerError CamelCase snake_case kebab-case ALLCAPS",
    "\xC2\x85 next-line \xEF\xBB\xBF bom \xE2\x80\xA8 ls",
    std::string(300, ' ') + "x" + std::string(100, '\n'),
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
};

// GPT-2's byte -> printable character map (encoder.json spells each byte as one character).
std::string ByteToUnicode(unsigned char b) {
  unsigned code;
  if ((b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE)) {
    code = b;
  } else {
    unsigned n = 0;
    for (unsigned c = 0; c < b; ++c) {
      if (!((c >= '!' && c <= '~') || (c >= 0xA1 && c <= 0xAC) || (c >= 0xAE))) ++n;
    }
    code = 256 + n;
  }
  std::string out;
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
  return out;
}

std::string Spell(std::string_view bytes) {
  std::string out;
  for (unsigned char b : bytes) out += ByteToUnicode(b);
  return out;
}

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
      out += buffer;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: make_seeds VOCAB_DIR OUT\n");
    return 2;
  }
  out_dir = argv[2];
  const Vocabulary r50k = ParseTiktokenFile(ReadWholeFile(std::string(argv[1]) + "/r50k_base.tiktoken"));

  // Texts: tokenizer round trip (first byte picks the vocabulary) and pre-tokenizer.
  for (size_t i = 0; i < kTexts.size(); ++i) {
    Write("pre_tokenizer", "text" + std::to_string(i), kTexts[i]);
    Write("tokenizer_roundtrip", "text" + std::to_string(i), std::string(1, static_cast<char>(i % 4)) + kTexts[i]);
  }

  // A small vocabulary: the 256 bytes and the first merges of r50k.
  Vocabulary small;
  for (uint32_t rank = 0; rank < 600; ++rank) small.Add(r50k.Bytes(rank), rank);
  const std::string small_text = FormatTiktokenFile(small);
  Write("tiktoken_file", "small", std::string(1, '\0') + small_text);
  Write("tiktoken_file", "tiny", std::string(1, '\0') + "IQ== 0\nIg== 1\nIyQ= 2\n");
  Write("tiktoken_file", "bad_line", std::string(1, '\0') + "IQ== 0\nnot base64 x\n");
  // npm tiktoken's bpe_ranks: "<label> <first rank> <token> <token> ..." lines.
  std::string ranks = "! 0";
  for (uint32_t rank = 0; rank < 300; ++rank) ranks += " " + EncodeBase64(r50k.Bytes(rank));
  ranks += "\n! 300";
  for (uint32_t rank = 300; rank < 400; ++rank) ranks += " " + EncodeBase64(r50k.Bytes(rank));
  Write("tiktoken_file", "npm_ranks", std::string(1, '\1') + ranks + "\n");

  // GPT-2 encoder.json + NUL + vocab.bpe: each merge of the split that produces the next rank.
  std::string encoder = "{";
  std::string merges = "#version: 0.2\n";
  uint32_t end = 256;
  for (uint32_t rank = 256; rank < 600; ++rank) {
    const std::string_view token = r50k.Bytes(rank);
    bool found = false;
    for (size_t k = 1; k < token.size() && !found; ++k) {
      const uint32_t left = r50k.Rank(token.substr(0, k)), right = r50k.Rank(token.substr(k));
      if (left < rank && right < rank) {
        merges += Spell(token.substr(0, k)) + " " + Spell(token.substr(k)) + "\n";
        found = true;
      }
    }
    if (!found) break;
    end = rank + 1;
  }
  for (uint32_t rank = 0; rank < end; ++rank) {
    encoder += (rank ? "," : "") + JsonString(Spell(r50k.Bytes(rank))) + ":" + std::to_string(rank);
  }
  encoder += ",\"<|endoftext|>\":" + std::to_string(end) + "}";
  Write("gpt2_vocabulary", "small", encoder + std::string(1, '\0') + merges);
  Write("gpt2_vocabulary", "encoder_only", encoder);

  // Hugging Face tokenizer.json files and their binary form (hf_seeds.h).
  hf_seeds::WriteHfSeeds(Write);

  // The project's tokenizer files, text and binary form.
  Vocabulary tokenizer_vocabulary;
  for (uint32_t rank = 0; rank < 400; ++rank) tokenizer_vocabulary.Add(r50k.Bytes(rank), rank);
  const Tokenizer tokenizer(tokenizer_vocabulary, PreTokenizerPattern::kO200k, {{"<|endoftext|>", 400}}, "mine");
  Write("tokenizer_file", "text", SaveTokenizerFile(tokenizer));
  Write("tokenizer_file", "binary", SaveTokenizerBinary(tokenizer));
  Write("tokenizer_file", "bare_binary", tokenizer_vocabulary.ToBinary());

  // GloVe text.
  Write("glove", "plain",
        "the 0.418 0.24968 -0.41242 0.1217\n, 0.013441 0.23682 -0.16899 0.40951\n"
        "of 0.70853 0.57088 -0.4716 0.18048\n");
  Write("glove", "word2vec", "3 2\r\nking 0.5 -1e-3\r\nqueen .25 +3.E2\r\nat name@x.com 1 2\r\n");
  Write("glove", "ragged", "a 1 2 3\nb 1 2\n");

  // safetensors: the writer's output, and a hand-made header with other dtypes.
  const std::vector<float> a = {1, 2, 3, 4, 5, 6}, b = {0.5f, -0.5f};
  Write("safetensors", "f32", [&] {
    const std::vector<uint8_t> bytes =
        WriteSafetensors({{"wte.weight", {2, 3}, a.data()}, {"ln_f.bias", {2}, b.data()}}, {{"format", "pt"}});
    return std::string(bytes.begin(), bytes.end());
  }());
  {
    const std::string header =
        "{\"h\":{\"dtype\":\"F16\",\"shape\":[2],\"data_offsets\":[0,4]},"
        "\"i\":{\"dtype\":\"I64\",\"shape\":[1],\"data_offsets\":[4,12]},"
        "\"b\":{\"dtype\":\"BF16\",\"shape\":[1,1],\"data_offsets\":[12,14]},"
        "\"__metadata__\":{\"k\":\"v\"}}";
    std::string file(8, '\0');
    file[0] = static_cast<char>(header.size());
    file += header;
    file += std::string("\x00\x3c\x00\xc0", 4) + std::string("\x07\0\0\0\0\0\0\0", 8) + std::string("\x80\x3f", 2);
    Write("safetensors", "dtypes", file);
  }
  {
    // A tensor with no elements (shape [0, 1]): found by the fuzzer in a clean run, where the harness passed
    // an empty vector's null data pointer to memcmp.
    const std::string header = "{\"e\":{\"dtype\":\"F32\",\"shape\":[0,1],\"data_offsets\":[0,0]}}";
    std::string file(8, '\0');
    file[0] = static_cast<char>(header.size());
    Write("safetensors", "empty", file + header);
  }
  // Streaming UTF-8: split count, split steps, then text (seeds cut inside multi-byte characters).
  for (size_t i = 0; i < kTexts.size(); ++i) {
    Write("utf8_stream", "text" + std::to_string(i), std::string("\x05\x01\x02\x03\x05\x07", 6) + kTexts[i]);
  }

  // RoPE scaling: byte 0 even + JSON of each type; byte 0 odd + raw bytes for the option fields.
  for (RopeScalingType type : kRopeScalingTypes) {
    if (type == RopeScalingType::kNone) continue;
    RopeScaling scaling;
    scaling.type = type;
    scaling.factor = 4;
    scaling.original_context_length = 64;
    Write("rope_scaling", std::string("json_") + RopeScalingTypeName(type),
          std::string(1, '\0') + RopeScalingToJson(scaling));
    Write("rope_scaling", std::string("fields_") + RopeScalingTypeName(type),
          std::string(1, '\1') + std::string(1, static_cast<char>(type)) + std::string(40, '\x55'));
  }
  Write("rope_scaling", "json_hf_llama3",
        std::string(1, '\0') + R"({"rope_type":"llama3","factor":8.0,"original_max_position_embeddings":8192,)"
                               R"("low_freq_factor":1.0,"high_freq_factor":4.0})");

  // Model checkpoints: tiny models of several position schemes, with and without the optimizer state (scripts/
  // fuzz.sh gives this target a larger -max_len: the state's tensor names make those seeds ~8 KB).
  const auto checkpoint = [](PositionScheme positions, RopeScalingType scaling, bool with_optimizer) {
    GptConfig config;
    config.vocab_size = 8;
    config.context_length = 4;
    config.channels = 4;
    config.layers = 1;
    config.heads = 2;
    config.positions = positions;
    config.rope_scaling.type = scaling;
    config.rope_scaling.factor = 2;
    config.rope_scaling.original_context_length = 4;
    GptTrainer trainer(config, AdamWOptions());
    trainer.TrainStep({1, 2, 3, 4}, {2, 3, 4, 5}, 1, 4);
    const std::vector<uint8_t> bytes = with_optimizer ? trainer.Save() : SaveCheckpoint(trainer.model(), nullptr);
    return std::string(bytes.begin(), bytes.end());
  };
  Write("model_checkpoint", "learned_adamw", checkpoint(PositionScheme::kLearned, RopeScalingType::kNone, true));
  Write("model_checkpoint", "rope_yarn", checkpoint(PositionScheme::kRope, RopeScalingType::kYarn, false));
  Write("model_checkpoint", "t5", checkpoint(PositionScheme::kT5, RopeScalingType::kNone, false));
  Write("model_checkpoint", "alibi", checkpoint(PositionScheme::kAlibi, RopeScalingType::kNone, false));
  {
    // Metadata alone claiming a model of 2^28 floats (the cap) and no tensors: refused before the model is
    // allocated (it used to allocate and initialize 2 GiB first).
    GptConfig huge;
    huge.vocab_size = 1 << 21;
    huge.channels = 128;
    const std::vector<uint8_t> bytes = WriteSafetensors({}, GptConfigToMetadata(huge));
    Write("model_checkpoint", "huge_config_no_tensors", std::string(bytes.begin(), bytes.end()));
  }
  Write("model_checkpoint", "sinusoidal_adamw", checkpoint(PositionScheme::kSinusoidal, RopeScalingType::kNone, true));
  std::printf("make_seeds: wrote seeds to %s\n", out_dir.c_str());
  return 0;
}
