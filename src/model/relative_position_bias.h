// T5's relative position bias (Raffel et al. 2020, section 2.1): each attention score gets a learned scalar
// per head that depends only on the offset key - query, read through log-spaced buckets. The bucket rule is
// Mesh TensorFlow's and Hugging Face transformers' (T5Attention._relative_position_bucket):
//   bidirectional: half the buckets per sign (keys after the query in the upper half), n = |offset|;
//   causal:        every bucket for keys at or before the query, n = max(-offset, 0);
//   with B the buckets per sign and E = B / 2: n < E is bucket n (exact), otherwise
//   E + trunc(log(n / E) / log(max_distance / E) * (B - E)), capped at B - 1 (every n >= max_distance shares it).
// The log term is evaluated in float32 as transformers does, so bucket edges fall where T5's do.
#ifndef EMBEDLAB_MODEL_RELATIVE_POSITION_BIAS_H_
#define EMBEDLAB_MODEL_RELATIVE_POSITION_BIAS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace embedlab {

// T5's defaults (T5Config.relative_attention_num_buckets / relative_attention_max_distance).
inline constexpr int64_t kT5DefaultNumBuckets = 32;
inline constexpr int64_t kT5DefaultMaxDistance = 128;
inline constexpr int64_t kT5MaxNumBuckets = 4096;
inline constexpr int64_t kT5MaxMaxDistance = int64_t{1} << 30;

// The bucket of one offset (key position - query position).
int32_t RelativePositionBucket(int64_t offset, int64_t num_buckets, int64_t max_distance, bool bidirectional);

// length x length buckets, row i the query, column j the key: RelativePositionBucket(j - i, ...).
std::vector<int32_t> RelativePositionBuckets(int64_t length, int64_t num_buckets, int64_t max_distance,
                                             bool bidirectional);

// lab.relativePositionBuckets: the table above for length in [1, kMaxBucketTableLength] (length^2 buckets: 64 MiB
// at most), after ValidateRelativePositionBuckets under the API's names numBuckets and maxDistance.
inline constexpr int64_t kMaxBucketTableLength = 4096;
std::vector<int32_t> CheckedRelativePositionBuckets(int64_t length, int64_t num_buckets, int64_t max_distance,
                                                    bool bidirectional);

// The exact buckets E: num_buckets / 2 causal, num_buckets / 4 bidirectional.
int64_t RelativePositionExactBuckets(int64_t num_buckets, bool bidirectional);

// Throws std::out_of_range naming the argument: num_buckets in [2, kT5MaxNumBuckets] causal, [4, ...]
// bidirectional (so E >= 1); max_distance in (E, kT5MaxMaxDistance] (the log spacing needs max_distance > E).
void ValidateRelativePositionBuckets(const std::string& buckets_name, int64_t num_buckets,
                                     const std::string& distance_name, int64_t max_distance, bool bidirectional);

}  // namespace embedlab

#endif  // EMBEDLAB_MODEL_RELATIVE_POSITION_BIAS_H_
