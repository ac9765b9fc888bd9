/* SPDX-License-Identifier: BSD-3-Clause */
/* counts[b] = #{i : bin(samples[i]) = b}, the bin rule of src/kernels/bins.h.
 *
 * The three techniques (docs/algorithms.md, "Histogram"):
 *  - privatisation: each block counts into its own copies in shared memory (one per pair of
 *    warps, so fewer threads contend for one counter) and adds them to the result once at the end;
 *    bins too many for shared memory count into copies in global memory instead;
 *  - coarsening: a persistent grid; each thread reads 16 bytes per step, consecutive threads
 *    consecutive 16-byte words (interleaved, so a warp's loads coalesce);
 *  - aggregation: a thread counts a run of samples falling into the same bin with one atomic
 *    (all-equal input costs one atomic per thread, not one per sample).
 * One-byte samples are counted per value (256 counters a copy) and put into bins per block. */
#include "common.cuh"
#include "kernels/bins.h"

namespace {

const int THREADS = CSRI_HIST_THREADS;
enum { SIGNED = 0, UNSIGNED = 1, FLOATING = 2 };

/* The bin of a sample with the rule fixed at compile time: no per-sample switch, and 32-bit
 * arithmetic where it is exact. The same bins as src/kernels/bins.h's csri_bin_of_* (the rule
 * functions there are the ones called, or, for INTEGER over 1- and 2-byte samples, a 32-bit
 * difference with the same outcome: x <= 65535, and an offset beyond 32 bits, clamped, still
 * leaves every sample outside). */
template <typename S, int KIND, int RULE> struct binner {
  csri_bins b;
  uint32_t offset32;
  __device__ __forceinline__ explicit binner(const csri_bins &bins) : b(bins) {
    int64_t o = bins.offset;
    offset32 = (uint32_t)(int32_t)(o < INT32_MIN ? INT32_MIN : o > INT32_MAX ? INT32_MAX : o);
  }
  __device__ __forceinline__ int operator()(S x) const {
    if constexpr (KIND == FLOATING || RULE == CSR_BINS_EVEN) {
      return csri_even_bin(&b, (double)x);
    } else if constexpr (RULE == CSR_BINS_INTEGER) {
      if constexpr (sizeof(S) <= 2) {
        uint32_t d = (uint32_t)x - offset32; /* wraps past 2^31 when x < offset: no bin */
        return d < (uint32_t)b.bins ? (int)d : -1;
      } else if constexpr (KIND == SIGNED) {
        return csri_integer_bin_i64(&b, (int64_t)x);
      } else {
        return csri_integer_bin_u64(&b, (uint64_t)x);
      }
    } else if constexpr (KIND == SIGNED) {
      return csri_log2_bin_i64(&b, (int64_t)x);
    } else {
      return csri_log2_bin_u64(&b, (uint64_t)x);
    }
  }
};

/* The counter of a one-byte sample: its value (see counted). */
struct byte_value {
  __device__ __forceinline__ int operator()(uint8_t x) const { return x; }
};

/* Adds `run` samples to `bin` of a copy (shared u32 or global u64 counters). */
__device__ __forceinline__ void add(uint32_t *copy, int bin, uint32_t run) {
  atomicAdd(&copy[bin], run);
}
__device__ __forceinline__ void add(unsigned long long *copy, int bin, uint32_t run) {
  atomicAdd(&copy[bin], (unsigned long long)run);
}

/* A thread's current run of samples in one bin: extended while the bin repeats, added to the
 * copy with one atomic when it changes. */
template <typename Counter> struct run_counter {
  int bin = -1;
  uint32_t count = 0;
  __device__ __forceinline__ void add_run(Counter *copy, int b, uint32_t k) {
    if (b == bin) {
      count += k;
      return;
    }
    if (bin >= 0)
      add(copy, bin, count);
    bin = b;
    count = k;
  }
  __device__ __forceinline__ void flush(Counter *copy) {
    if (bin >= 0)
      add(copy, bin, count);
  }
};

/* Whether the 16 bytes hold one value repeated (all samples of the word equal). */
template <typename S> __device__ __forceinline__ bool uniform_word(uint4 w) {
  if constexpr (sizeof(S) == 8)
    return w.x == w.z && w.y == w.w;
  uint32_t first = sizeof(S) == 1   ? (w.x & 0xFFu) * 0x01010101u
                   : sizeof(S) == 2 ? (w.x & 0xFFFFu) * 0x00010001u
                                    : w.x;
  return w.x == first && w.y == first && w.z == first && w.w == first;
}

/* The samples of this thread: the unaligned head and the tail one by one, the aligned body as
 * 16-byte words (word k of the body by thread k mod the grid: a warp's loads coalesce).
 * Aggregation: a word whose samples are all equal counts as one run of 16 / sizeof(S); samples
 * of 4 bytes or more also extend runs one by one (long runs of equal row lengths are common);
 * narrow samples in a mixed word go straight to their bins. */
template <typename S, typename BinOf, typename Counter>
__device__ __forceinline__ void count_samples(const S *samples, int64_t n, const BinOf &bin_of,
                                              Counter *copy) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  const int64_t me = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int PER = 16 / (int)sizeof(S);
  run_counter<Counter> run;
  int64_t head = (int64_t)(((16 - (uintptr_t)samples % 16) % 16) / sizeof(S));
  if (head > n)
    head = n;
  const int64_t words = (n - head) / PER;
  for (int64_t i = me; i < head; i += stride) {
    int k = bin_of(samples[i]);
    if (k >= 0)
      run.add_run(copy, k, 1);
  }
  const uint4 *w = reinterpret_cast<const uint4 *>(samples + head);
  for (int64_t k = me; k < words; k += stride) {
    uint4 raw = __ldcs(w + k);
    S x[16 / sizeof(S)];
    memcpy(x, &raw, 16);
    if (uniform_word<S>(raw)) {
      int bin = bin_of(x[0]);
      if (bin >= 0)
        run.add_run(copy, bin, PER);
      continue;
    }
#pragma unroll
    for (int i = 0; i < PER; i++) {
      int bin = bin_of(x[i]);
      if (bin < 0)
        continue;
      if (sizeof(S) >= 4)
        run.add_run(copy, bin, 1);
      else
        add(copy, bin, 1);
    }
  }
  for (int64_t i = head + words * PER + me; i < n; i += stride) {
    int k = bin_of(samples[i]);
    if (k >= 0)
      run.add_run(copy, k, 1);
  }
  run.flush(copy);
}

