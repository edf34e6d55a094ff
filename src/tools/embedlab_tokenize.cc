// embedlab_tokenize: the native tokenizer on the command line, for parity checks against tiktoken and for
// quick looks at how a text splits.
//
//   embedlab_tokenize --vocab FILE.tiktoken --encoding NAME [options] < text
//     (default)        each input line (without its \n) is one text; prints its ids space-separated
//     --whole          all of stdin is one text
//     --base64-lines   each input line is a base64-encoded text (any bytes, newlines included)
//     --json           prints each result as a JSON array instead
//     --allow-special  special tokens are allowed (tiktoken allowed_special="all"); default: encode_ordinary
//     --disallow-special  tiktoken's default: special-token text is an error, printed as "error: ..." in
//                      place of that text's ids
//     --time           prints encode throughput to stderr
//     --repeat N       encodes everything N times and reports the median time (with --time)
//     --clear-cache    empties the tokenizer's piece cache before each of the N passes (each starts cold)
//     --save-binary F  writes the tokenizer as an #embedlab-bpe-binary file (fast start-up) and exits
//   embedlab_tokenize --tokenizer FILE [options] < text
//     loads one of our tokenizer files (#embedlab-bpe text or binary) instead of --vocab/--encoding
//
//   embedlab_tokenize --train VOCAB_SIZE --pattern gpt2|cl100k|o200k [--output FILE] < corpus
//     trains a BPE vocabulary on stdin, reports the time, writes an #embedlab-bpe tokenizer file
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "bpe/base64.h"
#include "bpe/bpe_trainer.h"
#include "bpe/tokenizer.h"
#include "bpe/tokenizer_file.h"

namespace {

std::string ReadAll(std::istream& in) {
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void Print(const std::vector<uint32_t>& ids, bool json, std::string* out) {
  if (json) *out += '[';
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i > 0) *out += json ? "," : " ";
    *out += std::to_string(ids[i]);
  }
  if (json) *out += ']';
  *out += '\n';
}

