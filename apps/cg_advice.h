/* SPDX-License-Identifier: BSD-3-Clause */
/* cg's advice after a failed or stalled solve (apps/cg_advice.c). */
#ifndef CSR_APPS_CG_ADVICE_H
#define CSR_APPS_CG_ADVICE_H

#include "csr.h"

#include <stddef.h>

/* What A's values say about CG: symmetric or not (the first pair that differs, a_ij against
 * a_ji), and for a symmetric A the first diagonal entry <= 0, which proves it indefinite. */
typedef struct cg_symmetry {
  int symmetric;
  int64_t row, col; /* the first (i, j), in row order, with a_ij != a_ji; -1 when symmetric */
  double a_ij, a_ji;
  int64_t diagonal_row; /* the first i with a_ii <= 0 (symmetric A), else -1 */
  double diagonal;
} cg_symmetry;

/* Fills *out for a host A (square). Errors: those of csr_transpose. */
csr_status cg_check_symmetry(csr_context *ctx, const csr_matrix *A, cg_symmetry *out);

/* One sentence for the user into text: why `method` could not solve A x = b (broke_down: it broke
 * down; else it stopped at the iteration limit) and the method that fits. Returns 1 when there is
 * something to say, 0 when A's symmetry and diagonal explain nothing. */
int cg_advice(const cg_symmetry *sym, csr_solver_method method, int broke_down, char *text,
              size_t size);

#endif /* CSR_APPS_CG_ADVICE_H */