/* The counters a copy holds: one per bin, except for one-byte samples, counted by value whatever
 * the bins (256 counters): no bin to work out and no range to check per sample, only the
 * counter's address, as in CUB's histogram of bytes; the values are put into their bins once a
 * block, when its counts are added to the result. */
template <typename S> __host__ __device__ int counted(const csri_bins &b) {
  return sizeof(S) == 1 ? 256 : b.bins;
}

/* Shared-memory privatisation: `copies` copies of the counters, padded by one so that the same
 * counter of different copies falls in different banks. Warp w counts into copy w % copies. */
template <typename S, int KIND, int RULE, typename Out>
__global__ void __launch_bounds__(THREADS)
    shared_kernel(const S *samples, int64_t n, csri_bins b, int copies, Out *out) {
  extern __shared__ uint32_t counters[];
  constexpr bool BY_VALUE = sizeof(S) == 1;
  const binner<S, KIND, RULE> bin_of(b);
  const int per_copy = counted<S>(b), pitch = per_copy + 1;
  for (int i = threadIdx.x; i < copies * pitch; i += THREADS)
    counters[i] = 0;
  __syncthreads();
  uint32_t *copy = counters + ((threadIdx.x >> 5) % copies) * pitch;
  if constexpr (BY_VALUE)
    count_samples(samples, n, byte_value(), copy);
  else
    count_samples(samples, n, bin_of, copy);
  __syncthreads();
  for (int k = threadIdx.x; k < per_copy; k += THREADS) {
    uint32_t total = 0;
    for (int c = 0; c < copies; c++)
      total += counters[c * pitch + k];
    const int bin = BY_VALUE ? bin_of((S)k) : k;
    if (total && bin >= 0)
      atomicAdd(&out[bin], (Out)total);
  }
}

/* Global-memory privatisation: blocks share `copies` copies of 64-bit counters (block % copies). */
template <typename S, int KIND, int RULE>
__global__ void __launch_bounds__(THREADS)
    global_kernel(const S *samples, int64_t n, csri_bins b, int copies,
                  unsigned long long *private_counts) {
  count_samples(samples, n, binner<S, KIND, RULE>(b),
                private_counts + (int64_t)(blockIdx.x % copies) * b.bins);
}

