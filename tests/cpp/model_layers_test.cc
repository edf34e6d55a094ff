// Each layer's hand-written backward against central finite differences of its own forward:
// for a random projection r, d/dx sum(r . f(x)) must equal backward(dout = r).
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <vector>

#include "model/attention.h"
#include "model/cross_entropy.h"
#include "model/relative_position_bias.h"
#include "model/rotary_embedding.h"
#include "random/prng.h"
#include "random_vectors.h"
#include "simd/activation_kernels.h"
#include "simd/matmul_kernels.h"
#include "simd/normalization_kernels.h"

namespace {

using Forward = std::function<std::vector<float>(const std::vector<float>&)>;

// Compares analytic[i] with (L(x + h e_i) - L(x - h e_i)) / 2h, L(x) = sum_j r_j f(x)_j summed in double.
// Float forwards carry ~1e-7 relative noise, so h = 1e-2 balances that (divided by 2h) against the
// O(h^2) truncation error; the tolerance then catches any wrong term, which errs by O(1).
void CheckAgainstFiniteDifferences(const Forward& forward, std::vector<float> x, const std::vector<float>& r,
                                   const std::vector<float>& analytic, double tolerance = 2e-3) {
  const float h = 1e-2f;
  auto objective = [&](const std::vector<float>& at) {
    const std::vector<float> out = forward(at);
    double total = 0.0;
    for (size_t j = 0; j < out.size(); ++j) total += static_cast<double>(r[j]) * out[j];
    return total;
  };
  for (size_t i = 0; i < x.size(); ++i) {
    const float saved = x[i];
    x[i] = saved + h;
    const double plus = objective(x);
    x[i] = saved - h;
    const double minus = objective(x);
    x[i] = saved;
    const double numeric = (plus - minus) / (2.0 * h);
    INFO("element " << i << " analytic " << analytic[i] << " numeric " << numeric);
    REQUIRE(std::fabs(analytic[i] - numeric) <= tolerance * (1.0 + std::fabs(numeric)));
  }
}

}  // namespace

TEST_CASE("Matmul backward matches finite differences for input, weight and bias", "[model]") {
  const size_t rows = 3, c_in = 5, c_out = 6;
  const auto in = RandomVector(rows * c_in, 1), weight = RandomVector(c_out * c_in, 2);
  const auto bias = RandomVector(c_out, 3), r = RandomVector(rows * c_out, 4);
  std::vector<float> dinp(rows * c_in, 0.0f), dweight(c_out * c_in, 0.0f), dbias(c_out, 0.0f);
  embedlab::simd::MatmulBackward(r.data(), in.data(), weight.data(), dinp.data(), dweight.data(), dbias.data(), rows,
                                 c_in, c_out);
  auto run = [&](const std::vector<float>& x, const std::vector<float>& w, const std::vector<float>& b) {
    std::vector<float> out(rows * c_out);
    embedlab::simd::MatmulForward(x.data(), w.data(), b.data(), out.data(), rows, c_in, c_out);
    return out;
  };
  CheckAgainstFiniteDifferences([&](const std::vector<float>& x) { return run(x, weight, bias); }, in, r, dinp);
  CheckAgainstFiniteDifferences([&](const std::vector<float>& w) { return run(in, w, bias); }, weight, r, dweight);
  CheckAgainstFiniteDifferences([&](const std::vector<float>& b) { return run(in, weight, b); }, bias, r, dbias);
}

TEST_CASE("LayerNorm backward matches finite differences", "[model]") {
  const size_t rows = 3, channels = 7;
  const auto in = RandomVector(rows * channels, 5), weight = RandomVector(channels, 6);
  const auto bias = RandomVector(channels, 7), r = RandomVector(rows * channels, 8);
  auto run = [&](const std::vector<float>& x, const std::vector<float>& w, const std::vector<float>& b) {
    std::vector<float> out(rows * channels), mean(rows), rstd(rows);
    embedlab::simd::LayerNormForward(x.data(), w.data(), b.data(), out.data(), mean.data(), rstd.data(), rows,
                                     channels);
    return out;
  };
  std::vector<float> out(rows * channels), mean(rows), rstd(rows);
  embedlab::simd::LayerNormForward(in.data(), weight.data(), bias.data(), out.data(), mean.data(), rstd.data(), rows,
                                   channels);
  std::vector<float> dinp(rows * channels, 0.0f), dweight(channels, 0.0f), dbias(channels, 0.0f);
  embedlab::simd::LayerNormBackward(r.data(), in.data(), weight.data(), mean.data(), rstd.data(), dinp.data(),
                                    dweight.data(), dbias.data(), rows, channels);
  CheckAgainstFiniteDifferences([&](const std::vector<float>& x) { return run(x, weight, bias); }, in, r, dinp);
  CheckAgainstFiniteDifferences([&](const std::vector<float>& w) { return run(in, w, bias); }, weight, r, dweight);
  CheckAgainstFiniteDifferences([&](const std::vector<float>& b) { return run(in, weight, b); }, bias, r, dbias);
}

