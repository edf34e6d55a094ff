// Reaches src/text from node without the wasm bindings, for tests/node/unicode_nfc.test.mjs and
// tests/node/hf_split_patterns.test.mjs, and measures its speed.
//
//   embedlab_text_probe nfc                 records in, for each: the NFC form and its out_to_source
//   embedlab_text_probe split REGEX         records in, for each: every match of the tokenizer.json regex
//   embedlab_text_probe split-byte-level    the same with ByteLevelMatcher()
//   embedlab_text_probe bench nfc|nfc-offsets|REGEX   stdin as one text: prints "MB/s <speed>" of NormalizeNfc
//                                           (without or with out_to_source) or of finding every match
//
// A record is a little-endian uint32 byte count and the bytes. Answers are uint32 sequences: nfc writes the
// output's byte count, its bytes, then size+1 offsets; split writes the number of matches, then start and end
// of each. Exit status 2 on bad usage or an unknown regex.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "text/split_patterns.h"
#include "text/unicode_normalization.h"

namespace {

using embedlab::SplitMatcher;

void PutUint32(uint32_t value, std::string* out) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

bool NextRecord(const std::string& input, size_t* pos, std::string_view* record) {
  if (*pos + 4 > input.size()) return false;
  uint32_t size = 0;
  for (int i = 0; i < 4; ++i) size |= static_cast<uint32_t>(static_cast<uint8_t>(input[*pos + i])) << (8 * i);
  *pos += 4;
  if (*pos + size > input.size()) return false;
  *record = std::string_view(input).substr(*pos, size);
  *pos += size;
  return true;
}

size_t SplitAll(SplitMatcher matcher, std::string_view text, std::vector<uint32_t>* bounds) {
  size_t count = 0;
  size_t start = 0;
  size_t end = 0;
  for (size_t from = 0; matcher(text, from, &start, &end); from = end) {
    if (bounds) {
      bounds->push_back(static_cast<uint32_t>(start));
      bounds->push_back(static_cast<uint32_t>(end));
    }
    ++count;
  }
  return count;
}

int Bench(const std::string& what, const std::string& text) {
  const bool nfc = what == "nfc" || what == "nfc-offsets";
  const SplitMatcher matcher = nfc ? nullptr : embedlab::FindSplitMatcher(what);
  if (!nfc && !matcher) return 2;
  std::vector<uint32_t> offsets;
  std::string normalized;
  size_t sink = 0;
  double seconds = 0;
  int rounds = 0;
  const auto begin = std::chrono::steady_clock::now();
  while (seconds < 1.0) {
    if (matcher) {
      sink += SplitAll(matcher, text, nullptr);
    } else {
      embedlab::NormalizeNfc(text, &normalized, what == "nfc-offsets" ? &offsets : nullptr);
      sink += normalized.size();
    }
    ++rounds;
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  }
  std::printf("MB/s %.1f (%d rounds, %zu)\n", text.size() * rounds / seconds / 1e6, rounds, sink);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  std::ios::sync_with_stdio(false);
  const std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  if (args.size() == 2 && args[0] == "bench") return Bench(args[1], input);
  SplitMatcher matcher = nullptr;
  if (args.size() == 2 && args[0] == "split") matcher = embedlab::FindSplitMatcher(args[1]);
  if (args.size() == 1 && args[0] == "split-byte-level") matcher = embedlab::ByteLevelMatcher();
  const bool nfc = args.size() == 1 && args[0] == "nfc";
  if (!matcher && !nfc) {
    std::fprintf(stderr,
                 "usage: embedlab_text_probe nfc | split REGEX | split-byte-level | bench nfc|nfc-offsets|REGEX\n");
    return 2;
  }
  std::string output;
  std::string normalized;
  std::vector<uint32_t> numbers;
  std::string_view record;
  for (size_t pos = 0; NextRecord(input, &pos, &record);) {
    numbers.clear();
    if (nfc) {
      embedlab::NormalizeNfc(record, &normalized, &numbers);
      PutUint32(static_cast<uint32_t>(normalized.size()), &output);
      output += normalized;
    } else {
      PutUint32(static_cast<uint32_t>(SplitAll(matcher, record, &numbers)), &output);
    }
    for (uint32_t n : numbers) PutUint32(n, &output);
  }
  std::fwrite(output.data(), 1, output.size(), stdout);
  return 0;
}
