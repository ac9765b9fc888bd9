/* The OpenMP backend: every operation on host operands, split over threads so that results do not
 * depend on the thread count (src/omp/partition.h). Its entries are declared by
 * CSRI_DECLARE_BACKEND (their contracts: src/core/backend.h) and listed in src/omp/table.c.
 * Internal. */
#ifndef CSR_OMP_H
#define CSR_OMP_H

#include "core/backend.h"
#include "omp/partition.h"

CSRI_DECLARE_BACKEND(omp);

/* src/ref/ref.h's csri_ref_group_sort with the items scattered and the groups sorted in parallel:
 * the same result. */
csr_status csri_omp_group_sort(csr_context *ctx, int64_t n, const int32_t *rkey,
                               const int32_t *ckey, int64_t nb, int64_t *off, int32_t *cols,
                               int64_t *src);

#endif /* CSR_OMP_H */
