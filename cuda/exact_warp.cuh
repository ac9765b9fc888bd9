/* SPDX-License-Identifier: BSD-3-Clause */
/* Exact sums on the device, a warp at a time: the machinery behind cuda/exact_sums.cu (the
 * reductions' terms) and cuda/pagerank_exact.cu (the distributed PageRank's update). A kernel
 * forms K terms per entry, each rounded to double once; their sums are not rounded at all
 * (src/kernels/exact_sum.h).
 *
 * A warp takes 256 terms at a time (8 a lane, in registers) and sums them by error-free
 * extraction, the scheme of src/kernels/exact_block.c:
 *   sigma = 2^k >= 4 * 256 * max|t|,  q = (sigma + t) - sigma,  t <- t - q
 * every q is a multiple of ulp(sigma)/2 and every partial sum of them stays below sigma, so the
 * warp's shuffle sum of the q is exact whatever its tree; that one double goes to the block's
 * fixed-point accumulator in shared memory, three lanes adding a digit each. The rests are about
 * 2^40 times smaller and go round again until they are all zero (two or three levels for terms
 * of similar size); the K sums of a kernel run their levels side by side. A term
 * that is not finite goes to the accumulator's NaN / infinity counts, a square outside
 * [2^-480, 2^480] goes in exactly as the 106-bit product of its significands, and rests whose
 * sigma would overflow go in one by one. At the end each block adds its nonzero words to the
 * launch's accumulator in global memory (integer atomics: the order does not matter), which the
 * host merges into the caller's. The result is the same accumulator value as the CPU backends'
 * for the same terms, whatever the grid.
 *
 * A user supplies the terms: a functor `terms(i, acc, t)` that fills t[0, K) for entry i < n
 * (and may write the entry's outputs), counting a term that is not finite in acc + k * WORDS
 * with keep_finite; then exact_warp_launches cuts [0, n) into launches of run_exact. */
#ifndef CSR_CUDA_EXACT_WARP_CUH
#define CSR_CUDA_EXACT_WARP_CUH

#include "common.cuh"
#include "reduce.cuh"

#include <string.h>

