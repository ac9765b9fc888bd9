/* PageRank's vector passes, serial: x = r / w with the dangling sum; r = d (y + base) +
 * (1 - d) p with the L1 change, fused with the next spread. The row kernels of
 * src/kernels/pagerank_rows.c over every page, in index order. */
#include "kernels/rows.h"
#include "ref/ref.h"

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
