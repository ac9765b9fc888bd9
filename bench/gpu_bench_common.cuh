/* What the GPU benchmarks share: the median of timed repetitions, and the hash that fills their
 * data with random, never constant, values. */
#ifndef CSR_BENCH_GPU_BENCH_COMMON_CUH
#define CSR_BENCH_GPU_BENCH_COMMON_CUH

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

/* Exits with 3 when a CUDA call fails. */
#define BENCH_CHECK_CUDA(call)                                                                     \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));       \
      exit(3);                                                                                     \
    }                                                                                              \
  } while (0)

/* Median of `reps` timings of f() (CUDA events on the default stream) after one warm-up, in ms. */
template <typename F> static double bench_median_ms(int reps, F f) {
  cudaEvent_t a, b;
  BENCH_CHECK_CUDA(cudaEventCreate(&a));
  BENCH_CHECK_CUDA(cudaEventCreate(&b));
  f();
  BENCH_CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int r = 0; r < reps; r++) {
    BENCH_CHECK_CUDA(cudaEventRecord(a));
    f();
    BENCH_CHECK_CUDA(cudaEventRecord(b));
    BENCH_CHECK_CUDA(cudaEventSynchronize(b));
    float ms;
    BENCH_CHECK_CUDA(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  BENCH_CHECK_CUDA(cudaEventDestroy(a));
  BENCH_CHECK_CUDA(cudaEventDestroy(b));
  std::sort(t.begin(), t.end());
  return t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]);
}

/* splitmix64's finaliser: a well-mixed 64-bit hash of x. */
__device__ __forceinline__ uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

#endif
