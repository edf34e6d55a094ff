// Prints, as JSON, what the native build computes for fixed seeds and inputs. tests/node/native_parity
// runs it and checks the wasm package gives the same numbers (bit for bit where only the PRNG is involved).
#include <cstdio>
#include <vector>

#include "compare/self_attention.h"
#include "compare/sentence_comparison.h"
#include "embed/glove_trainer.h"
#include "embed/learned_encoding.h"
#include "embed/sinusoidal_encoding.h"
#include "embed/token_embedding.h"
#include "simd/kernel_targets.h"
#include "training/gpt_trainer.h"

namespace {

void PrintArray(const char* name, const std::vector<float>& values, bool last = false) {
  std::printf("\"%s\":[", name);
  for (size_t i = 0; i < values.size(); ++i) std::printf("%s%.9g", i ? "," : "", values[i]);  // round-trips
  std::printf("]%s\n", last ? "" : ",");
}

// The batch of training step `step` (tests/node/model.test.mjs builds the same one):
// ids[b][t] = (7b + 3t + step) mod V, targets the same shifted by one position.
void ModelBatch(int step, int batch, int length, int vocab, std::vector<int32_t>* ids, std::vector<int32_t>* targets) {
  ids->clear();
  targets->clear();
  for (int b = 0; b < batch; ++b) {
    for (int t = 0; t < length; ++t) {
      ids->push_back((7 * b + 3 * t + step) % vocab);
      targets->push_back((7 * b + 3 * (t + 1) + step) % vocab);
    }
  }
}

// The small model of tests/node/model.test.mjs.
embedlab::GptConfig SmallModel(const char* positions) {
  embedlab::GptConfig config;
  config.vocab_size = 32;
  config.context_length = 8;
  config.channels = 16;
  config.layers = 2;
  config.heads = 2;
  config.positions = embedlab::ParsePositionScheme(positions);
  config.seed = 11;
  if (config.positions == embedlab::PositionScheme::kT5) {  // 4 buckets to 5: T = 8 reaches the log-spaced ones
    config.t5_num_buckets = 4;
    config.t5_max_distance = 5;
  }
  return config;
}

// 20 AdamW steps of the small model for each positional scheme, after its initial token embeddings.
void PrintModelLosses() {
  PrintArray("modelInitialTokenEmbeddings", embedlab::GptTrainer(SmallModel("learned"), {}).TokenEmbeddings());
  const char* schemes[] = {"learned", "sinusoidal", "rope", "alibi", "t5", "none"};
  std::printf("\"modelLosses\":{");
  for (int s = 0; s < 6; ++s) {
    const embedlab::GptConfig config = SmallModel(schemes[s]);
    embedlab::AdamWOptions optimizer;
    optimizer.learning_rate = 3e-3f;
    embedlab::GptTrainer trainer(config, optimizer);
    std::vector<int32_t> ids, targets;
    std::vector<float> losses;
    for (int step = 0; step < 20; ++step) {
      ModelBatch(step, 4, 8, 32, &ids, &targets);
      losses.push_back(trainer.TrainStep(ids, targets, 4, 8).loss);
    }
    std::printf("%s\"%s\":[", s ? "," : "", schemes[s]);
    for (size_t i = 0; i < losses.size(); ++i) std::printf("%s%.9g", i ? "," : "", losses[i]);
    std::printf("]");
  }
  std::printf("},\n");
}

// GloVe on the ids of tests/node/native_parity.test.mjs: (7i + i / 3) mod 16 for i < 400, window 3, dim 10, 4 epochs,
// seed 5: the initial word vectors (PRNG only), the vectors and the losses after training.
void PrintGlove() {
  std::vector<int32_t> ids;
  for (int i = 0; i < 400; ++i) ids.push_back((7 * i + i / 3) % 16);
  embedlab::GloveOptions options;
  options.vocab_size = 16;
  options.dim = 10;  // not a multiple of any target's lanes: the kernels' tails count
  options.window = 3;
  options.epochs = 4;
  options.seed = 5;
  embedlab::GloveTrainer trainer(ids, options);
  PrintArray("gloveInitialWords", trainer.words());
  while (!trainer.Advance(SIZE_MAX)) {
  }
  PrintArray("gloveVectors", trainer.Vectors());
  std::printf("\"gloveLosses\":[");
  for (size_t i = 0; i < trainer.losses().size(); ++i) std::printf("%s%.17g", i ? "," : "", trainer.losses()[i]);
  std::printf("],\n");
}

}  // namespace

int main() {
  using namespace embedlab;
  const TokenEmbedding embedding(7, 10, 123, 0.5);
  const LearnedEncoding learned(5, 6, 9, 0.02);
  const SinusoidalEncoding sinusoidal(10, 40, 10000);
  std::vector<float> sinusoidal_table(40 * 10);
  sinusoidal.Table(0, 40, sinusoidal_table.data());
  const SelfAttention attention(10, 4, false);
  const SequenceComparison comparison =
      CompareSequences({0, 1, 2, 6}, {6, 2, 1, 0}, embedding, &sinusoidal, &attention);

  std::printf("{\"target\":\"%s\",\n", simd::ActiveTargetName().c_str());
  PrintModelLosses();
  PrintGlove();
  PrintArray("tokenEmbedding", embedding.table());
  PrintArray("learned", learned.table());
  PrintArray("sinusoidal", sinusoidal_table);
  PrintArray("inputSimilarity", comparison.input_similarity);
  PrintArray("attentionA", comparison.attention_a);
  PrintArray("attentionB", comparison.attention_b);
  std::printf("\"pooledAttentionCosine\":%.9g}\n", comparison.pooled_attention_cosine);
  return 0;
}
