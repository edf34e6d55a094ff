#include "model/adamw.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "errors/argument_checks.h"
#include "simd/optimizer_kernels.h"
#include "text/decimal.h"

namespace embedlab {

void ValidateAdamWOptions(const AdamWOptions& options, const std::string& name) {
  RequireFiniteInRange(OptionName(name, "learningRate"), options.learning_rate, 0.0, 10.0);
  RequireFiniteInRange(OptionName(name, "beta1"), options.beta1, 0.0, 0.999999);
  RequireFiniteInRange(OptionName(name, "beta2"), options.beta2, 0.0, 0.999999);
  RequireFiniteInRange(OptionName(name, "eps"), options.eps, 1e-30, 1.0);
  RequireFiniteInRange(OptionName(name, "weightDecay"), options.weight_decay, 0.0, 10.0);
  RequireFiniteInRange(OptionName(name, "maxGradNorm"), options.max_grad_norm, -1.0, 1e30);
}

AdamW::AdamW(size_t parameter_count, const AdamWOptions& options)
    : options_(options), m_(parameter_count, 0.0f), v_(parameter_count, 0.0f) {
  ValidateAdamWOptions(options, "");  // callers facing JS have checked them under their own names
}

void AdamW::set_learning_rate(float learning_rate) {
  RequireFiniteInRange("learningRate", learning_rate, 0.0, 10.0);
  options_.learning_rate = learning_rate;
}

float AdamW::Step(Gpt& model) {
  if (model.parameters().size() != m_.size()) {
    throw std::invalid_argument("the optimizer was made for " + std::to_string(m_.size()) +
                                " parameters, the model has " + std::to_string(model.parameters().size()));
  }
  std::vector<float>& grads = model.gradients();
  // Norm of the per-tensor norms, as clip_grad_norm_; summed in double so the order of tensors does
  // not matter to the last bit.
  double squares = 0.0;
  const ParameterTensor* first_non_finite = nullptr;
  for (const ParameterTensor& tensor : model.layout().tensors()) {
    double tensor_squares = 0.0;
    for (size_t i = 0; i < tensor.size; ++i) {
      const double g = grads[tensor.offset + i];
      tensor_squares += g * g;
    }
    if (!std::isfinite(tensor_squares) && first_non_finite == nullptr) first_non_finite = &tensor;
    squares += tensor_squares;
  }
  const float norm = static_cast<float>(std::sqrt(squares));
  // A non-finite gradient would poison the moments and then every parameter: refuse the step before
  // touching anything, so the model stays at the last good step.
  if (first_non_finite != nullptr || !std::isfinite(norm)) {
    std::string what = first_non_finite != nullptr
                           ? "the gradient of " + first_non_finite->name + " holds NaN or Inf"
                           : "the gradient norm overflows float (" + FormatShortest(std::sqrt(squares)) + ")";
    throw std::domain_error("training step " + std::to_string(step_ + 1) + ": " + what +
                            "; no update was made, the parameters and optimizer state are those of step " +
                            std::to_string(step_));
  }
  if (options_.max_grad_norm > 0) {
    const float clip = options_.max_grad_norm / (norm + 1e-6f);
    if (clip < 1.0f) {
      for (float& g : grads) g *= clip;
    }
  }
  ++step_;
  // beta^step by repeated multiplication, not pow(): identical on every platform.
  double beta1_power = 1.0, beta2_power = 1.0;
  for (int64_t i = 0; i < step_; ++i) {
    beta1_power *= options_.beta1;
    beta2_power *= options_.beta2;
  }
  for (const ParameterTensor& tensor : model.layout().tensors()) {
    const simd::AdamWSettings settings{options_.learning_rate,
                                       options_.beta1,
                                       options_.beta2,
                                       options_.eps,
                                       tensor.weight_decay ? options_.weight_decay : 0.0f,
                                       static_cast<float>(1.0 - beta1_power),
                                       static_cast<float>(1.0 - beta2_power)};
    simd::AdamWUpdate(model.parameters().data() + tensor.offset, grads.data() + tensor.offset,
                      m_.data() + tensor.offset, v_.data() + tensor.offset, tensor.size, settings);
  }
  return norm;
}

float TrainStep(Gpt& model, AdamW& optimizer, const int32_t* ids, const int32_t* targets, size_t batch, size_t length) {
  model.ZeroGradients();
  const float loss = model.Forward(ids, targets, batch, length);
  model.Backward();
  optimizer.Step(model);
  return loss;
}

}  // namespace embedlab
