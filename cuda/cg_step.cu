/* SPDX-License-Identifier: BSD-3-Clause */
/* CG's fused step on the GPU, in one kernel: r' = r - alpha q, x += alpha p, z' = d .* r',
 * p' = z' + beta p, q' = A p', and the five sums of src/core/backend.h in the same launch.
 * Row i's group of lanes needs p'_j for every column j of the row, which other rows own and
 * write: it recomputes p'_j from r_j, q_j, p_j (and d_j) with the very operations the owner uses,
 * so the two agree bit for bit, and the owners write p' to a separate vector. The vectors are
 * thus read once from memory and the matrix once: one pass where the plain sequence of
 * operations (axpy, axpy, SpMV, two dots, xpay) makes six, and one host synchronisation. */
#include "cg_point.cuh"
#include "kernels/spmv_registry.h"
#include "spmv_rows.cuh"

namespace {

/* Groups of W lanes take rows in a grid-stride loop over warps (the loop bound is the same for
 * every lane of a warp, as the shuffles need); the owner lane then writes row i's r', p', q', x
 * and adds its terms to the five sums. */
template <int W, typename T, bool PATTERN, bool JACOBI, typename Cols>
__global__ void __launch_bounds__(CSRI_REDUCE_THREADS, CSRI_CG_STEP_MIN_BLOCKS)
    cg_step_kernel(int64_t rows, const int64_t *off, Cols col, const T *val, cg_point<T, JACOBI> pt,
                   T *x, T *r_next, T *p_next, T *q_next, csri_reduce_space<CSRI_CG_SUMS> space) {
  const int lane = W == 1 ? 0 : (int)(threadIdx.x & (W - 1));
  const int64_t groups_per_warp = 32 / W;
  const int64_t warps = (int64_t)gridDim.x * (CSRI_REDUCE_THREADS / 32);
  csri_sums<CSRI_CG_SUMS> s = {{0.0, 0.0, 0.0, 0.0, 0.0}};
  for (int64_t warp = ((int64_t)blockIdx.x * CSRI_REDUCE_THREADS + threadIdx.x) / 32;
       warp * groups_per_warp < rows; warp += warps) {
    int64_t row = warp * groups_per_warp + (threadIdx.x & 31) / W;
    double sum = row < rows ? csri_row_sum<W, T, PATTERN>(off, col, val, row, lane, pt) : 0.0;
    if (W > 1)
      sum = csri_group_total<W>(sum);
    if (lane == 0 && row < rows) {
      T rn, zn, pn, qn = (T)sum;
      pt.at(row, rn, zn, pn);
      pt.store(row, rn, pn, x, r_next, p_next);
      q_next[row] = qn;
      csri_cg_add_sums<T, JACOBI>(s, rn, zn, pn, qn, pt.d, row);
    }
  }
  csri_grid_combine<csri_add, CSRI_CG_SUMS, CSRI_REDUCE_THREADS>(s, space);
}

template <typename T, bool PATTERN, bool JACOBI> struct cg_launch {
  csr_context *ctx;
  const csri_spmv_plan *plan; /* its packed index, when it holds one, is read for A's columns */
  const csr_matrix *A;
  cg_point<T, JACOBI> pt;
  const csri_cg_vectors *v;
  csri_reduce_space<CSRI_CG_SUMS> space;
  int blocks;

  template <int W> csr_status run() {
    return csri_with_columns(plan, A, [&](auto cols) {
      cg_step_kernel<W, T, PATTERN, JACOBI, decltype(cols)>
          <<<blocks, CSRI_REDUCE_THREADS, 0, csri_stream(ctx)>>>(
              A->rows, A->row_offsets, cols, (const T *)A->values, pt, (T *)v->x->data,
              (T *)v->r_next->data, (T *)v->p_next->data, (T *)v->q_next->data, space);
      return CSRI_CUDA_CHECK(ctx, "CG step kernel");
    });
  }
};

template <typename T, bool PATTERN, bool JACOBI>
csr_status launch_typed(csr_context *ctx, const csri_spmv_plan *plan, const csr_matrix *A,
                        double alpha, double beta, const csri_cg_vectors *v,
                        csri_reduce_space<CSRI_CG_SUMS> space, int blocks) {
  cg_point<T, JACOBI> pt{(const T *)v->r->data,
                         (const T *)v->q->data,
                         (const T *)v->p->data,
                         v->d ? (const T *)v->d->data : NULL,
                         alpha,
                         beta};
  cg_launch<T, PATTERN, JACOBI> launch{ctx, plan, A, pt, v, space, blocks};
  return csri_with_lanes(plan->lanes, launch);
}

template <typename T>
csr_status launch_step(csr_context *ctx, const csri_spmv_plan *plan, const csr_matrix *A,
                       double alpha, double beta, const csri_cg_vectors *v,
                       csri_reduce_space<CSRI_CG_SUMS> space, int blocks) {
  bool pattern = A->value_type == CSR_PATTERN, jacobi = v->d != NULL;
  if (pattern)
    return jacobi ? launch_typed<T, true, true>(ctx, plan, A, alpha, beta, v, space, blocks)
                  : launch_typed<T, true, false>(ctx, plan, A, alpha, beta, v, space, blocks);
  return jacobi ? launch_typed<T, false, true>(ctx, plan, A, alpha, beta, v, space, blocks)
                : launch_typed<T, false, false>(ctx, plan, A, alpha, beta, v, space, blocks);
}

/* The kernel whose occupancy sizes the step's grid, for a lane count. */
const void *step_kernel_for_grid(int lanes) {
  switch (lanes) {
  case 1: return (const void *)cg_step_kernel<1, double, false, true, csri_plain_columns>;
  case 2: return (const void *)cg_step_kernel<2, double, false, true, csri_plain_columns>;
  case 4: return (const void *)cg_step_kernel<4, double, false, true, csri_plain_columns>;
  case 8: return (const void *)cg_step_kernel<8, double, false, true, csri_plain_columns>;
  case 16: return (const void *)cg_step_kernel<16, double, false, true, csri_plain_columns>;
  default: return (const void *)cg_step_kernel<32, double, false, true, csri_plain_columns>;
  }
}

/* --- Jacobi: d_i = 1 / a_ii ------------------------------------------------------------------ */

/* Row i's diagonal: the sum of its entries in column i (duplicates add up), and whether any. */
template <typename T, bool PATTERN>
__device__ double diagonal(int64_t i, const int64_t *off, const int32_t *col, const T *val,
                           bool *found) {
  double a = 0.0;
  *found = false;
  for (int64_t k = off[i]; k < off[i + 1]; k++)
    if (col[k] == i) {
      *found = true;
      a += PATTERN ? 1.0 : (double)val[k];
    }
  return a;
}

/* Bad rows are reported as the smallest key 4 * row + why (why 0: no diagonal entry, 1:
 * non-finite, 2: <= 0), so the first bad row wins whatever the thread order. */
template <typename T, bool PATTERN>
__global__ void jacobi_kernel(int64_t rows, const int64_t *off, const int32_t *col, const T *val,
                              T *d, unsigned long long *first_bad) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < rows;
       i += (int64_t)gridDim.x * blockDim.x) {
    bool found;
    double a = diagonal<T, PATTERN>(i, off, col, val, &found);
    int why = !found ? 0 : !isfinite(a) ? 1 : !(a > 0.0) ? 2 : -1;
    if (why >= 0)
      atomicMin(first_bad, (unsigned long long)(4 * i + why));
    d[i] = why >= 0 ? (T)0 : (T)(1.0 / a);
  }
}

