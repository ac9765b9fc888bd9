/* SPDX-License-Identifier: BSD-3-Clause */
/* Ours against CUB, same data, same run: scan, compact, histogram, radix sort (sizes: 2^28 for
 * scan, compact and the u32 sorts (pairs, and keys alone), 2^30 for the byte histograms and the
 * 2048-bin one (which is also timed against a plain global-atomic kernel), 2^26 for the rest;
 * --small: 16 times smaller).
 * For each: a warm-up, then the median of --reps timings with CUDA events; results compared with
 * CUB's (exact). Prints a table and writes CSV rows of
 *   name (quoted: names hold commas), n, ours_ms, cub_ms, ratio (our throughput over the
 *   anchor's), ours_GBs, copy_GBs, fraction_of_copy, match.
 * The anchor is CUB unless the row says otherwise. The copy bandwidth is a device-to-device
 * cudaMemcpy of 1 GiB measured in the same run (read + write bytes over time). Data are random (a
 * hash of the index), never all zero, and larger than the L2 cache. */
#include "csr_primitives.h"

#include "gpu_bench_common.cuh"

#include <cub/cub.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK_CSR(ctx, call)                                                                       \
  do {                                                                                             \
    csr_status s_ = (call);                                                                        \
    if (s_ < 0) {                                                                                  \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, csr_context_last_error(ctx));  \
      exit(3);                                                                                     \
    }                                                                                              \
  } while (0)

static int reps = 20;
static FILE *csv = nullptr;
static double copy_gbs = 0;

__global__ void fill_u32(uint32_t *a, int64_t n, uint64_t seed, uint32_t mask, uint32_t add) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    a[i] = ((uint32_t)mix(seed ^ (uint64_t)i) & mask) + add;
}
__global__ void fill_u8(uint8_t *a, int64_t n, uint64_t seed, int constant) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    a[i] = constant >= 0 ? (uint8_t)constant : (uint8_t)mix(seed ^ (uint64_t)i);
}
/* Row lengths from a power law: P(len >= k) ~ k^-1.5, capped at 2^20. */
__global__ void fill_power_law(int64_t *a, int64_t n, uint64_t seed) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    double u = ((double)(mix(seed ^ (uint64_t)i) >> 11) + 1.0) * 0x1p-53;
    double len = pow(u, -1.0 / 1.5);
    a[i] = len > 1048576.0 ? 1048576 : (int64_t)len;
  }
}
/* COO keys: (row << 20 | col) over 20-bit rows and columns; values random, nonzero. */
__global__ void fill_coo(uint64_t *keys, double *values, int64_t n, uint64_t seed) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    uint64_t h = mix(seed ^ (uint64_t)i);
    keys[i] = ((h >> 20) & 0xFFFFF) << 20 | (h & 0xFFFFF);
    values[i] = 1.0 + (double)(h >> 44) * 0x1p-20;
  }
}

static const int GRID = 1024, BLOCK = 256;

template <typename F> static double time_ms(F f) {
  return bench_median_ms(reps, f);
}

