/* Format converters: backend entry points, and the per-row kernels both CPU backends share so
 * that they order, sum and check entries identically (results match bit for bit). */
#ifndef CSR_CONVERT_IMPL_H
#define CSR_CONVERT_IMPL_H

#include "internal.h"
#include "omp_partition.h"

/* Rows of at most this many entries are insertion-sorted; longer rows are merge-sorted starting
 * from insertion-sorted runs of this length (so only they need scratch). */
#define CSRI_SORT_RUN 32
/* Upper bound on the row blocks an OpenMP loop is split into (bounds live on the stack). */

/* --- front-end checks (src/convert_coo.c) --------------------------------------------------- */

/* The CPU backend for host operands; *status becomes CSR_INFO_DECLINED when the context asked
 * for CUDA (which has no converters yet), as for SpMV, else CSR_SUCCESS. */
csr_backend csri_convert_backend(const csr_context *ctx, csr_status *status);
/* INVALID_VALUE for a bad location enum, UNSUPPORTED for device operands. */
csr_status csri_convert_check_location(csr_context *ctx, csr_location location);
/* A host CSR the converters can walk: valid enums and shape, arrays present, row_offsets[0] == 0,
 * non-decreasing, row_offsets[rows] == nnz. Columns are checked by the backends that index with
 * them. */
csr_status csri_convert_check_csr(csr_context *ctx, const csr_matrix *A);
/* Reports entry k of A whose column lies outside [0, cols) (INDEX_OUT_OF_BOUNDS). */
csr_status csri_column_error(csr_context *ctx, const csr_matrix *A, int64_t k);
/* Reports COO triple k lying outside the matrix (INDEX_OUT_OF_BOUNDS). */
csr_status csri_coo_index_error(csr_context *ctx, const csr_coo *T, int64_t k);

/* Element (i, j) of a host dense matrix, as double (exact for both value types). */
static inline double csri_dense_get(const csr_dense *D, int64_t i, int64_t j) {
  int64_t p = D->layout == CSR_ROW_MAJOR ? i * D->ld + j : i + j * D->ld;
  return D->value_type == CSR_F64 ? ((const double *)D->data)[p] : ((const float *)D->data)[p];
}
/* values[k] as double (1 for a pattern, whose entries count as 1). */
static inline double csri_value_get(const void *values, csr_value_type type, int64_t k) {
  if (type == CSR_F64)
    return ((const double *)values)[k];
  return type == CSR_F32 ? ((const float *)values)[k] : 1.0;
}
/* values[p] = v in the array's value type (nothing for a pattern). */
static inline void csri_value_put(void *values, csr_value_type type, int64_t p, double v) {
  if (type == CSR_F64)
    ((double *)values)[p] = v;
  else if (type == CSR_F32)
    ((float *)values)[p] = (float)v;
}

/* --- shared per-row kernels (src/ref) --------------------------------------------------------- */

/* Sorts n pairs (cols[k], src[k]) by column, then src (src values are distinct, so the order is
 * total and the result does not depend on the input order). tmp_* hold n entries when
 * n > CSRI_SORT_RUN, else may be NULL. */
void csri_sort_by_column(int64_t n, int32_t *cols, int64_t *src, int32_t *tmp_cols,
                         int64_t *tmp_src);
/* Merges runs of equal columns in the sorted segment [b, e): the run's value is the sum of
 * in[src[k]] in segment order. A run is kept unless drop_zeros and its sum is exactly zero.
 * Writes kept entries at out_cols[pos...] / out_vals when out_cols is not NULL; returns the
 * number kept. */
int64_t csri_merge_row(const int32_t *cols, const int64_t *src, int64_t b, int64_t e,
                       const void *in, csr_value_type type, int drop_zeros, int32_t *out_cols,
                       void *out_vals, int64_t pos);
/* T's triples of rows [r0, r1) of A, in stored order. */
void csri_to_coo_rows(const csr_matrix *A, csr_coo *T, int64_t r0, int64_t r1);
/* D(i, j) += a_ij for rows [r0, r1), in stored order; the first entry with a column out of range
 * (nothing after it is added), or -1. */
