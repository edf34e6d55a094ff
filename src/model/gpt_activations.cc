#include "model/gpt_activations.h"

namespace embedlab {

void GptActivations::Resize(const GptConfig& config, size_t batch, size_t length) {
  const size_t bt = batch * length, c = static_cast<size_t>(config.channels);
  const size_t h = static_cast<size_t>(config.heads), v = static_cast<size_t>(config.vocab_size);
  encoded.resize(bt * c);
  layers.resize(static_cast<size_t>(config.layers));
  for (GptLayerActivations& layer : layers) {
    layer.ln_1.resize(bt * c);
    layer.ln_1_mean.resize(bt);
    layer.ln_1_rstd.resize(bt);
    layer.qkv.resize(bt * 3 * c);
    layer.qkv_rotated.resize(config.positions == PositionScheme::kRope ? bt * 3 * c : 0);
    layer.att.resize(batch * h * length * length);
    layer.atty.resize(bt * c);
    layer.residual_2.resize(bt * c);
    layer.ln_2.resize(bt * c);
    layer.ln_2_mean.resize(bt);
    layer.ln_2_rstd.resize(bt);
    layer.fch.resize(bt * 4 * c);
    layer.fch_gelu.resize(bt * 4 * c);
    layer.fch_tanh.resize(bt * 4 * c);
    layer.residual_3.resize(bt * c);
  }
  ln_f.resize(bt * c);
  ln_f_mean.resize(bt);
  ln_f_rstd.resize(bt);
  logits.resize(bt * v);
  probs.resize(bt * v);
}

void GptActivationGradients::Resize(const GptConfig& config, size_t batch, size_t length) {
  const size_t bt = batch * length, c = static_cast<size_t>(config.channels);
  residual.resize(bt * c);
  ln.resize(bt * c);
  atty.resize(bt * c);
  qkv.resize(bt * 3 * c);
  qkv_rotated.resize(config.positions == PositionScheme::kRope ? bt * 3 * c : 0);
  fch.resize(bt * 4 * c);
  fch_gelu.resize(bt * 4 * c);
  logits.resize(bt * static_cast<size_t>(config.vocab_size));
}

}  // namespace embedlab
