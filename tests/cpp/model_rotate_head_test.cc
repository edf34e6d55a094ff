// RotaryEmbedding::RotateHead (one head's vector at one position, what lab.ropeRotate exposes) against
// Forward on a whole (B, T, 3C) activation: the same floats, bit for bit, in both layouts.
#include <catch2/catch.hpp>
#include <vector>

#include "model/rotary_embedding.h"
#include "random_vectors.h"

TEST_CASE("RoPE RotateHead equals Forward's rotation of q and k at every position", "[model]") {
  const size_t channels = 12, heads = 3, head_dim = channels / heads, length = 7;
  for (auto layout : {embedlab::RopeLayout::kInterleaved, embedlab::RopeLayout::kRotateHalf}) {
    embedlab::RotaryEmbedding rope(channels, heads, 500.0, layout);
    const auto qkv = RandomVector(length * 3 * channels, 21);
    std::vector<float> rotated(qkv.size()), head(head_dim);
    rope.Forward(qkv.data(), rotated.data(), 1, length);
    for (size_t t = 0; t < length; ++t) {
      for (size_t part = 0; part < 2 * heads; ++part) {  // q's heads, then k's
        const size_t offset = t * 3 * channels + part * head_dim;
        rope.RotateHead(&qkv[offset], t, head.data());
        for (size_t c = 0; c < head_dim; ++c) REQUIRE(head[c] == rotated[offset + c]);
      }
    }
  }
}
