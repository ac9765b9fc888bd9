/* SPDX-License-Identifier: BSD-3-Clause */
/* csr_reorder: a numbering of a square matrix's rows and columns that brings the entries a
 * product reads together. RCM on the host (src/kernels/rcm.c); the counting orders (DEGREE, HUB,
 * APPEARANCE) as a key per column (the backend's reorder.order_keys, src/kernels/order_keys.h)
 * and one stable radix sort, where A lives. */
#include "kernels/rcm.h"
#include "ops/ops.h"

#include <string.h>

static const char *const names[] = {"none", "auto", "rcm", "degree", "hub", "appearance"};
#define METHOD_COUNT ((int)(sizeof names / sizeof names[0]))

const char *csr_reorder_method_name(csr_reorder_method method) {
  return (int)method >= 0 && (int)method < METHOD_COUNT ? names[method] : "unknown";
}

csr_status csr_reorder_method_from_name(const char *name, csr_reorder_method *method) {
  if (name == NULL || method == NULL)
    return CSR_ERR_NULL_POINTER;
  for (int m = 0; m < METHOD_COUNT; m++)
    if (strcmp(name, names[m]) == 0) {
      *method = (csr_reorder_method)m;
      return CSR_SUCCESS;
    }
  return CSR_ERR_INVALID_VALUE;
}

/* The identity, where A is. */
static csr_status identity(csr_context *ctx, int64_t n, csr_location location,
                           csr_permutation **P) {
  int32_t *order = NULL;
  CSRI_TRY(csri_array_alloc(ctx, (void **)&order, n, sizeof(int32_t), CSR_HOST, 0));
  for (int64_t k = 0; k < n; k++)
    order[k] = (int32_t)k;
  csr_status status = csr_permutation_create(ctx, P, n, order, location);
  csri_array_free(order, CSR_HOST);
  return status;
}

/* RCM on the host: a device A's offsets and columns are copied there first. */
static csr_status rcm(csr_context *ctx, const csr_matrix *A, csr_permutation **P) {
  const int64_t n = A->rows;
  int64_t *off = A->row_offsets;
  int32_t *col = A->col_indices, *order = NULL;
  csr_status status = CSR_SUCCESS;
  if (A->location == CSR_DEVICE) {
    off = NULL;
    col = NULL;
    status = csri_array_alloc(ctx, (void **)&off, n + 1, sizeof(int64_t), CSR_HOST, 0);
    if (status >= 0)
      status = csri_array_alloc(ctx, (void **)&col, A->nnz, sizeof(int32_t), CSR_HOST, 0);
    if (status >= 0)
      status = csri_array_copy(ctx, off, CSR_HOST, A->row_offsets, CSR_DEVICE,
                               (size_t)(n + 1) * sizeof(int64_t));
    if (status >= 0)
      status = csri_array_copy(ctx, col, CSR_HOST, A->col_indices, CSR_DEVICE,
                               (size_t)A->nnz * sizeof(int32_t));
  }
  for (int64_t k = 0; status >= 0 && k < A->nnz; k++) /* RCM indexes with every column */
    if (col[k] < 0 || col[k] >= n)
      status = csri_column_error_at(ctx, A, k, col[k]);
  if (status >= 0)
    status = csri_array_alloc(ctx, (void **)&order, n, sizeof(int32_t), CSR_HOST, 0);
  if (status >= 0) {
    const csri_pattern pattern = {n, off, col};
    status = csri_rcm(ctx, &pattern, order);
  }
  if (status >= 0)
    status = csr_permutation_create(ctx, P, n, order, A->location);
  csri_array_free(order, CSR_HOST);
  if (A->location == CSR_DEVICE) {
    csri_array_free(off, CSR_HOST);
    csri_array_free(col, CSR_HOST);
  }
  return status;
}

/* A counting order on backend b: a key per column, sorted stably with the column numbers as the
 * values, which then are old_of_new; new_of_old is their inverse. */
static csr_status counting(csr_context *ctx, const csri_backend *b, const csr_matrix *A,
                           csri_order which, csr_permutation **P) {
  const int64_t n = A->rows;
  uint64_t *keys = NULL;
  csr_permutation *M = NULL;
  int bits = 0;
  csr_status status = csri_permutation_make(ctx, &M, n, A->location);
  if (status >= 0)
    status = csri_array_alloc(ctx, (void **)&keys, n, sizeof(uint64_t), A->location, 0);
  if (status >= 0)
    status = b->reorder.order_keys(ctx, A, which, keys, M->old_of_new, &bits);
  if (status >= 0 && bits > 0) /* bits == 0: every key 0, the order is the identity */
    status = csr_radix_sort(ctx, A->location, CSR_DATA_U64, keys, CSR_DATA_I32, M->old_of_new, n, 0,
                            bits, NULL, NULL);
  if (status >= 0)
    status = b->reorder.invert(ctx, M->old_of_new, n, M->new_of_old);
  csri_array_free(keys, A->location);
  if (status < 0)
    csr_permutation_free(&M);
  *P = M;
  return status;
}

csr_status csr_reorder(csr_context *ctx, const csr_matrix *A, csr_reorder_method method,
                       csr_permutation **P) {
  CSRI_CHECK_NULL(ctx, P);
  *P = NULL;
  CSRI_CHECK_NULL(ctx, A);
  if ((int)method < 0 || (int)method >= METHOD_COUNT)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "csr_reorder: method %d", (int)method);
  if (A->rows != A->cols)
    return CSRI_FAIL(ctx, CSR_ERR_DIMENSION_MISMATCH,
                     "csr_reorder: the matrix is %lld x %lld, not square", (long long)A->rows,
                     (long long)A->cols);
  const csri_backend *b;
  csr_status status =
      csri_convert_dispatch(ctx, A, offsetof(csri_backend, reorder.order_keys), "reordering", &b);
  CSRI_TRY(status);
  /* AUTO is RCM: of the orders here it brought the most locality to every graph and mesh tried
   * (docs/algorithms.md); the counting orders are for callers who cannot spend its time. */
  if (method == CSR_REORDER_AUTO)
    method = A->rows < 2 ? CSR_REORDER_NONE : CSR_REORDER_RCM;
  if (A->rows == 0)
    method = CSR_REORDER_NONE;
  csr_status st;
  switch (method) {
  case CSR_REORDER_NONE: st = identity(ctx, A->rows, A->location, P); break;
  case CSR_REORDER_RCM: st = rcm(ctx, A, P); break;
  case CSR_REORDER_DEGREE: st = counting(ctx, b, A, CSRI_ORDER_DEGREE, P); break;
  case CSR_REORDER_HUB: st = counting(ctx, b, A, CSRI_ORDER_HUB, P); break;
  default: st = counting(ctx, b, A, CSRI_ORDER_APPEARANCE, P); break;
  }
  return st < 0 ? st : csri_ran(ctx, b, status, st);
}
