/* SPDX-License-Identifier: BSD-3-Clause */
/* The triangles ILUT produces, row by row (src/solve/ilut_rows.h): arrays that grow by half
 * again, within the memory the context allows, and the choice of what a row keeps. */
#include "solve/ilut_rows.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef csri_ilut_entry entry;

csr_status csri_ilut_rows_reserve(csr_context *ctx, csri_ilut_rows *t, int64_t need) {
  if (need <= t->capacity)
    return CSR_SUCCESS;
  int64_t capacity = t->capacity + t->capacity / 2;
  capacity = capacity < need ? need : capacity;
  size_t bytes = 0;
  const size_t per = sizeof(int32_t) + sizeof(double);
  if (csri_mul_overflows((size_t)capacity, per, &bytes) || !csri_host_bytes_fit(ctx, bytes))
    capacity = need;
  if (csri_mul_overflows((size_t)capacity, per, &bytes))
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "ILUT: %lld entries %s overflow size_t",
                     (long long)capacity, t->what);
  CSRI_TRY(csri_check_host_bytes(ctx, bytes, t->what));
  int32_t *col = csri_realloc(t->col, (size_t)capacity * sizeof(int32_t));
  if (col != NULL)
    t->col = col;
  double *val = csri_realloc(t->val, (size_t)capacity * sizeof(double));
  if (val != NULL)
    t->val = val;
  if (col == NULL || val == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "ILUT: no host memory for %lld entries %s",
                     (long long)capacity, t->what);
  t->capacity = capacity;
  return CSR_SUCCESS;
}

/* Larger magnitude first; ties: the lower column. */
static int by_magnitude(const void *a, const void *b) {
  const entry *x = a, *y = b;
  double mx = fabs(x->val), my = fabs(y->val);
  if (mx != my)
    return mx > my ? -1 : 1;
  return x->col < y->col ? -1 : x->col > y->col;
}

static int by_column(const void *a, const void *b) {
  const entry *x = a, *y = b;
  return x->col < y->col ? -1 : x->col > y->col;
}

int64_t csri_ilut_keep_largest(entry *kept, int64_t count, int64_t p) {
  if (count <= p)
    return count;
  qsort(kept, (size_t)count, sizeof(entry), by_magnitude);
  return p;
}

csr_status csri_ilut_rows_append(csr_context *ctx, csri_ilut_rows *t, int64_t i, entry *kept,
                                 int64_t count, const entry *diagonal) {
  qsort(kept, (size_t)count, sizeof(entry), by_column);
  int64_t at = t->off[i], need = at + count + (diagonal != NULL);
  CSRI_TRY(csri_ilut_rows_reserve(ctx, t, need));
  if (diagonal != NULL) {
    t->col[at] = diagonal->col;
    t->val[at++] = diagonal->val;
  }
  for (int64_t e = 0; e < count; e++) {
    t->col[at] = kept[e].col;
    t->val[at++] = kept[e].val;
  }
  t->off[i + 1] = at;
  return CSR_SUCCESS;
}

void csri_ilut_rows_renumber(csri_ilut_rows *t, int64_t n, const int32_t *number, int64_t fixed,
                             entry *scratch) {
  for (int64_t i = 0; i < n; i++) {
    int64_t begin = t->off[i], end = t->off[i + 1], count = 0;
    for (int64_t k = begin; k < end; k++)
      t->col[k] = number[t->col[k]];
    for (int64_t k = begin + fixed; k < end; k++)
      scratch[count++] = (entry){t->col[k], t->val[k]};
    qsort(scratch, (size_t)count, sizeof(entry), by_column);
    for (int64_t e = 0; e < count; e++) {
      t->col[begin + fixed + e] = scratch[e].col;
      t->val[begin + fixed + e] = scratch[e].val;
    }
  }
}

csr_status csri_ilut_rows_finish(csr_context *ctx, const csri_ilut_rows *t, int64_t n,
                                 csr_matrix **M) {
  CSRI_TRY(csr_matrix_create(ctx, M, n, n, t->off[n], CSR_F64, CSR_HOST));
  memcpy((*M)->row_offsets, t->off, (size_t)(n + 1) * sizeof(int64_t));
  if (t->off[n] > 0) { /* a triangle with no entries may never have had room made */
    memcpy((*M)->col_indices, t->col, (size_t)t->off[n] * sizeof(int32_t));
    memcpy((*M)->values, t->val, (size_t)t->off[n] * sizeof(double));
  }
  (*M)->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  return CSR_SUCCESS;
}

void csri_ilut_rows_free(csri_ilut_rows *t) {
  csri_free(t->off);
  csri_free(t->col);
  csri_free(t->val);
}