/* The offending value of the first bad row, for the message. */
template <typename T, bool PATTERN>
__global__ void bad_value_kernel(const int64_t *off, const int32_t *col, const T *val,
                                 const unsigned long long *first_bad, double *value) {
  bool found;
  if (*first_bad != ~0ull) /* else every row is fine */
    *value = diagonal<T, PATTERN>((int64_t)(*first_bad / 4), off, col, val, &found);
}

struct jacobi_space {
  unsigned long long first_bad;
  double value;
};

template <typename T, bool PATTERN>
void launch_jacobi(cudaStream_t stream, const csr_matrix *A, csr_vector *d, jacobi_space *space) {
  int64_t b = (A->rows + CSRI_JACOBI_THREADS - 1) / CSRI_JACOBI_THREADS;
  unsigned blocks = (unsigned)(b < 1 ? 1 : b > CSRI_JACOBI_MAX_BLOCKS ? CSRI_JACOBI_MAX_BLOCKS : b);
  const T *val = (const T *)A->values;
  jacobi_kernel<T, PATTERN><<<blocks, CSRI_JACOBI_THREADS, 0, stream>>>(
      A->rows, A->row_offsets, A->col_indices, val, (T *)d->data, &space->first_bad);
  if (A->rows > 0)
    bad_value_kernel<T, PATTERN><<<1, 1, 0, stream>>>(A->row_offsets, A->col_indices, val,
                                                      &space->first_bad, &space->value);
}

} // namespace

