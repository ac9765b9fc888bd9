/* SPDX-License-Identifier: BSD-3-Clause */
/* Dots and norms across ranks, exact: S = sum over ranks of sum over own i of t_i, each t_i (a
 * product of two entries rounded to double, a square, an absolute value) summed without further
 * rounding, a block at a time (src/kernels/exact_block.h) into a fixed-point accumulator
 * (src/kernels/exact_sum.h); the accumulators are added as integers by one MPI_Allreduce and S is
 * rounded once. Integer addition does not care about order or grouping, so the result has the
 * same bits on any number of ranks and any split. Cost: 139 words (1.1 KB) per sum in the
 * reduction, and a few floating-point operations per term. */
#include "dist/dist.h"
#include "kernels/exact_block.h"

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

/* The local entries of v on the host: v's own storage, or a copy of a device vector's. */
static csr_status host_entries(csr_context *ctx, const csr_dist_vector *v, const void **data,
                               void **copy) {
  *copy = NULL;
  *data = v->data;
  if (v->location == CSR_HOST)
    return CSR_SUCCESS;
  size_t bytes = (size_t)v->layout->count * csri_value_size(v->value_type);
  *copy = csri_malloc(bytes + 1);
  if (*copy == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating a host copy failed");
  *data = *copy;
  return csri_array_copy(ctx, *copy, CSR_HOST, v->data, CSR_DEVICE, bytes);
}

/* The local entries [b, b + n) of v as doubles in out (a copy for F32 data). */
static const double *as_doubles(const void *data, csr_value_type type, int64_t b, int64_t n,
                                double *out) {
  if (type == CSR_F64)
    return (const double *)data + b;
  for (int64_t i = 0; i < n; i++)
    out[i] = ((const float *)data)[b + i];
  return out;
}

/* What one deposit adds: the products, the squares or the absolute values of a run of entries. */
typedef enum terms { PRODUCTS, SQUARES, ABSOLUTE } terms;

/* acc += the terms of this rank's entries of x (and y), a block at a time. */
static csr_status deposit(csr_context *ctx, csri_exact_acc *acc, terms kind,
                          const csr_dist_vector *x, const csr_dist_vector *y) {
  const void *xd, *yd = NULL;
  void *xc = NULL, *yc = NULL;
  csr_status status = host_entries(ctx, x, &xd, &xc);
  if (status >= 0 && y != NULL)
    status = host_entries(ctx, y, &yd, &yc);
  int64_t n = x->layout->count;
  double xb[CSRI_EXACT_BLOCK], yb[CSRI_EXACT_BLOCK];
  for (int64_t b = 0; status >= 0 && b < n; b += CSRI_EXACT_BLOCK) {
    int64_t len = n - b < CSRI_EXACT_BLOCK ? n - b : CSRI_EXACT_BLOCK;
    const double *xs = as_doubles(xd, x->value_type, b, len, xb);
    if (kind == PRODUCTS)
      csri_exact_add_products(acc, xs, as_doubles(yd, y->value_type, b, len, yb), len);
    else if (kind == SQUARES)
      csri_exact_add_squares(acc, xs, len);
    else
      csri_exact_add_abs(acc, xs, len);
  }
  csri_free(xc);
  csri_free(yc);
  return status;
}

csr_status csri_dist_deposit_dot(csr_context *ctx, csri_exact_acc *acc, const csr_dist_vector *x,
                                 const csr_dist_vector *y) {
  return deposit(ctx, acc, PRODUCTS, x, y);
}

csr_status csri_dist_deposit_squares(csr_context *ctx, csri_exact_acc *acc,
                                     const csr_dist_vector *x) {
  return deposit(ctx, acc, SQUARES, x, NULL);
}

csr_status csri_dist_deposit_abs(csr_context *ctx, csri_exact_acc *acc, const csr_dist_vector *x) {
  return deposit(ctx, acc, ABSOLUTE, x, NULL);
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
