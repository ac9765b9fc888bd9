/* SPDX-License-Identifier: BSD-3-Clause */
/* The preconditioner M of a csr_solve run, applied as z = M^-1 r: Jacobi's diag(A)^-1 as a
 * diagonal matrix (csr_spmv), or an incomplete factorization (csr_factor_apply), made from A by
 * the run or handed in by the caller. Every way is public operations, so it runs where A is. */
#include "solve/solver.h"

static csr_factor_kind kind_of(csr_solver_preconditioner p) {
  return p == CSR_PRECOND_IC0    ? CSR_FACTOR_IC0
         : p == CSR_PRECOND_ILUT ? CSR_FACTOR_ILUT
                                 : CSR_FACTOR_ILU0;
}

csr_status csri_precond_setup(csri_solve_run *run, csri_precond *pc) {
  const csr_solver_options *o = run->options;
  *pc = (csri_precond){0};
  switch (o->preconditioner) {
  case CSR_PRECOND_JACOBI:
    return csri_inverse_diagonal(run->ctx, run->A, run->x->value_type, &pc->inverse_diagonal);
  case CSR_PRECOND_ILU0:
  case CSR_PRECOND_ILUT:
  case CSR_PRECOND_IC0: {
    csr_factor_options fo = o->factor_options;
    fo.kind = kind_of(o->preconditioner);
    CSRI_TRY(csr_factor_compute(run->ctx, run->A, &fo, &pc->owned));
    pc->factor = pc->owned;
    return CSR_SUCCESS;
  }
  case CSR_PRECOND_FACTOR: pc->factor = o->factor; return CSR_SUCCESS;
  default: return CSR_SUCCESS;
  }
}

int csri_precond_active(const csri_precond *pc) {
  return pc->inverse_diagonal != NULL || pc->factor != NULL;
}

csr_status csri_precond_apply(csr_context *ctx, const csri_precond *pc, const csr_vector *r,
                              csr_vector *z) {
  if (pc->inverse_diagonal != NULL)
    return csr_spmv(ctx, 1.0, pc->inverse_diagonal, r, 0.0, z);
  if (pc->factor != NULL)
    return csr_factor_apply(ctx, pc->factor, r, z);
  return csr_copy(ctx, r, z);
}

void csri_precond_free(csri_precond *pc) {
  csr_matrix_free(&pc->inverse_diagonal);
  csr_factor_free(&pc->owned);
  pc->factor = NULL;
}
