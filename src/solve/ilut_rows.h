/* SPDX-License-Identifier: BSD-3-Clause */
/* The triangles ILUT produces (src/solve/ilut.c), row by row, and the choice of the entries a row
 * keeps. Internal. */
#ifndef CSR_SOLVE_ILUT_ROWS_H
#define CSR_SOLVE_ILUT_ROWS_H

#include "solve/factor.h"

typedef struct csri_ilut_entry {
  int32_t col;
  double val;
} csri_ilut_entry;

/* A triangle as its rows are produced: row i is col/val[off[i], off[i + 1]). */
typedef struct csri_ilut_rows {
  int64_t *off; /* n + 1, zeroed by the caller */
  int32_t *col;
  double *val;
  int64_t capacity;
  const char *what; /* for the memory message */
} csri_ilut_rows;

/* Room for `need` entries in t, growing by half again (or just to need where that would pass the
 * memory the context allows). OUT_OF_MEMORY naming t->what. */
csr_status csri_ilut_rows_reserve(csr_context *ctx, csri_ilut_rows *t, int64_t need);

/* Reorders the `count` candidates so that the p largest in magnitude (ties: the lower col) come
 * first; returns how many are kept, min(count, p). */
int64_t csri_ilut_keep_largest(csri_ilut_entry *kept, int64_t count, int64_t p);

/* Appends kept[0, count) (reordered) to t as row i, columns ascending, after `diagonal` when it
 * is not NULL. */
csr_status csri_ilut_rows_append(csr_context *ctx, csri_ilut_rows *t, int64_t i,
                                 csri_ilut_entry *kept, int64_t count,
                                 const csri_ilut_entry *diagonal);

/* Every column c of the n rows of t becomes number[c], and each row's columns ascend again after
 * its first `fixed` entries (1 for U's diagonal). scratch: room for the longest row. */
void csri_ilut_rows_renumber(csri_ilut_rows *t, int64_t n, const int32_t *number, int64_t fixed,
                             csri_ilut_entry *scratch);

/* The n rows of t as a new host F64 matrix, SORTED | NO_DUPLICATES. */
csr_status csri_ilut_rows_finish(csr_context *ctx, const csri_ilut_rows *t, int64_t n,
                                 csr_matrix **M);

void csri_ilut_rows_free(csri_ilut_rows *t);

#endif /* CSR_SOLVE_ILUT_ROWS_H */
