// The checkpoint's rope_scaling JSON: transformers' keys round-trip every field exactly, defaults fill
// missing optional keys, and malformed text is refused with a message naming the key.
#include <catch2/catch.hpp>
#include <string>

#include "training/rope_scaling_json.h"

using embedlab::RopeScaling;
using embedlab::RopeScalingType;

TEST_CASE("rope_scaling JSON round-trips each type with transformers' keys", "[checkpoint]") {
  RopeScaling yarn{RopeScalingType::kYarn, 3.0, 96, 24.0, 0.5, 1.0 / 3.0, false};
  REQUIRE(embedlab::RopeScalingToJson(yarn) ==
          R"({"attention_factor":0.3333333333333333,"beta_fast":24.0,"beta_slow":0.5,"factor":3.0,)"
          R"("original_max_position_embeddings":96,"rope_type":"yarn","truncate":false})");
  const RopeScaling back = embedlab::RopeScalingFromJson(embedlab::RopeScalingToJson(yarn));
  CHECK(back.type == RopeScalingType::kYarn);
  CHECK(back.factor == 3.0);
  CHECK(back.original_context_length == 96);
  CHECK(back.beta_fast == 24.0);
  CHECK(back.beta_slow == 0.5);
  CHECK(back.attention_factor == 1.0 / 3.0);
  CHECK_FALSE(back.truncate);
  RopeScaling llama{RopeScalingType::kLlama3, 8.0, 8192};
  llama.low_frequency_factor = 0.5;
  REQUIRE(embedlab::RopeScalingToJson(llama) ==
          R"({"factor":8.0,"high_freq_factor":4.0,"low_freq_factor":0.5,"original_max_position_embeddings":8192,)"
          R"("rope_type":"llama3"})");
  REQUIRE(embedlab::RopeScalingToJson(RopeScaling{RopeScalingType::kLinear, 2.0}) ==
          R"({"factor":2.0,"rope_type":"linear"})");
  // A Llama 3.1 config.json's rope_scaling as it is.
  const RopeScaling hf = embedlab::RopeScalingFromJson(
      R"({"factor": 8.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0, "original_max_position_embeddings": 8192,)"
      R"( "rope_type": "llama3"})");
  CHECK(hf.type == RopeScalingType::kLlama3);
  CHECK(hf.original_context_length == 8192);
  // Missing optional keys take transformers' defaults.
  const RopeScaling defaults =
      embedlab::RopeScalingFromJson(R"({"rope_type":"yarn","factor":4,"original_max_position_embeddings":64})");
  CHECK(defaults.beta_fast == 32.0);
  CHECK(defaults.beta_slow == 1.0);
  CHECK(defaults.attention_factor == 0.0);
  CHECK(defaults.truncate);
}

TEST_CASE("malformed rope_scaling JSON is refused with the key named", "[checkpoint]") {
  using Catch::Contains;
  REQUIRE_THROWS_WITH(embedlab::RopeScalingFromJson("not json"), Contains("must be a JSON object"));
  REQUIRE_THROWS_WITH(embedlab::RopeScalingFromJson(R"({"factor":2})"), Contains("needs a string \"rope_type\""));
  REQUIRE_THROWS_WITH(embedlab::RopeScalingFromJson(R"({"rope_type":"linear","factor":2,"mscale":1})"),
                      Contains("unknown key \"mscale\""));
  REQUIRE_THROWS_WITH(embedlab::RopeScalingFromJson(R"({"rope_type":"longrope","factor":2})"),
                      Contains("ropeScaling.type must be one of none, linear, ntk, dynamic, yarn, llama3"));
  REQUIRE_THROWS_WITH(embedlab::RopeScalingFromJson(R"({"rope_type":"linear","factor":"2"})"),
                      Contains("\"factor\" must be a number"));
  REQUIRE_THROWS_WITH(embedlab::RopeScalingFromJson(R"({"rope_type":"linear","factor":0.5})"),
                      Contains("ropeScaling.factor must be a finite number in [1, 1000000]"));
  REQUIRE_THROWS_WITH(
      embedlab::RopeScalingFromJson(R"({"rope_type":"dynamic","factor":2,"original_max_position_embeddings":4.5})"),
      Contains("original_max_position_embeddings must be an integer"));
  REQUIRE_THROWS_WITH(
      embedlab::RopeScalingFromJson(R"({"rope_type":"dynamic","factor":2,"original_max_position_embeddings":1e300})"),
      Contains("original_max_position_embeddings must be an integer"));
  REQUIRE_THROWS_WITH(embedlab::RopeScalingFromJson(R"({"rope_type":"yarn","factor":2})"),
                      Contains("ropeScaling.originalContextLength must be an integer in [1, 65536], got 0"));
  REQUIRE_THROWS_WITH(embedlab::RopeScalingFromJson(
                          R"({"rope_type":"yarn","factor":2,"original_max_position_embeddings":8,"truncate":1})"),
                      Contains("\"truncate\" must be true or false"));
}
