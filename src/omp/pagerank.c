/* PageRank's vector passes, OpenMP over the fixed chunks of src/omp/partition.h (the row kernels of
 * src/kernels/pagerank_rows.c on each): x = r / w with the
 * dangling sum; r = d (y + base) + (1 - d) p with the L1 change, fused with the next spread.
 * Partial sums are added in chunk order: the same bits for every thread count (not the serial
 * reference's bits). */
#include "kernels/rows.h"
#include "omp/omp.h"

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