TEST_CASE("GELU backward matches finite differences", "[model]") {
  const size_t n = 19;
  const auto in = RandomVector(n, 9, 2.0), r = RandomVector(n, 10);
  std::vector<float> dinp(n, 0.0f);
  embedlab::simd::GeluBackward(in.data(), r.data(), dinp.data(), n);
  CheckAgainstFiniteDifferences(
      [&](const std::vector<float>& x) {
        std::vector<float> out(n);
        embedlab::simd::GeluForward(x.data(), out.data(), n);
        return out;
      },
      in, r, dinp);
}

TEST_CASE("Attention backward matches finite differences (causal, bidirectional, ALiBi)", "[model]") {
  const size_t batch = 2, length = 4, channels = 6, heads = 2;
  std::vector<float> slopes(heads);
  embedlab::AlibiSlopes(heads, slopes.data());
  for (bool causal : {true, false}) {
    for (bool alibi : {false, true}) {
      INFO("causal " << causal << " alibi " << alibi);
      const embedlab::AttentionShape shape{batch, length, channels, heads, causal, alibi ? slopes.data() : nullptr};
      const auto qkv = RandomVector(batch * length * 3 * channels, 11), r = RandomVector(batch * length * channels, 12);
      auto run = [&](const std::vector<float>& x) {
        std::vector<float> att(batch * heads * length * length), out(batch * length * channels);
        embedlab::AttentionForward(x.data(), att.data(), out.data(), shape);
        return out;
      };
      std::vector<float> att(batch * heads * length * length), out(batch * length * channels);
      embedlab::AttentionForward(qkv.data(), att.data(), out.data(), shape);
      std::vector<float> dqkv(qkv.size(), 0.0f);
      embedlab::AttentionBackward(r.data(), qkv.data(), att.data(), dqkv.data(), shape);
      CheckAgainstFiniteDifferences(run, qkv, r, dqkv);
    }
  }
}

TEST_CASE("Attention with T5's bias table: backward matches finite differences for qkv and the table", "[model]") {
  const size_t batch = 2, length = 6, channels = 6, heads = 3, buckets = 4;
  for (bool causal : {true, false}) {
    INFO("causal " << causal);
    // 4 buckets to 3: causal offsets 0, 1, 2 and 3+ (rows 0-3); bidirectional 0, keys before (row 1), keys
    // after (row 3); row 2, the positive half's offset 0, is never read (T5's rule counts 0 as non-positive).
    const std::vector<int32_t> index = embedlab::RelativePositionBuckets(length, buckets, 3, !causal);
    const auto qkv = RandomVector(batch * length * 3 * channels, 17), r = RandomVector(batch * length * channels, 18);
    const auto table = RandomVector(buckets * heads, 19);
    auto shape_with = [&](const float* bias, float* grad) {
      embedlab::AttentionShape shape{batch, length, channels, heads, causal, nullptr};
      shape.bias_index = index.data();
      shape.bias_table = bias;
      shape.bias_table_grad = grad;
      return shape;
    };
    auto run = [&](const std::vector<float>& x, const std::vector<float>& bias) {
      std::vector<float> att(batch * heads * length * length), out(batch * length * channels);
      embedlab::AttentionForward(x.data(), att.data(), out.data(), shape_with(bias.data(), nullptr));
      return out;
    };
    std::vector<float> att(batch * heads * length * length), out(batch * length * channels);
    embedlab::AttentionForward(qkv.data(), att.data(), out.data(), shape_with(table.data(), nullptr));
    std::vector<float> dqkv(qkv.size(), 0.0f), dtable(table.size(), 0.0f);
    embedlab::AttentionBackward(r.data(), qkv.data(), att.data(), dqkv.data(), shape_with(table.data(), dtable.data()));
    CheckAgainstFiniteDifferences([&](const std::vector<float>& x) { return run(x, table); }, qkv, r, dqkv);
    CheckAgainstFiniteDifferences([&](const std::vector<float>& bias) { return run(qkv, bias); }, table, r, dtable);
    for (size_t row = 0; row < buckets; ++row) {
      const bool read = causal || row != 2;
      for (size_t h = 0; h < heads; ++h) CHECK((dtable[row * heads + h] != 0.0f) == read);
    }
  }
}

