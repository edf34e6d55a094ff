#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "embed/composition.h"
#include "embed/learned_encoding.h"
#include "embed/sinusoidal_encoding.h"
#include "embed/token_embedding.h"
#include "reference_math.h"

using namespace embedlab;
using Catch::Matchers::Contains;

TEST_CASE("TokenEmbedding draws N(0, 0.02) rows and looks ids up") {
  TokenEmbedding embedding(1000, 64, 3);
  double sum = 0, sum_sq = 0;
  for (float v : embedding.table()) {
    sum += v;
    sum_sq += static_cast<double>(v) * v;
  }
  const double n = static_cast<double>(embedding.table().size());
  CHECK(std::fabs(sum / n) < 5 * 0.02 / std::sqrt(n));
  CHECK(std::fabs(std::sqrt(sum_sq / n) - 0.02) < 0.0005);

  const std::vector<int32_t> ids = {5, 999, 5, 0};
  std::vector<float> out(ids.size() * 64);
  embedding.Lookup(ids, out.data());
  for (size_t t = 0; t < ids.size(); ++t)
    for (size_t c = 0; c < 64; ++c) REQUIRE(out[t * 64 + c] == embedding.table()[ids[t] * 64 + c]);

  TokenEmbedding same(1000, 64, 3), other(1000, 64, 4);
  REQUIRE(same.table() == embedding.table());
  REQUIRE(other.table() != embedding.table());
}

TEST_CASE("Bad arguments name the argument and the allowed range") {
  REQUIRE_THROWS_WITH(TokenEmbedding(0, 8, 1), Contains("vocabSize") && Contains("[1, 2097152]") && Contains("got 0"));
  REQUIRE_THROWS_WITH(TokenEmbedding(10, 0, 1), Contains("dim") && Contains("got 0"));
  REQUIRE_THROWS_WITH(TokenEmbedding(10, 8, -1), Contains("seed") && Contains("[0, 9007199254740992]"));
  REQUIRE_THROWS_WITH(TokenEmbedding(2000000, 16384, 1), Contains("limit"));
  REQUIRE_THROWS_WITH(SinusoidalEncoding(7, 16), Contains("dim must be even") && Contains("got 7"));
  REQUIRE_THROWS_WITH(SinusoidalEncoding(8, 0), Contains("maxLength") && Contains("[1, 65536]"));
  REQUIRE_THROWS_WITH(SinusoidalEncoding(8, 65537), Contains("maxLength") && Contains("got 65537"));
  REQUIRE_THROWS_WITH(SinusoidalEncoding(8, 16, std::nan("")), Contains("base") && Contains("got NaN"));
  REQUIRE_THROWS_AS(SinusoidalEncoding(8, 16, INFINITY), std::out_of_range);

  TokenEmbedding embedding(10, 8, 1);
  std::vector<float> out(8);
  REQUIRE_THROWS_WITH(embedding.Lookup({3, 10}, out.data()),
                      Contains("ids[1]") && Contains("[0, 9]") && Contains("got 10"));
  REQUIRE_THROWS_WITH(embedding.Lookup({-1}, out.data()), Contains("ids[0]") && Contains("got -1"));

  SinusoidalEncoding encoding(8, 4);
  std::vector<float> table(5 * 8);
  REQUIRE_THROWS_WITH(encoding.Table(0, 5, table.data()), Contains("maxLength (4)"));
  REQUIRE_THROWS_WITH(encoding.Table(5, 0, table.data()), Contains("offset") && Contains("[0, 4]"));
  REQUIRE_THROWS_WITH(Compose({1, 2, 3}, embedding, &encoding, 2), Contains("offset + length <= maxLength"));
  SinusoidalEncoding wrong_dim(6, 4);
  REQUIRE_THROWS_WITH(Compose({1}, embedding, &wrong_dim, 0), Contains("positional.dim must equal embedding.dim (8)"));
}

TEST_CASE("SinusoidalEncoding follows the chapter's formula to float precision") {
  for (double base : {10000.0, 100.0, 1.0}) {
    for (size_t dim : {2, 6, 64, 130}) {
      const size_t max_length = 65536;
      SinusoidalEncoding encoding(static_cast<int64_t>(dim), max_length, base);
      // Early positions and the far end of the table, where a float angle would lose ~1e-2.
      for (size_t offset : {size_t{0}, max_length - 50}) {
        std::vector<float> table(50 * dim);
        encoding.Table(offset, 50, table.data());
        double worst = 0;
        for (size_t t = 0; t < 50; ++t)
          for (size_t c = 0; c < dim; ++c)
            worst =
                std::max(worst, std::fabs(table[t * dim + c] - reference::SinusoidalValue(offset + t, c, dim, base)));
        INFO("base " << base << " dim " << dim << " offset " << offset);
        REQUIRE(worst <= 5e-7);
      }
    }
  }
}

TEST_CASE("LearnedEncoding starts seeded and takes new rows") {
  LearnedEncoding encoding(16, 4, 9);
  REQUIRE(encoding.table() == LearnedEncoding(16, 4, 9).table());
  encoding.SetRow(3, {1, 2, 3, 4});
  std::vector<float> rows(2 * 4);
  encoding.Table(3, 2, rows.data());
  REQUIRE(std::vector<float>(rows.begin(), rows.begin() + 4) == std::vector<float>{1, 2, 3, 4});
  REQUIRE(rows[4] == encoding.table()[16]);
  REQUIRE_THROWS_WITH(encoding.SetRow(16, {1, 2, 3, 4}), Contains("position") && Contains("[0, 15]"));
  REQUIRE_THROWS_WITH(encoding.SetRow(0, {1, 2}), Contains("values.length") && Contains("got 2"));
  REQUIRE_THROWS_WITH(encoding.SetRow(0, {1, NAN, 3, 4}), Contains("values[1] must be finite"));
}

TEST_CASE("Compose returns token, position and their exact float sum") {
  TokenEmbedding embedding(50, 16, 11);
  SinusoidalEncoding encoding(16, 32);
  const std::vector<int32_t> ids = {7, 3, 7, 49};
  const ComposedSequence composed = Compose(ids, embedding, &encoding, 5);
  REQUIRE(composed.length == 4);
  REQUIRE(composed.dim == 16);
  for (size_t t = 0; t < 4; ++t) {
    for (size_t c = 0; c < 16; ++c) {
      const float token = embedding.table()[ids[t] * 16 + c];
      REQUIRE(composed.token_vectors[t * 16 + c] == token);
      REQUIRE(std::fabs(composed.position_vectors[t * 16 + c] - reference::SinusoidalValue(5 + t, c, 16, 10000)) <=
              5e-7);
      REQUIRE(composed.input_vectors[t * 16 + c] == token + composed.position_vectors[t * 16 + c]);
    }
  }
  const ComposedSequence bare = Compose(ids, embedding, nullptr, 0);
  REQUIRE(bare.input_vectors == bare.token_vectors);
  REQUIRE(bare.position_vectors == std::vector<float>(4 * 16, 0.0f));
}
