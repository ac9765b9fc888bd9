/* SPDX-License-Identifier: BSD-3-Clause */
/* nnz past 2^31: a 3-row pattern matrix with 2^31 + 100 entries goes through the validator, the
 * row statistics and SpMV with 64-bit offsets and counts, on the backend of argv[1] (the matrix
 * placed where it runs: ~9 GB of device memory for cuda; there SpMV runs with the kernel AUTO
 * picks and with the vector and segmented kernels forced, f64 and f32). Needs ~9 GB of host memory
 * (18 for cuda); skipped (exit 77) when less is available, under AddressSanitizer, or with
 * CSR_SKIP_LARGE set. */
#include "testing.h"

#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  csr_backend backend = csrt_backend_from_args(argc, argv);
  long long need = backend == CSR_BACKEND_CUDA ? 23 : 14;
  if (csrt_under_asan() || csrt_available_gib() < need || getenv("CSR_SKIP_LARGE")) {
    printf("backend_large_nnz: needs ~9 GB outside ASan (%lld GiB available): skipped\n",
           csrt_available_gib());
    return 77;
  }
  csr_context *ctx = csrt_context(backend), *ref = csrt_context(CSR_BACKEND_REF);
  const int64_t long_row = (INT64_C(1) << 31) + 50, cols = 1000;
  const int64_t nnz = long_row + 50;
  csr_matrix *A = NULL;
  CHECK_OK(ref, csr_matrix_create(ref, &A, 3, cols, nnz, CSR_PATTERN, CSR_HOST));
  if (A == NULL)
    return csrt_finish("backend_large_nnz");
  for (int64_t k = 0; k < nnz; k++)
    A->col_indices[k] = (int32_t)(k % cols); /* ascending runs: duplicates, not sorted */
  A->row_offsets[1] = A->row_offsets[2] = long_row;
  A->row_offsets[3] = nnz;
  A->flags = 0;
  csr_matrix *P = csrt_place_matrix(backend, A);
  csr_matrix_free(&A);
  CHECK_OK(ctx, csr_matrix_validate(ctx, P));

  csr_row_stats st;
  csr_status counted = csr_row_stats_compute(ctx, P, &st);
  CHECK(counted == CSR_SUCCESS || (backend == CSR_BACKEND_CUDA && counted == CSR_INFO_DECLINED));
  CHECK(st.nnz == nnz && st.longest == long_row && st.empty_rows == 1);
  CHECK(st.histogram[csr_row_length_bin(long_row)] == 1 && csr_row_length_bin(long_row) == 32);

  /* The scalar kernel is left out: one thread would sum the 2^31 entries alone. */
  const csr_spmv_kernel kernels[4] = {CSR_KERNEL_AUTO, CSR_KERNEL_VECTOR, CSR_KERNEL_SEGMENTED,
                                      CSR_KERNEL_STREAM};
  const int runs = backend == CSR_BACKEND_CUDA ? 4 : 1;
  for (int k = 0; k < runs; k++)
    for (int t = 0; t < (backend == CSR_BACKEND_CUDA ? 2 : 1); t++) {
      csr_value_type type = t == 0 ? CSR_F64 : CSR_F32;
      CHECK_OK(ctx, csr_context_set_kernel(ctx, kernels[k]));
      csr_vector *x = NULL, *y = NULL;
      CHECK_OK(ctx, csr_vector_create(ctx, &x, cols, type, csrt_location(backend)));
      CHECK_OK(ctx, csr_vector_create(ctx, &y, 3, type, csrt_location(backend)));
      CHECK_OK(ctx, csr_fill(ctx, 1.0, x));
      CHECK_OK(ctx, csr_spmv(ctx, 1.0, P, x, 0.0, y));
      csr_vector *yh = csrt_host_vector(y);
      double yv[3] = {0, 0, 0};
      for (int i = 0; i < 3 && yh != NULL; i++)
        yv[i] = type == CSR_F64 ? ((const double *)yh->data)[i] : ((const float *)yh->data)[i];
      /* the sum is exact in double; stored in f32 it rounds to the nearest float, 2^31 */
      double expect = type == CSR_F64 ? (double)long_row : (double)(float)long_row;
      CHECK(yv[0] == expect && yv[1] == 0.0 && yv[2] == 50.0);
      printf("nnz %lld, %s kernel, %s: y = [%.0f, %.0f, %.0f], longest row %lld\n", (long long)nnz,
             csr_spmv_kernel_name(kernels[k]), t == 0 ? "f64" : "f32", yv[0], yv[1], yv[2],
             (long long)st.longest);
      csr_vector_free(&x);
      csr_vector_free(&y);
      csr_vector_free(&yh);
    }
  csr_matrix_free(&P);
  csr_context_free(&ctx);
  csr_context_free(&ref);
  return csrt_finish("backend_large_nnz");
}
