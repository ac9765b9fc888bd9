/* nnz past 2^31: a 3-row pattern matrix with 2^31 + 100 entries goes through the validator, the
 * row statistics and SpMV with 64-bit offsets and counts. Needs ~9 GB; skipped (exit 77) when
 * less memory is available or under AddressSanitizer. */
#include "testing.h"

#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  csr_backend backend = csrt_backend_from_args(argc, argv);
  if (csrt_under_asan() || csrt_available_gib() < 14 || getenv("CSR_SKIP_LARGE")) {
    printf("backend_large_nnz: needs ~9 GB outside ASan (%lld GiB available): skipped\n",
           csrt_available_gib());
    return 77;
  }
  csr_context *ctx = csrt_context(backend);
  const int64_t long_row = (INT64_C(1) << 31) + 50, cols = 1000;
  const int64_t nnz = long_row + 50;
  csr_matrix *A = NULL;
  CHECK_OK(ctx, csr_matrix_create(ctx, &A, 3, cols, nnz, CSR_PATTERN, CSR_HOST));
  if (A == NULL)
    return csrt_finish("backend_large_nnz");
  for (int64_t k = 0; k < nnz; k++)
    A->col_indices[k] = (int32_t)(k % cols); /* ascending runs: duplicates, not sorted */
  A->row_offsets[1] = A->row_offsets[2] = long_row;
  A->row_offsets[3] = nnz;
  A->flags = 0;
  CHECK_OK(ctx, csr_matrix_validate(ctx, A));

  csr_row_stats st;
  CHECK_OK(ctx, csr_row_stats_compute(ctx, A, &st));
  CHECK(st.nnz == nnz && st.longest == long_row && st.empty_rows == 1);
  CHECK(st.histogram[csr_row_length_bin(long_row)] == 1 && csr_row_length_bin(long_row) == 32);

  csr_vector *x = NULL, *y = NULL;
  CHECK_OK(ctx, csr_vector_create(ctx, &x, cols, CSR_F64, CSR_HOST));
  CHECK_OK(ctx, csr_vector_create(ctx, &y, 3, CSR_F64, CSR_HOST));
  CHECK_OK(ctx, csr_fill(ctx, 1.0, x));
  CHECK_OK(ctx, csr_spmv(ctx, 1.0, A, x, 0.0, y));
  const double *yv = y->data;
  CHECK(yv[0] == (double)long_row && yv[1] == 0.0 && yv[2] == 50.0);
  printf("nnz %lld: y = [%.0f, %.0f, %.0f], longest row %lld\n", (long long)nnz, yv[0], yv[1],
         yv[2], (long long)st.longest);
  csr_vector_free(&x);
  csr_vector_free(&y);
  csr_matrix_free(&A);
  csr_context_free(&ctx);
  return csrt_finish("backend_large_nnz");
}