namespace csri_exact_warp {

constexpr int THREADS = 256;
constexpr int ITEMS = 8;         /* terms per lane per tile */
constexpr int TILE = 32 * ITEMS; /* terms per warp per tile: 4 TILE = 2^10 */
constexpr int SIGMA_MARGIN = 10; /* sigma = 2^(e + 10) for max|t| < 2^e */
constexpr int WORDS = CSRI_EXACT_WORDS;
/* Entries per launch: a word grows by less than 2^32 a deposit, and a launch makes fewer than two
 * deposits an entry into each accumulator (at most one a term, one a level of 256 terms), so 2^29
 * entries keep every word far inside int64 and the units count below the 2^31 a merge accepts. */
constexpr int64_t LAUNCH_ENTRIES = (int64_t)1 << 29;

typedef unsigned long long word;

/* acc += sign * (hi:lo) 2^(pos + CSRI_EXACT_LOW), hi:lo < 2^106: five 32-bit digits of
 * (hi:lo) << (pos % 32) into limbs pos / 32 + [0, 5) (exact_sum.h, csri_exact_deposit). Signed
 * words are added as two's complement unsigned ones: the same bits. */
static inline __device__ void deposit(word *acc, word lo, word hi, int pos, long long sign) {
  const int limb = pos >> 5, shift = pos & 31;
  const word s0 = lo << shift;
  const word s1 = shift == 0 ? hi : hi << shift | lo >> (64 - shift);
  const word s2 = shift == 0 ? 0 : hi >> (64 - shift);
  const word digit[5] = {s0 & 0xffffffffu, s0 >> 32, s1 & 0xffffffffu, s1 >> 32, s2};
#pragma unroll
  for (int j = 0; j < 5; j++)
    if (digit[j] != 0)
      atomicAdd(acc + limb + j, (word)(sign * (long long)digit[j]));
  atomicAdd(acc + CSRI_EXACT_UNITS, 1ull);
}

/* A finite double's significand m (< 2^53) and exponent e: v = m 2^e. */
static inline __device__ word split(double v, int *e) {
  const word bits = (word)__double_as_longlong(v);
  const int be = (int)((bits >> 52) & 0x7ff);
  *e = be + (be == 0) - 1075;
  return (bits & 0xfffffffffffffull) | ((word)(be != 0) << 52);
}

/* acc += v exactly (v finite). */
static inline __device__ void add_double(word *acc, double v) {
  int e;
  const word m = split(v, &e);
  deposit(acc, m, 0, e - CSRI_EXACT_LOW, v < 0.0 ? -1 : 1);
}

/* acc += x^2 exactly, unrounded (x finite). */
static inline __device__ void add_exact_square(word *acc, double x) {
  int e;
  const word m = split(x, &e);
  deposit(acc, m * m, __umul64hi(m, m), 2 * e - CSRI_EXACT_LOW, 1);
}

/* A NaN or infinite term (its IEEE value) counts in its word. */
static inline __device__ void add_special(word *acc, double v) {
  atomicAdd(acc + (v != v    ? CSRI_EXACT_NAN
                   : v > 0.0 ? CSRI_EXACT_POS_INF
                             : CSRI_EXACT_NEG_INF),
            1ull);
}

/* A term as the backend forms it: finite terms stay, the others are counted and become 0. */
static inline __device__ double keep_finite(word *acc, double t) {
  if (isfinite(t))
    return t;
  add_special(acc, t);
  return 0.0;
}

/* The biased exponent field of |v| (0 for zeros and subnormals). */
static inline __device__ unsigned biased_exponent(double v) {
  return (unsigned)(__double_as_longlong(v) >> 52) & 0x7ffu;
}

/* acc_k += the exact sums of the warp's 256 finite terms t[k] (8 a lane) for every k < K, level
 * by level, the K sums side by side (independent chains the scheduler interleaves). A level:
 * the warp's largest exponent by one integer reduction, sigma = 2^(E + 11) >= 4 * 256 * max|t|
 * made from its bits, q and the rests, the sum of the q by shuffles; then lane 3k + j adds
 * digit j (< 3) of sum k to its limb, all sums' digits in one atomic instruction. deposits[k]
 * (kept by lane 3k) counts the sums it added, for the accumulator's units. Terms that are all
 * subnormal, or so large that sigma would overflow, go in one by one. */
template <int K>
static inline __device__ void extract(word *acc, double (&t)[K][ITEMS], int lane,
                                      unsigned &deposits) {
  constexpr unsigned FULL = 0xffffffffu;
  for (;;) {
    unsigned top[K];
    bool live[K], more = false;
#pragma unroll
    for (int k = 0; k < K; k++) {
      unsigned e = 0;
      bool nonzero = false;
#pragma unroll
      for (int j = 0; j < ITEMS; j++) {
        e = max(e, biased_exponent(t[k][j]));
        nonzero |= t[k][j] != 0.0;
      }
      top[k] = __reduce_max_sync(FULL, e);
      live[k] = __any_sync(FULL, nonzero);
      more |= live[k];
    }
    if (!more) /* the same on every lane: the loop is uniform */
      return;
    double s[K];
#pragma unroll
    for (int k = 0; k < K; k++) {
      s[k] = 0.0;
      if (!live[k])
        continue;
      if (top[k] == 0 || top[k] + SIGMA_MARGIN + 1 > 2046) { /* subnormal, or sigma past range */
#pragma unroll
        for (int j = 0; j < ITEMS; j++)
          if (t[k][j] != 0.0)
            add_double(acc + k * WORDS, t[k][j]);
#pragma unroll
        for (int j = 0; j < ITEMS; j++)
          t[k][j] = 0.0;
        continue;
      }
      /* |t| < 2^(top - 1022): sigma = 2^(top - 1022 + SIGMA_MARGIN), built from its bits */
      const double sigma = __longlong_as_double((long long)(top[k] + SIGMA_MARGIN + 1) << 52);
#pragma unroll
      for (int j = 0; j < ITEMS; j++) {
        const double q = __dsub_rn(__dadd_rn(sigma, t[k][j]), sigma);
        t[k][j] = __dsub_rn(t[k][j], q);
        s[k] = __dadd_rn(s[k], q);
      }
    }
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) /* exact for the extracted parts: any tree will do */
#pragma unroll
      for (int k = 0; k < K; k++)
        s[k] = __dadd_rn(s[k], __shfl_xor_sync(FULL, s[k], d));
    /* Lane 3k + j: digit j of sum k (a double's significand shifted fills three digits). */
    double v = s[0];
#pragma unroll
    for (int k = 1; k < K; k++)
      if (lane >= 3 * k)
        v = s[k];
    const int k = lane / 3, j = lane - 3 * k;
    if (k < K && v != 0.0) {
      int e;
      const word m = split(v, &e);
      const int pos = e - CSRI_EXACT_LOW, shift = pos & 31;
      const word low = m << shift, high = shift == 0 ? 0 : m >> (64 - shift);
      const word digit = j == 0 ? low & 0xffffffffu : j == 1 ? low >> 32 : high;
      if (digit != 0)
        atomicAdd(acc + k * WORDS + (pos >> 5) + j, (word)((v < 0.0 ? -1 : 1) * (long long)digit));
      deposits += j == 0;
    }
  }
}