extern "C" csr_status csri_cuda_cg_step(csr_context *ctx, const csri_spmv_plan *plan,
                                        const csr_matrix *A, double alpha, double beta,
                                        const csri_cg_vectors *v, double *sums) {
  const csri_spmv_kernel_info *kernel = csri_spmv_kernel_of(plan->kernel);
  if (kernel == NULL || !kernel->row_kernel)
    /* no fused form: three passes, cuda/cg_step_split.cu */
    return csri_cuda_cg_step_split(ctx, plan, A, alpha, beta, v, sums);
  int lanes = plan->lanes;
  /* One grid for every type and variant at this lane count: the F64 Jacobi kernel's (the one
   * with the most registers), so that each variant fits in one wave. */
  int blocks = csri_reduce_grid(step_kernel_for_grid(lanes), CSRI_REDUCE_THREADS, A->rows * lanes,
                                CSRI_REDUCE_THREADS);
  csri_reduce_run<CSRI_CG_SUMS> r;
  CSRI_TRY(csri_reduce_begin<CSRI_CG_SUMS>(ctx, blocks, &r));
  csr_status launched = v->x->value_type == CSR_F64
                            ? launch_step<double>(ctx, plan, A, alpha, beta, v, r.space, blocks)
                            : launch_step<float>(ctx, plan, A, alpha, beta, v, r.space, blocks);
  return csri_reduce_end<CSRI_CG_SUMS>(ctx, &r, launched, sums);
}

extern "C" csr_status csri_cuda_jacobi(csr_context *ctx, const csr_matrix *A, csr_vector *d,
                                       csri_bad_diagonal *bad) {
  cudaStream_t stream = csri_stream(ctx);
  void *workspace = NULL;
  CSRI_TRY(csri_device_scratch(ctx, sizeof(jacobi_space), &workspace));
  jacobi_space *space = (jacobi_space *)workspace, host = {~0ull, 0.0};
  cudaError_t err = cudaMemcpyAsync(space, &host, sizeof host, cudaMemcpyHostToDevice, stream);
  if (err == cudaSuccess) {
    bool pattern = A->value_type == CSR_PATTERN;
    if (d->value_type == CSR_F64)
      pattern ? launch_jacobi<double, true>(stream, A, d, space)
              : launch_jacobi<double, false>(stream, A, d, space);
    else
      pattern ? launch_jacobi<float, true>(stream, A, d, space)
              : launch_jacobi<float, false>(stream, A, d, space);
    err = cudaGetLastError();
  }
  if (err == cudaSuccess)
    err = cudaMemcpyAsync(&host, space, sizeof host, cudaMemcpyDeviceToHost, stream);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize(stream);
  csri_device_scratch_done(ctx, workspace);
  if (err != cudaSuccess)
    return csri_cuda_error(ctx, err, "Jacobi diagonal kernels", __FILE__, __LINE__);
  bad->row = host.first_bad == ~0ull ? -1 : (int64_t)(host.first_bad / 4);
  bad->why = (int)(host.first_bad % 4);
  bad->value = host.value;
  return CSR_SUCCESS;
}
