// T5's bucket rule against transformers' _relative_position_bucket run in PyTorch (tests/reference/
// t5_relative_bias.py wrote every offset in [-1024, 1024] for a grid of bucket counts and distances, causal and
// bidirectional), against values stated from the paper's rule, and its argument checks.
#include <catch2/catch.hpp>
#include <memory>
#include <stdexcept>
#include <string>

#include "checkpoint/safetensors_reader.h"
#include "model/relative_position_bias.h"
#include "model_reference_files.h"

namespace {

using embedlab::RelativePositionBucket;

std::vector<std::string> SplitCase(const std::string& name) {
  std::vector<std::string> parts;
  size_t begin = 0;
  for (size_t slash = name.find('/'); slash != std::string::npos; slash = name.find('/', begin)) {
    parts.push_back(name.substr(begin, slash - begin));
    begin = slash + 1;
  }
  parts.push_back(name.substr(begin));
  return parts;
}

}  // namespace

TEST_CASE("T5 buckets equal transformers' _relative_position_bucket for every offset of 26 bucketings", "[model]") {
  const std::string path = reference::DataDirectory() + "/t5_buckets.safetensors";
  auto source = std::make_shared<embedlab::MemoryByteSource>(reference::ReadFileBytes(path));
  const embedlab::SafetensorsReader reader(source);
  const int64_t offsets = std::stoll(reader.index().metadata().at("offsets"));
  size_t cases = 0;
  for (const auto& entry : reader.index().tensors()) {
    const std::vector<std::string> parts = SplitCase(entry.name);
    REQUIRE(parts.size() == 3);
    const bool bidirectional = parts[0] == "bidirectional";
    const int64_t num_buckets = std::stoll(parts[1]), max_distance = std::stoll(parts[2]);
    const std::vector<int32_t> expected = reader.ReadInts(entry.name);
    REQUIRE(expected.size() == static_cast<size_t>(2 * offsets + 1));
    for (int64_t offset = -offsets; offset <= offsets; ++offset) {
      INFO(entry.name << " offset " << offset);
      REQUIRE(RelativePositionBucket(offset, num_buckets, max_distance, bidirectional) ==
              expected[static_cast<size_t>(offset + offsets)]);
    }
    ++cases;
  }
  REQUIRE(cases == 26);
}

TEST_CASE("T5 buckets from the rule: exact near, log-spaced far, one bucket past max_distance", "[model]") {
  // Causal, 32 buckets to 128: E = 16 exact buckets for offsets 0..-15, then 16 + trunc(log(n/16)/log(8) 16).
  CHECK(RelativePositionBucket(0, 32, 128, false) == 0);
  CHECK(RelativePositionBucket(-15, 32, 128, false) == 15);
  CHECK(RelativePositionBucket(-16, 32, 128, false) == 16);
  CHECK(RelativePositionBucket(-32, 32, 128, false) == 21);  // 16 + trunc(16/3) = 16 + 5
  CHECK(RelativePositionBucket(-64, 32, 128, false) == 26);  // 16 + trunc(32/3)
  CHECK(RelativePositionBucket(-127, 32, 128, false) == 31);
  CHECK(RelativePositionBucket(-100000, 32, 128, false) == 31);
  CHECK(RelativePositionBucket(5, 32, 128, false) == 0);  // a key after the query: bucket 0, masked anyway
  // Bidirectional: 16 buckets per sign, E = 8; keys after the query in buckets 16..31.
  CHECK(RelativePositionBucket(-7, 32, 128, true) == 7);
  CHECK(RelativePositionBucket(7, 32, 128, true) == 23);
  CHECK(RelativePositionBucket(-16, 32, 128, true) == 10);  // 8 + trunc(log 2 / log 16 * 8) = 8 + 2
  CHECK(RelativePositionBucket(1000, 32, 128, true) == 31);
  const std::vector<int32_t> table = embedlab::RelativePositionBuckets(3, 32, 128, true);
  CHECK(table == std::vector<int32_t>{0, 17, 18, 1, 0, 17, 2, 1, 0});
}

TEST_CASE("T5 bucket arguments are checked with their names and ranges", "[model]") {
  using embedlab::ValidateRelativePositionBuckets;
  CHECK_NOTHROW(ValidateRelativePositionBuckets("b", 2, "d", 2, false));
  CHECK_NOTHROW(ValidateRelativePositionBuckets("b", 4, "d", 2, true));
  CHECK_THROWS_WITH(ValidateRelativePositionBuckets("b", 1, "d", 128, false),
                    "b (causal) must be an integer in [2, 4096], got 1");
  CHECK_THROWS_WITH(ValidateRelativePositionBuckets("b", 3, "d", 128, true),
                    "b (bidirectional) must be an integer in [4, 4096], got 3");
  CHECK_THROWS_WITH(ValidateRelativePositionBuckets("b", 32, "d", 16, false),
                    "d must be an integer in [17, 1073741824] (above the 16 exact buckets of 32 causal buckets), "
                    "got 16");
  CHECK_THROWS_AS(ValidateRelativePositionBuckets("b", 32, "d", int64_t{1} << 31, false), std::out_of_range);
}

// lab.relativePositionBuckets's table: its length cap and the bucket rule checked by the core, under the API's names.
TEST_CASE("T5 bucket table for the API: length and buckets checked by the core", "[model]") {
  const std::vector<int32_t> table = embedlab::CheckedRelativePositionBuckets(3, 32, 128, false);
  REQUIRE(table == embedlab::RelativePositionBuckets(3, 32, 128, false));
  REQUIRE_THROWS_WITH(embedlab::CheckedRelativePositionBuckets(embedlab::kMaxBucketTableLength + 1, 32, 128, false),
                      "length must be an integer in [1, 4096], got 4097");
  REQUIRE_THROWS_WITH(embedlab::CheckedRelativePositionBuckets(4, 2, 128, true),
                      Catch::StartsWith("numBuckets (bidirectional) must be an integer in [4, 4096]"));
  REQUIRE_THROWS_WITH(embedlab::CheckedRelativePositionBuckets(4, 32, 8, false),
                      Catch::StartsWith("maxDistance must be an integer in [17, "));
}