static bool same(const void *a, const void *b, size_t bytes) {
  std::vector<char> x(bytes), y(bytes);
  CHECK_CUDA(cudaMemcpy(x.data(), a, bytes, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(y.data(), b, bytes, cudaMemcpyDeviceToHost));
  return memcmp(x.data(), y.data(), bytes) == 0;
}

/* One line and one CSV row; `anchor` names what the `cub` time is of (CUB unless said). */
static void report(const char *name, int64_t n, double ours, double cub, double bytes, bool match,
                   const char *anchor = "CUB") {
  double gbs = bytes / (ours * 1e-3) / 1e9;
  printf("%-44s n=%-11lld ours %8.3f ms  %s %8.3f ms  ours/%s %.3f  %7.0f GB/s  %4.0f%% of copy  "
         "%s\n",
         name, (long long)n, ours, anchor, cub, anchor, cub / ours, gbs, 100 * gbs / copy_gbs,
         match ? "match" : "MISMATCH");
  if (csv)
    fprintf(csv, "\"%s\",%lld,%.4f,%.4f,%.4f,%.1f,%.1f,%.4f,%d\n", name, (long long)n, ours, cub,
            cub / ours, gbs, copy_gbs, gbs / copy_gbs, match);
  fflush(stdout);
}

static void *dev(size_t bytes) {
  void *p;
  CHECK_CUDA(cudaMalloc(&p, bytes));
  return p;
}

static void bench_copy() {
  double ms = 0;
  copy_gbs = bench_copy_gbs(reps, &ms);
  printf("copy: %.0f GB/s (1 GiB device to device, read + write)\n", copy_gbs);
  if (csv)
    fprintf(csv, "copy,%zu,%.4f,,,%.1f,%.1f,1,1\n", (size_t)1 << 30, ms, copy_gbs, copy_gbs);
}

static void bench_scan(csr_context *ctx, int64_t n) {
  uint32_t *in = (uint32_t *)dev(n * 4), *ours = (uint32_t *)dev(n * 4),
           *ref = (uint32_t *)dev(n * 4);
  fill_u32<<<GRID, BLOCK>>>(in, n, 1, 0xFF, 1);
  size_t cub_bytes = 0;
  cub::DeviceScan::ExclusiveSum(nullptr, cub_bytes, (int *)in, (int *)ref, (int)n);
  void *cub_ws = dev(cub_bytes);
  size_t our_bytes = 0;
  CHECK_CSR(ctx, csr_scan(ctx, CSR_DEVICE, CSR_DATA_I32, CSR_SCAN_EXCLUSIVE, in, ours, n, nullptr,
                          &our_bytes));
  void *our_ws = dev(our_bytes);
  double t_ours = time_ms([&] {
    CHECK_CSR(ctx, csr_scan(ctx, CSR_DEVICE, CSR_DATA_I32, CSR_SCAN_EXCLUSIVE, in, ours, n, our_ws,
                            &our_bytes));
  });
  double t_cub = time_ms(
      [&] { cub::DeviceScan::ExclusiveSum(cub_ws, cub_bytes, (int *)in, (int *)ref, (int)n); });
  report("scan exclusive int32", n, t_ours, t_cub, 8.0 * n, same(ours, ref, n * 4));
  cudaFree(in), cudaFree(ours), cudaFree(ref), cudaFree(cub_ws), cudaFree(our_ws);
}

struct less_than {
  int pivot;
  __device__ bool operator()(int x) const { return x < pivot; }
};

static void bench_compact(csr_context *ctx, int64_t n) {
  int *in = (int *)dev(n * 4), *ours = (int *)dev(n * 4), *ref = (int *)dev(n * 4);
  int64_t *cub_count = (int64_t *)dev(8);
  fill_u32<<<GRID, BLOCK>>>((uint32_t *)in, n, 2, 0x7FFFFFFF, 1);
  int pivot = 1 << 30; /* about half kept */
  size_t cub_bytes = 0;
  cub::DeviceSelect::If(nullptr, cub_bytes, in, ref, cub_count, n, less_than{pivot});
  void *cub_ws = dev(cub_bytes);
  size_t our_bytes = 0;
  int64_t kept = 0;
  CHECK_CSR(ctx, csr_compact_if(ctx, CSR_DEVICE, CSR_DATA_I32, in, CSR_KEEP_LESS, &pivot, ours, n,
                                &kept, nullptr, &our_bytes));
  void *our_ws = dev(our_bytes);
  double t_ours = time_ms([&] {
    CHECK_CSR(ctx, csr_compact_if(ctx, CSR_DEVICE, CSR_DATA_I32, in, CSR_KEEP_LESS, &pivot, ours, n,
                                  &kept, our_ws, &our_bytes));
  });
  double t_cub = time_ms(
      [&] { cub::DeviceSelect::If(cub_ws, cub_bytes, in, ref, cub_count, n, less_than{pivot}); });
  int64_t cub_kept = 0;
  /* csr_compact returns the count to the host; CUB leaves it on the device: the same work is
   * CUB's kernel and the count's copy back, timed as a second row. */
  double t_cub_host = time_ms([&] {
    cub::DeviceSelect::If(cub_ws, cub_bytes, in, ref, cub_count, n, less_than{pivot});
    CHECK_CUDA(cudaMemcpy(&cub_kept, cub_count, 8, cudaMemcpyDeviceToHost));
  });
  bool match = kept == cub_kept && same(ours, ref, (size_t)kept * 4);
  report("compact int32 (x < 2^30, half kept)", n, t_ours, t_cub, 4.0 * n + 4.0 * kept, match);
  report("compact int32, count to the host", n, t_ours, t_cub_host, 4.0 * n + 4.0 * kept, match,
         "CUB+copy");
  cudaFree(in), cudaFree(ours), cudaFree(ref), cudaFree(cub_ws), cudaFree(our_ws),
      cudaFree(cub_count);
}

/* The median time of ours: csr_histogram of n device samples into counts, its workspace taken
 * (outside the timing) first. */
static double time_histogram(csr_context *ctx, csr_data_type sample_type, const void *in, int64_t n,
                             const csr_histogram_bins &bins, csr_data_type count_type,
                             void *counts) {
  size_t bytes = 0;
  CHECK_CSR(ctx, csr_histogram(ctx, CSR_DEVICE, sample_type, in, n, &bins, count_type, counts,
                               nullptr, &bytes));
  void *ws = dev(bytes ? bytes : 1);
  double ms = time_ms([&] {
    CHECK_CSR(ctx, csr_histogram(ctx, CSR_DEVICE, sample_type, in, n, &bins, count_type, counts, ws,
                                 &bytes));
  });
  cudaFree(ws);
  return ms;
}

static void bench_histogram_bytes(csr_context *ctx, int64_t n, int constant) {
  uint8_t *in = (uint8_t *)dev(n);
  uint32_t *ours = (uint32_t *)dev(256 * 4), *ref = (uint32_t *)dev(256 * 4);
  fill_u8<<<GRID, BLOCK>>>(in, n, 3, constant);
  csr_histogram_bins bins = {CSR_BINS_EVEN, 256, 0.0, 256.0};
  size_t cub_bytes = 0;
  cub::DeviceHistogram::HistogramEven(nullptr, cub_bytes, in, (int *)ref, 257, 0, 256, n);
  void *cub_ws = dev(cub_bytes);
  double t_ours = time_histogram(ctx, CSR_DATA_U8, in, n, bins, CSR_DATA_U32, ours);
  double t_cub = time_ms([&] {
    cub::DeviceHistogram::HistogramEven(cub_ws, cub_bytes, in, (int *)ref, 257, 0, 256, n);
  });
  report(constant >= 0 ? "histogram 256 bins, bytes all equal" : "histogram 256 bins, random bytes",
         n, t_ours, t_cub, (double)n, same(ours, ref, 256 * 4));
  cudaFree(in), cudaFree(ours), cudaFree(ref), cudaFree(cub_ws);
}

static void bench_histogram_log2(csr_context *ctx, int64_t n) {
  int64_t *in = (int64_t *)dev(n * 8);
  uint32_t *ours = (uint32_t *)dev(64 * 4), *ref = (uint32_t *)dev(64 * 4);
  fill_power_law<<<GRID, BLOCK>>>(in, n, 4);
  std::vector<long long> levels(65);
  levels[0] = 0;
  for (int b = 1; b <= 63; b++)
    levels[b] = 1ll << (b - 1);
  levels[64] = INT64_MAX; /* bin 63 = [2^62, max): the same as ours for these samples */
  long long *d_levels = (long long *)dev(65 * 8);
  CHECK_CUDA(cudaMemcpy(d_levels, levels.data(), 65 * 8, cudaMemcpyHostToDevice));
  csr_histogram_bins bins = {CSR_BINS_LOG2, 64, 0, 0};
  size_t cub_bytes = 0;
  cub::DeviceHistogram::HistogramRange(nullptr, cub_bytes, (long long *)in, (int *)ref, 65,
                                       d_levels, n);
  void *cub_ws = dev(cub_bytes);
  double t_ours = time_histogram(ctx, CSR_DATA_I64, in, n, bins, CSR_DATA_U32, ours);
  double t_cub = time_ms([&] {
    cub::DeviceHistogram::HistogramRange(cub_ws, cub_bytes, (long long *)in, (int *)ref, 65,
                                         d_levels, n);
  });
  report("histogram 64 log2 bins, power-law lengths (int64)", n, t_ours, t_cub, 8.0 * n,
         same(ours, ref, 64 * 4));
  cudaFree(in), cudaFree(ours), cudaFree(ref), cudaFree(cub_ws), cudaFree(d_levels);
}

/* The textbook's first kernel: every sample one atomicAdd on its bin's 32-bit counter in global
 * memory (no privatisation, coarsening or aggregation), then the counts saturated to 16 bits. */
__global__ void global_atomic_histogram(const uint32_t *in, int64_t n, unsigned *counts) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    atomicAdd(&counts[in[i]], 1u);
}
/* 32-bit counts (ours unsigned, CUB's int) saturated to 16 bits. */
template <typename C> __global__ void saturate_u16(const C *counts, int bins, uint16_t *out) {
  for (int b = blockIdx.x * blockDim.x + threadIdx.x; b < bins; b += gridDim.x * blockDim.x)
    out[b] = (uint16_t)(counts[b] < (C)65535 ? counts[b] : (C)65535);
}

