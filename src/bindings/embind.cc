// Embind bindings of the embedding, positional-encoding, comparison and kernel layers. Every entry point
// runs under Guarded (bindings/boundary.h): no exception crosses into JS, so the instance stays usable and
// nothing leaks on the shadow stack.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "bindings/boundary.h"
#include "compare/self_attention.h"
#include "compare/sentence_comparison.h"
#include "embed/composition.h"
#include "embed/learned_encoding.h"
#include "embed/positional_encoding.h"
#include "embed/sinusoidal_encoding.h"
#include "embed/token_embedding.h"
#include "simd/kernel_targets.h"
#include "simd/vector_kernels.h"

using emscripten::val;
using namespace embedlab;
using namespace embedlab::bindings;

namespace {

// ---- factories: raw pointers owned by the JS handle (delete() runs the destructor) ----

TokenEmbedding* CreateTokenEmbedding(double vocab_size, double dim, double seed, double stddev) {
  return Guarded<TokenEmbedding*>(nullptr,
                                  [&] { return new TokenEmbedding(ToInt64(vocab_size), ToInt64(dim), seed, stddev); });
}

SinusoidalEncoding* CreateSinusoidalEncoding(double dim, double max_length, double base) {
  return Guarded<SinusoidalEncoding*>(nullptr,
                                      [&] { return new SinusoidalEncoding(ToInt64(dim), ToInt64(max_length), base); });
}

LearnedEncoding* CreateLearnedEncoding(double max_length, double dim, double seed, double stddev) {
  return Guarded<LearnedEncoding*>(
      nullptr, [&] { return new LearnedEncoding(ToInt64(max_length), ToInt64(dim), seed, stddev); });
}

NoPositionalEncoding* CreateNoPositionalEncoding(double dim, double max_length) {
  return Guarded<NoPositionalEncoding*>(nullptr,
                                        [&] { return new NoPositionalEncoding(ToInt64(dim), ToInt64(max_length)); });
}

SelfAttention* CreateSelfAttention(double dim, double seed, bool causal) {
  return Guarded<SelfAttention*>(nullptr, [&] { return new SelfAttention(ToInt64(dim), seed, causal); });
}

// ---- methods ----

val EmbeddingLookup(const TokenEmbedding& embedding, const val& ids) {
  return Guarded<val>(val::null(), [&] {
    const std::vector<int32_t> checked = ToIds(ids);
    embedding.CheckIds(checked);
    std::vector<float> out(checked.size() * embedding.dim());
    embedding.Lookup(checked, out.data());
    return CopyToFloat32Array(out);
  });
}

val EmbeddingTable(const TokenEmbedding& embedding) {
  return Guarded<val>(val::null(), [&] { return CopyToFloat32Array(embedding.table()); });
}

val EncodingTable(const PositionalEncoding& encoding, double offset, double length) {
  return Guarded<val>(val::null(), [&] {
    encoding.CheckRows(ToInt64(offset), ToInt64(length));  // before allocating
    std::vector<float> out(static_cast<size_t>(length) * encoding.dim());
    encoding.Table(ToInt64(offset), ToInt64(length), out.data());
    return CopyToFloat32Array(out);
  });
}

std::string EncodingKind(const PositionalEncoding& encoding) { return PositionKindName(encoding.kind()); }
double EncodingDim(const PositionalEncoding& encoding) { return static_cast<double>(encoding.dim()); }
double EncodingMaxLength(const PositionalEncoding& encoding) { return static_cast<double>(encoding.max_length()); }

bool LearnedSetRow(LearnedEncoding& encoding, double position, const val& values) {
  return Guarded<bool>(false, [&] {
    encoding.SetRow(ToInt64(position), ToFloats(values));
    return true;
  });
}

val ComposedToObject(const ComposedSequence& composed) {
  val result = val::object();
  result.set("length", static_cast<double>(composed.length));
  result.set("dim", static_cast<double>(composed.dim));
  result.set("tokenVectors", CopyToFloat32Array(composed.token_vectors));
  result.set("positionVectors", CopyToFloat32Array(composed.position_vectors));
  result.set("inputVectors", CopyToFloat32Array(composed.input_vectors));
  return result;
}

val ComposeSequence(const val& ids, const TokenEmbedding& embedding, const PositionalEncoding* encoding,
                    double offset) {
  return Guarded<val>(val::null(),
                      [&] { return ComposedToObject(Compose(ToIds(ids), embedding, encoding, ToInt64(offset))); });
}

val Compare(const val& ids_a, const val& ids_b, const TokenEmbedding& embedding, const PositionalEncoding* encoding,
            const SelfAttention* attention) {
  return Guarded<val>(val::null(), [&] {
    const SequenceComparison c = CompareSequences(ToIds(ids_a), ToIds(ids_b), embedding, encoding, attention);
    val result = val::object();
    result.set("rows", static_cast<double>(c.rows));
    result.set("cols", static_cast<double>(c.cols));
    result.set("dim", static_cast<double>(c.dim));
    result.set("similarity", CopyToFloat32Array(c.input_similarity));
    result.set("pooledCosine", c.pooled_input_cosine);
    if (attention != nullptr) {
      val attended = val::object();
      attended.set("outputsA", CopyToFloat32Array(c.attention_a));
      attended.set("outputsB", CopyToFloat32Array(c.attention_b));
      attended.set("similarity", CopyToFloat32Array(c.attention_similarity));
      attended.set("pooledCosine", c.pooled_attention_cosine);
      result.set("attention", attended);
    } else {
      result.set("attention", val::null());
    }
    return result;
  });
}

val AttentionForward(const SelfAttention& attention, const val& vectors) {
  return Guarded<val>(val::null(), [&] {
    const std::vector<float> x = ToFloats(vectors);
    if (x.size() % attention.dim() != 0) {
      throw std::out_of_range("vectors.length must be a multiple of dim (" + std::to_string(attention.dim()) +
                              "), got " + std::to_string(x.size()));
    }
    const SelfAttention::Output attended = attention.Forward(x.data(), x.size() / attention.dim());
    val result = val::object();
    result.set("outputs", CopyToFloat32Array(attended.outputs));
    result.set("weights", CopyToFloat32Array(attended.weights));
    return result;
  });
}

// ---- kernels, exposed for tests and for learners who want the raw operations ----

void RequireSameLength(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) {
    throw std::out_of_range("b.length must equal a.length (" + std::to_string(a.size()) + "), got " +
                            std::to_string(b.size()));
  }
}

