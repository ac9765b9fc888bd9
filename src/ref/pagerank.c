/* SPDX-License-Identifier: BSD-3-Clause */
/* PageRank's passes, serial: the out-weights, the pull graph's values, x = r / w with the
 * dangling sum; r = d (y + base) + (1 - d) p with the L1 change, fused with the next spread. The
 * row kernels of src/kernels/pagerank_rows.c over every page, in index order. */
#include "kernels/rows.h"
#include "ref/ref.h"

csr_status csri_ref_pagerank_weights(csr_context *ctx, const csr_matrix *A, int weighted,
                                     double *inv_w, csri_pagerank_weights *found) {
  (void)ctx;
  *found = (csri_pagerank_weights){0, 0, -1, -1, -1, 0.0};
  csri_pagerank_weights_rows(A, weighted, inv_w, 0, A->rows, found);
  return CSR_SUCCESS;
}

csr_status csri_ref_pagerank_pull(csr_context *ctx, const csr_matrix *T, int weighted,
                                  const double *inv_w, csr_matrix *M) {
  (void)ctx;
  csri_pagerank_pull_rows(T, weighted, inv_w, M, 0, T->rows);
  return CSR_SUCCESS;
}

csr_status csri_ref_pagerank_spread(csr_context *ctx, const csr_vector *r, const double *inv_w,
                                    int scale, csr_vector *x, double *dangling) {
  (void)ctx;
  *dangling = csri_pagerank_spread_rows(r, inv_w, scale, x, 0, r->n);
  return CSR_SUCCESS;
}

csr_status csri_ref_pagerank_update(csr_context *ctx, csr_vector *r, const csr_vector *y,
                                    const double *p, double d, double base, const double *inv_w,
                                    int scale, csr_vector *x, double *dangling, double *l1_change) {
  (void)ctx;
  *l1_change = csri_pagerank_update_rows(r, y, p, d, base, inv_w, scale, x, 0, r->n, dangling);
  return CSR_SUCCESS;
}
