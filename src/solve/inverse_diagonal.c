/* SPDX-License-Identifier: BSD-3-Clause */
/* Jacobi's M^-1 = diag(A)^-1 for GMRES, as a diagonal CSR matrix where A lives: applying it is a
 * csr_spmv, so the method needs no element-wise product of its own and runs the same on the host
 * and the device. Unlike CG's diagonal (csri_jacobi), a negative a_ii is fine here: an unsymmetric
 * A has no reason to have a positive diagonal. The diagonal is read on the host (a device A is
 * copied there once for it). */
#include "kernels/rows.h"
#include "solve/solver.h"

#include <float.h>
#include <math.h>

/* D = diag(A)^-1 on the host, of `type`, from a host A; the first row without a usable diagonal
 * is refused. */
static csr_status build(csr_context *ctx, const csr_matrix *A, csr_value_type type,
                        csr_matrix **D) {
  int64_t n = A->rows;
  CSRI_TRY(csr_matrix_create(ctx, D, n, n, n, type, CSR_HOST));
  const double largest = type == CSR_F64 ? DBL_MAX : FLT_MAX;
  for (int64_t i = 0; i < n; i++) {
    int found = 0;
    double a = csri_row_diagonal(A, i, i, &found), inverse = 1.0 / a;
    if (!found || a == 0.0) {
      csr_matrix_free(D);
      return CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                       "GMRES (Jacobi): row %lld (0-based; %lld in a Matrix Market file) has %s "
                       "diagonal entry: Jacobi needs a_ii != 0 (use no preconditioner)",
                       (long long)i, (long long)i + 1, found ? "a zero" : "no");
    }
    if (!(fabs(inverse) <= largest)) {
      csr_matrix_free(D);
      return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                       "GMRES (Jacobi): 1 / A(%lld,%lld) = 1 / %g overflows (0-based): scale the "
                       "system",
                       (long long)i, (long long)i, a);
    }
    (*D)->row_offsets[i + 1] = i + 1;
    (*D)->col_indices[i] = (int32_t)i;
    if (type == CSR_F64)
      ((double *)(*D)->values)[i] = inverse;
    else
      ((float *)(*D)->values)[i] = (float)inverse;
  }
  (*D)->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  return CSR_SUCCESS;
}

csr_status csri_inverse_diagonal(csr_context *ctx, const csr_matrix *A, csr_value_type type,
                                 csr_matrix **D) {
  *D = NULL;
  csr_matrix *host_A = NULL, *host_D = NULL;
  if (A->location != CSR_HOST)
    CSRI_TRY(csr_matrix_copy(ctx, A, &host_A, CSR_HOST));
  csr_status status = build(ctx, host_A != NULL ? host_A : A, type, &host_D);
  csr_matrix_free(&host_A);
  if (status >= 0 && A->location != CSR_HOST) {
    status = csr_matrix_copy(ctx, host_D, D, A->location);
    csr_matrix_free(&host_D);
  } else {
    *D = host_D;
  }
  return status;
}
