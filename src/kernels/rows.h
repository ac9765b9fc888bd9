/* SPDX-License-Identifier: BSD-3-Clause */
/* Row kernels the two CPU backends share: serial loops over a range of rows (or entries), which
 * the reference backend runs over everything and the OpenMP backend chunk by chunk. Sharing them
 * is what makes the two agree bit for bit; it also means that for these operations the reference
 * is no independent oracle of the OpenMP backend (docs/design.md lists what the tests check them
 * against instead). The CUDA backend calls one of them, on the host, to describe a bad row of
 * PageRank's weights as the CPU does. Internal. */
#ifndef CSR_KERNELS_ROWS_H
#define CSR_KERNELS_ROWS_H

#include "core/backend.h"
#include "kernels/packed_layout.h"

#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Entry k's column: A's own, or from the packed index of a csr_spmv_run plan when there is one
 * (src/kernels/packed_layout.h). */
static inline int32_t csri_entry_column(const csr_matrix *A, const csri_packed *packed, int64_t k) {
  return packed != NULL ? csri_packed_column_at(packed->heads, packed->lo, packed->hi, k)
                        : A->col_indices[k];
}

/* --- values ------------------------------------------------------------------------------- */

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

/* --- conversions (src/kernels/convert_rows.c) ----------------------------------------------- */

/* Rows of at most this many entries are insertion-sorted; longer rows are merge-sorted starting
 * from insertion-sorted runs of this length (so only they need scratch). */
#define CSRI_SORT_RUN 32

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

/* Groups items k in [0, n) with rkey[k] >= 0 by rkey (nb groups) and orders each group by
 * (ckey[k], k): off[nb + 1] receives the group offsets, cols[p] = ckey[k], src[p] = k. cols and
 * src hold as many entries as there are items with rkey >= 0; keys must be in range. The COO
 * conversion and the symmetric expansion of each CPU backend sort with their own:
 * src/ref/convert_coo.c (serial) and src/omp/convert_coo.c (scattered and sorted in parallel, the
 * same result). */
typedef csr_status csri_group_sort_fn(csr_context *ctx, int64_t n, const int32_t *rkey,
                                      const int32_t *ckey, int64_t nb, int64_t *off, int32_t *cols,
                                      int64_t *src);
csri_group_sort_fn csri_ref_group_sort, csri_omp_group_sort;

/* --- reordering ------------------------------------------------------------------------- */

/* Row `from` of A into B at entry `at`: its columns renamed through cols (NULL: kept), its values
 * copied (csr_permute's gather, src/ref/permute.c and src/omp/permute.c). */
static inline void csri_copy_row_renamed(const csr_matrix *A, int64_t from, const int32_t *cols,
                                         csr_matrix *B, int64_t at) {
  const int64_t begin = A->row_offsets[from], length = A->row_offsets[from + 1] - begin;
  for (int64_t t = 0; t < length; t++) {
    const int32_t j = A->col_indices[begin + t];
    B->col_indices[at + t] = cols ? cols[j] : j;
  }
  const size_t vs = csri_value_size(A->value_type);
  if (vs > 0)
    memcpy((char *)B->values + (size_t)at * vs, (const char *)A->values + (size_t)begin * vs,
           (size_t)length * vs);
}

/* --- symmetric expansion (src/kernels/expand_rows.c) ----------------------------------------- */

/* Rows [r0, r1): the first entry that cannot be expanded (column out of range, nonzero diagonal
 * when skew) or -1; adds the number of diagonal entries to *diagonal. */
int64_t csri_expand_check_rows(const csr_matrix *A, csr_symmetry symmetry, int64_t r0, int64_t r1,
                               int64_t *diagonal);
/* Reports entry k, which csri_expand_check_rows returned. */
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

/* --- CG (src/kernels/cg_rows.c) ------------------------------------------------------------ */

/* The fused step's two halves over rows [begin, end): the element-wise r', x, p' (all rows
 * first), then q' = A p' (A's columns from `packed` when not NULL) and the rows' terms added to
 * sums in row order. */
void csri_cg_update_rows(double alpha, double beta, const csri_cg_vectors *v, int64_t begin,
                         int64_t end);
void csri_cg_product_rows(const csr_matrix *A, const struct csri_packed *packed,
                          const csri_cg_vectors *v, int64_t begin, int64_t end, double *sums);
/* The sum of row i's entries in column `column` in stored order (its diagonal entry when column
 * is the row's own, duplicates summed), 1 a pattern entry; *found = 0 when it stores none. The
 * Jacobi diagonals (CG's here, GMRES's, the distributed one's) all read their a_ii through it. */
double csri_row_diagonal(const csr_matrix *A, int64_t i, int64_t column, int *found);
/* d_i = 1 / a_ii for rows [r0, r1) up to the first bad one, which it returns (with *why and
 * *value as in csri_bad_diagonal); -1 when every row is fine. */
int64_t csri_jacobi_rows(const csr_matrix *A, csr_vector *d, int64_t r0, int64_t r1, int *why,
                         double *value);

/* --- triangular solve (src/kernels/spsv_rows.c) -------------------------------------------- */

/* Rows rows[0 .. count) of x = alpha T^-1 b (csri_spsv_fn), in the order given, each from the x
 * entries it reads, which must be solved already; rows NULL: all n rows (count = n) in
 * substitution order, 0 to n - 1 for a lower triangle, n - 1 to 0 for an upper one. */
void csri_spsv_rows(const csr_spsv_plan *p, double alpha, const csr_vector *b, csr_vector *x,
                    const int32_t *rows, int64_t count);

/* --- ILU(0) / IC(0) (src/kernels/factor_rows.c) ------------------------------------------- */

/* Eliminates row i of `val` in place (csri_factor0_plan in src/core/backend.h), the rows it reads
 * being final; 1 when its pivot fails (the row is then left as it is), else 0. */
int csri_factor0_row(const csri_factor0_plan *p, double *val, int64_t i);

/* --- PageRank (src/kernels/pagerank_rows.c) ------------------------------------------------ */

/* The out-weight pass of src/core/backend.h over pages [b, e): stops at the first bad row, which
 * it records in *found (bad_row -1: none); adds the range's dangling pages and zeros. */
void csri_pagerank_weights_rows(const csr_matrix *A, int weighted, double *inv_w, int64_t b,
                                int64_t e, csri_pagerank_weights *found);
/* The pull graph's values of rows [b, e) of M (src/core/backend.h), offsets and columns too. */
void csri_pagerank_pull_rows(const csr_matrix *T, int weighted, const double *inv_w, csr_matrix *M,
                             int64_t b, int64_t e);
/* The spread and update passes of src/core/backend.h over pages [b, e); each returns its sum
 * (the dangling sum, the L1 change). */
double csri_pagerank_spread_rows(const csr_vector *r, const double *inv_w, int scale, csr_vector *x,
                                 int64_t b, int64_t e);
double csri_pagerank_update_rows(csr_vector *r, const csr_vector *y, const double *p, double d,
                                 double base, const double *inv_w, int scale, csr_vector *x,
                                 int64_t b, int64_t e, double *dangling);

#ifdef __cplusplus
}
#endif
#endif /* CSR_KERNELS_ROWS_H */