int Train(size_t vocab_size, const std::string& pattern, const std::string& output_path) {
  embedlab::BpeTrainerOptions options;
  options.vocab_size = vocab_size;
  options.pattern = embedlab::PatternFromName(pattern);
  options.special_tokens = {"<|endoftext|>"};
  const std::string corpus = ReadAll(std::cin);
  const auto start = std::chrono::steady_clock::now();
  embedlab::BpeTrainingResult result = embedlab::TrainBpe(corpus, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::fprintf(stderr, "trained %zu merges on %zu bytes in %.3f s%s\n", result.merges.size(), corpus.size(), seconds,
               result.exhausted ? " (no pairs left)" : "");
  if (!output_path.empty()) {
    const embedlab::Tokenizer tokenizer(std::move(result.vocabulary), result.pattern, std::move(result.special_tokens),
                                        "trained");
    std::ofstream(output_path, std::ios::binary) << embedlab::SaveTokenizerFile(tokenizer);
  }
  return 0;
}

int Usage() {
  std::fprintf(stderr,
               "usage: embedlab_tokenize --vocab FILE --encoding NAME [--whole|--base64-lines] [--json] "
               "[--allow-special|--disallow-special] [--time] [--repeat N] [--clear-cache] < text\n"
               "       embedlab_tokenize --tokenizer FILE [options] < text\n"
               "       embedlab_tokenize --train VOCAB_SIZE [--pattern P] [--output FILE] < corpus\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string vocab_path, encoding, pattern = "o200k", output_path, tokenizer_path, save_binary_path;
  size_t train_vocab_size = 0;
  bool whole = false, base64_lines = false, json = false, allow_special = false, disallow_special = false, time = false;
  int repeat = 1;
  bool clear_cache = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--vocab" && i + 1 < argc) {
      vocab_path = argv[++i];
    } else if (arg == "--encoding" && i + 1 < argc) {
      encoding = argv[++i];
    } else if (arg == "--train" && i + 1 < argc) {
      train_vocab_size = static_cast<size_t>(std::atol(argv[++i]));
    } else if (arg == "--tokenizer" && i + 1 < argc) {
      tokenizer_path = argv[++i];
    } else if (arg == "--save-binary" && i + 1 < argc) {
      save_binary_path = argv[++i];
    } else if (arg == "--pattern" && i + 1 < argc) {
      pattern = argv[++i];
    } else if (arg == "--output" && i + 1 < argc) {
      output_path = argv[++i];
    } else if (arg == "--whole") {
      whole = true;
    } else if (arg == "--base64-lines") {
      base64_lines = true;
    } else if (arg == "--json") {
      json = true;
    } else if (arg == "--allow-special") {
      allow_special = true;
    } else if (arg == "--disallow-special") {
      disallow_special = true;
    } else if (arg == "--time") {
      time = true;
    } else if (arg == "--clear-cache") {
      clear_cache = true;
    } else if (arg == "--repeat" && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else {
      return Usage();
    }
  }
  try {
    if (train_vocab_size > 0) return Train(train_vocab_size, pattern, output_path);
    if (tokenizer_path.empty() && (vocab_path.empty() || encoding.empty())) return Usage();
    const std::string& path = tokenizer_path.empty() ? vocab_path : tokenizer_path;
    std::ifstream file(path, std::ios::binary);
    if (!file) throw std::invalid_argument("cannot open " + path);
    const std::string contents = ReadAll(file);
    const auto load_start = std::chrono::steady_clock::now();
    const embedlab::Tokenizer tokenizer = tokenizer_path.empty() ? embedlab::Tokenizer::FromTiktoken(contents, encoding)
                                                                 : embedlab::LoadTokenizerFile(contents);
    const double load_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - load_start).count();
    if (!save_binary_path.empty()) {
      std::ofstream(save_binary_path, std::ios::binary) << embedlab::SaveTokenizerBinary(tokenizer);
      std::fprintf(stderr, "load %.1f ms; wrote %s\n", load_seconds * 1e3, save_binary_path.c_str());
      return 0;
    }
    embedlab::SpecialTokenPolicy policy = embedlab::SpecialTokenPolicy::AllAsText();
    if (allow_special) policy = embedlab::SpecialTokenPolicy::AllowAll();
    if (disallow_special) policy = embedlab::SpecialTokenPolicy();

    const std::string input = ReadAll(std::cin);
    std::vector<std::string> texts;
    if (whole) {
      texts.push_back(input);
    } else {
      for (size_t pos = 0; pos < input.size();) {
        size_t eol = input.find('\n', pos);
        if (eol == std::string::npos) eol = input.size();
        std::string line = input.substr(pos, eol - pos);
        pos = eol + 1;
        if (base64_lines) {
          std::string decoded;
          if (!embedlab::DecodeBase64(line, &decoded)) throw std::invalid_argument("bad base64 line: " + line);
          line = decoded;
        }
        texts.push_back(std::move(line));
      }
    }
    std::string out;
    size_t total_bytes = 0, total_tokens = 0;
    std::vector<double> run_seconds;
    for (int run = 0; run < repeat; ++run) {
      if (clear_cache) tokenizer.ClearCache();
      const auto start = std::chrono::steady_clock::now();
      for (const std::string& text : texts) {
        std::vector<uint32_t> ids;
        try {
          ids = tokenizer.Encode(text, policy);
        } catch (const std::invalid_argument& e) {
          if (!disallow_special) throw;
          if (run == 0) out += std::string("error: ") + e.what() + "\n";
          continue;
        }
        if (run == 0) {
          total_bytes += text.size();
          total_tokens += ids.size();
          Print(ids, json, &out);
        }
      }
      run_seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(run_seconds.begin(), run_seconds.end());
    const double seconds = run_seconds[run_seconds.size() / 2];
    std::fwrite(out.data(), 1, out.size(), stdout);
    if (time) {
      std::fprintf(stderr, "load %.1f ms; encoded %zu bytes into %zu tokens in %.4f s (median of %d): %.2f MB/s\n",
                   load_seconds * 1e3, total_bytes, total_tokens, seconds, repeat, total_bytes / seconds / 1e6);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "embedlab_tokenize: %s\n", e.what());
    return 1;
  }
  return 0;
}
