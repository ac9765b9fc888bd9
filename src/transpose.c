/* AT = A^T (the CSC arrays of A): columns sorted, duplicates kept in A's stored order. */
#include "convert_impl.h"

csr_status csr_transpose(csr_context *ctx, const csr_matrix *A, csr_matrix **AT) {
  CSRI_CHECK_NULL(ctx, AT);
  *AT = NULL;
  CSRI_CHECK_NULL(ctx, A);
  CSRI_TRY(csri_convert_check_csr(ctx, A));
  csr_status status = CSR_SUCCESS;
  csr_backend backend = csri_convert_backend(ctx, &status);
  csr_matrix *out = NULL;
  CSRI_TRY(csr_matrix_create(ctx, &out, A->cols, A->rows, A->nnz, A->value_type, CSR_HOST));
  csr_status st = CSR_SUCCESS; /* nnz == 0: create's zeroed offsets are the answer */
  if (A->nnz > 0)
    st = backend == CSR_BACKEND_OMP ? csri_omp_transpose(ctx, A, out)
                                    : csri_ref_transpose(ctx, A, out);
  if (st < 0) {
    csr_matrix_free(&out);
    return st;
  }
  /* Row i of A feeds AT's rows in ascending i, so AT is always sorted; (i, j) repeats in AT
   * exactly when it repeats in A. */
  out->flags = CSR_FLAG_SORTED | (A->flags & CSR_FLAG_NO_DUPLICATES);
  *AT = out;
  csri_set_last_backend(ctx, backend);
  return status;
}
