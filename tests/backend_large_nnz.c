/* nnz past 2^31: a 3-row pattern matrix with 2^31 + 100 entries goes through the validator, the
 * row statistics and SpMV with 64-bit offsets and counts, on the backend of argv[1] (the matrix
 * placed where it runs: ~9 GB of device memory for cuda). Needs ~9 GB of host memory (18 for
 * cuda); skipped (exit 77) when less is available, under AddressSanitizer, or with
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
  /* The row statistics count on the host (a CUDA context hears CSR_INFO_DECLINED). */
  csr_status counted = csr_row_stats_compute(ctx, P, &st);
  CHECK(counted == CSR_SUCCESS || (backend == CSR_BACKEND_CUDA && counted == CSR_INFO_DECLINED));
  CHECK(st.nnz == nnz && st.longest == long_row && st.empty_rows == 1);
  CHECK(st.histogram[csr_row_length_bin(long_row)] == 1 && csr_row_length_bin(long_row) == 32);

  csr_vector *x = NULL, *y = NULL;
  CHECK_OK(ctx, csr_vector_create(ctx, &x, cols, CSR_F64, csrt_location(backend)));
  CHECK_OK(ctx, csr_vector_create(ctx, &y, 3, CSR_F64, csrt_location(backend)));
  CHECK_OK(ctx, csr_fill(ctx, 1.0, x));
  CHECK_OK(ctx, csr_spmv(ctx, 1.0, P, x, 0.0, y));
  csr_vector *yh = csrt_host_vector(y);
  const double *yv = yh->data;
  CHECK(yv[0] == (double)long_row && yv[1] == 0.0 && yv[2] == 50.0);
  printf("nnz %lld: y = [%.0f, %.0f, %.0f], longest row %lld\n", (long long)nnz, yv[0], yv[1],
         yv[2], (long long)st.longest);
  csr_vector_free(&x);
  csr_vector_free(&y);
  csr_vector_free(&yh);
  csr_matrix_free(&P);
  csr_context_free(&ctx);
  csr_context_free(&ref);
  return csrt_finish("backend_large_nnz");
}