/* The lab report's case: 2048 bins of 32-bit samples in [0, 2048), counts of 16 bits that
 * saturate at 65535 (ours: U16 counts, privatised in shared memory). Against CUB's HistogramEven
 * (32-bit counts, saturated afterwards for the comparison) and the global-atomic kernel above. */
static void bench_histogram_2048(csr_context *ctx, int64_t n) {
  const int B = 2048;
  uint32_t *in = (uint32_t *)dev(n * 4);
  uint16_t *ours = (uint16_t *)dev(B * 2), *ref16 = (uint16_t *)dev(B * 2),
           *naive16 = (uint16_t *)dev(B * 2);
  int *ref = (int *)dev(B * 4);
  unsigned *naive = (unsigned *)dev(B * 4);
  fill_u32<<<GRID, BLOCK>>>(in, n, 8, B - 1, 0);
  csr_histogram_bins bins = {CSR_BINS_INTEGER, B, 0, 0};
  size_t cub_bytes = 0;
  cub::DeviceHistogram::HistogramEven(nullptr, cub_bytes, in, ref, B + 1, 0u, (uint32_t)B, n);
  void *cub_ws = dev(cub_bytes);
  double t_ours = time_histogram(ctx, CSR_DATA_U32, in, n, bins, CSR_DATA_U16, ours);
  double t_cub = time_ms([&] {
    cub::DeviceHistogram::HistogramEven(cub_ws, cub_bytes, in, ref, B + 1, 0u, (uint32_t)B, n);
  });
  double t_naive = time_ms([&] {
    CHECK_CUDA(cudaMemsetAsync(naive, 0, B * 4));
    global_atomic_histogram<<<GRID * 8, BLOCK>>>(in, n, naive);
    saturate_u16<<<8, BLOCK>>>(naive, B, naive16);
  });
  saturate_u16<<<8, BLOCK>>>(ref, B, ref16);
  CHECK_CUDA(cudaDeviceSynchronize());
  report("histogram 2048 bins, u16 saturating counts", n, t_ours, t_cub, 4.0 * n,
         same(ours, ref16, B * 2));
  report("histogram 2048 bins, u16 counts, vs global atomics", n, t_ours, t_naive, 4.0 * n,
         same(ours, naive16, B * 2), "global atomics");
  cudaFree(in), cudaFree(ours), cudaFree(ref16), cudaFree(naive16), cudaFree(ref), cudaFree(naive),
      cudaFree(cub_ws);
}

