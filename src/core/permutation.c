/* SPDX-License-Identifier: BSD-3-Clause */
/* csr_permutation: create (from a host order, checked to be a permutation), free, deep copy. */
#include "core/internal.h"

/* An empty permutation with its two arrays of n entries at `location`. */
static csr_status make(csr_context *ctx, csr_permutation **P, int64_t n, csr_location location) {
  csr_permutation *M = csri_calloc(1, sizeof *M);
  if (M == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "permutation descriptor allocation failed");
  M->n = n;
  M->location = location;
  csr_status s = csri_array_alloc(ctx, (void **)&M->old_of_new, n, sizeof(int32_t), location, 0);
  if (s == CSR_SUCCESS)
    s = csri_array_alloc(ctx, (void **)&M->new_of_old, n, sizeof(int32_t), location, 0);
  if (s != CSR_SUCCESS) {
    csr_permutation_free(&M);
    return s;
  }
  *P = M;
  return CSR_SUCCESS;
}

csr_status csr_permutation_create(csr_context *ctx, csr_permutation **P, int64_t n,
                                  const int32_t *order, csr_location location) {
  CSRI_CHECK_NULL(ctx, P);
  *P = NULL;
  CSRI_TRY(csri_check_shape(ctx, n, n, 0));
  CSRI_TRY(csri_check_location(ctx, location));
  if (n > 0)
    CSRI_CHECK_NULL(ctx, order);
  /* The inverse is built on the host, where it also finds what is not a permutation. */
  int32_t *inverse = NULL;
  CSRI_TRY(csri_array_alloc(ctx, (void **)&inverse, n, sizeof(int32_t), CSR_HOST, 0));
  for (int64_t i = 0; i < n; i++)
    inverse[i] = -1;
  for (int64_t k = 0; k < n; k++) {
    int32_t i = order[k];
    if (i < 0 || i >= n || inverse[i] >= 0) {
      const int32_t earlier = i < 0 || i >= n ? -1 : inverse[i];
      csri_array_free(inverse, CSR_HOST);
      if (earlier < 0)
        return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                         "not a permutation of [0, %lld): order[%lld] = %d is out of range",
                         (long long)n, (long long)k, (int)i);
      return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                       "not a permutation of [0, %lld): order[%lld] = %d repeats order[%d]",
                       (long long)n, (long long)k, (int)i, (int)earlier);
    }
    inverse[i] = (int32_t)k;
  }
  csr_permutation *M = NULL;
  csr_status s = make(ctx, &M, n, location);
  size_t bytes = (size_t)n * sizeof(int32_t);
  if (s == CSR_SUCCESS)
    s = csri_array_copy(ctx, M->old_of_new, location, order, CSR_HOST, bytes);
  if (s == CSR_SUCCESS)
    s = csri_array_copy(ctx, M->new_of_old, location, inverse, CSR_HOST, bytes);
  csri_array_free(inverse, CSR_HOST);
  if (s != CSR_SUCCESS) {
    csr_permutation_free(&M);
    return s;
  }
  *P = M;
  return CSR_SUCCESS;
}

void csr_permutation_free(csr_permutation **P) {
  if (P == NULL || *P == NULL)
    return;
  csri_array_free((*P)->old_of_new, (*P)->location);
  csri_array_free((*P)->new_of_old, (*P)->location);
  csri_free(*P);
  *P = NULL;
}

csr_status csr_permutation_copy(csr_context *ctx, const csr_permutation *src, csr_permutation **dst,
                                csr_location location) {
  CSRI_CHECK_NULL(ctx, dst);
  *dst = NULL;
  CSRI_CHECK_NULL(ctx, src);
  CSRI_TRY(csri_check_location(ctx, location));
  csr_permutation *M = NULL;
  CSRI_TRY(make(ctx, &M, src->n, location));
  size_t bytes = (size_t)src->n * sizeof(int32_t);
  csr_status s =
      csri_array_copy(ctx, M->old_of_new, location, src->old_of_new, src->location, bytes);
  if (s == CSR_SUCCESS)
    s = csri_array_copy(ctx, M->new_of_old, location, src->new_of_old, src->location, bytes);
  if (s != CSR_SUCCESS) {
    csr_permutation_free(&M);
    return s;
  }
  *dst = M;
  return CSR_SUCCESS;
}

/* For the front ends that build a permutation where A is (src/ops/reorder.c). */
csr_status csri_permutation_make(csr_context *ctx, csr_permutation **P, int64_t n,
                                 csr_location location) {
  CSRI_CHECK_NULL(ctx, P);
  *P = NULL;
  return make(ctx, P, n, location);
}
