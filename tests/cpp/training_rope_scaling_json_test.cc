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
  // Missing optional keys take kRopeScalingDefaults.
  const RopeScaling defaults =
      embedlab::RopeScalingFromJson(R"({"rope_type":"yarn","factor":4,"original_max_position_embeddings":64})");
  CHECK(defaults.beta_fast == embedlab::kRopeScalingDefaults.beta_fast);
  CHECK(defaults.beta_slow == embedlab::kRopeScalingDefaults.beta_slow);
  CHECK(defaults.attention_factor == embedlab::kRopeScalingDefaults.attention_factor);
  CHECK(defaults.truncate == embedlab::kRopeScalingDefaults.truncate);
  const RopeScaling llama_defaults =
      embedlab::RopeScalingFromJson(R"({"rope_type":"llama3","factor":8,"original_max_position_embeddings":64})");
  CHECK(llama_defaults.low_frequency_factor == embedlab::kRopeScalingDefaults.low_frequency_factor);
  CHECK(llama_defaults.high_frequency_factor == embedlab::kRopeScalingDefaults.high_frequency_factor);
}

TEST_CASE("the defaults are transformers' and written out, so a reader needs none of its own", "[checkpoint]") {
  // modeling_rope_utils: beta_fast 32, beta_slow 1, truncate True, low_freq_factor 1, high_freq_factor 4;
  // attention_factor absent (0 here) means 0.1 ln(factor) + 1.
  const RopeScaling& d = embedlab::kRopeScalingDefaults;
  CHECK(d.type == RopeScalingType::kNone);
  CHECK(d.factor == 1.0);
  CHECK(d.beta_fast == 32.0);
  CHECK(d.beta_slow == 1.0);
  CHECK(d.attention_factor == 0.0);
  CHECK(d.truncate);
  CHECK(d.low_frequency_factor == 1.0);
  CHECK(d.high_frequency_factor == 4.0);
  // Each type's JSON holds every key that type reads (embedlab_rope_scaling.py requires them).
  RopeScaling yarn = d;
  yarn.type = RopeScalingType::kYarn;
  yarn.factor = 4.0;
  yarn.original_context_length = 64;
  REQUIRE(embedlab::RopeScalingToJson(yarn) ==
          R"({"beta_fast":32.0,"beta_slow":1.0,"factor":4.0,"original_max_position_embeddings":64,)"
          R"("rope_type":"yarn","truncate":true})");
  RopeScaling llama = yarn;
  llama.type = RopeScalingType::kLlama3;
  REQUIRE(embedlab::RopeScalingToJson(llama) ==
          R"({"factor":4.0,"high_freq_factor":4.0,"low_freq_factor":1.0,"original_max_position_embeddings":64,)"
          R"("rope_type":"llama3"})");
  RopeScaling dynamic = yarn;
  dynamic.type = RopeScalingType::kDynamic;
  REQUIRE(embedlab::RopeScalingToJson(dynamic) ==
          R"({"factor":4.0,"original_max_position_embeddings":64,"rope_type":"dynamic"})");
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
      Contains("\"original_max_position_embeddings\" must be an integer"));
  REQUIRE_THROWS_WITH(
      embedlab::RopeScalingFromJson(R"({"rope_type":"dynamic","factor":2,"original_max_position_embeddings":1e300})"),
      Contains("\"original_max_position_embeddings\" must be an integer"));
  REQUIRE_THROWS_WITH(embedlab::RopeScalingFromJson(R"({"rope_type":"yarn","factor":2})"),
                      Contains("ropeScaling.originalContextLength must be an integer in [1, 65536], got 0"));
  REQUIRE_THROWS_WITH(embedlab::RopeScalingFromJson(
                          R"({"rope_type":"yarn","factor":2,"original_max_position_embeddings":8,"truncate":1})"),
                      Contains("\"truncate\" must be true or false"));
}
