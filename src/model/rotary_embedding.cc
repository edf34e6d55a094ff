#include "model/rotary_embedding.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "errors/argument_checks.h"

namespace embedlab {

std::vector<float> RopeRotate(const std::vector<float>& vector, int64_t position, double base, RopeLayout layout) {
  RequireInRange("vector.length", static_cast<int64_t>(vector.size()), 2, kMaxDim);
  if (vector.size() % 2 != 0) {
    throw std::out_of_range("RoPE rotates pairs, so vector.length must be even, got " + std::to_string(vector.size()));
  }
  RequireInRange("position", position, 0, INT32_MAX);
  RequireFiniteInRange("base", base, 1.0, 1e12);
  // One head as wide as the vector: RotateHead then rotates it exactly as Forward rotates a head of q or k.
  const RotaryEmbedding rope(vector.size(), 1, base, layout);
  std::vector<float> rotated(vector.size());
  rope.RotateHead(vector.data(), static_cast<size_t>(position), rotated.data());
  return rotated;
}
namespace {

// Rotates the pair (x0, x1) by the angle whose cosine and sine are given.
inline void RotatePair(float x0, float x1, float cosine, float sine, float* out0, float* out1) {
  *out0 = x0 * cosine - x1 * sine;
  *out1 = x0 * sine + x1 * cosine;
}

}  // namespace

RotaryEmbedding::RotaryEmbedding(size_t channels, size_t heads, double base, RopeLayout layout,
                                 const RopeScaling& scaling)
    : channels_(channels),
      heads_(heads),
      head_dim_(channels / heads),
      half_(channels / heads / 2),
      layout_(layout),
      base_(base),
      scaling_(scaling) {
  SetFrequencies(1);
}

void RotaryEmbedding::SetFrequencies(size_t length) {
  RopeFrequencies f = ComputeRopeFrequencies(static_cast<int64_t>(head_dim_), base_, scaling_,
                                             static_cast<int64_t>(std::max<size_t>(length, 1)));
  frequencies_ = std::move(f.inverse_frequencies);
  attention_factor_ = f.attention_factor;
  frequencies_length_ = length;
}

void RotaryEmbedding::EnsureLength(size_t length) {
  // Dynamic NTK: the frequencies belong to this length (transformers recomputes them for every forward).
  if (scaling_.type == RopeScalingType::kDynamic && length != frequencies_length_) {
    SetFrequencies(length);
    table_length_ = 0;
  }
  if (length <= table_length_) return;
  cos_.resize(length * half_);
  sin_.resize(length * half_);
  // Angles in double: at t = 4096 a float angle would already be off by ~2e-4 rad.
  for (size_t t = table_length_; t < length; ++t) {
    for (size_t i = 0; i < half_; ++i) {
      const double angle = static_cast<double>(t) * frequencies_[i];
      cos_[t * half_ + i] = static_cast<float>(attention_factor_ * std::cos(angle));
      sin_[t * half_ + i] = static_cast<float>(attention_factor_ * std::sin(angle));
    }
  }
  table_length_ = length;
}

void RotaryEmbedding::Forward(const float* qkv, float* rotated, size_t batch, size_t length) {
  EnsureLength(length);
  const size_t row = 3 * channels_;
  for (size_t b = 0; b < batch; ++b) {
    for (size_t t = 0; t < length; ++t) {
      const float* in = qkv + (b * length + t) * row;
      float* out = rotated + (b * length + t) * row;
      const float* cosines = &cos_[t * half_];
      const float* sines = &sin_[t * half_];
      for (size_t part = 0; part < 2; ++part) {  // q, then k
        for (size_t h = 0; h < heads_; ++h) {
          const size_t head = part * channels_ + h * head_dim_;
          for (size_t i = 0; i < half_; ++i) {
            RotatePair(in[head + First(i)], in[head + Second(i)], cosines[i], sines[i], &out[head + First(i)],
                       &out[head + Second(i)]);
          }
        }
      }
      for (size_t c = 2 * channels_; c < row; ++c) out[c] = in[c];
    }
  }
}

void RotaryEmbedding::RotateHead(const float* head, size_t position, float* rotated) const {
  // The same float cosines and sines as the table Forward reads (computed in double, then rounded).
  for (size_t i = 0; i < half_; ++i) {
    const double angle = static_cast<double>(position) * frequencies_[i];
    RotatePair(head[First(i)], head[Second(i)], static_cast<float>(attention_factor_ * std::cos(angle)),
               static_cast<float>(attention_factor_ * std::sin(angle)), &rotated[First(i)], &rotated[Second(i)]);
  }
}

void RotaryEmbedding::Backward(const float* drotated, float* dqkv, size_t batch, size_t length) {
  EnsureLength(length);
  const size_t row = 3 * channels_;
  for (size_t b = 0; b < batch; ++b) {
    for (size_t t = 0; t < length; ++t) {
      const float* grad_out = drotated + (b * length + t) * row;
      float* grad_in = dqkv + (b * length + t) * row;
      const float* cosines = &cos_[t * half_];
      const float* sines = &sin_[t * half_];
      for (size_t part = 0; part < 2; ++part) {
        for (size_t h = 0; h < heads_; ++h) {
          const size_t head = part * channels_ + h * head_dim_;
          for (size_t i = 0; i < half_; ++i) {
            const float g0 = grad_out[head + First(i)], g1 = grad_out[head + Second(i)];
            grad_in[head + First(i)] += g0 * cosines[i] + g1 * sines[i];
            grad_in[head + Second(i)] += g1 * cosines[i] - g0 * sines[i];
          }
        }
      }
      for (size_t c = 2 * channels_; c < row; ++c) grad_in[c] += grad_out[c];
    }
  }
}

}  // namespace embedlab
