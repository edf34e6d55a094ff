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

// lab.ropeRotate's form: the rotation RotateHead gives a one-head model, with the vector, position and base checked
// by the core (the bindings check nothing).
TEST_CASE("RopeRotate for the API: RotateHead's rotation, arguments checked by the core", "[model]") {
  const std::vector<float> vector = {1.0f, 0.0f, 0.5f, -2.0f};
  const embedlab::RotaryEmbedding rope(4, 1, 10000.0, embedlab::RopeLayout::kInterleaved);
  std::vector<float> expected(4);
  rope.RotateHead(vector.data(), 3, expected.data());
  REQUIRE(embedlab::RopeRotate(vector, 3, 10000.0, embedlab::RopeLayout::kInterleaved) == expected);
  REQUIRE_THROWS_WITH(embedlab::RopeRotate({1.0f, 2.0f, 3.0f}, 0, 10000.0, embedlab::RopeLayout::kInterleaved),
                      "RoPE rotates pairs, so vector.length must be even, got 3");
  REQUIRE_THROWS_WITH(embedlab::RopeRotate(vector, -1, 10000.0, embedlab::RopeLayout::kInterleaved),
                      "position must be an integer in [0, 2147483647], got -1");
  REQUIRE_THROWS_WITH(embedlab::RopeRotate(vector, 0, 0.5, embedlab::RopeLayout::kInterleaved),
                      Catch::StartsWith("base must be a finite number in [1, "));
}
