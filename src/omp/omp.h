/* SPDX-License-Identifier: BSD-3-Clause */
/* The OpenMP backend: every operation on host operands, split over threads so that results do not
 * depend on the thread count (src/omp/partition.h). Its entries are declared by
 * CSRI_DECLARE_BACKEND (their contracts: src/core/backend.h) and listed in src/omp/table.c.
 * Internal. */
#ifndef CSR_OMP_H
#define CSR_OMP_H

#include "core/backend.h"
#include "omp/partition.h"

CSRI_DECLARE_BACKEND(omp);

#endif /* CSR_OMP_H */