TEST_CASE("RoPE backward matches finite differences in both layouts", "[model]") {
  const size_t batch = 2, length = 5, channels = 8, heads = 2;
  for (auto layout : {embedlab::RopeLayout::kInterleaved, embedlab::RopeLayout::kRotateHalf}) {
    embedlab::RotaryEmbedding rope(channels, heads, 10000.0, layout);
    const auto qkv = RandomVector(batch * length * 3 * channels, 13), r = RandomVector(qkv.size(), 14);
    std::vector<float> dqkv(qkv.size(), 0.0f);
    rope.Backward(r.data(), dqkv.data(), batch, length);
    CheckAgainstFiniteDifferences(
        [&](const std::vector<float>& x) {
          std::vector<float> out(x.size());
          rope.Forward(x.data(), out.data(), batch, length);
          return out;
        },
        qkv, r, dqkv);
  }
}

TEST_CASE("RoPE makes q . k depend only on the distance", "[model]") {
  const size_t channels = 8, heads = 1, length = 9;
  for (auto layout : {embedlab::RopeLayout::kInterleaved, embedlab::RopeLayout::kRotateHalf}) {
    embedlab::RotaryEmbedding rope(channels, heads, 100.0, layout);
    const auto q = RandomVector(channels, 15), k = RandomVector(channels, 16);
    std::vector<float> qkv(length * 3 * channels), rotated(qkv.size());
    for (size_t t = 0; t < length; ++t) {
      std::copy(q.begin(), q.end(), &qkv[t * 3 * channels]);
      std::copy(k.begin(), k.end(), &qkv[t * 3 * channels + channels]);
    }
    rope.Forward(qkv.data(), rotated.data(), 1, length);
    auto score = [&](size_t i, size_t j) {
      double s = 0;
      for (size_t c = 0; c < channels; ++c)
        s += rotated[i * 3 * channels + c] * rotated[j * 3 * channels + channels + c];
      return s;
    };
    REQUIRE(std::fabs(score(3, 1) - score(8, 6)) < 1e-5);
    REQUIRE(std::fabs(score(2, 2) - score(7, 7)) < 1e-5);
  }
}

TEST_CASE("Cross-entropy backward matches finite differences, ignores target -1 and overwrites dlogits", "[model]") {
  const size_t rows = 4, vocab = 7;
  const auto logits = RandomVector(rows * vocab, 17, 2.0);
  const std::vector<int32_t> targets = {3, -1, 0, 6};
  // Stale values in dlogits: the backward writes every element, it does not add.
  std::vector<float> probs(rows * vocab), dlogits(rows * vocab, 5.0f);
  size_t counted = 0;
  embedlab::CrossEntropyForward(logits.data(), targets.data(), probs.data(), rows, vocab, &counted);
  REQUIRE(counted == 3);
  embedlab::CrossEntropyBackward(probs.data(), targets.data(), dlogits.data(), rows, vocab, counted);
  const std::vector<float> one = {1.0f};
  CheckAgainstFiniteDifferences(
      [&](const std::vector<float>& x) {
        std::vector<float> p(rows * vocab);
        size_t count = 0;
        return std::vector<float>{
            embedlab::CrossEntropyForward(x.data(), targets.data(), p.data(), rows, vocab, &count)};
      },
      logits, one, dlogits);
  for (size_t v = 0; v < vocab; ++v) REQUIRE(dlogits[vocab + v] == 0.0f);
}