double KernelDot(const val& a, const val& b) {
  return Guarded<double>(0, [&] {
    const auto x = ToFloats(a), y = ToFloats(b);
    RequireSameLength(x, y);
    return simd::Dot(x.data(), y.data(), x.size());
  });
}

double KernelNorm(const val& a) {
  return Guarded<double>(0, [&] {
    const auto x = ToFloats(a);
    return simd::Norm(x.data(), x.size());
  });
}

double KernelCosine(const val& a, const val& b) {
  return Guarded<double>(0, [&] {
    const auto x = ToFloats(a), y = ToFloats(b);
    RequireSameLength(x, y);
    return simd::CosineSimilarity(x.data(), y.data(), x.size());
  });
}

val KernelAdd(const val& a, const val& b) {
  return Guarded<val>(val::null(), [&] {
    const auto x = ToFloats(a), y = ToFloats(b);
    RequireSameLength(x, y);
    std::vector<float> out(x.size());
    simd::Add(x.data(), y.data(), out.data(), x.size());
    return CopyToFloat32Array(out);
  });
}

val KernelScaledAdd(double alpha, const val& x, const val& y) {
  return Guarded<val>(val::null(), [&] {
    const auto xs = ToFloats(x);
    auto ys = ToFloats(y);
    RequireSameLength(xs, ys);
    simd::ScaledAdd(static_cast<float>(alpha), xs.data(), ys.data(), xs.size());
    return CopyToFloat32Array(ys);
  });
}

val KernelCosineMatrix(const val& a, const val& b, double dim) {
  return Guarded<val>(val::null(), [&] {
    const auto x = ToFloats(a), y = ToFloats(b);
    const int64_t width = ToInt64(dim);
    if (width < 1 || x.size() % width != 0 || y.size() % width != 0) {
      throw std::out_of_range("dim must be a positive integer that divides a.length (" + std::to_string(x.size()) +
                              ") and b.length (" + std::to_string(y.size()) + "), got " + std::to_string(width));
    }
    const size_t rows_a = x.size() / width, rows_b = y.size() / width;
    std::vector<float> out(rows_a * rows_b);
    simd::CosineSimilarityMatrix(x.data(), rows_a, y.data(), rows_b, width, out.data());
    return CopyToFloat32Array(out);
  });
}

val KernelSinCos(const val& angles) {
  return Guarded<val>(val::null(), [&] {
    const auto x = ToFloats(angles);
    std::vector<float> out(2 * x.size());
    simd::SinCosInterleaved(x.data(), x.size(), out.data());
    return CopyToFloat32Array(out);
  });
}

std::string SimdTarget() { return simd::ActiveTargetName(); }
std::string Version() { return EMBEDLAB_VERSION; }

}  // namespace

EMSCRIPTEN_BINDINGS(embedlab) {
  using emscripten::allow_raw_pointers;
  using emscripten::base;
  using emscripten::class_;
  using emscripten::function;

  function("simdTarget", &SimdTarget);
  function("version", &Version);

  class_<TokenEmbedding>("TokenEmbedding")
      .function("vocabSize", &TokenEmbedding::vocab_size)
      .function("dim", &TokenEmbedding::dim)
      .function("lookup", &EmbeddingLookup)
      .function("table", &EmbeddingTable);
  function("createTokenEmbedding", &CreateTokenEmbedding, allow_raw_pointers());

  class_<PositionalEncoding>("PositionalEncoding")
      .function("kind", &EncodingKind)
      .function("dim", &EncodingDim)
      .function("maxLength", &EncodingMaxLength)
      .function("table", &EncodingTable);
  class_<SinusoidalEncoding, base<PositionalEncoding>>("SinusoidalEncoding")
      .function("base", &SinusoidalEncoding::base);
  class_<LearnedEncoding, base<PositionalEncoding>>("LearnedEncoding").function("setRow", &LearnedSetRow);
  class_<NoPositionalEncoding, base<PositionalEncoding>>("NoPositionalEncoding");
  function("createSinusoidalEncoding", &CreateSinusoidalEncoding, allow_raw_pointers());
  function("createLearnedEncoding", &CreateLearnedEncoding, allow_raw_pointers());
  function("createNoPositionalEncoding", &CreateNoPositionalEncoding, allow_raw_pointers());

  class_<SelfAttention>("SelfAttention")
      .function("dim", &SelfAttention::dim)
      .function("causal", &SelfAttention::causal)
      .function("forward", &AttentionForward);
  function("createSelfAttention", &CreateSelfAttention, allow_raw_pointers());

  function("compose", &ComposeSequence, allow_raw_pointers());
  function("compare", &Compare, allow_raw_pointers());

  function("dot", &KernelDot);
  function("norm", &KernelNorm);
  function("cosine", &KernelCosine);
  function("add", &KernelAdd);
  function("scaledAdd", &KernelScaledAdd);
  function("cosineMatrix", &KernelCosineMatrix);
  function("sinCos", &KernelSinCos);
}
