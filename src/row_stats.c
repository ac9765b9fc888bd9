/* Row-length histogram (log2 bins), longest, mean, population variance, empty rows of A. */
#include "ops_impl.h"

#include <string.h>

int csr_row_length_bin(int64_t length) {
  if (length <= 0)
    return 0;
  int bin = 0;
#if defined(__GNUC__)
  bin = 64 - __builtin_clzll((unsigned long long)length); /* floor(log2(length)) + 1 */
#else
  for (uint64_t v = (uint64_t)length; v != 0; v >>= 1)
    bin++;
#endif
  return bin < CSR_HIST_BINS ? bin : CSR_HIST_BINS - 1; /* rows of 2^47 or more share the last */
}

/* Device matrices: only the row offsets are needed, so only they cross to the host. */
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
  int64_t *offsets = NULL;
  CSRI_TRY(host_offsets(ctx, A, &offsets));
  csr_backend backend;
  csr_status status = csri_backend_at(ctx, CSR_HOST, &backend); /* the offsets are on the host */
  memset(stats, 0, sizeof *stats);
  int bad = backend == CSR_BACKEND_OMP ? csri_omp_row_stats(ctx, offsets, A->rows, stats)
                                       : csri_ref_row_stats(offsets, A->rows, stats);
  if (offsets != A->row_offsets)
    csri_free(offsets);
  if (bad)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX, "row offsets decrease: a row length is negative");
  csri_set_last_backend(ctx, backend);
  return status;
}
