/* SPDX-License-Identifier: BSD-3-Clause */
/* CG's step for a matrix whose SpMV is the segmented or the stream kernel, in three passes (the
 * first alone is csri_cuda_cg_update, for the distributed solver): the
 * point update r' = r - alpha q, x += alpha p, z' = d .* r', p' = z' + beta p (one pass over the
 * vectors); q' = A p' by the matrix's kernel (cuda/spmv_merge.cu, cuda/spmv_stream.cu); the five
 * sums of src/core/backend.h over r', z', p', q' (a reduction). The fused step (cuda/cg_step.cu)
 * cannot take these SpMVs: a row there is one group's, while they stage tiles of the matrix
 * (and the segmented kernel splits rows between threads and blocks). Same rounding as the fused
 * step (cuda/cg_point.cuh); only q' is summed in another order. */
#include "cg_point.cuh"
#include "spmv_out.cuh"

namespace {

template <typename T, bool JACOBI>
__global__ void __launch_bounds__(CSRI_VECTOR_THREADS)
    update_kernel(int64_t n, cg_point<T, JACOBI> pt, T *x, T *r_next, T *p_next) {
  CSRI_GRID_STRIDE(j, n) {
    T rn, zn, pn;
    pt.at(j, rn, zn, pn);
    pt.store(j, rn, pn, x, r_next, p_next);
  }
}

/* The five sums over r', z', p', q' (z' recomputed as the update rounds it). */
template <typename T, bool JACOBI>
__global__ void __launch_bounds__(CSRI_REDUCE_THREADS)
    sums_kernel(int64_t n, const T *r, const T *p, const T *q, const T *d,
                csri_reduce_space<CSRI_CG_SUMS> space) {
  csri_sums<CSRI_CG_SUMS> s = {{0.0, 0.0, 0.0, 0.0, 0.0}};
  CSRI_GRID_STRIDE(j, n) {
    T rn = r[j];
    csri_cg_add_sums<T, JACOBI>(s, rn, cg_point<T, JACOBI>::z_of(d, j, rn), p[j], q[j], d, j);
  }
  csri_grid_combine<csri_add, CSRI_CG_SUMS, CSRI_REDUCE_THREADS>(s, space);
}

/* The point update over n entries (csri_cg_update_fn), on the stream. */
template <typename T, bool JACOBI>
void update(cudaStream_t stream, int64_t n, double alpha, double beta, const csri_cg_vectors *v) {
  const T *d = v->d ? (const T *)v->d->data : NULL;
  cg_point<T, JACOBI> pt{
      (const T *)v->r->data, (const T *)v->q->data, (const T *)v->p->data, d, alpha, beta};
  update_kernel<T, JACOBI><<<csri_vector_blocks(n), CSRI_VECTOR_THREADS, 0, stream>>>(
      n, pt, (T *)v->x->data, (T *)v->r_next->data, (T *)v->p_next->data);
}

template <typename T, bool JACOBI>
csr_status step(csr_context *ctx, const csri_spmv_plan *plan, const csr_matrix *A, double alpha,
                double beta, const csri_cg_vectors *v, double *sums) {
  cudaStream_t stream = csri_stream(ctx);
  const int64_t n = A->rows;
  const T *d = v->d ? (const T *)v->d->data : NULL;
  update<T, JACOBI>(stream, n, alpha, beta, v);
  CSRI_TRY(CSRI_CUDA_CHECK(ctx, "CG update kernel"));
  CSRI_TRY(csri_cuda_spmv_out<T>(ctx, plan, A, (const T *)v->p_next->data,
                                 csri_spmv_to_y<T>{(T *)v->q_next->data, 1.0, 0.0}, NULL));
  int grid = csri_reduce_grid((const void *)sums_kernel<T, JACOBI>, CSRI_REDUCE_THREADS, n,
                              CSRI_REDUCE_THREADS);
  csri_reduce_run<CSRI_CG_SUMS> r;
  CSRI_TRY(csri_reduce_begin<CSRI_CG_SUMS>(ctx, grid, &r));
  sums_kernel<T, JACOBI><<<grid, CSRI_REDUCE_THREADS, 0, stream>>>(
      n, (const T *)v->r_next->data, (const T *)v->p_next->data, (const T *)v->q_next->data, d,
      r.space);
  return csri_reduce_end<CSRI_CG_SUMS>(ctx, &r, CSRI_CUDA_CHECK(ctx, "CG sums kernel"), sums);
}

} // namespace

extern "C" csr_status csri_cuda_cg_update(csr_context *ctx, double alpha, double beta,
                                          const csri_cg_vectors *v) {
  const int64_t n = v->x->n;
  const bool f64 = v->x->value_type == CSR_F64, jacobi = v->d != NULL;
  cudaStream_t stream = csri_stream(ctx);
  if (f64 && jacobi)
    update<double, true>(stream, n, alpha, beta, v);
  else if (f64)
    update<double, false>(stream, n, alpha, beta, v);
  else if (jacobi)
    update<float, true>(stream, n, alpha, beta, v);
  else
    update<float, false>(stream, n, alpha, beta, v);
  return CSRI_CUDA_CHECK(ctx, "CG update kernel");
}

csr_status csri_cuda_cg_step_split(csr_context *ctx, const csri_spmv_plan *plan,
                                   const csr_matrix *A, double alpha, double beta,
                                   const csri_cg_vectors *v, double *sums) {
  bool f64 = v->x->value_type == CSR_F64, jacobi = v->d != NULL;
  if (f64)
    return jacobi ? step<double, true>(ctx, plan, A, alpha, beta, v, sums)
                  : step<double, false>(ctx, plan, A, alpha, beta, v, sums);
  return jacobi ? step<float, true>(ctx, plan, A, alpha, beta, v, sums)
                : step<float, false>(ctx, plan, A, alpha, beta, v, sums);
}
