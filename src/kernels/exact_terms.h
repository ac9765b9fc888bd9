/* SPDX-License-Identifier: BSD-3-Clause */
/* The exact sums' terms over host entries [begin, end) (src/core/backend.h, csri_terms), added to
 * acc[k] exactly: shared by the CPU backends. Internal. */
#ifndef CSR_KERNELS_EXACT_TERMS_H
#define CSR_KERNELS_EXACT_TERMS_H

#include "core/backend.h"

void csri_exact_terms(csri_terms terms, const csr_vector *const *v, int64_t begin, int64_t end,
                      csri_exact_acc *acc);

#endif
