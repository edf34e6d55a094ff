// Vector kernels written once with Highway. Natively each call dispatches to the best target the CPU
// supports; in wasm the same code is compiled for the single static target (WASM SIMD128 or EMU128).
#ifndef EMBEDLAB_SIMD_VECTOR_KERNELS_H_
#define EMBEDLAB_SIMD_VECTOR_KERNELS_H_

#include <cstddef>

namespace embedlab {
namespace simd {

// out[i] = a[i] + b[i]. out may alias a or b.
void Add(const float* a, const float* b, float* out, size_t n);
// y[i] += alpha * x[i].
void ScaledAdd(float alpha, const float* x, float* y, size_t n);
float Dot(const float* a, const float* b, size_t n);
// Euclidean (L2) norm.
float Norm(const float* a, size_t n);
// dot / (|a| |b|); 0 when either vector is all zeros (no direction to compare).
float CosineSimilarity(const float* a, const float* b, size_t n);
// out[i * rows_b + j] = cosine(a row i, b row j); a is rows_a x dim, b is rows_b x dim, row-major.
void CosineSimilarityMatrix(const float* a, size_t rows_a, const float* b, size_t rows_b, size_t dim, float* out);
// out[2k] = sin(angles[k]), out[2k+1] = cos(angles[k]); angles should already be reduced to [-pi, pi].
void SinCosInterleaved(const float* angles, size_t n, float* out);
// The index of the first infinity or NaN among values[0, n), or n when every value is finite.
size_t FirstNonFinite(const float* values, size_t n);
// out[i] = value.
void Fill(float value, float* out, size_t n);

}  // namespace simd
}  // namespace embedlab

#endif  // EMBEDLAB_SIMD_VECTOR_KERNELS_H_
