// The tiny GPT's shape and options. Every field is checked by ValidateGptConfig with a message that
// names the field and its allowed range; the defaults below are createModel's (lab.modelDefaults).
#ifndef EMBEDLAB_MODEL_GPT_CONFIG_H_
#define EMBEDLAB_MODEL_GPT_CONFIG_H_

#include <cstdint>
#include <string>

#include "model/relative_position_bias.h"
#include "model/rope_scaling.h"

namespace embedlab {

// How the model learns where a token is:
//   kLearned:    x_t = s wte[id] + wpe[t], wpe a trained (context_length x C) table (GPT-2), s the
//                embedding_scale.
//   kSinusoidal: x_t = s wte[id] + PE(t), PE(t, 2i) = sin(t / 10000^(2i/C)), PE(t, 2i+1) = cos(...), fixed.
//   kRope:       q and k of every head rotated pair-wise by angle t * base^(-2i/d_head) (RoFormer), the
//                frequencies optionally scaled (rope_scaling.h: PI, NTK, dynamic NTK, YaRN, Llama 3).
//   kAlibi:      score(i, j) -= m_h (i - j) with Press et al.'s slopes (AlibiSlopes in attention.h):
//                m_h = 2^(-8h/H) when H is a power of two, else those of the power of two below H
//                followed by every other slope of the one above.
//   kT5:         score(i, j) += b[bucket(j - i), h], T5's relative position bias (relative_position_bias.h):
//                a learned scalar per log-spaced offset bucket and head, one table shared by every layer
//                (T5 computes it in the first layer and passes it on); causal bucketing for a causal model,
//                bidirectional otherwise.
//   kNone:       NoPE; a causal mask alone still leaks order, bidirectional attention sees a bag.
enum class PositionScheme { kLearned, kSinusoidal, kRope, kAlibi, kT5, kNone };

// Every scheme, in the order the API lists them.
inline constexpr PositionScheme kPositionSchemes[] = {PositionScheme::kLearned, PositionScheme::kSinusoidal,
                                                      PositionScheme::kRope,    PositionScheme::kAlibi,
                                                      PositionScheme::kT5,      PositionScheme::kNone};

// RoPE pairs: kInterleaved rotates (x0, x1), (x2, x3), ... (the paper, llama.cpp's "normal" mode);
// kRotateHalf rotates (x_i, x_{i + d/2}) (LLaMA in Hugging Face transformers).
enum class RopeLayout { kInterleaved, kRotateHalf };

// Every RoPE layout, in the order the API lists them.
inline constexpr RopeLayout kRopeLayouts[] = {RopeLayout::kInterleaved, RopeLayout::kRotateHalf};

struct GptConfig {
  int64_t vocab_size = 64;
  int64_t context_length = 32;  // the learned table's length; other schemes may run longer sequences
  int64_t channels = 32;
  int64_t layers = 2;
  int64_t heads = 2;
  PositionScheme positions = PositionScheme::kLearned;
  RopeLayout rope_layout = RopeLayout::kInterleaved;
  double rope_base = 10000.0;
  RopeScaling rope_scaling;  // kRope only; type kNone elsewhere
  bool causal = true;        // false: every token attends to every token (the order task's encoder)
  // kT5 only: T5Config's relative_attention_num_buckets and relative_attention_max_distance.
  int64_t t5_num_buckets = kT5DefaultNumBuckets;
  int64_t t5_max_distance = kT5DefaultMaxDistance;
  // s in x_t = s wte[id] + position: 1 as in GPT-2, sqrt(channels) as in Vaswani et al. (2017, section
  // 3.4), which brings N(0, 0.02) token rows up to the scale of the +-1 sinusoids. The tied output head
  // uses wte unscaled. In (0, kMaxEmbeddingScale].
  double embedding_scale = 1.0;
  uint64_t seed = 0;
};

// Large enough for sqrt(kMaxDim) and any hand-picked factor, small enough that N(0, 0.02) rows stay far
// from float overflow.
inline constexpr double kMaxEmbeddingScale = 1024.0;

// Throws std::out_of_range / std::invalid_argument naming the offending field as the caller's API does: name
// prefixes it (OptionName): "config" gives config.heads (createModel), "" the bare field (longContextRun's top-level
// heads). These ranges are the only ones: the JS layer checks types and option names alone.
void ValidateGptConfig(const GptConfig& config, const std::string& name);

const char* PositionSchemeName(PositionScheme scheme);
// "learned", "sinusoidal", "rope", "alibi", "t5", "none"; throws std::invalid_argument listing them otherwise.
PositionScheme ParsePositionScheme(const std::string& name);
const char* RopeLayoutName(RopeLayout layout);
// "interleaved" or "rotate_half".
RopeLayout ParseRopeLayout(const std::string& name);

}  // namespace embedlab

#endif  // EMBEDLAB_MODEL_GPT_CONFIG_H_
