// Scalar double-precision references the tests hold the float kernels to. Written from the formulas,
// sharing no code with src/.
#ifndef EMBEDLAB_TESTS_REFERENCE_MATH_H_
#define EMBEDLAB_TESTS_REFERENCE_MATH_H_

#include <cmath>
#include <cstddef>
#include <vector>

namespace reference {

inline double Dot(const float* a, const float* b, size_t n) {
  double sum = 0.0;
  for (size_t i = 0; i < n; ++i) sum += static_cast<double>(a[i]) * b[i];
  return sum;
}

// Sum of |a_i b_i|: the scale a float dot product's rounding error is proportional to.
inline double AbsDot(const float* a, const float* b, size_t n) {
  double sum = 0.0;
  for (size_t i = 0; i < n; ++i) sum += std::fabs(static_cast<double>(a[i]) * b[i]);
  return sum;
}

inline double Cosine(const float* a, const float* b, size_t n) {
  const double norms = std::sqrt(Dot(a, a, n)) * std::sqrt(Dot(b, b, n));
  return norms > 0 ? Dot(a, b, n) / norms : 0.0;
}

inline double SinusoidalValue(size_t position, size_t index, size_t dim, double base) {
  const double pair = static_cast<double>(index / 2);
  const double angle = position / std::pow(base, 2.0 * pair / dim);
  return index % 2 == 0 ? std::sin(angle) : std::cos(angle);
}

// softmax(x Wq (x Wk)^T / sqrt(d)) x Wv with W given in the usual (in x out) layout.
inline std::vector<double> Attention(const std::vector<float>& x, size_t length, size_t dim,
                                     const std::vector<double>& wq, const std::vector<double>& wk,
                                     const std::vector<double>& wv, bool causal) {
  auto project = [&](const std::vector<double>& w) {
    std::vector<double> out(length * dim, 0.0);
    for (size_t t = 0; t < length; ++t)
      for (size_t j = 0; j < dim; ++j)
        for (size_t k = 0; k < dim; ++k) out[t * dim + j] += x[t * dim + k] * w[k * dim + j];
    return out;
  };
  const std::vector<double> q = project(wq), k = project(wk), v = project(wv);
  std::vector<double> out(length * dim, 0.0);
  for (size_t i = 0; i < length; ++i) {
    const size_t visible = causal ? i + 1 : length;
    std::vector<double> scores(visible);
    double max_score = -INFINITY;
    for (size_t j = 0; j < visible; ++j) {
      double s = 0;
      for (size_t c = 0; c < dim; ++c) s += q[i * dim + c] * k[j * dim + c];
      scores[j] = s / std::sqrt(static_cast<double>(dim));
      max_score = std::max(max_score, scores[j]);
    }
    double total = 0;
    for (double& s : scores) total += (s = std::exp(s - max_score));
    for (size_t j = 0; j < visible; ++j)
      for (size_t c = 0; c < dim; ++c) out[i * dim + c] += scores[j] / total * v[j * dim + c];
  }
  return out;
}

}  // namespace reference

#endif  // EMBEDLAB_TESTS_REFERENCE_MATH_H_
