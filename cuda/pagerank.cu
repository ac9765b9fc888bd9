/* SPDX-License-Identifier: BSD-3-Clause */
/* PageRank's passes on the GPU, which src/graph/pagerank.c drives: r_i <- d (sum_{j -> i} r_j / w_j
 * + dangling / n) + (1 - d) p_i. Here: the out-weights w_i (links, or weights summed in stored
 * order) as 1 / w_i; the pull graph's values a_ji / w_j; the first spread x = r / w with the
 * dangling sum; and an iteration: fused, one pass over the pull graph by the SpMV kernel its row
 * statistics name, each row's sum made into page i's new rank, x_next_i, and the two sums (L1
 * change, next dangling sum) where the kernel finishes the row (csri_pagerank_row,
 * cuda/spmv_out.cuh); or, for graphs with many links a page, split: that SpMV into x_next, then
 * the same update in a pass over the pages (src/kernels/pagerank_plan.h says which). Same
 * roundings as src/kernels/pagerank_rows.c either way. */
#include "kernels/pagerank_plan.h"
#include "kernels/rows.h"
#include "spmv_out.cuh"

namespace {

/* The out-weight pass's combination: the dangling pages and the explicit zeros add up; the
 * first bad row i is the largest n - i (exact below 2^53; 0, the identity of every slot, when no
 * row is bad). */
struct weights_op {
  __device__ __forceinline__ static double identity() { return 0.0; }
  __device__ __forceinline__ static double combine_at(int k, double a, double b) {
    return k < 2 ? a + b : fmax(a, b);
  }
};

/* The weight of entry k as a link, as on the CPU: its value when weighted, else 1 for a link
 * and 0 for an explicit zero. */
template <typename T, bool PATTERN>
__device__ __forceinline__ double link_weight(const T *val, int weighted, int64_t k) {
  if (PATTERN)
    return 1.0;
  const double a = (double)val[k];
  return weighted ? a : (double)(a != 0.0);
}

/* inv_w_i for every page, in a grid-stride loop; sums: dangling pages, explicit zeros, and the
 * first bad row (a link weight negative or not finite, or a sum whose reciprocal overflows). */
template <typename T, bool PATTERN>
__global__ void __launch_bounds__(CSRI_REDUCE_THREADS)
    weights_kernel(int64_t rows, const int64_t *off, const T *val, int weighted, double *inv_w,
                   csri_reduce_space<3> space) {
  csri_sums<3> s = {{0.0, 0.0, 0.0}};
  CSRI_GRID_STRIDE(i, rows) {
    const int64_t begin = off[i], end = off[i + 1];
    double w = PATTERN ? (double)(end - begin) : 0.0;
    bool bad = false;
    for (int64_t k = begin; !PATTERN && k < end; k++) {
      const double a = link_weight<T, PATTERN>(val, weighted, k);
      bad = bad || !(a >= 0.0 && isfinite(a));
      s.v[1] += link_weight<T, PATTERN>(val, 0, k) == 0.0;
      w += a;
    }
    bad = bad || (w > 0.0 && !(isfinite(w) && isfinite(1.0 / w)));
    if (bad)
      s.v[2] = fmax(s.v[2], (double)(rows - i));
    inv_w[i] = w > 0.0 && !bad ? 1.0 / w : 0.0;
    s.v[0] += w == 0.0;
  }
  csri_grid_combine<weights_op, 3, CSRI_REDUCE_THREADS>(s, space);
}

/* The pull graph's values: M_k = link weight of T_k / w_{c_k}, in M's type. */
template <typename T, typename M>
__global__ void pull_kernel(int64_t nnz, const int32_t *col, const T *val, int weighted,
                            const double *inv_w, M *out) {
  CSRI_GRID_STRIDE(k, nnz) {
    out[k] = (M)(link_weight<T, false>(val, weighted, k) * inv_w[col[k]]);
  }
}

/* x_j = r_j / w_j (scale, page j not dangling) or r_j; sum: r_j over the dangling pages. */
template <typename T>
__global__ void __launch_bounds__(CSRI_REDUCE_THREADS)
    spread_kernel(int64_t n, const T *r, const double *inv_w, int scale, T *x,
                  csri_reduce_space<1> space) {
  csri_sums<1> s = {{0.0}};
  CSRI_GRID_STRIDE(j, n) {
    const double w = inv_w[j], rj = (double)r[j];
    s.v[0] += w == 0.0 ? rj : 0.0;
    x[j] = (T)(scale && w != 0.0 ? rj * w : rj);
  }
  csri_grid_combine<csri_add, 1, CSRI_REDUCE_THREADS>(s, space);
}

/* degree_i = page i's links, from inv_w_i (csri_pagerank_links). */
__global__ void degrees_kernel(int64_t n, const double *inv_w, int32_t *degree) {
  CSRI_GRID_STRIDE(i, n) {
    degree[i] = csri_pagerank_links(inv_w[i]);
  }
}

/* What page i's update reads besides s_i, with inv_w_i from the page's links where the caller
 * has them (4 bytes in place of 8; 1 / d correctly rounded, as the out-weight pass made it). */
template <typename T>
__device__ __forceinline__ typename csri_pagerank_row<T>::ahead
fetch_page(const csri_pagerank_row<T> &out, const int32_t *degree, int64_t i) {
  if (degree == NULL)
    return out.fetch(i);
  const int32_t links = __ldcs(degree + i);
  return out.fetch(i, links > 0 ? __drcp_rn((double)links) : 0.0);
}

/* A split iteration's second pass (src/kernels/pagerank_plan.h): the SpMV left s_i, rounded to
 * T, in x_next_i; page i's update as the fused pass makes it (csri_pagerank_row), which
 * overwrites x_next_i, one thread a page; the two sums over the grid. The pages are taken from
 * the last: the SpMV wrote the last rows' sums most recently (and, in a graph whose links stay
 * near their pages, gathered the x_j near them last), so those are the likeliest still in L2.
 * Launched early (csri_launch_early): what a thread's first page reads besides s_i is loaded
 * while the SpMV's last kernel completes. */
template <typename T>
__global__ void __launch_bounds__(CSRI_REDUCE_THREADS)
    update_kernel(int64_t n, csri_pagerank_row<T> out, const int32_t *degree,
                  csri_reduce_space<2> space) {
  csri_sums<2> s = {{0.0, 0.0}};
  const int64_t first = (int64_t)blockIdx.x * blockDim.x + threadIdx.x, last = n - 1;
  typename csri_pagerank_row<T>::ahead ahead = {};
  if (first < n)
    ahead = fetch_page(out, degree, last - first);
  csri_wait_prior();
  if (first < n)
    out.row(last - first, (double)out.x_next[last - first], s, ahead);
  for (int64_t i = first + (int64_t)gridDim.x * blockDim.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    out.row(last - i, (double)out.x_next[last - i], s, fetch_page(out, degree, last - i));
  csri_grid_combine<csri_add, 2, CSRI_REDUCE_THREADS>(s, space);
}

template <typename T, bool PATTERN>
csr_status weights_typed(csr_context *ctx, const csr_matrix *A, int weighted, double *inv_w,
                         double *found) {
  const void *kernel = (const void *)weights_kernel<T, PATTERN>;
  return csri_run_reduction<3>(
      ctx, kernel, A->rows, found, [&](int blocks, csri_reduce_space<3> space) {
        weights_kernel<T, PATTERN><<<blocks, CSRI_REDUCE_THREADS, 0, csri_stream(ctx)>>>(
            A->rows, A->row_offsets, (const T *)A->values, weighted, inv_w, space);
      });
}

/* The bad row's finding, as the CPU states it: the row copied to the host and scanned there. */
csr_status describe_bad_row(csr_context *ctx, const csr_matrix *A, int weighted, int64_t row,
                            csri_pagerank_weights *found) {
  int64_t ends[2];
  cudaError_t err = cudaMemcpy(ends, A->row_offsets + row, sizeof ends, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess)
    return csri_cuda_error(ctx, err, "PageRank's bad row", __FILE__, __LINE__);
  const int64_t length = ends[1] - ends[0];
  csr_matrix *one = NULL;
  CSRI_TRY(csri_matrix_create(ctx, &one, 1, A->cols, length, A->value_type, CSR_HOST));
  const size_t value_size = A->value_type == CSR_F64 ? 8 : A->value_type == CSR_F32 ? 4 : 0;
  one->row_offsets[1] = length;
  err = cudaMemcpy(one->col_indices, A->col_indices + ends[0], (size_t)length * 4,
                   cudaMemcpyDeviceToHost);
  if (err == cudaSuccess && value_size > 0)
    err = cudaMemcpy(one->values, (const char *)A->values + (size_t)ends[0] * value_size,
                     (size_t)length * value_size, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    csri_matrix_free(&one);
    return csri_cuda_error(ctx, err, "PageRank's bad row", __FILE__, __LINE__);
  }
  double inv_w = 0.0;
  csri_pagerank_weights mine = {0, 0, -1, -1, -1, 0.0};
  csri_pagerank_weights_rows(one, weighted, &inv_w, 0, 1, &mine);
  csri_matrix_free(&one);
  found->bad_row = row;
  found->bad_entry = mine.bad_entry >= 0 ? ends[0] + mine.bad_entry : -1;
  found->bad_col = mine.bad_col;
  found->bad_value = mine.bad_value;
  return CSR_SUCCESS;
}

template <typename T, typename M>
void launch_pull(cudaStream_t stream, const csr_matrix *T_, int weighted, const double *inv_w,
                 csr_matrix *out) {
  pull_kernel<T, M><<<csri_vector_blocks(T_->nnz), CSRI_VECTOR_THREADS, 0, stream>>>(
      T_->nnz, T_->col_indices, (const T *)T_->values, weighted, inv_w, (M *)out->values);
}

/* T has values: a graph without any is pulled as a pattern matrix and never gets here. */
template <typename M>
void pull_typed(cudaStream_t stream, const csr_matrix *T_, int weighted, const double *inv_w,
                csr_matrix *out) {
  if (T_->value_type == CSR_F64)
    launch_pull<double, M>(stream, T_, weighted, inv_w, out);
  else
    launch_pull<float, M>(stream, T_, weighted, inv_w, out);
}

/* The fused iteration (one pass); waits for the two sums and leaves them in sums[2]. The SpMV's
 * fix-up totals them into the reduction's result slots (csri_reduce_begin: the context's mapped
 * slots, or without a context a device pair), which need no partials of their own. */
template <typename T>
csr_status step_fused(csr_context *ctx, const csri_spmv_plan *plan, const csr_matrix *AT,
                      const csr_vector *x, const csri_pagerank_row<T> &update, double *sums) {
  csri_reduce_run<2> run;
  CSRI_TRY(csri_reduce_begin<2>(ctx, 0, &run));
  const csr_status status =
      csri_cuda_spmv_out<T>(ctx, plan, AT, (const T *)x->data, update, run.space.result);
  return csri_reduce_end<2>(ctx, &run, status, sums);
}

/* The split iteration: the SpMV into x_next, then the update pass (reading degree in place of
 * inv_w where given); waits for the two sums and leaves them in sums[2]. */
template <typename T>
csr_status step_split(csr_context *ctx, const csri_spmv_plan *plan, const csr_matrix *AT,
                      const csr_vector *x, const csri_pagerank_row<T> &update,
                      const int32_t *degree, double *sums) {
  CSRI_TRY(csri_cuda_spmv_out<T>(ctx, plan, AT, (const T *)x->data,
                                 csri_spmv_to_y<T>{update.x_next, 1.0, 0.0}, NULL));
  const int64_t n = AT->rows;
  return csri_run_reduction<2>(
      ctx, (const void *)update_kernel<T>, n, sums, [&](int blocks, csri_reduce_space<2> space) {
        csri_launch_early(update_kernel<T>, (unsigned)blocks, CSRI_REDUCE_THREADS, csri_stream(ctx),
                          n, update, degree, space);
      });
}

/* One iteration with the ranks of type T, in the form the pull graph's shape asks for
 * (src/kernels/pagerank_plan.h); sums[0] the L1 change, sums[1] the next dangling sum. */
template <typename T>
csr_status step_typed(csr_context *ctx, const csri_spmv_plan *plan, const csr_matrix *AT,
                      const csr_vector *x, csr_vector *r, int write_ranks, const double *p,
                      double d, double base, const double *inv_w, const int32_t *degree, int scale,
                      csr_vector *x_next, double *sums) {
  const csri_pagerank_row<T> update{
      (T *)r->data, (T *)x_next->data, (const T *)x->data, inv_w, p, d, base, 1.0 / (double)r->n,
      scale,        write_ranks};
  if (csri_pagerank_split(AT->rows, AT->nnz))
    return step_split<T>(ctx, plan, AT, x, update, degree, sums);
  return step_fused<T>(ctx, plan, AT, x, update, sums);
}

} // namespace

extern "C" csr_status csri_cuda_pagerank_weights(csr_context *ctx, const csr_matrix *A,
                                                 int weighted, double *inv_w,
                                                 csri_pagerank_weights *found) {
  *found = csri_pagerank_weights{0, 0, -1, -1, -1, 0.0};
  if (A->rows == 0)
    return CSR_SUCCESS;
  double sums[3];
  csr_status s =
      A->value_type == CSR_F64   ? weights_typed<double, false>(ctx, A, weighted, inv_w, sums)
      : A->value_type == CSR_F32 ? weights_typed<float, false>(ctx, A, weighted, inv_w, sums)
                                 : weights_typed<double, true>(ctx, A, weighted, inv_w, sums);
  CSRI_TRY(s);
  found->dangling = (int64_t)sums[0];
  found->zeros = (int64_t)sums[1];
  if (sums[2] == 0.0)
    return CSR_SUCCESS;
  return describe_bad_row(ctx, A, weighted, A->rows - (int64_t)sums[2], found);
}

extern "C" csr_status csri_cuda_pagerank_pull(csr_context *ctx, const csr_matrix *T, int weighted,
                                              const double *inv_w, csr_matrix *M) {
  cudaStream_t stream = csri_stream(ctx);
  cudaError_t err =
      cudaMemcpyAsync(M->row_offsets, T->row_offsets, (size_t)(T->rows + 1) * sizeof(int64_t),
                      cudaMemcpyDeviceToDevice, stream);
  if (err == cudaSuccess && T->nnz > 0)
    err = cudaMemcpyAsync(M->col_indices, T->col_indices, (size_t)T->nnz * sizeof(int32_t),
                          cudaMemcpyDeviceToDevice, stream);
  if (err != cudaSuccess)
    return csri_cuda_error(ctx, err, "PageRank's pull graph", __FILE__, __LINE__);
  if (T->nnz == 0)
    return CSR_SUCCESS;
  if (M->value_type == CSR_F64)
    pull_typed<double>(stream, T, weighted, inv_w, M);
  else
    pull_typed<float>(stream, T, weighted, inv_w, M);
  return CSRI_CUDA_CHECK(ctx, "PageRank's pull graph values");
}

extern "C" csr_status csri_cuda_pagerank_spread(csr_context *ctx, const csr_vector *r,
                                                const double *inv_w, int scale, csr_vector *x,
                                                double *dangling) {
  *dangling = 0.0;
  if (r->n == 0)
    return CSR_SUCCESS;
  cudaStream_t stream = csri_stream(ctx);
  if (r->value_type == CSR_F64)
    return csri_run_reduction<1>(
        ctx, (const void *)spread_kernel<double>, r->n, dangling,
        [&](int blocks, csri_reduce_space<1> space) {
          spread_kernel<double><<<blocks, CSRI_REDUCE_THREADS, 0, stream>>>(
              r->n, (const double *)r->data, inv_w, scale, (double *)x->data, space);
        });
  return csri_run_reduction<1>(ctx, (const void *)spread_kernel<float>, r->n, dangling,
                               [&](int blocks, csri_reduce_space<1> space) {
                                 spread_kernel<float><<<blocks, CSRI_REDUCE_THREADS, 0, stream>>>(
                                     r->n, (const float *)r->data, inv_w, scale, (float *)x->data,
                                     space);
                               });
}

extern "C" csr_status csri_cuda_pagerank_step(csr_context *ctx, const csri_spmv_plan *plan,
                                              const csr_matrix *AT, const csr_vector *x,
                                              csr_vector *r, int write_ranks, const double *p,
                                              double d, double base, const double *inv_w,
                                              const int32_t *degree, int scale, csr_vector *x_next,
                                              double *dangling, double *l1_change) {
  double sums[2] = {0.0, 0.0};
  csr_status status = r->value_type == CSR_F64
                          ? step_typed<double>(ctx, plan, AT, x, r, write_ranks, p, d, base, inv_w,
                                               degree, scale, x_next, sums)
                          : step_typed<float>(ctx, plan, AT, x, r, write_ranks, p, d, base, inv_w,
                                              degree, scale, x_next, sums);
  *l1_change = sums[0];
  *dangling = sums[1];
  return status;
}

extern "C" csr_status csri_cuda_pagerank_degrees(csr_context *ctx, int64_t n, const double *inv_w,
                                                 int32_t *degree) {
  if (n == 0)
    return CSR_SUCCESS;
  degrees_kernel<<<csri_vector_blocks(n), CSRI_VECTOR_THREADS, 0, csri_stream(ctx)>>>(n, inv_w,
                                                                                      degree);
  return CSRI_CUDA_CHECK(ctx, "PageRank's links a page");
}
