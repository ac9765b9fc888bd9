/* SPDX-License-Identifier: BSD-3-Clause */
/* Dots and norms across ranks, exact: S = sum over ranks of sum over own i of t_i, each t_i (a
 * product of two entries rounded to double, a square, an absolute value) summed without further
 * rounding into a fixed-point accumulator (src/kernels/exact_sum.h) by the backend where the
 * entries live (src/ops/exact_sums.c: the CPU a block at a time, the GPU a warp at a time); the
 * accumulators are added as integers by one MPI_Allreduce and S is rounded once. Integer addition
 * does not care about order or grouping, so the result has the same bits on any number of ranks and
 * any split. Cost: 139 words (1.1 KB) per sum in the reduction, and a few floating-point operations
 * per term. */
#include "dist/dist.h"
#include "ops/ops.h"

#include <math.h>
#include <string.h>

void csri_dist_sums_init(csri_dist_sums *s, int count) {
  s->count = count;
  for (int k = 0; k < count; k++)
    csri_exact_init(&s->acc[k]);
}

csr_status csri_dist_sums_finish(csr_context *ctx, MPI_Comm comm, csri_dist_sums *s,
                                 csr_status local, unsigned sqrt_mask, double *out) {
  enum { WORDS = CSRI_EXACT_WORDS };
  int64_t mine[CSRI_DIST_MAX_SUMS * WORDS + 1], all[CSRI_DIST_MAX_SUMS * WORDS + 1];
  for (int k = 0; k < s->count; k++) {
    csri_exact_normalize(&s->acc[k]);
    memcpy(mine + k * WORDS, s->acc[k].w, sizeof s->acc[k].w);
  }
  mine[s->count * WORDS] = local < 0; /* ranks that failed */
  int code = MPI_Allreduce(mine, all, s->count * WORDS + 1, MPI_INT64_T, MPI_SUM, comm);
  if (code != MPI_SUCCESS)
    return csri_dist_mpi_error(ctx, code, "MPI_Allreduce (exact sums)");
  if (all[s->count * WORDS] > 0) /* every rank knows: agree on whose error it is */
    return csri_dist_agree(ctx, comm, local);
  for (int k = 0; k < s->count; k++) {
    memcpy(s->acc[k].w, all + k * WORDS, sizeof s->acc[k].w);
    out[k] = sqrt_mask >> k & 1u ? csri_exact_sqrt_round(&s->acc[k]) : csri_exact_round(&s->acc[k]);
  }
  return local;
}

/* acc += the terms of this rank's entries of x (and y), on the backend where they live. */
static csr_status deposit(csr_context *ctx, csri_exact_acc *acc, csri_terms terms,
                          const csr_dist_vector *x, const csr_dist_vector *y) {
  csr_vector xv = csri_dist_view(x, 0, x->layout->count);
  csr_vector yv = y ? csri_dist_view(y, 0, y->layout->count) : xv;
  const csr_vector *v[4] = {&xv, y ? &yv : NULL, NULL, NULL};
  return csri_exact_sums(ctx, terms, v, acc);
}

csr_status csri_dist_deposit_dot(csr_context *ctx, csri_exact_acc *acc, const csr_dist_vector *x,
                                 const csr_dist_vector *y) {
  return deposit(ctx, acc, CSRI_TERMS_DOT, x, y);
}

csr_status csri_dist_deposit_squares(csr_context *ctx, csri_exact_acc *acc,
                                     const csr_dist_vector *x) {
  return deposit(ctx, acc, CSRI_TERMS_SQUARES, x, NULL);
}

csr_status csri_dist_deposit_abs(csr_context *ctx, csri_exact_acc *acc, const csr_dist_vector *x) {
  return deposit(ctx, acc, CSRI_TERMS_ABS, x, NULL);
}

static MPI_Comm comm_of(const csr_dist_vector *x, const csr_dist_vector *y) {
  return x ? x->layout->comm : y ? y->layout->comm : MPI_COMM_SELF;
}

csr_status csr_dist_dot(csr_context *ctx, const csr_dist_vector *x, const csr_dist_vector *y,
                        double *result) {
  MPI_Comm comm = comm_of(x, y);
  csr_status status = csri_dist_check_vectors(ctx, "dot", x, y);
  if (status >= 0 && result == NULL)
    status = CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "dot: result must not be NULL");
  CSRI_TRY(csri_dist_agree(ctx, comm, status));
  csri_dist_sums s;
  csri_dist_sums_init(&s, 1);
  return csri_dist_sums_finish(ctx, comm, &s, csri_dist_deposit_dot(ctx, &s.acc[0], x, y), 0,
                               result);
}

/* nrm2 and nrm1: one exact sum of x's terms. */
static csr_status norm(csr_context *ctx, const csr_dist_vector *x, double *result, int two) {
  MPI_Comm comm = comm_of(x, NULL);
  csr_status status = x == NULL || result == NULL ? CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER,
                                                              "norm: x and result must not be NULL")
                                                  : CSR_SUCCESS;
  CSRI_TRY(csri_dist_agree(ctx, comm, status));
  csri_dist_sums s;
  csri_dist_sums_init(&s, 1);
  status =
      two ? csri_dist_deposit_squares(ctx, &s.acc[0], x) : csri_dist_deposit_abs(ctx, &s.acc[0], x);
  return csri_dist_sums_finish(ctx, comm, &s, status, two ? 1u : 0u, result);
}

csr_status csr_dist_nrm2(csr_context *ctx, const csr_dist_vector *x, double *result) {
  return norm(ctx, x, result, 1);
}

csr_status csr_dist_nrm1(csr_context *ctx, const csr_dist_vector *x, double *result) {
  return norm(ctx, x, result, 0);
}

/* max |x_i| needs no accumulator (a maximum is exact): the local one, and an NaN flag, which
 * MPI_MAX would not carry. */
csr_status csr_dist_nrminf(csr_context *ctx, const csr_dist_vector *x, double *result) {
  MPI_Comm comm = comm_of(x, NULL);
  csr_status status =
      x == NULL || result == NULL
          ? CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "nrminf: x and result must not be NULL")
          : CSR_SUCCESS;
  CSRI_TRY(csri_dist_agree(ctx, comm, status));
  /* {max |x_i| over non-NaN entries, any NaN (1), this rank failed (1)}: one reduction carries
   * the maximum and the verdict. */
  double local[3] = {0.0, 0.0, 0.0}, all[3];
  csr_vector view = csri_dist_view(x, 0, x->layout->count);
  status = csr_nrminf(ctx, &view, &local[0]);
  if (isnan(local[0])) {
    local[0] = 0.0;
    local[1] = 1.0;
  }
  local[2] = status < 0;
  CSRI_MPI(ctx, MPI_Allreduce(local, all, 3, MPI_DOUBLE, MPI_MAX, comm));
  if (all[2] > 0.0)
    return csri_dist_agree(ctx, comm, status);
  *result = all[1] > 0.0 ? NAN : all[0];
  return status;
}
