// embedlab_long_context: the long-context experiment natively, for the tables of docs/long-contexts.md. Every
// (scheme, seed) is one run of training/long_context_run.h (the RoPE rows of a seed share one trained model, as the
// runs of the package would train identical ones); runs go to --threads worker threads. Prints Markdown tables:
// passkey or recall accuracy (mean over depths, and by depth x length), or held-out loss by position range for
// language.
//
//   embedlab_long_context [--task passkey|recall|language] [--corpus build/corpus/brown.txt] [--bpe-vocab 512]
//     [--schemes learned,sinusoidal,...] [--seeds S,S,...] [--train-length T] [--factors F,F,...] [--steps N]
//     [--fine-tune-steps N] [--batch N] [--channels N] [--layers N] [--heads N] [--lr X] [--fine-tune-lr X]
//     [--weight-decay X] [--eval-rows N] [--digits N] [--recall-keys N] [--recall-values N] [--threads 2]
// An option left out keeps the core's default (LongContextSpec's, training/long_context_run.h; seeds
// kLongContextSeeds; every scheme): those of lab.longContextDefaults.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bpe/bpe_trainer.h"
#include "bpe/tokenizer.h"
#include "training/long_context_run.h"

namespace {

using embedlab::LongContextResult;
using embedlab::LongContextSpec;

std::vector<std::string> Split(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, ',');) parts.push_back(part);
  return parts;
}

// "mean (min-max)" of per-seed values; NaN values (not available) make the cell "n/a".
std::string Cell(const std::vector<double>& values, double scale, int decimals) {
  if (values.empty() || std::any_of(values.begin(), values.end(), [](double v) { return std::isnan(v); })) {
    return "n/a";
  }
  double sum = 0, lo = values[0], hi = values[0];
  for (double v : values) {
    sum += v;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  char text[96];
  std::snprintf(text, sizeof(text), "%.*f (%.*f–%.*f)", decimals, scale * sum / values.size(), decimals, scale * lo,
                decimals, scale * hi);
  return text;
}

const embedlab::LongContextReading* Find(const LongContextResult& result, int64_t length, bool fine_tuned) {
  for (const auto& reading : result.readings) {
    if (reading.length == length && reading.fine_tuned == fine_tuned) return &reading;
  }
  return nullptr;
}

double Mean(const std::vector<double>& values, size_t from, size_t to) {
  double sum = 0;
  for (size_t i = from; i < to; ++i) sum += values[i];
  return sum / static_cast<double>(to - from);
}

std::vector<int32_t> TokenizeCorpus(const std::string& path, size_t vocab, int64_t* vocab_size) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    std::fprintf(stderr, "cannot read %s (node scripts/build-corpus.mjs writes it)\n", path.c_str());
    std::exit(2);
  }
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  embedlab::BpeTrainerOptions options;
  options.vocab_size = vocab;
  options.pattern = embedlab::PreTokenizerPattern::kGpt2;
  embedlab::BpeTrainingResult trained = embedlab::TrainBpe(text, options);
  embedlab::Tokenizer tokenizer(std::move(trained.vocabulary), trained.pattern, {}, "brown-bpe");
  const std::vector<uint32_t> ids = tokenizer.EncodeOrdinary(text);
  *vocab_size = static_cast<int64_t>(tokenizer.vocab_size());
  std::fprintf(stderr, "corpus: %zu bytes -> %zu tokens (BPE, %lld ids)\n", text.size(), ids.size(),
               static_cast<long long>(*vocab_size));
  return std::vector<int32_t>(ids.begin(), ids.end());
}

}  // namespace

