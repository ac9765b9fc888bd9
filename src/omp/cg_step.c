/* SPDX-License-Identifier: BSD-3-Clause */
/* CG's fused step with OpenMP: the element-wise half over static row blocks, then q' = A p' and
 * the sums over fixed chunks (src/omp/partition.h) whose partials are added in chunk order: the
 * same bits for every thread count and every run. */
#include "kernels/rows.h"
#include "omp/omp.h"

csr_status csri_omp_cg_step(csr_context *ctx, const csri_spmv_plan *plan, const csr_matrix *A,
                            double alpha, double beta, const csri_cg_vectors *v, double *sums) {
  (void)ctx;                                                      /* used only by OpenMP clauses */
  const csri_packed *packed = plan != NULL ? plan->packed : NULL; /* one kernel otherwise */
  int64_t n = A->rows, chunks = csri_reduce_chunks(n);
  double part[CSRI_REDUCE_MAX_CHUNKS][CSRI_CG_SUMS];
#pragma omp parallel num_threads(csri_omp_threads(ctx)) if (chunks > 1)
  {
#pragma omp for schedule(static)
    for (int64_t c = 0; c < chunks; c++)
      csri_cg_update_rows(alpha, beta, v, csri_chunk_begin(n, chunks, c),
                          csri_chunk_begin(n, chunks, c + 1));
      /* The implied barrier: every p'_j is written before any row reads it. */
#pragma omp for schedule(static)
    for (int64_t c = 0; c < chunks; c++) {
      for (int k = 0; k < CSRI_CG_SUMS; k++)
        part[c][k] = 0.0;
      csri_cg_product_rows(A, packed, v, csri_chunk_begin(n, chunks, c),
                           csri_chunk_begin(n, chunks, c + 1), part[c]);
    }
  }
  for (int k = 0; k < CSRI_CG_SUMS; k++) {
    sums[k] = 0.0;
    for (int64_t c = 0; c < chunks; c++)
      sums[k] += part[c][k];
  }
  return CSR_SUCCESS;
}

csr_status csri_omp_cg_update(csr_context *ctx, double alpha, double beta,
                              const csri_cg_vectors *v) {
  (void)ctx; /* used only by OpenMP clauses */
  int64_t n = v->x->n, chunks = csri_reduce_chunks(n);
#pragma omp parallel for num_threads(csri_omp_threads(ctx)) if (chunks > 1) schedule(static)
  for (int64_t c = 0; c < chunks; c++)
    csri_cg_update_rows(alpha, beta, v, csri_chunk_begin(n, chunks, c),
                        csri_chunk_begin(n, chunks, c + 1));
  return CSR_SUCCESS;
}

csr_status csri_omp_jacobi(csr_context *ctx, const csr_matrix *A, csr_vector *d,
                           csri_bad_diagonal *bad) {
  (void)ctx; /* used only by OpenMP clauses */
  int64_t n = A->rows, chunks = csri_reduce_chunks(n);
  csri_bad_diagonal part[CSRI_REDUCE_MAX_CHUNKS];
#pragma omp parallel for schedule(static) num_threads(csri_omp_threads(ctx)) if (chunks > 1)
  for (int64_t c = 0; c < chunks; c++)
    part[c].row =
        csri_jacobi_rows(A, d, csri_chunk_begin(n, chunks, c), csri_chunk_begin(n, chunks, c + 1),
                         &part[c].why, &part[c].value);
  bad->row = -1; /* the first bad row is the first chunk's that has one */
  for (int64_t c = 0; c < chunks && bad->row < 0; c++)
    if (part[c].row >= 0)
      *bad = part[c];
  return CSR_SUCCESS;
}
