// embedlab_hf_encode: a Hugging Face tokenizer.json natively, for parity checks against Tokenizers.js
// (tests/node/hf_parity scripts) and for timing.
//
//   embedlab_hf_encode batch TOKENIZER_JSON CONFIG_JSON|- TEXTS_JSON [--no-special] [--split-special]
//     TEXTS_JSON is a JSON array of strings; prints one JSON object per text and line:
//     {"ids":[…],"starts":[…],"ends":[…],"decoded":"…","skipped":"…"} (decoded with the defaults, and with
//     skip_special_tokens), or {"error":"…"}
//   embedlab_hf_encode bench TOKENIZER_JSON CONFIG_JSON|- TEXT_FILE [REPEAT]
//     prints the load time (JSON and binary form), the binary size and the encoding and decoding speeds (median of
//     REPEAT), in CPU time
//   embedlab_hf_encode load TOKENIZER_JSON CONFIG_JSON|-     loads and prints the vocabulary size, or the error
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "hf/hf_tokenizer.h"
#include "text/json_value.h"

namespace {

using embedlab::HfTokenizer;

std::string ReadFile(const std::string& path) {
  if (path == "-") return "";
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// CPU time of this process: the machines this runs on are shared, and wall time there measures the neighbours.
double Now() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }
double Seconds(double since) { return Now() - since; }

std::string JsonIds(const std::vector<uint32_t>& ids) {
  std::string out = "[";
  for (size_t i = 0; i < ids.size(); ++i) out += (i ? "," : "") + std::to_string(ids[i]);
  return out + "]";
}

int Batch(const HfTokenizer& tokenizer, const std::string& texts_path, bool special, bool split_special) {
  const std::optional<embedlab::JsonValue> texts = embedlab::ParseJson(ReadFile(texts_path));
  if (!texts || texts->kind != embedlab::JsonValue::Kind::kArray) throw std::runtime_error("texts: not a JSON array");
  embedlab::HfEncodeOptions options;
  options.add_special_tokens = special;
  options.split_special_tokens = split_special;
  for (const embedlab::JsonValue& text : texts->items) {
    try {
      const embedlab::HfEncoding encoding = tokenizer.Encode(text.string, options, true);
      embedlab::HfDecodeOptions skip;
      skip.skip_special_tokens = true;
      std::cout << "{\"ids\":" << JsonIds(encoding.ids) << ",\"starts\":" << JsonIds(encoding.starts)
                << ",\"ends\":" << JsonIds(encoding.ends) << ",\"decoded\":"
                << embedlab::QuoteJson(tokenizer.Decode(encoding.ids.data(), encoding.ids.size(), {}))
                << ",\"skipped\":"
                << embedlab::QuoteJson(tokenizer.Decode(encoding.ids.data(), encoding.ids.size(), skip)) << "}\n";
    } catch (const std::exception& e) {
      std::cout << "{\"error\":" << embedlab::QuoteJson(e.what()) << "}\n";
    }
  }
  return 0;
}

int Bench(const std::string& json, const std::string& config, const std::string& text_path, int repeat) {
  double start = Now();
  const HfTokenizer tokenizer = HfTokenizer::FromJson(json, config, "bench");
  const double load_json = Seconds(start);
  start = Now();
  const std::string binary = tokenizer.ToBinary();
  const double write_binary = Seconds(start);
  start = Now();
  const HfTokenizer from_binary = HfTokenizer::FromBinary(binary);
  const double load_binary = Seconds(start);
  const std::string text = ReadFile(text_path);
  std::vector<double> times, span_times, decode_times;
  size_t count = 0;
  const std::vector<uint32_t> ids = from_binary.Encode(text, {}, false).ids;
  for (int i = 0; i < repeat; ++i) {
    start = Now();
    count = from_binary.Count(text, {});
    times.push_back(Seconds(start));
    start = Now();
    from_binary.Encode(text, {}, true);
    span_times.push_back(Seconds(start));
    start = Now();
    from_binary.Decode(ids.data(), ids.size(), {});
    decode_times.push_back(Seconds(start));
  }
  std::sort(decode_times.begin(), decode_times.end());
  std::sort(times.begin(), times.end());
  std::sort(span_times.begin(), span_times.end());
  const double mb = text.size() / 1e6;
  std::printf("load json %.1f ms (%.1f MB), write binary %.1f ms, binary %.1f MB loads in %.1f ms\n", load_json * 1e3,
              json.size() / 1e6, write_binary * 1e3, binary.size() / 1e6, load_binary * 1e3);
  std::printf("encode %.2f MB: %zu tokens, %.1f MB/s (first %.1f MB/s), with spans %.1f MB/s; decode %.1f MB/s\n", mb,
              count, mb / times[times.size() / 2], mb / times.back(), mb / span_times[span_times.size() / 2],
              mb / decode_times[decode_times.size() / 2]);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.size() >= 4 && args[0] == "batch") {
      const HfTokenizer tokenizer = HfTokenizer::FromJson(ReadFile(args[1]), ReadFile(args[2]), "batch");
      const bool no_special = std::find(args.begin(), args.end(), "--no-special") != args.end();
      const bool split_special = std::find(args.begin(), args.end(), "--split-special") != args.end();
      return Batch(tokenizer, args[3], !no_special, split_special);
    }
    if (args.size() >= 4 && args[0] == "bench") {
      return Bench(ReadFile(args[1]), ReadFile(args[2]), args[3], args.size() > 4 ? std::stoi(args[4]) : 5);
    }
    if (args.size() == 3 && args[0] == "load") {
      const HfTokenizer tokenizer = HfTokenizer::FromJson(ReadFile(args[1]), ReadFile(args[2]), "load");
      std::printf("vocab_size %zu\n", tokenizer.vocab_size());
      return 0;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  std::fprintf(stderr, "usage: see the comment at the top of src/tools/embedlab_hf_encode.cc\n");
  return 2;
}
