// PyTorch parity: for every positional scheme, the model loads the weights tests/reference/gpt_reference.py
// wrote and must reproduce PyTorch's logits, loss, every parameter gradient and 10 AdamW losses.
//
// Tolerances (llm.c's test_gpt2 style, tighter): logits and the 11 losses within 1e-5 absolute;
// each gradient tensor within 1e-4 relative in the max norm, max_i |g_i - ref_i| / max_i |ref_i|.
// The max norm is used because an element-wise relative error is meaningless for gradient entries
// that are ~0 (their absolute error is float rounding, ~1e-9, however small the entry).
// Set EMBEDLAB_PRINT_PARITY=1 to print the measured errors.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "checkpoint/safetensors_reader.h"
#include "model/adamw.h"
#include "model/gpt.h"
#include "model_reference_files.h"
#include "training/model_checkpoint.h"

namespace {

std::unique_ptr<embedlab::SafetensorsReader> OpenReference(const std::string& name) {
  const std::string path = reference::DataDirectory() + "/gpt_" + name + ".safetensors";
  auto source = std::make_shared<embedlab::MemoryByteSource>(reference::ReadFileBytes(path));
  return std::make_unique<embedlab::SafetensorsReader>(source);
}

double MaxAbsDifference(const float* a, const std::vector<float>& b) {
  double worst = 0.0;
  for (size_t i = 0; i < b.size(); ++i) worst = std::max(worst, std::fabs(static_cast<double>(a[i]) - b[i]));
  return worst;
}

double MaxAbs(const std::vector<float>& v) {
  double worst = 0.0;
  for (float x : v) worst = std::max(worst, std::fabs(static_cast<double>(x)));
  return worst;
}

void CheckParity(const std::string& name) {
  INFO("reference case " << name);
  const auto reader = OpenReference(name);
  const auto& metadata = reader->index().metadata();
  const embedlab::GptConfig config = embedlab::GptConfigFromMetadata(metadata);
  REQUIRE(config.embedding_scale == std::stod(metadata.at("embedding_scale")));
  const size_t batch = std::stoul(metadata.at("batch")), length = std::stoul(metadata.at("length"));
  const std::vector<int32_t> ids = reader->ReadInts("ids"), targets = reader->ReadInts("targets");

  embedlab::Gpt model(config);
  for (const auto& tensor : model.layout().tensors()) {
    const std::vector<float> values = reader->ReadFloats("param/" + tensor.name);
    REQUIRE(values.size() == tensor.size);
    std::copy(values.begin(), values.end(), model.parameters().begin() + static_cast<long>(tensor.offset));
  }
  const std::vector<float> initial_parameters = model.parameters();

  const float loss = model.Forward(ids.data(), targets.data(), batch, length);
  const double logits_error = MaxAbsDifference(model.logits().data(), reader->ReadFloats("logits"));
  const double loss_error = std::fabs(loss - reader->ReadFloats("loss")[0]);
  CHECK(logits_error <= 1e-5);
  CHECK(loss_error <= 1e-5);

  model.ZeroGradients();
  model.Forward(ids.data(), targets.data(), batch, length);
  model.Backward();
  double worst_gradient = 0.0;
  std::string worst_name;
  for (const auto& tensor : model.layout().tensors()) {
    const std::vector<float> expected = reader->ReadFloats("grad/" + tensor.name);
    const double relative = MaxAbsDifference(model.gradients().data() + tensor.offset, expected) / MaxAbs(expected);
    INFO("gradient " << tensor.name << " relative error " << relative);
    CHECK(relative <= 1e-4);
    if (relative > worst_gradient) {
      worst_gradient = relative;
      worst_name = tensor.name;
    }
  }

  model.parameters() = initial_parameters;
  embedlab::AdamW optimizer(model.parameters().size(), embedlab::AdamWOptionsFromMetadata(metadata));
  const std::vector<float> expected_losses = reader->ReadFloats("adamw_losses");
  const std::vector<float> expected_norms = reader->ReadFloats("adamw_grad_norms");
  REQUIRE(expected_norms.size() == expected_losses.size());
  double worst_step = 0.0;
  for (size_t step = 0; step < expected_losses.size(); ++step) {
    model.ZeroGradients();
    const float step_loss = model.Forward(ids.data(), targets.data(), batch, length);
    model.Backward();
    const float norm = optimizer.Step(model);  // before clipping, as clip_grad_norm_ returns it
    INFO("AdamW step " << step << " loss " << step_loss << " expected " << expected_losses[step] << ", gradient norm "
                       << norm << " expected " << expected_norms[step]);
    CHECK(std::fabs(step_loss - expected_losses[step]) <= 1e-5);
    CHECK(std::fabs(norm - expected_norms[step]) <= 1e-4 * std::max(1.0f, expected_norms[step]));
    worst_step = std::max(worst_step, static_cast<double>(std::fabs(step_loss - expected_losses[step])));
  }
  // The parameters after the 10th update. An update moves a weight by up to the learning rate (1e-2), so 1e-3
  // catches a missing or wrong update; Adam's m/sqrt(v) amplifies float noise of tiny gradients (up to ~1e-4 seen).
  double worst_final = 0.0;
  for (const auto& tensor : model.layout().tensors()) {
    const double error =
        MaxAbsDifference(model.parameters().data() + tensor.offset, reader->ReadFloats("final/" + tensor.name));
    INFO("after 10 updates " << tensor.name << " max abs error " << error);
    CHECK(error <= 1e-3);
    worst_final = std::max(worst_final, error);
  }
  if (std::getenv("EMBEDLAB_PRINT_PARITY") != nullptr) {
    std::printf(
        "%-22s logits %.2e  loss %.2e  gradient (max-norm relative) %.2e (%s)  10 AdamW losses %.2e  final weights "
        "%.2e\n",
        name.c_str(), logits_error, loss_error, worst_gradient, worst_name.c_str(), worst_step, worst_final);
  }
}

}  // namespace