int main(int argc, char** argv) {
  // The tool's own options; the experiment's are given only when set, over LongContextSpec's defaults.
  std::map<std::string, std::string> args = {
      {"corpus", "build/corpus/brown.txt"}, {"bpe-vocab", "512"}, {"schemes", ""}, {"threads", "2"}};
  const char* const spec_options[] = {
      "task",         "seeds",     "train-length", "factors",     "steps",        "fine-tune-steps",
      "batch",        "channels",  "layers",       "heads",       "lr",           "fine-tune-lr",
      "weight-decay", "eval-rows", "digits",       "recall-keys", "recall-values"};
  for (const char* name : spec_options) args[name] = "";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    if (key.rfind("--", 0) != 0 || args.count(key.substr(2)) == 0) {
      std::fprintf(stderr, "unknown option %s (see the comment at the top of embedlab_long_context.cc)\n", argv[i]);
      return 2;
    }
    args[key.substr(2)] = argv[i + 1];
  }
  LongContextSpec base;
  auto given = [&](const char* name) { return !args[name].empty(); };
  if (given("task")) base.task.task = embedlab::ParseLongContextTask(args["task"]);
  if (given("train-length")) base.train_length = std::stoll(args["train-length"]);
  if (given("factors")) {
    base.factors.clear();
    for (const std::string& f : Split(args["factors"])) base.factors.push_back(std::stoll(f));
  }
  if (given("steps")) base.steps = std::stoll(args["steps"]);
  if (given("fine-tune-steps")) base.fine_tune_steps = std::stoll(args["fine-tune-steps"]);
  if (given("batch")) base.batch = std::stoll(args["batch"]);
  if (given("channels")) base.model.channels = std::stoll(args["channels"]);
  if (given("layers")) base.model.layers = std::stoll(args["layers"]);
  if (given("heads")) base.model.heads = std::stoll(args["heads"]);
  if (given("lr")) base.learning_rate = std::stod(args["lr"]);
  if (given("eval-rows")) base.eval_rows = std::stoll(args["eval-rows"]);
  if (given("weight-decay")) base.weight_decay = std::stod(args["weight-decay"]);
  if (given("fine-tune-lr")) base.fine_tune_learning_rate = std::stod(args["fine-tune-lr"]);
  if (given("digits")) base.task.passkey_digits = std::stoll(args["digits"]);
  if (given("recall-keys")) base.task.recall_keys = std::stoll(args["recall-keys"]);
  if (given("recall-values")) base.task.recall_values = std::stoll(args["recall-values"]);
  if (base.task.task == embedlab::LongContextTask::kLanguage) {
    int64_t vocab = 0;
    base.task.corpus = std::make_shared<const std::vector<int32_t>>(
        TokenizeCorpus(args["corpus"], std::stoul(args["bpe-vocab"]), &vocab));
    base.task.corpus_vocab = vocab;
  }
  std::vector<std::string> schemes = Split(args["schemes"]);
  if (schemes.empty()) {
    for (const auto& scheme : embedlab::LongContextSchemes()) schemes.push_back(scheme.name);
  }
  std::vector<uint64_t> seeds(std::begin(embedlab::kLongContextSeeds), std::end(embedlab::kLongContextSeeds));
  if (given("seeds")) {
    seeds.clear();
    for (const std::string& s : Split(args["seeds"])) seeds.push_back(std::stoull(s));
  }

  // Jobs: one per (non-RoPE scheme, seed), one per seed for all RoPE rows (trained once).
  std::vector<std::pair<uint64_t, std::vector<std::string>>> jobs;
  for (uint64_t seed : seeds) {
    std::vector<std::string> rope;
    for (const std::string& scheme : schemes) {
      if (scheme.rfind("rope", 0) == 0) {
        rope.push_back(scheme);
      } else {
        jobs.push_back({seed, {scheme}});
      }
    }
    if (!rope.empty()) jobs.push_back({seed, rope});
  }
  std::map<std::pair<std::string, uint64_t>, LongContextResult> results;
  double entropy_floor = 0, chance = 0;
  std::mutex lock;
  std::atomic<size_t> next{0};
  const auto start = std::chrono::steady_clock::now();
  auto worker = [&]() {
    for (size_t j; (j = next++) < jobs.size();) {
      std::vector<float> trained;
      double train_loss = 0;
      for (const std::string& scheme : jobs[j].second) {
        LongContextSpec spec = base;
        spec.scheme = scheme;
        spec.model.seed = jobs[j].first;
        embedlab::LongContextRunner runner(spec);
        if (!trained.empty()) runner.UseTrainedParameters(trained, train_loss);
        while (!runner.Advance(100)) {
        }
        trained = runner.trained_parameters();
        train_loss = runner.result().train_loss;
        std::lock_guard<std::mutex> guard(lock);
        results[{scheme, jobs[j].first}] = runner.result();
        entropy_floor = runner.entropy_floor();
        chance = runner.chance_loss();
        std::fprintf(stderr, "%-13s seed %llu done, train loss %.3f (%.0f s)\n", scheme.c_str(),
                     static_cast<unsigned long long>(jobs[j].first), train_loss,
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      }
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < std::max(1, std::stoi(args["threads"])); ++t) threads.emplace_back(worker);
  for (auto& thread : threads) thread.join();

  const int64_t T = base.train_length;
  const bool by_depth = base.task.task != embedlab::LongContextTask::kLanguage;
  std::printf(
      "task %s, trained at T = %lld for %lld steps (batch %lld), fine-tuned %lld steps per length; "
      "%zu seeds; entropy floor %s; chance %.3f\n\n",
      embedlab::LongContextTaskName(base.task.task), static_cast<long long>(T), static_cast<long long>(base.steps),
      static_cast<long long>(base.batch), static_cast<long long>(base.fine_tune_steps), seeds.size(),
      std::isnan(entropy_floor) ? "none" : "0", chance);
  // Header: zero-shot columns for every factor, fine-tuned ones for every factor > 1.
  std::vector<std::pair<int64_t, bool>> columns;
  for (int64_t f : base.factors) columns.push_back({f * T, false});
  if (base.fine_tune_steps > 0) {
    for (int64_t f : base.factors) {
      if (f > 1) columns.push_back({f * T, true});
    }
  }
  auto header = [&](const char* first) {
    std::printf("| %s |", first);
    for (const auto& c : columns) std::printf(" %lld%s |", static_cast<long long>(c.first), c.second ? " ft" : "");
    std::printf("\n|---|");
    for (size_t i = 0; i < columns.size(); ++i) std::printf("---|");
    std::printf("\n");
  };
  if (by_depth) {
    std::printf(
        "Answer accuracy (%%, exact match, mean over depths; mean (min–max) over seeds) by length; "
        "\"ft\": after fine-tuning at that length\n\n");
    header("scheme");
    for (const std::string& scheme : schemes) {
      std::printf("| %s |", scheme.c_str());
      for (const auto& c : columns) {
        std::vector<double> values;
        for (uint64_t seed : seeds) {
          const auto* r = Find(results[{scheme, seed}], c.first, c.second);
          values.push_back(!r || !r->available ? NAN : Mean(r->accuracy_by_depth, 0, r->accuracy_by_depth.size()));
        }
        std::printf(" %s |", Cell(values, 100, 0).c_str());
      }
      std::printf("\n");
    }
    std::printf(
        "\nAccuracy (%%, mean over seeds) by depth of the answer (0 = first token, 1 = just before the "
        "question) x length\n\n");
    header("scheme, depth");
    for (const std::string& scheme : schemes) {
      for (size_t d = 0; d < base.depths.size(); ++d) {
        std::printf("| %s, %.2f |", scheme.c_str(), base.depths[d]);
        for (const auto& c : columns) {
          double sum = 0;
          bool ok = true;
          for (uint64_t seed : seeds) {
            const auto* r = Find(results[{scheme, seed}], c.first, c.second);
            ok = ok && r && r->available;
            if (ok) sum += r->accuracy_by_depth[d];
          }
          if (ok) {
            std::printf(" %.0f |", 100 * sum / seeds.size());
          } else {
            std::printf(" n/a |");
          }
        }
        std::printf("\n");
      }
    }
    return 0;
  }
  // Language: mean held-out loss over position ranges of the longest window, zero-shot and fine-tuned.
  const int64_t longest = base.factors.back() * T;
  std::vector<std::pair<int64_t, int64_t>> ranges = {{0, T}};
  for (int64_t f : base.factors) {
    if (f > 1) ranges.push_back({ranges.back().second, f * T});
  }
  for (bool fine_tuned : {false, true}) {
    if (fine_tuned && (base.fine_tune_steps == 0 || longest == T)) break;
    std::printf(
        "\nHeld-out loss (nats/token) of %lld-token windows by position range, %s; mean (min–max) over "
        "seeds\n\n| scheme |",
        static_cast<long long>(longest), fine_tuned ? "after fine-tuning at that length" : "zero-shot");
    for (const auto& r : ranges) std::printf(" %lld–%lld |", (long long)r.first, (long long)r.second - 1);
    std::printf("\n|---|");
    for (size_t i = 0; i < ranges.size(); ++i) std::printf("---|");
    std::printf("\n");
    for (const std::string& scheme : schemes) {
      std::printf("| %s |", scheme.c_str());
      for (const auto& range : ranges) {
        std::vector<double> values;
        for (uint64_t seed : seeds) {
          const auto* r = Find(results[{scheme, seed}], longest, fine_tuned);
          values.push_back(!r || !r->available ? NAN : Mean(r->loss_by_position, range.first, range.second));
        }
        std::printf(" %s |", Cell(values, 1, 2).c_str());
      }
      std::printf("\n");
    }
  }
  return 0;
}
