/* The reference backend: serial, obviously correct, the oracle of every backend test. Its entries
 * are declared by CSRI_DECLARE_BACKEND (their contracts: src/core/backend.h) and listed in
 * src/ref/table.c. Internal. */
#ifndef CSR_REF_H
#define CSR_REF_H

#include "core/backend.h"

CSRI_DECLARE_BACKEND(ref);

/* Groups items k in [0, n) with rkey[k] >= 0 by rkey (nb groups) and orders each group by
 * (ckey[k], k): off[nb + 1] receives the group offsets, cols[p] = ckey[k], src[p] = k. cols and
 * src hold as many entries as there are items with rkey >= 0; keys must be in range. The COO
 * conversion and the symmetric expansion sort with it. */
csr_status csri_ref_group_sort(csr_context *ctx, int64_t n, const int32_t *rkey,
                               const int32_t *ckey, int64_t nb, int64_t *off, int32_t *cols,
                               int64_t *src);

#endif /* CSR_REF_H */
