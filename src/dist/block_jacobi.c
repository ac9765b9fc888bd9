/* SPDX-License-Identifier: BSD-3-Clause */
/* Block Jacobi across ranks, PETSc's parallel default: M = diag(A_00, A_11, ...), each rank's
 * block A_rr (its rows, its own columns) preconditioned by itself, with no communication: by
 * Jacobi's diag(A_rr)^-1, or by an incomplete factorization of A_rr (csr_factor_compute, ILU(0),
 * ILUT or IC(0)), applied to the rank's entries of a vector. The block is gathered from the
 * matrix's two parts (interior rows, then boundary rows: the vector's local order), dropping the
 * ghost columns. The factors, and so the iterates, depend on the number of ranks. */
#include "dist/solver.h"

#include <stdio.h>
#include <string.h>

/* A_rr on the host in the vectors' local order: the interior part's rows, then the boundary's,
 * each without its ghost columns (renamed columns count and above). */
static csr_status local_block(csr_context *ctx, const csr_dist_matrix *A, csr_matrix **block) {
  const csr_matrix *part[2] = {A->interior, A->boundary};
  csr_matrix *host[2] = {NULL, NULL};
  int64_t n = A->rows->count, nnz = 0;
  csr_status status = CSR_SUCCESS;
  for (int h = 0; h < 2 && status >= 0; h++)
    if (part[h]->location != CSR_HOST) {
      status = csr_matrix_copy(ctx, part[h], &host[h], CSR_HOST);
      part[h] = host[h];
    }
  for (int h = 0; h < 2 && status >= 0; h++)
    for (int64_t k = 0; k < part[h]->nnz; k++)
      nnz += part[h]->col_indices[k] < n;
  if (status >= 0)
    status = csr_matrix_create(ctx, block, n, n, nnz, part[0]->value_type, CSR_HOST);
  int64_t row = 0, at = 0;
  size_t size = part[0]->value_type == CSR_F64 ? sizeof(double) : sizeof(float);
  for (int h = 0; h < 2 && status >= 0; h++)
    for (int64_t i = 0; i < part[h]->rows; i++, row++) {
      for (int64_t k = part[h]->row_offsets[i]; k < part[h]->row_offsets[i + 1]; k++) {
        if (part[h]->col_indices[k] >= n)
          continue;
        (*block)->col_indices[at] = part[h]->col_indices[k];
        if (part[h]->values != NULL)
          memcpy((char *)(*block)->values + (size_t)at * size,
                 (const char *)part[h]->values + (size_t)k * size, size);
        at++;
      }
      (*block)->row_offsets[row + 1] = at;
    }
  csr_matrix_free(&host[0]);
  csr_matrix_free(&host[1]);
  return status;
}

csr_status csri_dist_block_jacobi(csri_dist_run *run, csri_precond *pc) {
  csr_context *ctx = run->base.ctx;
  const csr_dist_matrix *A = run->A;
  const csr_solver_options *o = run->base.options;
  *pc = (csri_precond){0};
  if (o->preconditioner == CSR_PRECOND_NONE)
    return CSR_SUCCESS;
  csr_matrix *block = NULL, *placed = NULL;
  csr_status status = local_block(ctx, A, &block);
  if (status >= 0 && A->location != CSR_HOST)
    status = csr_matrix_copy(ctx, block, &placed, A->location);
  const csr_matrix *where = placed != NULL ? placed : block;
  if (status >= 0 && o->preconditioner == CSR_PRECOND_JACOBI) {
    status = csri_inverse_diagonal(ctx, where, run->x->value_type, &pc->inverse_diagonal);
  } else if (status >= 0) {
    csr_factor_options fo = o->factor_options;
    fo.kind = o->preconditioner == CSR_PRECOND_IC0    ? CSR_FACTOR_IC0
              : o->preconditioner == CSR_PRECOND_ILUT ? CSR_FACTOR_ILUT
                                                      : CSR_FACTOR_ILU0;
    status = csr_factor_compute(ctx, where, &fo, &pc->owned);
    pc->factor = pc->owned;
  }
  csr_matrix_free(&block);
  csr_matrix_free(&placed);
  if (status < 0) {
    csri_precond_free(pc);
    char why[512];
    snprintf(why, sizeof why, "%s", csr_context_last_message(ctx));
    status =
        CSRI_FAIL(ctx, status, "block Jacobi: the diagonal block of rows %lld to %lld: %s",
                  (long long)A->rows->first, (long long)(A->rows->first + A->rows->count - 1), why);
  }
  return csri_dist_agree(ctx, A->rows->comm, status);
}
