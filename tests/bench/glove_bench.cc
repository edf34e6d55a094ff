// GloVe benchmark, native: co-occurrence counting and training epochs (embed/glove_trainer.h) on a corpus of token
// ids (a file of little-endian int32, as tests/bench/glove.mjs writes it from the Brown excerpt). Prints one JSON
// line per Highway target. Times are CPU time of this process (the benchmark machine is shared).
//   embedlab_glove_bench IDS_FILE VOCAB_SIZE [DIM=50] [EPOCHS=3] [WINDOW=10]
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <vector>

#include "embed/cooccurrence_counts.h"
#include "embed/glove_trainer.h"
#include "simd/kernel_targets.h"

namespace {

double CpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

std::vector<int32_t> ReadIds(const char* path) {
  std::ifstream file(path, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::vector<int32_t> ids(bytes.size() / 4);
  for (size_t i = 0; i < ids.size(); ++i) {
    const auto* b = reinterpret_cast<const unsigned char*>(&bytes[4 * i]);
    ids[i] = static_cast<int32_t>(b[0] | (b[1] << 8) | (b[2] << 16) | (static_cast<uint32_t>(b[3]) << 24));
  }
  return ids;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s IDS_FILE VOCAB_SIZE [DIM=50] [EPOCHS=3] [WINDOW=10]\n", argv[0]);
    return 2;
  }
  const std::vector<int32_t> ids = ReadIds(argv[1]);
  embedlab::GloveOptions options;
  options.vocab_size = std::atoll(argv[2]);
  options.dim = argc > 3 ? std::atoll(argv[3]) : 50;
  options.epochs = argc > 4 ? std::atoll(argv[4]) : 3;
  options.window = argc > 5 ? std::atoll(argv[5]) : 10;
  double start = CpuSeconds();
  const embedlab::Cooccurrences counts = embedlab::CountCooccurrences(ids, options.vocab_size, options.window);
  const double count_seconds = CpuSeconds() - start;
  for (const embedlab::simd::KernelTarget& target : embedlab::simd::AvailableTargets()) {
    embedlab::simd::UseTarget(target.bits);
    embedlab::GloveTrainer trainer(ids, options);
    start = CpuSeconds();
    while (!trainer.Advance(SIZE_MAX)) {
    }
    const double epoch_seconds = (CpuSeconds() - start) / static_cast<double>(options.epochs);
    std::printf(
        "{\"target\": \"%s\", \"tokens\": %zu, \"pairs\": %zu, \"dim\": %lld, \"window\": %lld, "
        "\"countSeconds\": %.4f, \"countTokensPerSecond\": %.0f, \"epochSeconds\": %.4f, "
        "\"epochTokensPerSecond\": %.0f, \"pairsPerSecond\": %.0f, \"lastLoss\": %.6g}\n",
        target.name.c_str(), ids.size(), counts.size(), static_cast<long long>(options.dim),
        static_cast<long long>(options.window), count_seconds, static_cast<double>(ids.size()) / count_seconds,
        epoch_seconds, static_cast<double>(ids.size()) / epoch_seconds,
        static_cast<double>(counts.size()) / epoch_seconds, trainer.losses().back());
  }
  return 0;
}