TEST_CASE("PyTorch parity: learned positions", "[model]") { CheckParity("learned"); }
TEST_CASE("PyTorch parity: sinusoidal positions", "[model]") { CheckParity("sinusoidal"); }
TEST_CASE("PyTorch parity: RoPE, interleaved pairs", "[model]") { CheckParity("rope_interleaved"); }
TEST_CASE("PyTorch parity: RoPE, rotate-half pairs", "[model]") { CheckParity("rope_rotate_half"); }
TEST_CASE("PyTorch parity: ALiBi", "[model]") { CheckParity("alibi"); }
TEST_CASE("PyTorch parity: no positions (NoPE)", "[model]") { CheckParity("none"); }
TEST_CASE("PyTorch parity: learned positions, sequences shorter than the table", "[model]") {
  CheckParity("learned_short");
}
TEST_CASE("PyTorch parity: learned positions, bidirectional attention", "[model]") {
  CheckParity("learned_bidirectional");
}
// Press et al.'s slopes: interleaved for 3 and 6 heads (not 2^(-8h/H)), geometric for 8.
TEST_CASE("PyTorch parity: ALiBi, 3 heads", "[model]") { CheckParity("alibi_3_heads"); }
TEST_CASE("PyTorch parity: ALiBi, 6 heads", "[model]") { CheckParity("alibi_6_heads"); }
TEST_CASE("PyTorch parity: ALiBi, 8 heads", "[model]") { CheckParity("alibi_8_heads"); }
// embedding_scale = sqrt(C): the input gradient reaches wte scaled, the tied head's unscaled.
TEST_CASE("PyTorch parity: sinusoidal positions, embedding scale sqrt(24)", "[model]") {
  CheckParity("sinusoidal_scaled");
}
TEST_CASE("PyTorch parity: learned positions, embedding scale sqrt(16)", "[model]") { CheckParity("learned_scaled"); }
// RoPE scaling (transformers' rope_scaling in the metadata): PI, static NTK, dynamic NTK at T = 8 > L0 = 4,
// YaRN (its ramp and attention factor), Llama 3 (all three bands, rotate-half pairs).
TEST_CASE("PyTorch parity: RoPE scaled linearly (PI)", "[model]") { CheckParity("rope_linear"); }
TEST_CASE("PyTorch parity: RoPE, static NTK-aware scaling", "[model]") { CheckParity("rope_ntk"); }
TEST_CASE("PyTorch parity: RoPE, dynamic NTK past the original length", "[model]") { CheckParity("rope_dynamic"); }
TEST_CASE("PyTorch parity: RoPE, YaRN", "[model]") { CheckParity("rope_yarn"); }
TEST_CASE("PyTorch parity: RoPE, Llama 3 scaling", "[model]") { CheckParity("rope_llama3"); }
// T5's relative position bias (reference: transformers' bucket rule and compute_bias): causal buckets with
// offsets past max_distance, bidirectional buckets split by sign, T5's 32/128 with one head, 3 and 4 heads.
TEST_CASE("PyTorch parity: T5 bias, causal buckets", "[model]") { CheckParity("t5"); }
TEST_CASE("PyTorch parity: T5 bias, bidirectional buckets", "[model]") { CheckParity("t5_bidirectional"); }
TEST_CASE("PyTorch parity: T5 bias, 1 head, 32 buckets to 128", "[model]") { CheckParity("t5_1_head"); }
TEST_CASE("PyTorch parity: T5 bias, 3 heads", "[model]") { CheckParity("t5_3_heads"); }
TEST_CASE("PyTorch parity: T5 bias, 4 heads", "[model]") { CheckParity("t5_4_heads"); }