/* counts[bin] = the sum of the copies, in the count type (U16 saturates, U32 wraps). */
template <typename Out>
__global__ void finish_kernel(const unsigned long long *private_counts, int copies, int bins,
                              Out *counts) {
  int bin = blockIdx.x * blockDim.x + threadIdx.x;
  if (bin >= bins)
    return;
  unsigned long long total = 0;
  for (int c = 0; c < copies; c++)
    total += private_counts[(int64_t)c * bins + bin];
  if (sizeof(Out) == 2 && total > 65535)
    total = 65535;
  counts[bin] = (Out)total;
}

/* The launch shape: shared copies when one copy fits, else global copies. */
struct plan {
  int shared_copies; /* 0: global */
  int global_copies; /* copies of u64 counters in the workspace (also U16's accumulator) */
  int blocks;
};

/* per_copy: counted<S>; the bins' count for any S gives the most workspace. */
plan make_plan(const csri_bins *b, int per_copy, csr_data_type count_type, int64_t n) {
  plan p;
  size_t pitch_bytes = ((size_t)per_copy + 1) * 4;
  int warps = THREADS / 32, most = warps / CSRI_HIST_WARPS_PER_COPY;
  int fit = (int)(CSRI_HIST_SHARED_BYTES / pitch_bytes);
  p.shared_copies = fit < 1 ? 0 : fit < most ? fit : most;
  p.blocks = csri_cuda_sm_count() * CSRI_HIST_BLOCKS_PER_SM;
  if (n / CSRI_HIST_SAMPLES_PER_BLOCK + 1 > p.blocks) /* a block's u32 counters never wrap */
    p.blocks = (int)(n / CSRI_HIST_SAMPLES_PER_BLOCK + 1);
  if (p.shared_copies > 0)
    p.global_copies = count_type == CSR_DATA_U16 ? 1 : 0;
  else { /* as many copies as fit in GLOBAL_BYTES, at most GLOBAL_COPIES */
    int64_t budget = CSRI_HIST_GLOBAL_BYTES / ((int64_t)b->bins * 8);
    p.global_copies = budget < 1                         ? 1
                      : budget > CSRI_HIST_GLOBAL_COPIES ? CSRI_HIST_GLOBAL_COPIES
                                                         : (int)budget;
  }
  return p;
}

template <typename S, int KIND, int RULE>
csr_status run_typed(csr_context *ctx, const void *samples, int64_t n, const csri_bins *b,
                     csr_data_type count_type, void *counts, void *workspace) {
  cudaStream_t stream = csri_stream(ctx);
  plan p = make_plan(b, counted<S>(*b), count_type, n);
  const S *x = (const S *)samples;
  unsigned long long *acc = (unsigned long long *)workspace;
  size_t count_bytes = (size_t)b->bins * csri_data_type_size(count_type);
  if (p.global_copies > 0)
    CSRI_CUDA_TRY(ctx, cudaMemsetAsync(acc, 0, (size_t)p.global_copies * b->bins * 8, stream));
  else
    CSRI_CUDA_TRY(ctx, cudaMemsetAsync(counts, 0, count_bytes, stream));
  if (n > 0 && p.shared_copies > 0) {
    size_t shared = (size_t)p.shared_copies * (counted<S>(*b) + 1) * 4;
    if (p.global_copies > 0) { /* U16: count in 64 bits, saturate at the end */
      CSRI_CUDA_TRY(ctx,
                    cudaFuncSetAttribute(shared_kernel<S, KIND, RULE, unsigned long long>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));
      shared_kernel<S, KIND, RULE>
          <<<p.blocks, THREADS, shared, stream>>>(x, n, *b, p.shared_copies, acc);
    } else if (count_type == CSR_DATA_U64) {
      CSRI_CUDA_TRY(ctx,
                    cudaFuncSetAttribute(shared_kernel<S, KIND, RULE, unsigned long long>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));
      shared_kernel<S, KIND, RULE><<<p.blocks, THREADS, shared, stream>>>(
          x, n, *b, p.shared_copies, (unsigned long long *)counts);
    } else {
      CSRI_CUDA_TRY(ctx,
                    cudaFuncSetAttribute(shared_kernel<S, KIND, RULE, uint32_t>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));
      shared_kernel<S, KIND, RULE>
          <<<p.blocks, THREADS, shared, stream>>>(x, n, *b, p.shared_copies, (uint32_t *)counts);
    }
    CSRI_TRY(CSRI_CUDA_CHECK(ctx, "histogram kernel"));
  } else if (n > 0) {
    global_kernel<S, KIND, RULE><<<p.blocks, THREADS, 0, stream>>>(x, n, *b, p.global_copies, acc);
    CSRI_TRY(CSRI_CUDA_CHECK(ctx, "histogram kernel (global copies)"));
  }
  if (p.global_copies > 0) {
    int blocks = (b->bins + CSRI_HIST_FINISH_THREADS - 1) / CSRI_HIST_FINISH_THREADS;
    if (count_type == CSR_DATA_U16)
      finish_kernel<<<blocks, CSRI_HIST_FINISH_THREADS, 0, stream>>>(acc, p.global_copies, b->bins,
                                                                     (uint16_t *)counts);
    else if (count_type == CSR_DATA_U64)
      finish_kernel<<<blocks, CSRI_HIST_FINISH_THREADS, 0, stream>>>(acc, p.global_copies, b->bins,
                                                                     (unsigned long long *)counts);
    else
      finish_kernel<<<blocks, CSRI_HIST_FINISH_THREADS, 0, stream>>>(acc, p.global_copies, b->bins,
                                                                     (uint32_t *)counts);
    CSRI_TRY(CSRI_CUDA_CHECK(ctx, "histogram finish kernel"));
  }
  return CSR_SUCCESS;
}

