/* SPDX-License-Identifier: BSD-3-Clause */
/* y = alpha*A*x + beta*y on the GPU: the launchers' table, from which csr_spmv, CG and PageRank
 * run the kernel their plan names (src/kernels/spmv_registry.h says when the plan picks each):
 * a thread or a group of lanes per row (scalar, vector: cuda/spmv_rows.cu), the nonzeros cut
 * evenly over the threads (segmented: cuda/spmv_merge.cu), or whole rows packed into
 * shared-memory tiles (stream: cuda/spmv_stream.cu). What a kernel does with a row's sum is its
 * `Out` (cuda/spmv_out.cuh): y here, PageRank's update in cuda/pagerank.cu. */
#include "kernels/spmv_registry.h"
#include "spmv_out.cuh"

namespace {

template <typename T, typename Out>
using launcher_fn = csr_status(csr_context *, const csri_spmv_plan *, const csr_matrix *, const T *,
                               const Out &, double *);

/* One row per kernel of the registry: its launcher, and what it readies for a matrix before a
 * CUDA graph capture (NULL: nothing, a row kernel reads nothing but A, x and y). */
template <typename T, typename Out> struct launcher {
  csr_spmv_kernel kernel;
  launcher_fn<T, Out> *launch;
  csri_spmv_prepare_fn *prepare;
};

template <typename T, typename Out>
constexpr launcher<T, Out> launchers[] = {
    {CSR_KERNEL_SCALAR, csri_cuda_spmv_rows<T, Out>, nullptr},
    {CSR_KERNEL_VECTOR, csri_cuda_spmv_rows<T, Out>, nullptr},
    {CSR_KERNEL_SEGMENTED, csri_cuda_spmv_merge<T, Out>, csri_cuda_spmv_merge_prepare},
    {CSR_KERNEL_STREAM, csri_cuda_spmv_stream<T, Out>, csri_cuda_spmv_stream_prepare},
};

template <typename T, typename Out> const launcher<T, Out> *launcher_of(csr_spmv_kernel kernel) {
  for (const launcher<T, Out> &l : launchers<T, Out>)
    if (l.kernel == kernel)
      return &l;
  return nullptr;
}

/* CSR_ERR_UNSUPPORTED for a registry kernel that has no launcher here. */
csr_status no_launcher(csr_context *ctx, csr_spmv_kernel kernel) {
  const csri_spmv_kernel_info *k = csri_spmv_kernel_of(kernel);
  return CSRI_FAIL(ctx, CSR_ERR_UNSUPPORTED, "the CUDA backend has no SpMV kernel '%s'",
                   k != NULL ? k->name : "unknown");
}

} // namespace

template <typename T, typename Out>
csr_status csri_cuda_spmv_out(csr_context *ctx, const csri_spmv_plan *plan, const csr_matrix *A,
                              const T *x, const Out &out, double *result) {
  const launcher<T, Out> *l = launcher_of<T, Out>(plan->kernel);
  if (l == nullptr)
    return no_launcher(ctx, plan->kernel);
  return l->launch(ctx, plan, A, x, out, result);
}

CSRI_SPMV_OUT_INSTANTIATE(csri_cuda_spmv_out)

extern "C" csr_status csri_cuda_spmv_prepare(csr_context *ctx, const csr_matrix *A,
                                             const csri_spmv_plan *plan) {
  const launcher<double, csri_spmv_to_y<double>> *l =
      launcher_of<double, csri_spmv_to_y<double>>(plan->kernel);
  if (l == nullptr)
    return no_launcher(ctx, plan->kernel);
  return l->prepare != nullptr ? l->prepare(ctx, A, plan) : CSR_SUCCESS;
}

extern "C" csr_status csri_cuda_spmv(csr_context *ctx, const csri_spmv_plan *plan, double alpha,
                                     const csr_matrix *A, const csr_vector *x, double beta,
                                     csr_vector *y) {
  if (y->value_type == CSR_F64)
    return csri_cuda_spmv_out<double>(ctx, plan, A, (const double *)x->data,
                                      csri_spmv_to_y<double>{(double *)y->data, alpha, beta}, NULL);
  return csri_cuda_spmv_out<float>(ctx, plan, A, (const float *)x->data,
                                   csri_spmv_to_y<float>{(float *)y->data, alpha, beta}, NULL);
}
