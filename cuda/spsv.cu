/* SPDX-License-Identifier: BSD-3-Clause */
/* x = alpha T^-1 b on the GPU: x_i = (alpha b_i - sum_j t_ij x_j) / t_ii, one warp per row.
 * Two schedules of the same row arithmetic, so they give the same bits:
 *  - synchronization-free (Liu et al. 2016): one launch; each warp takes the next row in
 *    substitution order from a counter, waits on a flag per entry until the row it reads is
 *    solved, sums, and raises its own row's flag. Rows are handed out in order, so every row a
 *    warp waits for belongs to a warp already running: the wait always ends.
 *  - level by level: a launch per level of the analysis, no waiting; fewer instructions a row but
 *    a launch (a few microseconds) per level, so it pays only when the levels are few and wide.
 * The plan picks from its levels (choose_levels). A row's products are summed in double over the
 * lanes (lane l takes entries l, l + 32, ...) and then across the warp in a fixed tree: the same
 * bits every run, within rounding of the CPU backends' serial sum. */
#include "common.cuh"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

namespace {

constexpr int warp = 32, rows_per_block = 8;

/* The device mirror of a plan (src/core/backend.h), owned through plan->device. */
struct spsv_device {
  int64_t *offsets;
  int32_t *cols;
  double *values, *diag; /* NULL: a pattern, a unit diagonal */
  int32_t *level_rows;
  int32_t *state; /* [0]: the next row to hand out; [1 + i]: the solve that finished row i */
  int32_t epoch;  /* the solve that runs next; flags of earlier solves are stale */
  int group;      /* lanes a row: 2 to 32, the power of two at or above the mean row length */
  bool levels;    /* solve level by level instead of synchronization-free */
};

__device__ __forceinline__ int32_t load_relaxed(const int32_t *p) {
  int32_t v;
  asm volatile("ld.relaxed.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

/* Until row j's flag holds this solve's number: relaxed loads while it does not (an acquire
 * load each time would order every spin against the memory system; thousands of lanes spin at
 * once), a short sleep between them so the spinning lanes leave the memory system to the rows
 * being solved, then one acquire fence, which orders the reads of x after the flag's store. */
__device__ __forceinline__ void wait_for(const int32_t *flag, int32_t epoch) {
  if (load_relaxed(flag) != epoch) {
    unsigned pause = 32;
    while (load_relaxed(flag) != epoch) {
      __nanosleep(pause);
      pause = pause < 512 ? 2 * pause : pause;
    }
  }
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
}

__device__ __forceinline__ void store_release(int32_t *p, int32_t v) {
  asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

/* The row of group `g` (lanes lane0 .. lane0 + group - 1 of the warp, mask its lanes): with
 * `flags`, each entry waits until the row it reads is solved (and its x is read from L2, where the
 * writer's store landed, not from a stale L1 line). The group's partial sums meet in a fixed
 * shuffle tree among its own lanes, so a group never waits for another group of its warp (which
 * may itself be waiting for this one's row: the lanes of a warp run apart since Volta). */
template <typename T>
__device__ __forceinline__ void solve_row(const spsv_device &d, int64_t i, int group, unsigned mask,
                                          double alpha, const T *b, T *x, const int32_t *flags,
                                          int32_t epoch) {
  int lane = threadIdx.x % group;
  double s = 0.0;
  for (int64_t k = d.offsets[i] + lane; k < d.offsets[i + 1]; k += group) {
    int32_t j = d.cols[k];
    if (flags != nullptr)
      wait_for(flags + j, epoch);
    double xj = (double)__ldcg(x + j);
    s += d.values != nullptr ? d.values[k] * xj : xj;
  }
  for (int width = group / 2; width > 0; width /= 2)
    s += __shfl_xor_sync(mask, s, width, group);
  if (lane == 0) {
    double r = alpha * (double)b[i] - s;
    x[i] = (T)(d.diag != nullptr ? r / d.diag[i] : r);
    if (flags != nullptr)
      store_release((int32_t *)flags + i, epoch);
  }
}

/* The lanes of this thread's group. */
__device__ __forceinline__ unsigned group_mask(int group) {
  int first = (int)(threadIdx.x % warp) / group * group;
  return group == warp ? 0xffffffffu : ((1u << group) - 1u) << first;
}

/* Each warp takes its 32 / group rows at once, in level order (the analysis's level_rows): a
 * row then waits only for rows of lower levels, handed out before it, so for rows held by running
 * warps; and the rows in flight are those of a few consecutive levels, independent of each
 * other, however the rows are numbered. */
template <typename T>
__global__ void __launch_bounds__(warp *rows_per_block)
    sync_free_kernel(spsv_device d, int64_t n, double alpha, const T *b, T *x) {
  int group = d.group, rows = warp / group;
  int64_t first = 0;
  if (threadIdx.x % warp == 0)
    first = atomicAdd(d.state, rows);
  first = __shfl_sync(0xffffffffu, first, 0);
  int64_t t = first + (int64_t)(threadIdx.x % warp) / group;
  if (t < n)
    solve_row(d, d.level_rows[t], group, group_mask(group), alpha, b, x, d.state + 1, d.epoch);
}

template <typename T>
__global__ void __launch_bounds__(warp *rows_per_block)
    level_kernel(spsv_device d, const int32_t *rows, int64_t count, double alpha, const T *b,
                 T *x) {
  int64_t t = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / d.group;
  if (t < count)
    solve_row(d, rows[t], d.group, group_mask(d.group), alpha, b, x, (const int32_t *)nullptr, 0);
}

void free_device(void *p) {
  spsv_device *d = (spsv_device *)p;
  if (d == nullptr)
    return;
  csri_array_free(d->offsets, CSR_DEVICE);
  csri_array_free(d->cols, CSR_DEVICE);
  csri_array_free(d->values, CSR_DEVICE);
  csri_array_free(d->diag, CSR_DEVICE);
  csri_array_free(d->level_rows, CSR_DEVICE);
  csri_array_free(d->state, CSR_DEVICE);
  free(d);
}

/* Level by level when the levels are wide: measured on an H100 (bench/gpu_bench_spsv.cu), a
 * level costs about 5.5 us as a launch of its own and 7 to 8 us of waiting in the
 * synchronization-free kernel on stencils whose levels hold 1000 rows and more (ILU(0) factors of
 * 3D and 2D convection-diffusion, 1 to 4 million rows), while on narrower ones (cage11's 740 rows a
 * level, 1138_bus's 54, bcsstk13's 3.5) waiting costs less than launching. CSR_SPSV_SCHEDULE=
 * levels|sync-free forces one (for the benchmark that compares them). */
bool choose_levels(const csr_spsv_plan *p) {
  const char *forced = getenv("CSR_SPSV_SCHEDULE");
  if (forced != nullptr && strcmp(forced, "levels") == 0)
    return true;
  if (forced != nullptr && strcmp(forced, "sync-free") == 0)
    return false;
  return p->levels <= 1 || p->n >= 1000 * p->levels;
}

csr_status upload(csr_context *ctx, void **dst, const void *src, int64_t count, size_t size) {
  if (src == nullptr || count == 0)
    return CSR_SUCCESS;
  CSRI_TRY(csri_array_alloc(ctx, dst, count, size, CSR_DEVICE, 0));
  return csri_array_copy(ctx, *dst, CSR_DEVICE, src, CSR_HOST, (size_t)count * size);
}

csr_status mirror(csr_context *ctx, const csr_spsv_plan *p, spsv_device *d) {
  int64_t n = p->n, kept = p->offsets[n];
  CSRI_TRY(upload(ctx, (void **)&d->offsets, p->offsets, n + 1, sizeof(int64_t)));
  CSRI_TRY(upload(ctx, (void **)&d->cols, p->cols, kept, sizeof(int32_t)));
  CSRI_TRY(upload(ctx, (void **)&d->values, p->values, kept, sizeof(double)));
  CSRI_TRY(upload(ctx, (void **)&d->diag, p->diag, n, sizeof(double)));
  CSRI_TRY(upload(ctx, (void **)&d->level_rows, p->level_rows, n, sizeof(int32_t)));
  CSRI_TRY(csri_array_alloc(ctx, (void **)&d->state, n + 1, sizeof(int32_t), CSR_DEVICE,
                            CSRI_ARRAY_ZERO));
  d->epoch = 1;
  d->levels = choose_levels(p);
  int64_t mean = n > 0 ? (kept + n - 1) / n : 1;
  for (d->group = 2; d->group < warp && d->group < mean; d->group *= 2) {
  }
  return CSR_SUCCESS;
}

template <typename T>
csr_status solve(csr_context *ctx, const csr_spsv_plan *p, spsv_device *d, double alpha, const T *b,
                 T *x) {
  cudaStream_t stream = csri_stream(ctx);
  unsigned threads = warp * rows_per_block, rows_a_block = threads / d->group;
  if (d->levels) {
    for (int64_t l = 0; l < p->levels; l++) {
      int64_t first = p->level_offsets[l], count = p->level_offsets[l + 1] - first;
      unsigned blocks = (unsigned)((count + rows_a_block - 1) / rows_a_block);
      level_kernel<T>
          <<<blocks, threads, 0, stream>>>(*d, d->level_rows + first, count, alpha, b, x);
      CSRI_TRY(CSRI_CUDA_CHECK(ctx, "spsv level_kernel"));
    }
    return CSR_SUCCESS;
  }
  if (d->epoch == INT_MAX) { /* every flag back to "never": the epochs start again */
    CSRI_CUDA_TRY(ctx, cudaMemsetAsync(d->state, 0, (size_t)(p->n + 1) * sizeof(int32_t), stream));
    d->epoch = 1;
  }
  CSRI_CUDA_TRY(ctx, cudaMemsetAsync(d->state, 0, sizeof(int32_t), stream));
  unsigned blocks = (unsigned)((p->n + rows_a_block - 1) / rows_a_block);
  sync_free_kernel<T><<<blocks, threads, 0, stream>>>(*d, p->n, alpha, b, x);
  d->epoch++;
  return CSRI_CUDA_CHECK(ctx, "spsv sync_free_kernel");
}

} // namespace

extern "C" csr_status csri_cuda_spsv_prepare(csr_context *ctx, csr_spsv_plan *plan) {
  spsv_device *d = (spsv_device *)calloc(1, sizeof *d);
  if (d == nullptr)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "csr_spsv_analyze: no memory for the plan");
  csr_status status = mirror(ctx, plan, d);
  if (status < 0) {
    free_device(d);
    return status;
  }
  plan->device = d;
  plan->free_device = free_device;
  plan->location = CSR_DEVICE;
  return CSR_SUCCESS;
}

extern "C" csr_status csri_cuda_spsv(csr_context *ctx, const csr_spsv_plan *plan, double alpha,
                                     const csr_vector *b, csr_vector *x) {
  spsv_device *d = (spsv_device *)plan->device;
  if (x->value_type == CSR_F64)
    return solve(ctx, plan, d, alpha, (const double *)b->data, (double *)x->data);
  return solve(ctx, plan, d, alpha, (const float *)b->data, (float *)x->data);
}
