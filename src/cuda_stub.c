/* The CUDA backend when it is not built: every entry point answers CSR_ERR_NOT_COMPILED. */
#include "internal.h"

static csr_status not_compiled(csr_context *ctx) {
  return CSRI_FAIL(ctx, CSR_ERR_NOT_COMPILED,
                   "device storage needs the CUDA backend, which is not compiled into this libcsr "
                   "(configure with nvcc present and CSR_WITH_CUDA=ON)");
}

csr_status csri_cuda_malloc(csr_context *ctx, void **p, size_t bytes) {
  (void)bytes;
  *p = NULL;
  return not_compiled(ctx);
}

void csri_cuda_free(void *p) {
  (void)p; /* nothing can have been allocated */
}

csr_status csri_cuda_memset_zero(csr_context *ctx, void *p, size_t bytes) {
  (void)p;
  (void)bytes;
  return not_compiled(ctx);
}

csr_status csri_cuda_memcpy(csr_context *ctx, void *dst, const void *src, size_t bytes, int kind) {
  (void)dst;
  (void)src;
  (void)bytes;
  (void)kind;
  return not_compiled(ctx);
}

int csri_cuda_device_count(void) {
  return 0;
}

void csri_cuda_context_release(csr_context *ctx) {
  (void)ctx; /* nothing was allocated */
}

/* --- primitives (src/primitives.h): the front ends send only device arrays here ------------- */
#include "primitives.h"

size_t csri_cuda_scan_bytes(const csr_context *ctx, csr_data_type type, int64_t n, int segmented) {
  (void)ctx, (void)type, (void)n, (void)segmented;
  return 0;
}
csr_status csri_cuda_scan(csr_context *ctx, csr_data_type type, csr_scan_kind kind, const void *in,
                          const uint8_t *heads, void *out, int64_t n, void *workspace) {
  (void)type, (void)kind, (void)in, (void)heads, (void)out, (void)n, (void)workspace;
  return not_compiled(ctx);
}
size_t csri_cuda_compact_bytes(const csr_context *ctx, csr_data_type type, int64_t n) {
  (void)ctx, (void)type, (void)n;
  return 0;
}
csr_status csri_cuda_compact(csr_context *ctx, csr_data_type type, const void *in,
                             const csri_select *select, void *out, int64_t n, int64_t *kept,
                             void *workspace) {
  (void)type, (void)in, (void)select, (void)out, (void)n, (void)kept, (void)workspace;
  return not_compiled(ctx);
}
size_t csri_cuda_radix_sort_bytes(const csr_context *ctx, size_t key_size, size_t value_size,
                                  int64_t n) {
  (void)ctx, (void)key_size, (void)value_size, (void)n;
  return 0;
}
csr_status csri_cuda_radix_sort(csr_context *ctx, size_t key_size, void *keys, size_t value_size,
                                void *values, int64_t n, int begin_bit, int end_bit,
                                void *workspace) {
  (void)key_size, (void)keys, (void)value_size, (void)values, (void)n, (void)begin_bit,
      (void)end_bit, (void)workspace;
  return not_compiled(ctx);
}
size_t csri_cuda_histogram_bytes(const csr_context *ctx, const csri_bins *bins,
                                 csr_data_type count_type, int64_t n) {
  (void)ctx, (void)bins, (void)count_type, (void)n;
  return 0;
}
csr_status csri_cuda_histogram(csr_context *ctx, csr_data_type sample_type, const void *samples,
                               int64_t n, const csri_bins *bins, csr_data_type count_type,
                               void *counts, void *workspace) {
  (void)sample_type, (void)samples, (void)n, (void)bins, (void)count_type, (void)counts,
      (void)workspace;
  return not_compiled(ctx);
}

/* --- SpMV, vector operations, CG's step (src/ops_impl.h): only device operands come here ------ */
#include "ops_impl.h"

csr_status csri_cuda_spmv(csr_context *ctx, double alpha, const csr_matrix *A, const csr_vector *x,
                          double beta, csr_vector *y) {
  (void)alpha, (void)A, (void)x, (void)beta, (void)y;
  return not_compiled(ctx);
}
csr_status csri_cuda_axpby(csr_context *ctx, double alpha, const csr_vector *x, double beta,
                           csr_vector *y) {
  (void)alpha, (void)x, (void)beta, (void)y;
  return not_compiled(ctx);
}
csr_status csri_cuda_scale(csr_context *ctx, double alpha, csr_vector *x) {
  (void)alpha, (void)x;
  return not_compiled(ctx);
}
csr_status csri_cuda_fill(csr_context *ctx, double alpha, csr_vector *x) {
  (void)alpha, (void)x;
  return not_compiled(ctx);
}
csr_status csri_cuda_reduce(csr_context *ctx, csri_reduction which, const csr_vector *x,
                            const csr_vector *y, double *result) {
  (void)which, (void)x, (void)y, (void)result;
  return not_compiled(ctx);
}
csr_status csri_cuda_cg_step(csr_context *ctx, const csr_matrix *A, double alpha, double beta,
                             const csri_cg_vectors *v, double *sums) {
  (void)A, (void)alpha, (void)beta, (void)v, (void)sums;
  return not_compiled(ctx);
}
int64_t csri_cuda_jacobi(csr_context *ctx, const csr_matrix *A, csr_vector *d, int *why,
                         double *value) {
  (void)A, (void)d, (void)why, (void)value;
  not_compiled(ctx);
  return -2;
}