int64_t csri_to_dense_rows(const csr_matrix *A, csr_dense *D, int64_t r0, int64_t r1);
/* Symmetric expansion, rows [r0, r1): first entry that cannot be expanded (column out of range,
 * nonzero diagonal when skew) or -1; adds the number of diagonal entries to *diagonal. */
int64_t csri_expand_check_rows(const csr_matrix *A, csr_symmetry symmetry, int64_t r0, int64_t r1,
                               int64_t *diagonal);
csr_status csri_expand_error(csr_context *ctx, const csr_matrix *A, int64_t k);
/* Work arrays and result of an expansion with `diag` diagonal entries: 2*nnz (row, col) keys,
 * and m = 2*nnz - diag source positions and output entries. */
typedef struct csri_expand_work {
  int32_t *rkey, *ckey;
  int64_t *src;
  csr_matrix *out;
} csri_expand_work;
/* Allocates everything (all NULL on failure); csri_expand_free releases what is left. */
csr_status csri_expand_alloc(csr_context *ctx, const csr_matrix *A, int64_t diag,
                             csri_expand_work *w);
void csri_expand_free(csri_expand_work *w);
/* Item 2k is entry k at (i, j), item 2k+1 its mirror (j, i), or rkey -1 for a diagonal entry. */
void csri_expand_keys_rows(const csr_matrix *A, int64_t r0, int64_t r1, int32_t *rkey,
                           int32_t *ckey);
/* out[p] = the value of item src[p] (negated for a skew mirror), p in [p0, p1). */
void csri_expand_gather(const csr_matrix *A, csr_symmetry symmetry, const int64_t *src, int64_t p0,
                        int64_t p1, void *out);
/* 1 if a row in [r0, r1) of a column-sorted M holds a column twice. */
int csri_sorted_rows_have_duplicates(const csr_matrix *M, int64_t r0, int64_t r1);

/* Groups items k in [0, n) with rkey[k] >= 0 by rkey (nb groups) and orders each group by
 * (ckey[k], k): off[nb + 1] receives the group offsets, cols[p] = ckey[k], src[p] = k. cols and
 * src hold as many entries as there are items with rkey >= 0; keys must be in range. */
csr_status csri_ref_group_sort(csr_context *ctx, int64_t n, const int32_t *rkey,
                               const int32_t *ckey, int64_t nb, int64_t *off, int32_t *cols,
                               int64_t *src);
csr_status csri_omp_group_sort(csr_context *ctx, int64_t n, const int32_t *rkey,
                               const int32_t *ckey, int64_t nb, int64_t *off, int32_t *cols,
                               int64_t *src);

/* --- backends: operands checked by the front end, nnz > 0; to_* fill a created output ---- */

csr_status csri_ref_from_coo(csr_context *ctx, const csr_coo *T, unsigned options, csr_matrix **A);
csr_status csri_omp_from_coo(csr_context *ctx, const csr_coo *T, unsigned options, csr_matrix **A);
csr_status csri_ref_to_coo(csr_context *ctx, const csr_matrix *A, csr_coo *T);
csr_status csri_omp_to_coo(csr_context *ctx, const csr_matrix *A, csr_coo *T);
csr_status csri_ref_from_dense(csr_context *ctx, const csr_dense *D, csr_matrix **A);
csr_status csri_omp_from_dense(csr_context *ctx, const csr_dense *D, csr_matrix **A);
csr_status csri_ref_to_dense(csr_context *ctx, const csr_matrix *A, csr_dense *D);
csr_status csri_omp_to_dense(csr_context *ctx, const csr_matrix *A, csr_dense *D);
csr_status csri_ref_transpose(csr_context *ctx, const csr_matrix *A, csr_matrix *AT);
csr_status csri_omp_transpose(csr_context *ctx, const csr_matrix *A, csr_matrix *AT);
csr_status csri_ref_symmetric_expand(csr_context *ctx, const csr_matrix *A, csr_symmetry symmetry,
                                     csr_matrix **full);
csr_status csri_omp_symmetric_expand(csr_context *ctx, const csr_matrix *A, csr_symmetry symmetry,
                                     csr_matrix **full);

#endif /* CSR_CONVERT_IMPL_H */
