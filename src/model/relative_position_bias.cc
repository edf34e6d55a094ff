#include "model/relative_position_bias.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "errors/argument_checks.h"

namespace embedlab {

int64_t RelativePositionExactBuckets(int64_t num_buckets, bool bidirectional) {
  return (bidirectional ? num_buckets / 2 : num_buckets) / 2;
}

int32_t RelativePositionBucket(int64_t offset, int64_t num_buckets, int64_t max_distance, bool bidirectional) {
  int64_t bucket = 0, n = 0;
  if (bidirectional) {
    num_buckets /= 2;
    if (offset > 0) bucket = num_buckets;
    n = offset < 0 ? -offset : offset;
  } else {
    n = offset < 0 ? -offset : 0;  // keys after the query share bucket 0 (a causal mask hides them)
  }
  const int64_t exact = num_buckets / 2;
  if (n < exact) return static_cast<int32_t>(bucket + n);
  // transformers: log(n.float() / E) / math.log(max_distance / E) * (B - E), in float32 with the
  // denominator a double rounded to float. The log is taken in double and rounded, which gives the
  // correctly rounded float on every platform (a float logf differs between libms).
  const float ratio = static_cast<float>(n) / static_cast<float>(exact);
  const float log_ratio = static_cast<float>(std::log(static_cast<double>(ratio)));
  const float log_range = static_cast<float>(std::log(static_cast<double>(max_distance) / static_cast<double>(exact)));
  const float scaled = log_ratio / log_range * static_cast<float>(num_buckets - exact);
  const int64_t large = exact + static_cast<int64_t>(scaled);  // truncation, as .to(torch.long)
  return static_cast<int32_t>(bucket + std::min(large, num_buckets - 1));
}

std::vector<int32_t> RelativePositionBuckets(int64_t length, int64_t num_buckets, int64_t max_distance,
                                             bool bidirectional) {
  std::vector<int32_t> buckets(static_cast<size_t>(length * length));
  for (int64_t i = 0; i < length; ++i) {
    for (int64_t j = 0; j < length; ++j) {
      buckets[static_cast<size_t>(i * length + j)] =
          RelativePositionBucket(j - i, num_buckets, max_distance, bidirectional);
    }
  }
  return buckets;
}

std::vector<int32_t> CheckedRelativePositionBuckets(int64_t length, int64_t num_buckets, int64_t max_distance,
                                                    bool bidirectional) {
  ValidateRelativePositionBuckets("numBuckets", num_buckets, "maxDistance", max_distance, bidirectional);
  RequireInRange("length", length, 1, kMaxBucketTableLength);
  return RelativePositionBuckets(length, num_buckets, max_distance, bidirectional);
}

void ValidateRelativePositionBuckets(const std::string& buckets_name, int64_t num_buckets,
                                     const std::string& distance_name, int64_t max_distance, bool bidirectional) {
  // Bidirectional bucketing splits the buckets by sign and each half again into exact and log-spaced ones.
  RequireInRange(buckets_name + (bidirectional ? " (bidirectional)" : " (causal)"), num_buckets, bidirectional ? 4 : 2,
                 kT5MaxNumBuckets);
  const int64_t exact = RelativePositionExactBuckets(num_buckets, bidirectional);
  if (max_distance <= exact || max_distance > kT5MaxMaxDistance) {
    throw std::out_of_range(distance_name + " must be an integer in [" + std::to_string(exact + 1) + ", " +
                            std::to_string(kT5MaxMaxDistance) + "] (above the " + std::to_string(exact) +
                            " exact buckets of " + std::to_string(num_buckets) +
                            (bidirectional ? " bidirectional" : " causal") + " buckets), got " +
                            std::to_string(max_distance));
  }
}

}  // namespace embedlab