/* out[k * WORDS + w] += the sums of the K terms of entries [0, n): each warp takes tiles of 256
 * entries, the block's accumulators sit in shared memory and go to out (integer atomics) at the
 * end. */
template <int K, typename Terms>
__global__ void __launch_bounds__(THREADS) exact_kernel(int64_t n, Terms terms, word *out) {
  __shared__ word acc[K * WORDS];
  for (int w = threadIdx.x; w < K * WORDS; w += THREADS)
    acc[w] = 0;
  __syncthreads();
  const int lane = (int)(threadIdx.x & 31);
  const int64_t warps = (int64_t)gridDim.x * (THREADS / 32);
  unsigned deposits = 0;
  for (int64_t tile = ((int64_t)blockIdx.x * THREADS + threadIdx.x) / 32; tile * TILE < n;
       tile += warps) {
    double t[K][ITEMS], one[K];
#pragma unroll
    for (int j = 0; j < ITEMS; j++) {
      const int64_t i = tile * TILE + j * 32 + lane; /* coalesced: a warp reads 32 in a row */
#pragma unroll
      for (int k = 0; k < K; k++)
        one[k] = 0.0;
      if (i < n)
        terms(i, acc, one);
#pragma unroll
      for (int k = 0; k < K; k++)
        t[k][j] = one[k];
    }
    extract<K>(acc, t, lane, deposits);
  }
  if (lane % 3 == 0 && lane / 3 < K && deposits > 0) /* the units of what extract added */
    atomicAdd(acc + (lane / 3) * WORDS + CSRI_EXACT_UNITS, (word)deposits);
  __syncthreads();
  for (int w = threadIdx.x; w < K * WORDS; w += THREADS)
    if (acc[w] != 0)
      atomicAdd(out + w, acc[w]);
}

/* acc[k] += the K sums of entries [0, n) (n <= LAUNCH_ENTRIES): one launch into `words` (K
 * accumulators of device scratch), brought back and merged on the host. `what` names the kernel
 * in a launch error. */
template <int K, typename Terms>
csr_status run_exact(csr_context *ctx, int64_t n, Terms terms, word *words, csri_exact_acc *acc,
                     const char *what) {
  cudaStream_t stream = csri_stream(ctx);
  const void *kernel = (const void *)exact_kernel<K, Terms>;
  int blocks = csri_reduce_grid(kernel, THREADS, n, (int64_t)4 * TILE * (THREADS / 32));
  CSRI_CUDA_TRY(ctx, cudaMemsetAsync(words, 0, K * WORDS * sizeof(word), stream));
  exact_kernel<K, Terms><<<blocks, THREADS, 0, stream>>>(n, terms, words);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, what));
  word host[K * WORDS];
  CSRI_CUDA_TRY(ctx, cudaMemcpyAsync(host, words, sizeof host, cudaMemcpyDeviceToHost, stream));
  CSRI_CUDA_TRY(ctx, cudaStreamSynchronize(stream));
  for (int k = 0; k < K; k++) {
    csri_exact_acc part;
    memcpy(part.w, host + k * WORDS, sizeof part.w);
    csri_exact_merge(&acc[k], &part);
  }
  return CSR_SUCCESS;
}

/* launch(begin, count, words) for the pieces [begin, begin + count) of [0, n), at most
 * LAUNCH_ENTRIES each, with device scratch for `sums` accumulators in words. */
template <typename Launch>
csr_status exact_warp_launches(csr_context *ctx, int sums, int64_t n, Launch launch) {
  void *scratch = NULL;
  CSRI_TRY(csri_device_scratch(ctx, (size_t)sums * WORDS * sizeof(word), &scratch));
  csr_status status = CSR_SUCCESS;
  for (int64_t begin = 0; status >= 0 && begin < n; begin += LAUNCH_ENTRIES) {
    int64_t count = n - begin < LAUNCH_ENTRIES ? n - begin : LAUNCH_ENTRIES;
    status = launch(begin, count, (word *)scratch);
  }
  csri_device_scratch_done(ctx, scratch);
  return status;
}

} // namespace csri_exact_warp

#endif /* CSR_CUDA_EXACT_WARP_CUH */