template <typename S, int KIND>
csr_status run(csr_context *ctx, const void *samples, int64_t n, const csri_bins *b,
               csr_data_type count_type, void *counts, void *workspace) {
  if constexpr (KIND == FLOATING) /* the front end allows floats with EVEN only */
    return run_typed<S, KIND, CSR_BINS_EVEN>(ctx, samples, n, b, count_type, counts, workspace);
  else
    switch (b->rule) {
    case CSR_BINS_INTEGER:
      return run_typed<S, KIND, CSR_BINS_INTEGER>(ctx, samples, n, b, count_type, counts,
                                                  workspace);
    case CSR_BINS_EVEN:
      return run_typed<S, KIND, CSR_BINS_EVEN>(ctx, samples, n, b, count_type, counts, workspace);
    default:
      return run_typed<S, KIND, CSR_BINS_LOG2>(ctx, samples, n, b, count_type, counts, workspace);
    }
}

} // namespace

extern "C" size_t csri_cuda_histogram_bytes(const csr_context *ctx, const csri_bins *bins,
                                            csr_data_type count_type, int64_t n) {
  (void)ctx;
  /* samples of any type: one-byte samples, which count by value, need at most this */
  plan p = make_plan(bins, bins->bins, count_type, n);
  return (size_t)p.global_copies * bins->bins * 8;
}

extern "C" csr_status csri_cuda_histogram(csr_context *ctx, csr_data_type sample_type,
                                          const void *samples, int64_t n, const csri_bins *bins,
                                          csr_data_type count_type, void *counts, void *workspace) {
  switch (sample_type) {
  case CSR_DATA_I32:
    return run<int32_t, SIGNED>(ctx, samples, n, bins, count_type, counts, workspace);
  case CSR_DATA_I64:
    return run<int64_t, SIGNED>(ctx, samples, n, bins, count_type, counts, workspace);
  case CSR_DATA_U32:
    return run<uint32_t, UNSIGNED>(ctx, samples, n, bins, count_type, counts, workspace);
  case CSR_DATA_U64:
    return run<uint64_t, UNSIGNED>(ctx, samples, n, bins, count_type, counts, workspace);
  case CSR_DATA_U16:
    return run<uint16_t, UNSIGNED>(ctx, samples, n, bins, count_type, counts, workspace);
  case CSR_DATA_U8:
    return run<uint8_t, UNSIGNED>(ctx, samples, n, bins, count_type, counts, workspace);
  case CSR_DATA_F32:
    return run<float, FLOATING>(ctx, samples, n, bins, count_type, counts, workspace);
  default: return run<double, FLOATING>(ctx, samples, n, bins, count_type, counts, workspace);
  }
}
