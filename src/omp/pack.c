/* SPDX-License-Identifier: BSD-3-Clause */
/* Column indices packed in 16 bits (src/kernels/packed_layout.h): the chunks split over the
 * threads; each chunk's work is the reference's. */
#include "kernels/packed_layout.h"
#include "omp/omp.h"

csr_status csri_omp_pack_ranges(csr_context *ctx, const csr_matrix *A, int32_t *heads,
                                int32_t *escapes) {
  (void)ctx; /* used only by OpenMP clauses */
  const int64_t chunks = csri_pack_chunks(A->nnz);
#pragma omp parallel for schedule(static) num_threads(csri_omp_threads(ctx))
  for (int64_t c = 0; c < chunks; c++)
    escapes[c] = !csri_pack_chunk_range(A->col_indices, A->nnz, c, &heads[c]);
  return CSR_SUCCESS;
}

csr_status csri_omp_pack_fill(csr_context *ctx, const csr_matrix *A, const int32_t *escapes,
                              const int32_t *index, csri_packed *p) {
  (void)ctx;
  const int64_t chunks = p->chunks;
#pragma omp parallel for schedule(static) num_threads(csri_omp_threads(ctx))
  for (int64_t c = 0; c < chunks; c++) {
    p->heads[c] = csri_pack_head(!escapes[c], p->heads[c], index[c]);
    csri_pack_chunk_fill(A->col_indices, A->nnz, c, p->heads[c], p->lo, p->hi);
  }
  return CSR_SUCCESS;
}