static void bench_sort_coo(csr_context *ctx, int64_t n) {
  uint64_t *keys0 = (uint64_t *)dev(n * 8), *keys = (uint64_t *)dev(n * 8),
           *ck = (uint64_t *)dev(n * 8);
  double *vals0 = (double *)dev(n * 8), *vals = (double *)dev(n * 8), *cv = (double *)dev(n * 8);
  fill_coo<<<GRID, BLOCK>>>(keys0, vals0, n, 5);
  size_t cub_bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, cub_bytes, keys0, ck, vals0, cv, n, 0, 40);
  void *cub_ws = dev(cub_bytes);
  size_t our_bytes = 0;
  CHECK_CSR(ctx, csr_radix_sort(ctx, CSR_DEVICE, CSR_DATA_U64, keys, CSR_DATA_F64, vals, n, 0, 40,
                                nullptr, &our_bytes));
  void *our_ws = dev(our_bytes);
  /* Ours sorts in place: each timing starts from a fresh copy, and the copy is timed apart and
   * subtracted. */
  auto reset = [&] {
    CHECK_CUDA(cudaMemcpyAsync(keys, keys0, n * 8, cudaMemcpyDeviceToDevice));
    CHECK_CUDA(cudaMemcpyAsync(vals, vals0, n * 8, cudaMemcpyDeviceToDevice));
  };
  double t_reset = time_ms(reset);
  double t_ours = time_ms([&] {
                    reset();
                    CHECK_CSR(ctx, csr_radix_sort(ctx, CSR_DEVICE, CSR_DATA_U64, keys, CSR_DATA_F64,
                                                  vals, n, 0, 40, our_ws, &our_bytes));
                  }) -
                  t_reset;
  double t_cub = time_ms(
      [&] { cub::DeviceRadixSort::SortPairs(cub_ws, cub_bytes, keys0, ck, vals0, cv, n, 0, 40); });
  bool match = same(keys, ck, n * 8) && same(vals, cv, n * 8);
  report("radix sort COO pairs (u64 key, 40 bits, f64)", n, t_ours, t_cub, 32.0 * n * 5, match);
  cudaFree(keys0), cudaFree(keys), cudaFree(ck), cudaFree(vals0), cudaFree(vals), cudaFree(cv);
  cudaFree(cub_ws), cudaFree(our_ws);
}

