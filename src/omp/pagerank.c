/* SPDX-License-Identifier: BSD-3-Clause */
/* PageRank's passes, OpenMP over the fixed chunks of src/omp/partition.h (the row kernels of
 * src/kernels/pagerank_rows.c on each): the out-weights, the pull graph's values, x = r / w with
 * the dangling sum; r = d (y + base) + (1 - d) p with the L1 change, fused with the next spread.
 * Partial sums are added in chunk order: the same bits for every thread count (not the serial
 * reference's bits). */
#include "kernels/rows.h"
#include "omp/omp.h"

csr_status csri_omp_pagerank_weights(csr_context *ctx, const csr_matrix *A, int weighted,
                                     double *inv_w, csri_pagerank_weights *found) {
  (void)ctx;
  int64_t n = A->rows, chunks = csri_reduce_chunks(n);
  csri_pagerank_weights part[CSRI_REDUCE_MAX_CHUNKS];
#pragma omp parallel for schedule(static) num_threads(csri_omp_threads(ctx)) if (chunks > 1)
  for (int64_t c = 0; c < chunks; c++) {
    part[c] = (csri_pagerank_weights){0, 0, -1, -1, -1, 0.0};
    csri_pagerank_weights_rows(A, weighted, inv_w, csri_chunk_begin(n, chunks, c),
                               csri_chunk_begin(n, chunks, c + 1), &part[c]);
  }
  *found = (csri_pagerank_weights){0, 0, -1, -1, -1, 0.0};
  for (int64_t c = 0; c < chunks; c++) {
    found->dangling += part[c].dangling;
    found->zeros += part[c].zeros;
    if (part[c].bad_row >= 0) { /* the first bad chunk holds the first bad row */
      part[c].dangling = found->dangling;
      part[c].zeros = found->zeros;
      *found = part[c];
      break;
    }
  }
  return CSR_SUCCESS;
}

csr_status csri_omp_pagerank_pull(csr_context *ctx, const csr_matrix *T, int weighted,
                                  const double *inv_w, csr_matrix *M) {
  (void)ctx;
  int64_t n = T->rows, chunks = csri_reduce_chunks(n);
#pragma omp parallel for schedule(static) num_threads(csri_omp_threads(ctx)) if (chunks > 1)
  for (int64_t c = 0; c < chunks; c++)
    csri_pagerank_pull_rows(T, weighted, inv_w, M, csri_chunk_begin(n, chunks, c),
                            csri_chunk_begin(n, chunks, c + 1));
  return CSR_SUCCESS;
}

csr_status csri_omp_pagerank_spread(csr_context *ctx, const csr_vector *r, const double *inv_w,
                                    int scale, csr_vector *x, double *dangling) {
  (void)ctx; /* used only by OpenMP clauses */
  int64_t n = r->n, chunks = csri_reduce_chunks(n);
  double part[CSRI_REDUCE_MAX_CHUNKS];
#pragma omp parallel for schedule(static) num_threads(csri_omp_threads(ctx)) if (chunks > 1)
  for (int64_t c = 0; c < chunks; c++)
    part[c] = csri_pagerank_spread_rows(r, inv_w, scale, x, csri_chunk_begin(n, chunks, c),
                                        csri_chunk_begin(n, chunks, c + 1));
  double sum = 0.0;
  for (int64_t c = 0; c < chunks; c++)
    sum += part[c];
  *dangling = sum;
  return CSR_SUCCESS;
}

csr_status csri_omp_pagerank_update(csr_context *ctx, csr_vector *r, const csr_vector *y,
                                    const double *p, double d, double base, const double *inv_w,
                                    int scale, csr_vector *x, double *dangling, double *l1_change) {
  (void)ctx;
  int64_t n = r->n, chunks = csri_reduce_chunks(n);
  double part[CSRI_REDUCE_MAX_CHUNKS], hang[CSRI_REDUCE_MAX_CHUNKS];
#pragma omp parallel for schedule(static) num_threads(csri_omp_threads(ctx)) if (chunks > 1)
  for (int64_t c = 0; c < chunks; c++)
    part[c] =
        csri_pagerank_update_rows(r, y, p, d, base, inv_w, scale, x, csri_chunk_begin(n, chunks, c),
                                  csri_chunk_begin(n, chunks, c + 1), &hang[c]);
  double sum = 0.0;
  *dangling = 0.0;
  for (int64_t c = 0; c < chunks; c++) {
    sum += part[c];
    *dangling += hang[c];
  }
  *l1_change = sum;
  return CSR_SUCCESS;
}
