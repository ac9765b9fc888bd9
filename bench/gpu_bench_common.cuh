/* SPDX-License-Identifier: BSD-3-Clause */
/* What the GPU benchmarks share: CUDA and cuSPARSE error checks, the median of timed repetitions,
 * the copy bandwidth that their floors are fractions of, where the real matrices are, and the hash
 * that fills their data with random, never constant, values; libcsr's own error check. */
#ifndef CSR_BENCH_GPU_BENCH_COMMON_CUH
#define CSR_BENCH_GPU_BENCH_COMMON_CUH

#include <cuda_runtime.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

/* Exits with 1 when a libcsr call returns an error, with the context's message (for the
 * benchmarks that include csr.h first). */
#define CSR_OK(ctx, call)                                                                          \
  do {                                                                                             \
    csr_status s_ = (call);                                                                        \
    if (s_ < 0) {                                                                                  \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, csr_context_last_error(ctx));  \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

/* Exits with 3 when a CUDA call fails. */
#define CHECK_CUDA(call)                                                                           \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));       \
      exit(3);                                                                                     \
    }                                                                                              \
  } while (0)

/* Exits with 3 when a cuSPARSE call fails (for the benchmarks that include cusparse.h). */
#define CHECK_SPARSE(call)                                                                         \
  do {                                                                                             \
    cusparseStatus_t s_ = (call);                                                                  \
    if (s_ != CUSPARSE_STATUS_SUCCESS) {                                                           \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cusparseGetErrorString(s_));   \
      exit(3);                                                                                     \
    }                                                                                              \
  } while (0)

/* Median of `reps` timings of f() (CUDA events on the default stream) after one warm-up, in ms. */
template <typename F> static double bench_median_ms(int reps, F f) {
  cudaEvent_t a, b;
  CHECK_CUDA(cudaEventCreate(&a));
  CHECK_CUDA(cudaEventCreate(&b));
  f();
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int r = 0; r < reps; r++) {
    CHECK_CUDA(cudaEventRecord(a));
    f();
    CHECK_CUDA(cudaEventRecord(b));
    CHECK_CUDA(cudaEventSynchronize(b));
    float ms;
    CHECK_CUDA(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  CHECK_CUDA(cudaEventDestroy(a));
  CHECK_CUDA(cudaEventDestroy(b));
  std::sort(t.begin(), t.end());
  return t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]);
}

/* Device-to-device copy bandwidth (read + write bytes over time) of 1 GiB, median of `reps`;
 * *ms: one copy's time. */
static double bench_copy_gbs(int reps, double *ms) {
  const size_t bytes = (size_t)1 << 30;
  void *a = NULL, *b = NULL;
  CHECK_CUDA(cudaMalloc(&a, bytes));
  CHECK_CUDA(cudaMalloc(&b, bytes));
  CHECK_CUDA(cudaMemset(a, 1, bytes));
  *ms = bench_median_ms(
      reps, [&] { CHECK_CUDA(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice)); });
  CHECK_CUDA(cudaFree(a));
  CHECK_CUDA(cudaFree(b));
  return 2.0 * bytes / (*ms * 1e-3) / 1e9;
}

/* Seconds on a monotonic clock. */
static inline double bench_now_s() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The CSV header of bench/README.md's format. */
static inline void bench_csv_header(FILE *csv) {
  if (csv)
    fprintf(csv, "benchmark,case,variant,ours_seconds,anchor_name,anchor_seconds,ratio,"
                 "target_ratio,bytes,ours_gbs,floor_gbs,fraction_of_floor,"
                 "anchor_fraction_of_floor,extra,device,date_utc,command\n");
}

/* Device 0 as "NAME N SMs CUDA X.Y" (without commas: it is a CSV field), and now in UTC as
 * "YYYY-MM-DDTHH:MMZ". */
static inline void bench_device_and_date(char *device, size_t device_size, char *date,
                                         size_t date_size) {
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  int runtime = 0;
  cudaRuntimeGetVersion(&runtime);
  snprintf(device, device_size, "%s %d SMs CUDA %d.%d", prop.name, prop.multiProcessorCount,
           runtime / 1000, runtime % 1000 / 10);
  for (char *c = device; *c; c++)
    if (*c == ',')
      *c = ' ';
  time_t now = time(NULL);
  strftime(date, date_size, "%Y-%m-%dT%H:%MZ", gmtime(&now));
}

/* The directory of real matrices when --matrices names none: ../shared/matrices beside the
 * repository (run from its root), else shared/matrices inside it. */
static inline const char *bench_default_matrices() {
  struct stat st;
  return stat("../shared/matrices", &st) == 0 ? "../shared/matrices" : "shared/matrices";
}

/* Whether `name` contains one of the comma-separated parts of `list` (--cases; every name is
 * selected when there is no list). */
static inline bool bench_name_selected(const std::string &name, const char *list) {
  if (list == nullptr)
    return true;
  const std::string parts = list;
  for (size_t from = 0;;) {
    const size_t comma = parts.find(',', from);
    const std::string part = parts.substr(from, comma == std::string::npos ? comma : comma - from);
    if (!part.empty() && name.find(part) != std::string::npos)
      return true;
    if (comma == std::string::npos)
      return false;
    from = comma + 1;
  }
}

/* splitmix64's finaliser: a well-mixed 64-bit hash of x. */
__device__ __forceinline__ uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

#endif