/* 32-bit keys over all 32 bits, with 32-bit values or (with_values false) alone. */
static void bench_sort_u32(csr_context *ctx, int64_t n, bool with_values) {
  uint32_t *keys0 = (uint32_t *)dev(n * 4), *keys = (uint32_t *)dev(n * 4),
           *ck = (uint32_t *)dev(n * 4);
  uint32_t *vals0 = nullptr, *vals = nullptr, *cv = nullptr;
  fill_u32<<<GRID, BLOCK>>>(keys0, n, 6, 0xFFFFFFFF, 0);
  if (with_values) {
    vals0 = (uint32_t *)dev(n * 4), vals = (uint32_t *)dev(n * 4), cv = (uint32_t *)dev(n * 4);
    fill_u32<<<GRID, BLOCK>>>(vals0, n, 7, 0xFFFFFFFF, 0);
  }
  const csr_data_type value_type = CSR_DATA_U32; /* ignored where vals is NULL: keys only */
  size_t cub_bytes = 0;
  const auto cub_sort = [&](void *ws) {
    if (with_values)
      cub::DeviceRadixSort::SortPairs(ws, cub_bytes, keys0, ck, vals0, cv, n, 0, 32);
    else
      cub::DeviceRadixSort::SortKeys(ws, cub_bytes, keys0, ck, n, 0, 32);
  };
  cub_sort(nullptr);
  void *cub_ws = dev(cub_bytes);
  size_t our_bytes = 0;
  CHECK_CSR(ctx, csr_radix_sort(ctx, CSR_DEVICE, CSR_DATA_U32, keys, value_type, vals, n, 0, 32,
                                nullptr, &our_bytes));
  void *our_ws = dev(our_bytes);
  auto reset = [&] {
    CHECK_CUDA(cudaMemcpyAsync(keys, keys0, n * 4, cudaMemcpyDeviceToDevice));
    if (with_values)
      CHECK_CUDA(cudaMemcpyAsync(vals, vals0, n * 4, cudaMemcpyDeviceToDevice));
  };
  double t_reset = time_ms(reset);
  double t_ours = time_ms([&] {
                    reset();
                    CHECK_CSR(ctx, csr_radix_sort(ctx, CSR_DEVICE, CSR_DATA_U32, keys, value_type,
                                                  vals, n, 0, 32, our_ws, &our_bytes));
                  }) -
                  t_reset;
  double t_cub = time_ms([&] { cub_sort(cub_ws); });
  bool match = same(keys, ck, n * 4) && (!with_values || same(vals, cv, n * 4));
  report(with_values ? "radix sort u32 keys + u32 values" : "radix sort u32 keys", n, t_ours, t_cub,
         (with_values ? 16.0 : 8.0) * n * 4, match);
  cudaFree(keys0), cudaFree(keys), cudaFree(ck), cudaFree(vals0), cudaFree(vals), cudaFree(cv);
  cudaFree(cub_ws), cudaFree(our_ws);
}

int main(int argc, char **argv) {
  int scale = 0; /* --small: sizes / 16, for a quick check */
  const char *only = nullptr;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--csv") && i + 1 < argc)
      csv = fopen(argv[++i], "w");
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
      reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--small"))
      scale = 4;
    else if (!strcmp(argv[i], "--only") && i + 1 < argc)
      only = argv[++i];
  }
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  printf("device: %s, %d SMs, L2 %d MB; median of %d after a warm-up\n", prop.name,
         prop.multiProcessorCount, prop.l2CacheSize >> 20, reps);
  if (csv)
    fprintf(csv, "name,n,ours_ms,cub_ms,ratio,ours_GBs,copy_GBs,fraction_of_copy,match\n");
  csr_context *ctx = nullptr;
  csr_context_create(&ctx);
  bench_copy();
  auto want = [&](const char *what) { return only == nullptr || strstr(what, only) != nullptr; };
  if (want("scan"))
    bench_scan(ctx, (int64_t)1 << (28 - scale));
  if (want("compact"))
    bench_compact(ctx, (int64_t)1 << (28 - scale));
  if (want("histogram")) {
    bench_histogram_bytes(ctx, (int64_t)1 << (30 - scale), -1);
    bench_histogram_bytes(ctx, (int64_t)1 << (30 - scale), 77);
    bench_histogram_log2(ctx, (int64_t)1 << (26 - scale));
    bench_histogram_2048(ctx, (int64_t)1 << (30 - scale));
  }
  if (want("sort")) {
    bench_sort_coo(ctx, (int64_t)1 << (26 - scale));
    bench_sort_u32(ctx, (int64_t)1 << (28 - scale), true);
    bench_sort_u32(ctx, (int64_t)1 << (28 - scale), false);
  }
  csr_context_free(&ctx);
  if (csv)
    fclose(csv);
  return 0;
}
