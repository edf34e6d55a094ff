// The positional schemes the long-context experiment compares, each a model option plus how it reads a
// sequence longer than its training length T (factor s = length / T):
//   learned      the GPT-2 table; nothing past T (refused: "n/a")
//   sinusoidal   fixed sines, tokens scaled by sqrt(C) (Vaswani et al. 3.4), read as they are
//   rope         RoPE extrapolated: the trained frequencies, unchanged
//   rope_pi      Position Interpolation: frequencies / s (Chen et al. 2023)
//   rope_ntk     static NTK-aware: base * s^(d/(d-2))
//   rope_dynamic dynamic NTK: factor 1, so the base follows the length read, base * (L/T)^(d/(d-2)) past T
//   rope_yarn    YaRN with factor s (its ramp and attention factor; Peng et al. 2023)
//   alibi        linear biases (Press et al. 2022), read as they are
//   t5           T5's bucketed relative bias (Raffel et al. 2020), when the model has it
//   none         NoPE (the causal mask alone)
// The RoPE rows share one trained model per seed: they differ only in how it is read (and fine-tuned).
#ifndef EMBEDLAB_TRAINING_LONG_CONTEXT_SCHEMES_H_
#define EMBEDLAB_TRAINING_LONG_CONTEXT_SCHEMES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "model/gpt_config.h"
#include "model/rope_scaling.h"

namespace embedlab {

struct LongContextScheme {
  std::string name;
  PositionScheme positions;
  RopeScalingType scaling;  // RoPE rows only
};

// Every scheme the model supports, in the order above (t5 only once PositionScheme has it).
std::vector<LongContextScheme> LongContextSchemes();
// Throws std::invalid_argument listing the names otherwise.
LongContextScheme ParseLongContextScheme(const std::string& name);

// The model for `scheme` trained at train_length (positions, sqrt(C) embedding scale for sinusoidal,
// context_length = train_length); the other fields come from `base`.
GptConfig LongContextModelConfig(const LongContextScheme& scheme, GptConfig base, int64_t train_length);

// The RoPE scaling the scheme reads `length` tokens with, after training at train_length (kNone at or below it,
// except dynamic, which scales itself per length).
RopeScaling LongContextRopeScaling(const LongContextScheme& scheme, int64_t train_length, int64_t length);

}  // namespace embedlab

#endif  // EMBEDLAB_TRAINING_LONG_CONTEXT_SCHEMES_H_
