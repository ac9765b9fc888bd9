/* SPDX-License-Identifier: BSD-3-Clause */
/* Row-length histogram (log2 bins), longest, mean, population variance, empty rows of A. */
#include "kernels/row_length.h"
#include "ops/ops.h"

#include <string.h>

int csr_row_length_bin(int64_t length) {
  return csri_row_length_bin(length);
}

/* A device matrix whose backend cannot count on the device (the context asks for ref or omp):
 * only the row offsets are needed, so only they cross to the host. */
static csr_status host_offsets(csr_context *ctx, const csr_matrix *A, int64_t **offsets) {
  *offsets = A->row_offsets;
  if (A->location != CSR_DEVICE)
    return CSR_SUCCESS;
  void *p = NULL;
  CSRI_TRY(csri_array_alloc(ctx, &p, A->rows + 1, sizeof(int64_t), CSR_HOST, 0));
  csr_status s = csri_array_copy(ctx, p, CSR_HOST, A->row_offsets, CSR_DEVICE,
                                 (size_t)(A->rows + 1) * sizeof(int64_t));
  if (s < 0) {
    csri_free(p);
    return s;
  }
  *offsets = p;
  return CSR_SUCCESS;
}

csr_status csr_row_stats_compute(csr_context *ctx, const csr_matrix *A, csr_row_stats *stats) {
  CSRI_CHECK_NULL(ctx, A);
  CSRI_CHECK_NULL(ctx, stats);
  CSRI_TRY(csri_check_shape(ctx, A->rows, A->cols, A->nnz));
  CSRI_TRY(csri_check_location(ctx, A->location));
  if (A->row_offsets == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "A->row_offsets is NULL");
  memset(stats, 0, sizeof *stats);
  const csri_backend *b;
  csr_backend asked = csr_context_backend(ctx);
  if (A->location == CSR_DEVICE && (asked == CSR_BACKEND_AUTO || asked == CSR_BACKEND_CUDA) &&
      csri_backend_of(CSR_BACKEND_CUDA) != NULL) { /* counted where the offsets are */
    csr_status status = CSRI_DISPATCH(ctx, CSR_DEVICE, sparse.row_stats, "row statistics", &b);
    CSRI_TRY(status);
    return csri_ran(ctx, b, status, b->sparse.row_stats(ctx, A->row_offsets, A->rows, stats));
  }
  csr_status status = CSRI_DISPATCH(ctx, CSR_HOST, sparse.row_stats, "row statistics", &b);
  CSRI_TRY(status);
  int64_t *offsets = NULL;
  CSRI_TRY(host_offsets(ctx, A, &offsets));
  csr_status ran = b->sparse.row_stats(ctx, offsets, A->rows, stats);
  if (offsets != A->row_offsets)
    csri_free(offsets);
  return csri_ran(ctx, b, status, ran);
}
