// Prints, as JSON, what the native build computes for fixed seeds and inputs. tests/node/native_parity
// runs it and checks the wasm package gives the same numbers (bit for bit where only the PRNG is involved).
#include <cstdio>
#include <vector>

#include "compare/self_attention.h"
#include "compare/sentence_comparison.h"
#include "embed/learned_encoding.h"
#include "embed/sinusoidal_encoding.h"
#include "embed/token_embedding.h"
#include "simd/kernel_targets.h"

namespace {

void PrintArray(const char* name, const std::vector<float>& values, bool last = false) {
  std::printf("\"%s\":[", name);
  for (size_t i = 0; i < values.size(); ++i) std::printf("%s%.9g", i ? "," : "", values[i]);  // round-trips
  std::printf("]%s\n", last ? "" : ",");
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
  const SequenceComparison comparison = CompareSequences({0, 1, 2, 6}, {6, 2, 1, 0}, embedding, &sinusoidal, &attention);

  std::printf("{\"target\":\"%s\",\n", simd::ActiveTargetName().c_str());
  PrintArray("tokenEmbedding", embedding.table());
  PrintArray("learned", learned.table());
  PrintArray("sinusoidal", sinusoidal_table);
  PrintArray("inputSimilarity", comparison.input_similarity);
  PrintArray("attentionA", comparison.attention_a);
  PrintArray("attentionB", comparison.attention_b);
  std::printf("\"pooledAttentionCosine\":%.9g}\n", comparison.pooled_attention_cosine);
  return 0;
}
