/* SPDX-License-Identifier: BSD-3-Clause */
/* The backend interface: every operation a backend (ref, omp, cuda) can run, as one table of
 * function pointers per backend, grouped by area. A NULL entry means the backend does not
 * implement that operation; src/core/dispatch.c picks the backend for a call. Internal.
 *
 * What every entry may assume: its front end (src/ops, src/graph, src/solve) has checked every
 * operand (non-NULL, valid enums, matching shapes and types, all at the location this backend
 * takes) and has handled the empty shapes, unless the entry says otherwise. CPU entries return
 * CSR_SUCCESS unless they say what else; CUDA entries also report launch and device errors
 * (CSR_ERR_DEVICE, CSR_ERR_OUT_OF_MEMORY). Adding an operation: docs/design.md, "Adding an
 * operation". */
#ifndef CSR_CORE_BACKEND_H
#define CSR_CORE_BACKEND_H

#include "core/internal.h"
#include "csr_primitives.h"
#include "kernels/exact_sum.h"
#include "kernels/order_keys.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- vectors (src/ops/vector_ops.c, src/ops/vector_reduce.c) --------------------------------- */

/* y = alpha*x + beta*y with alpha != 0 (alpha == 0 is a scale); beta == 0 overwrites y. F32 is
 * computed in double and rounded once. x and y are the same array or disjoint. */
typedef csr_status csri_axpby_fn(csr_context *ctx, double alpha, const csr_vector *x, double beta,
                                 csr_vector *y);
/* x = alpha*x; alpha == 0 writes zeros (a NaN in x does not survive). */
typedef csr_status csri_scale_fn(csr_context *ctx, double alpha, csr_vector *x);
/* x[i] = alpha. */
typedef csr_status csri_fill_fn(csr_context *ctx, double alpha, csr_vector *x);
/* y = x, both at the backend's location (transfers between locations are the front end's). */
typedef csr_status csri_copy_fn(csr_context *ctx, const csr_vector *x, csr_vector *y);

/* The reductions, by name; all accumulate in double. */
typedef enum csri_reduction { CSRI_DOT, CSRI_NRM2, CSRI_NRM1, CSRI_NRMINF } csri_reduction;
/* *result = x.y (CSRI_DOT), ||x||_2 (Blue's scaled sums: src/kernels/nrm2.h), ||x||_1 or
 * ||x||_inf (NaN wins); 0 for n == 0. The order of the sums is fixed by n (and, on the GPU, the
 * device model), so a run gives the same bits every time. *result is a host value. */
typedef csr_status csri_reduce_fn(csr_context *ctx, csri_reduction which, const csr_vector *x,
                                  const csr_vector *y, double *result);

/* --- exact sums (src/ops/exact_sums.c; the reductions across processes) ---------------------- */

/* Which terms an exact sum adds up, each rounded to double once (explicit roundings: no fused
 * multiply-add), so that every backend forms the same terms:
 *   CSRI_TERMS_DOT      one sum: x_i y_i                          v = {x, y}
 *   CSRI_TERMS_SQUARES  one sum: x_i^2, rounded where 2^-480 <= |x_i| <= 2^480 and exact
 *                       outside (a norm neither overflows nor loses tiny entries)   v = {x}
 *   CSRI_TERMS_ABS      one sum: |x_i|                            v = {x}
 *   CSRI_TERMS_CG       the five sums of csri_cg_step_fn over r', p', q' and d, z' = d .* r'
 *                       rounded to the vectors' type as the step stores it; d NULL: z' = r'
 *                       and sum 1 (r'.z') is left alone          v = {r', p', q', d}
 * The rule of each term is the term's own (never a block's), so any split of the entries gives
 * the same terms. */
typedef enum csri_terms {
  CSRI_TERMS_DOT,
  CSRI_TERMS_SQUARES,
  CSRI_TERMS_ABS,
  CSRI_TERMS_CG
} csri_terms;
enum { CSRI_TERMS_MAX_SUMS = 5 };
/* acc[k] += sum over i < n of term k of index i, exactly (src/kernels/exact_sum.h: whatever the
 * order and the grouping, the same accumulator value). The vectors share a type and a length
 * (n >= 1) and live where the backend works; acc are host accumulators, one per sum the terms
 * have (five for CSRI_TERMS_CG, else one: a dot's may be one of several in the caller's array),
 * and nothing past them is touched. */
typedef csr_status csri_exact_sums_fn(csr_context *ctx, csri_terms terms,
                                      const csr_vector *const *v, csri_exact_acc *acc);

/* --- sparse matrices (src/ops/spmv.c, src/ops/row_stats.c) ---------------------------------- */

/* The plan of an SpMV with A, made by the front end (src/ops/spmv_choice.c) for a backend whose
 * table asks for one (sparse.plans) and handed to it: the kernel (the context's override, else
 * the pick of src/kernels/spmv_choice.h from A's row statistics, which the context keeps), the
 * lanes it gives a row, and A's longest row (-1 when its statistics were not computed, as when
 * the context forces a kernel). Backends without plans are handed NULL. */
typedef struct csri_spmv_plan {
  csr_spmv_kernel kernel; /* a registry kernel (src/kernels/spmv_registry.h), never AUTO */
  int lanes;              /* per row: 1 (scalar), 2..32 (vector), 0 (tiled) */
  int64_t longest;
  /* A's column indices packed in 16 bits (csri_packed, below), which the kernel reads in place
   * of A->col_indices; NULL: plain CSR. Set from a csr_spmv_plan (csri_spmv_plan_packed: by
   * csr_spmv_run, the solvers and PageRank), and then handed to every backend, those without
   * plans included (their kernel fields are zero). */
  const struct csri_packed *packed;
} csri_spmv_plan;

/* A matrix's column indices packed in 16 bits (src/kernels/packed_layout.h), where the matrix
 * lives; made by csr_spmv_analyze (src/ops/spmv_plan.c), owned by its plan. */
typedef struct csri_packed {
  int64_t nnz, chunks, escaped; /* escaped: the chunks whose columns span 2^16 or more */
  int32_t *heads;               /* chunks: a fitting chunk's smallest column, else -1 - e */
  uint16_t *lo;                 /* nnz: offsets from the head, or the columns' low halves */
  uint16_t *hi;                 /* escaped * CSRI_PACK_CHUNK: the escaped chunks' high halves */
} csri_packed;

/* For each chunk c of A's nnz > 0 entries (csri_pack_chunks): heads[c] = its smallest column and
 * escapes[c] = 1 when it does not fit 16-bit offsets (csri_pack_fits), else 0. */
typedef csr_status csri_pack_ranges_fn(csr_context *ctx, const csr_matrix *A, int32_t *heads,
                                       int32_t *escapes);
/* Finishes p from A's columns: the chunks with escapes[c] = 1 get heads[c] = -1 - index[c] (index
 * the exclusive scan of escapes), and every entry its lo (and hi) half (csri_pack_low). */
typedef csr_status csri_pack_fill_fn(csr_context *ctx, const csr_matrix *A, const int32_t *escapes,
                                     const int32_t *index, csri_packed *p);

/* y = alpha*A*x + beta*y with alpha != 0, rows > 0 and nnz > 0 (the front end scales y
 * otherwise); beta == 0 overwrites y. Each row is summed in double, by the plan's kernel. */
typedef csr_status csri_spmv_fn(csr_context *ctx, const csri_spmv_plan *plan, double alpha,
                                const csr_matrix *A, const csr_vector *x, double beta,
                                csr_vector *y);
/* The statistics of `rows` rows from row offsets (rows + 1 entries, where the backend works)
 * into *stats, which the front end has zeroed. CSR_ERR_INVALID_MATRIX (recorded) when the offsets
 * decrease. */
typedef csr_status csri_row_stats_fn(csr_context *ctx, const int64_t *row_offsets, int64_t rows,
                                     csr_row_stats *stats);
/* Readies csr_spmv of A with `plan` (what the context will run): whatever a call would otherwise
 * allocate or search on its first run (a tiled kernel's tile starts, kept with A in the context's
 * cache, and the workspace), so that a call captured into a CUDA graph afterwards neither
 * allocates nor synchronises. */
typedef csr_status csri_spmv_prepare_fn(csr_context *ctx, const csr_matrix *A,
                                        const csri_spmv_plan *plan);

/* What a pass over a CSR matrix finds; src/core/validate.c and src/ops/convert_checks.c turn it
 * into their messages. */
typedef struct csri_csr_findings {
  int64_t first_offset, last_offset; /* row_offsets[0] and row_offsets[rows] */
  int64_t decreasing_row;            /* the first i with offsets_{i+1} < offsets_i; -1: none */
  int64_t decreasing_offsets[2];     /* offsets_i and offsets_{i+1} of that row */
  /* Only when entries are checked and the offsets are sound: the first entry in stored order
   * that is bad, -1 for none, and why (csri_bad_entry). */
  int64_t entry, entry_row;
  int32_t column, previous_column; /* the entry's, and for CSRI_ENTRY_OUT_OF_ORDER the one before */
  int why;
} csri_csr_findings;
/* Why an entry is bad. */
enum csri_bad_entry {
  CSRI_ENTRY_OUTSIDE = 1,      /* its column lies outside [0, cols) */
  CSRI_ENTRY_OUT_OF_ORDER = 2, /* it breaks the order A's flags claim (sorted, strictly without
                                  duplicates) */
  CSRI_ENTRY_REPEATED = 3      /* it repeats a column earlier in its row though an unsorted A is
                                  flagged without duplicates */
};
static inline void csri_csr_findings_init(csri_csr_findings *f) {
  f->first_offset = f->last_offset = 0;
  f->decreasing_row = f->entry = f->entry_row = -1;
  f->decreasing_offsets[0] = f->decreasing_offsets[1] = 0;
  f->column = f->previous_column = 0;
  f->why = 0;
}
/* *found (-1 where nothing is found) for A's offsets, and with `entries` for its entries too. */
typedef csr_status csri_check_csr_fn(csr_context *ctx, const csr_matrix *A, int entries,
                                     csri_csr_findings *found);

/* --- conversions (src/ops/convert_*.c, transpose.c, symmetric_expand.c) ---------------------- */

/* *A = T as a sorted CSR, duplicates summed in input order, exact zeros dropped under
 * CSR_CONVERT_DROP_ZEROS; nnz > 0. CSR_ERR_INDEX_OUT_OF_BOUNDS names the first triple outside
 * the matrix. */
typedef csr_status csri_from_coo_fn(csr_context *ctx, const csr_coo *T, unsigned options,
                                    csr_matrix **A);
/* As from_coo, for a T the caller gives up (host, made by the reader): where T's column and value
 * arrays already are A's, they may be moved into *A (T's pointers then NULL) instead of copied.
 * T is freed by the caller either way. */
typedef csr_status csri_from_coo_take_fn(csr_context *ctx, csr_coo *T, unsigned options,
                                         csr_matrix **A);
/* T (created by the front end, nnz > 0) = A's entries in stored order. */
typedef csr_status csri_to_coo_fn(csr_context *ctx, const csr_matrix *A, csr_coo *T);
/* *A = the nonzeros of D, sorted; D has rows > 0 and cols > 0. */
typedef csr_status csri_from_dense_fn(csr_context *ctx, const csr_dense *D, csr_matrix **A);
/* D (created zeroed by the front end, nnz > 0) += A's entries (duplicates add up).
 * CSR_ERR_INDEX_OUT_OF_BOUNDS names the first entry with a column outside the matrix. */
typedef csr_status csri_to_dense_fn(csr_context *ctx, const csr_matrix *A, csr_dense *D);
/* AT (created by the front end with A's nnz > 0) = A^T: rows sorted by column, duplicates kept in
 * A's stored order. Column errors as to_dense. */
typedef csr_status csri_transpose_fn(csr_context *ctx, const csr_matrix *A, csr_matrix *AT);
/* *full = A + op(A)^T without doubling the diagonal (op: negation when skew); nnz > 0. */
typedef csr_status csri_symmetric_expand_fn(csr_context *ctx, const csr_matrix *A,
                                            csr_symmetry symmetry, csr_matrix **full);

/* --- reordering (src/ops/permute.c, src/ops/reorder.c) ---------------------------------------- */

/* B = A's rows gathered: row i of B is row rows[i] of A (rows NULL: row i), its entries in A's
 * stored order with each column j renamed cols[j] (cols NULL: kept). B (created by the front end
 * with A's shape, nnz > 0, value type and location) receives its offsets, columns and values.
 * A's offsets and columns have been checked; rows and cols are permutations of the right sizes. */
typedef csr_status csri_permute_rows_fn(csr_context *ctx, const csr_matrix *A, const int32_t *rows,
                                        const int32_t *cols, csr_matrix *B);
/* y[i] = x[index[i]] for i < y->n (n > 0; x and y of one value type, not overlapping; index a
 * permutation of [0, n)). */
typedef csr_status csri_gather_fn(csr_context *ctx, const int32_t *index, const csr_vector *x,
                                  csr_vector *y);
/* inverse[p[k]] = k for k < n (n > 0, p a permutation of [0, n)). */
typedef csr_status csri_invert_fn(csr_context *ctx, const int32_t *p, int64_t n, int32_t *inverse);
/* For every column j < A->cols (cols > 0): keys[j] = csri_column_order_key(which, ...) of its count
 * and first appearance (src/kernels/order_keys.h), index[j] = j; *bits =
 * csri_column_order_key_bits. A's offsets and columns have been checked. */
typedef csr_status csri_order_keys_fn(csr_context *ctx, const csr_matrix *A, csri_order which,
                                      uint64_t *keys, int32_t *index, int *bits);

/* --- CG and Jacobi-PCG (src/solve/cg_step.c) -------------------------------------------------- */

/* One CG iteration in one pass over the vectors and one reduction (the single-reduction form of
 * src/solve/cg.c), on vectors of one type T (F64 / F32); all arithmetic in double, each stored
 * value rounded to T once:
 *   r' = r - alpha q,  x += alpha p,  z' = d .* r' (d NULL: z' = r'),  p' = z' + beta p,
 *   q' = A p',
 * where a zero alpha drops the q and p terms and a zero beta the p term (stale or NaN contents
 * of q and p are then never read into the result). r', p', q' go to separate vectors (the
 * device computes p'_j wherever row i needs it while other rows still read r, p, q).
 * sums: [0] r'.r'  [1] r'.z'  [2] p'.q'  [3] z'.q'  [4] sum_i d_i q'_i^2 (d NULL: q'.q'). */
typedef struct csri_cg_vectors {
  csr_vector *x;
  const csr_vector *r, *p, *q; /* this iterate */
  csr_vector *r_next, *p_next, *q_next;
  const csr_vector *d; /* Jacobi: 1 / diag(A), or NULL */
} csri_cg_vectors;
enum { CSRI_CG_SUMS = 5 };
typedef csr_status csri_cg_step_fn(csr_context *ctx, const csri_spmv_plan *plan,
                                   const csr_matrix *A, double alpha, double beta,
                                   const csri_cg_vectors *v, double *sums);
/* The element-wise half of that step alone, over v->x->n entries: r', x, p' as above (q_next
 * unused), rounded as the step rounds them; for a caller that forms q' = A p' itself (the
 * distributed solver, whose product needs p' of other processes). */
typedef csr_status csri_cg_update_fn(csr_context *ctx, double alpha, double beta,
                                     const csri_cg_vectors *v);

/* The first row whose diagonal cannot precondition: row -1 when there is none, else why (0: no
 * diagonal entry, 1: a non-finite a_ii, 2: a_ii <= 0) and a_ii. */
typedef struct csri_bad_diagonal {
  int64_t row;
  int why;
  double value;
} csri_bad_diagonal;
/* d_i = 1 / a_ii (duplicates on the diagonal summed), in d's type, for every row up to the first
 * bad one, which *bad names (the front end reports it). */
typedef csr_status csri_jacobi_fn(csr_context *ctx, const csr_matrix *A, csr_vector *d,
                                  csri_bad_diagonal *bad);

/* --- triangular solve (src/solve/spsv_analyze.c, src/solve/spsv.c) --------------------------- */

/* What csr_spsv_analyze keeps of the triangle T of a matrix: host arrays the plan owns, so the
 * matrix may go once the analysis is done. Only T's strictly triangular entries are kept (the
 * diagonal apart, the other triangle dropped), in the matrix's stored order. */
struct csr_spsv_plan {
  int64_t n;
  csr_triangle triangle;
  csr_diagonal diagonal;
  csr_value_type value_type; /* the matrix's: which vector types a solve takes */
  int64_t *offsets;          /* n + 1: row i's entries are [offsets[i], offsets[i + 1]) */
  int32_t *cols;
  double *values;         /* the entries' values (exact for F32); NULL for a pattern: all 1 */
  double *diag;           /* n: a_ii, duplicates summed in stored order; NULL when unit */
  int64_t levels;         /* 0 for n == 0 */
  int64_t *level_offsets; /* levels + 1: level l's rows are level_rows[level_offsets[l] ..) */
  int32_t *level_rows;    /* n: the rows level by level, ascending within a level */
  int64_t *level_work;    /* levels: a level's rows + their entries (what a row costs) */
  /* Where solves run: CSR_HOST, or CSR_DEVICE for a plan of a device matrix, whose arrays the
   * CUDA backend mirrored there (cuda/spsv.cu) and frees through free_device. */
  csr_location location;
  void *device;
  void (*free_device)(void *device);
};

/* x = alpha T^-1 b on the plan's n >= 1 rows with alpha != 0 (the front end writes zeros for
 * alpha == 0). b and x: n entries, one type (F64 / F32), disjoint, where the backend works. Each
 * row by csri_spsv_rows (src/kernels/rows.h), whatever order the rows run in, so that every
 * backend gives the same bits. */
typedef csr_status csri_spsv_fn(csr_context *ctx, const csr_spsv_plan *plan, double alpha,
                                const csr_vector *b, csr_vector *x);
/* Mirrors a host-built plan where the backend works (sets plan->location, device and
 * free_device); NULL for the host backends. */
typedef csr_status csri_spsv_prepare_fn(csr_context *ctx, csr_spsv_plan *plan);

/* --- incomplete factorizations ILU(0) and IC(0) (src/solve/factor0.c) ------------------------ */

/* What every backend's ILU(0) / IC(0) reads: the pattern of B (src/solve/factor.h's form: columns
 * ascending, the diagonal at dpos) and the rows sorted into dependency levels, all on the host
 * (the CUDA backend mirrors what it needs). Row i is eliminated in place (csri_factor0_row,
 * src/kernels/rows.h): for each k < i it stores, ascending, w_k = b_ik / p_k (p_k row k's pivot)
 * and subtracts w_k times row k's "update list" from the entries of row i it meets: for ILU(0)
 * row k of U (its entries right of the diagonal), for IC(0) column k of L below the diagonal
 * (rows crow[coff[k] ..), at positions cpos), up to row i's diagonal. Then its pivot is checked
 * (csri_factor_pivot_fails) and, for IC(0), replaced by its square root. */
typedef struct csri_factor0_plan {
  int64_t n;
  int ic; /* 1: IC(0), the pattern being B's lower triangle; 0: ILU(0), B's whole pattern */
  const int64_t *off;
  const int32_t *col;
  const int64_t *dpos;
  const int64_t *coff; /* IC(0): n + 1; NULL for ILU(0) */
  const int32_t *crow;
  const int64_t *cpos;
  const double *scale; /* n: max_j |b_ij|, what a pivot is measured against */
  int64_t levels;      /* row i's level: one past the highest level of the rows it reads */
  const int64_t *level_offsets;
  const int32_t *level_rows;
} csri_factor0_plan;

/* Eliminates every row of `values` (off[n] entries of B, where the backend works) in place.
 * *failed_row: the lowest row whose pivot failed, or -1; rows after it may hold non-finite
 * values. The rows before it are exact whatever happened after, so every backend names the same
 * row, the one a serial elimination stops at. */
typedef csr_status csri_factor0_fn(csr_context *ctx, const csri_factor0_plan *plan, double *values,
                                   int64_t *failed_row);

/* --- PageRank's passes (src/graph/pagerank.c) ----------------------------------------------- */

/* What the out-weight pass found: the dangling pages (out-weight 0) and the explicit zeros (not
 * links), and the first bad row in row order, for the front end's message. */
typedef struct csri_pagerank_weights {
  int64_t dangling, zeros;
  int64_t bad_row;   /* -1: every row is fine */
  int64_t bad_entry; /* the row's first link of bad weight (entry of A), or -1: the row's weights
                        sum to bad_value, whose reciprocal does not fit a double */
  int32_t bad_col;   /* that link's column */
  double bad_value;  /* that link's weight, or the row's sum */
} csri_pagerank_weights;

/* inv_w[i] = 1 / w_i, w_i page i's out-weight: the number of its links (entries of row i that
 * are not explicit zeros), or with `weighted` the sum of row i's values in stored order (each
 * finite and >= 0); 0 for a page without out-weight. inv_w (A->rows doubles) lives where A does.
 * Every row up to the first bad one is done; *found says what was seen. */
typedef csr_status csri_pagerank_weights_fn(csr_context *ctx, const csr_matrix *A, int weighted,
                                            double *inv_w, csri_pagerank_weights *found);
/* The pull graph's values: M has T's shape, offsets and columns (T = A^T with A's values), and
 * M(i, j) = (weighted ? T(i, j) : T(i, j) != 0) * inv_w[j] in M's value type. */
typedef csr_status csri_pagerank_pull_fn(csr_context *ctx, const csr_matrix *T, int weighted,
                                         const double *inv_w, csr_matrix *M);
/* x_j = r_j * inv_w[j] (scale) or r_j (not scale); *dangling = the sum of r_j over dangling
 * pages (inv_w[j] == 0). x and r share a value type; inv_w lives where they do. A dangling page's
 * x_j is never read by the pull graph (no link leaves it): a backend with pagerank_step may keep
 * r_j there. */
typedef csr_status csri_pagerank_spread_fn(csr_context *ctx, const csr_vector *r,
                                           const double *inv_w, int scale, csr_vector *x,
                                           double *dangling);
/* r_i <- d * (y_i + base) + (1 - d) * p_i (p NULL: 1/n), *l1_change = sum_i |r_i(new) -
 * r_i(old)|, and in the same pass the next iteration's spread: x_i from the new r_i as above,
 * *dangling = the new ranks' dangling sum. p and inv_w live where r does. */
typedef csr_status csri_pagerank_update_fn(csr_context *ctx, csr_vector *r, const csr_vector *y,
                                           const double *p, double d, double base,
                                           const double *inv_w, int scale, csr_vector *x,
                                           double *dangling, double *l1_change);
/* degree[i] = page i's number of links, 1 / inv_w[i] (0 where inv_w[i] is 0), for n pages: asked
 * for only when every out-weight is a number of links below 2^31 (PageRank unweighted, A with
 * fewer than 2^31 entries) and the step takes its split form (src/kernels/pagerank_plan.h), so
 * that it may read 4 bytes a page in place of inv_w's 8 and still compute inv_w[i] =
 * 1 / degree[i] with the same bits. */
typedef csr_status csri_pagerank_degrees_fn(csr_context *ctx, int64_t n, const double *inv_w,
                                            int32_t *degree);
/* One whole iteration in one pass over the pull graph AT: y = AT x, then the update above with
 * its spread written to x_next (not x, which the pass reads). A backend without it runs the SpMV
 * and the update. With f64 ranks and write_ranks 0 the backend may leave r as it is and keep the
 * ranks in x alone (the old r_i, for the L1 change, taken back from x_i): the caller then makes
 * one more call for the last iteration, from the x before it, with write_ranks 1, which writes r.
 * f32 ranks are written to r by every call. degree: NULL, or the pages' links
 * (csri_pagerank_degrees_fn), which the step may read in place of inv_w. */
typedef csr_status csri_pagerank_step_fn(csr_context *ctx, const csri_spmv_plan *plan,
                                         const csr_matrix *AT, const csr_vector *x, csr_vector *r,
                                         int write_ranks, const double *p, double d, double base,
                                         const double *inv_w, const int32_t *degree, int scale,
                                         csr_vector *x_next, double *dangling, double *l1_change);

/* The distributed PageRank's update (src/dist/pagerank.c) with its two sums exact, on one rank's
 * n = x->n pages (n >= 1; the front end, src/graph/pagerank_exact.c, skips n == 0). For each i:
 *   next = y NULL (the first iteration): uniform; else d (y_i + base) + (1 - d) (p ? p_i : uniform)
 *   next rounded to the ranks' type (x's: F32 next = (double)(float)next)
 *   change term |next - r_i| (y NULL: none, r not read), hanging term next where inv_w[i] == 0
 *   r_i = next,  x_i = scale ? next inv_w[i] : next (stored in x's type)
 * acc[0] += the sum of the change terms, acc[1] += the sum of the hanging terms, exactly
 * (src/kernels/exact_sum.h); a NaN or infinite term goes to its count. Every operation is rounded
 * on its own, to nearest, in that order (d (y_i + base) first, then (1 - d) times the teleport,
 * then their sum; no fused multiply-add: the CPU code is ISO C with each operation a statement
 * of its own, the GPU's __dmul_rn / __dadd_rn). What is bitwise equal between backends, then:
 * the accumulators' values (equal words once normalised, however the backend groups the
 * terms), and r and x themselves too (a NaN aside, whose payload a GPU does not keep). */
typedef struct csri_pagerank_exact {
  double *r;           /* n ranks as doubles, where the backend works: the old in, the new out */
  const csr_vector *y; /* M x: n entries of the ranks' type (F64 / F32), or NULL (first) */
  csr_vector *x;       /* n entries of the ranks' type: the next iteration's spread */
  const double *p;     /* n teleport weights, or NULL (uniform) */
  const double *inv_w; /* n reciprocal out-weights, 0 for a dangling page */
  double d, base;      /* damping; the dangling sum over the global page count */
  double uniform;      /* 1 / the global page count */
  int scale;           /* x = r / w (1) or x = r (0) */
} csri_pagerank_exact;
enum { CSRI_PAGERANK_EXACT_SUMS = 2 };
typedef csr_status csri_pagerank_exact_update_fn(csr_context *ctx, const csri_pagerank_exact *u,
                                                 csri_exact_acc *acc);

/* --- primitives (src/ops/scan.c, compact.c, radix_sort.c, histogram.c) ----------------------- */

/* The *_bytes entries say how much workspace the matching call needs (n > 0); the front end then
 * hands it a workspace of at least that many bytes at the call's location, aligned to 16. The
 * calls run with n > 0 (the histogram also with n == 0: it zeroes the counts). */

/* Which elements compact keeps: flags[i] != 0 when flags is set, else `predicate` against the
 * operand (stored as the element type). */
typedef struct csri_select {
  const uint8_t *flags;
  csr_predicate predicate;
  union {
    int32_t i32;
    int64_t i64;
    uint32_t u32;
    uint64_t u64;
    uint16_t u16;
    uint8_t u8;
    float f32;
    double f64;
  } operand;
} csri_select;

/* The histogram's bins, checked: 1 <= bins <= CSRI_MAX_BINS; for CSR_BINS_EVEN lower < upper,
 * both finite, and scale = bins / (upper - lower). The bin of a sample is csri_bin_of_*
 * (src/kernels/bins.h), shared by every backend so that all count alike. */
#define CSRI_MAX_BINS (1 << 24)
typedef struct csri_bins {
  csr_bin_rule rule;
  int bins;
  double lower, upper, scale;
  int64_t offset; /* CSR_BINS_INTEGER: b = x - offset (0 as asked; see src/ops/histogram.c) */
} csri_bins;

/* heads NULL: the plain scan; else the segmented one. out may equal in. */
typedef size_t csri_scan_bytes_fn(const csr_context *ctx, csr_data_type type, int64_t n,
                                  int segmented);
typedef csr_status csri_scan_fn(csr_context *ctx, csr_data_type type, csr_scan_kind kind,
                                const void *in, const uint8_t *heads, void *out, int64_t n,
                                void *workspace);
/* *kept is a host value (the CUDA backend synchronises to return it). */
typedef size_t csri_compact_bytes_fn(const csr_context *ctx, csr_data_type type, int64_t n);
typedef csr_status csri_compact_fn(csr_context *ctx, csr_data_type type, const void *in,
                                   const csri_select *select, void *out, int64_t n, int64_t *kept,
                                   void *workspace);
/* key_size 4 or 8; value_size 0 (no values), 4 or 8; n > 1 and begin_bit < end_bit (the
 * workspace of a sort over those bits). */
typedef size_t csri_radix_sort_bytes_fn(const csr_context *ctx, size_t key_size, size_t value_size,
                                        int64_t n, int begin_bit, int end_bit);
typedef csr_status csri_radix_sort_fn(csr_context *ctx, size_t key_size, void *keys,
                                      size_t value_size, void *values, int64_t n, int begin_bit,
                                      int end_bit, void *workspace);
typedef size_t csri_histogram_bytes_fn(const csr_context *ctx, const csri_bins *bins,
                                       csr_data_type count_type, int64_t n);
typedef csr_status csri_histogram_fn(csr_context *ctx, csr_data_type sample_type,
                                     const void *samples, int64_t n, const csri_bins *bins,
                                     csr_data_type count_type, void *counts, void *workspace);

/* --- device memory (the CUDA backend only; src/core/alloc.c is its one caller) --------------- */

/* ordered: in the order of the context's stream, nothing waited for, for arrays that only work
 * on that stream fills (the matrix a converter makes), so that a call taking several waits for
 * the device once instead of at each. Otherwise the array is ready for any stream when the call
 * returns. */
typedef csr_status csri_device_alloc_fn(csr_context *ctx, void **p, size_t bytes, int ordered);
typedef void csri_device_free_fn(void *p);
/* every byte of p[0, bytes) set to `byte` */
typedef csr_status csri_device_fill_fn(csr_context *ctx, void *p, int byte, size_t bytes);
/* kind of a copy: 0 host -> device, 1 device -> host, 2 device -> device. */
typedef csr_status csri_device_copy_fn(csr_context *ctx, void *dst, const void *src, size_t bytes,
                                       int kind);
/* dst[i] = src[i] for i < n (n >= 1), both on the device: 32-bit indices widened to 64 bits. */
typedef csr_status csri_device_widen_fn(csr_context *ctx, int64_t *dst, const int32_t *src,
                                        int64_t n);
typedef int csri_device_count_fn(void);
/* Whether the context's stream is being captured into a CUDA graph (which refuses allocations
 * and synchronisations). */
typedef int csri_device_capturing_fn(const csr_context *ctx);
/* Frees what the backend keeps in a context (NULL fields are fine). */
typedef void csri_context_release_fn(csr_context *ctx);

/* --- the table ------------------------------------------------------------------------------ */

typedef struct csri_backend {
  csr_backend id;
  csr_location location; /* where the operands of its operations live */
  struct {
    csri_axpby_fn *axpby;
    csri_scale_fn *scale;
    csri_fill_fn *fill;
    csri_copy_fn *copy;
    csri_reduce_fn *reduce;
    csri_exact_sums_fn *exact_sums;
  } vector;
  struct {
    csri_spmv_fn *spmv;
    csri_row_stats_fn *row_stats;
    csri_check_csr_fn *check_csr;
    csri_spmv_prepare_fn *spmv_prepare; /* NULL: nothing to ready */
    int plans; /* 1: spmv, spmv_prepare, cg_step and pagerank_step are handed the SpMV plan (the
                  backend has kernels to choose from); 0: NULL */
    csri_pack_ranges_fn *pack_ranges;
    csri_pack_fill_fn *pack_fill;
  } sparse;
  struct {
    csri_from_coo_fn *from_coo;
    csri_from_coo_take_fn *from_coo_take; /* NULL: the front end calls from_coo */
    csri_to_coo_fn *to_coo;
    csri_from_dense_fn *from_dense;
    csri_to_dense_fn *to_dense;
    csri_transpose_fn *transpose;
    csri_symmetric_expand_fn *symmetric_expand;
  } convert;
  struct {
    csri_permute_rows_fn *permute_rows;
    csri_gather_fn *gather;
    csri_invert_fn *invert;
    csri_order_keys_fn *order_keys;
  } reorder;
  struct {
    csri_cg_step_fn *cg_step;
    csri_cg_update_fn *cg_update;
    csri_jacobi_fn *jacobi;
    csri_spsv_fn *spsv;
    csri_spsv_prepare_fn *spsv_prepare;
    csri_factor0_fn *factor0;
  } solve;
  struct {
    csri_pagerank_weights_fn *pagerank_weights;
    csri_pagerank_pull_fn *pagerank_pull;
    csri_pagerank_spread_fn *pagerank_spread;
    csri_pagerank_update_fn *pagerank_update;   /* NULL when pagerank_step is given */
    csri_pagerank_step_fn *pagerank_step;       /* NULL: pagerank_update after an SpMV */
    csri_pagerank_degrees_fn *pagerank_degrees; /* NULL: the step reads inv_w alone */
    csri_pagerank_exact_update_fn *pagerank_exact_update;
  } graph;
  struct {
    csri_scan_bytes_fn *scan_bytes;
    csri_scan_fn *scan;
    csri_compact_bytes_fn *compact_bytes;
    csri_compact_fn *compact;
    csri_radix_sort_bytes_fn *radix_sort_bytes;
    csri_radix_sort_fn *radix_sort;
    csri_histogram_bytes_fn *histogram_bytes;
    csri_histogram_fn *histogram;
  } primitive;
  struct {
    csri_device_alloc_fn *alloc;
    csri_device_free_fn *free;
    csri_device_fill_fn *fill;
    csri_device_copy_fn *copy;
    csri_device_widen_fn *widen;
    csri_device_count_fn *count;
    csri_device_capturing_fn *capturing;
    csri_context_release_fn *context_release;
  } device;
} csri_backend;

/* Declares csri_<b>_<operation> for every operation above (device memory aside), of that
 * operation's type. A backend's private header says CSRI_DECLARE_BACKEND(ref) (omp, cuda); the
 * backend defines the entries it implements (the compiler checks each definition against its
 * type) and lists them in its table (src/ref/table.c, src/omp/table.c, cuda/table.c). */
#define CSRI_DECLARE_BACKEND(b)                                                                    \
  csri_axpby_fn csri_##b##_axpby;                                                                  \
  csri_scale_fn csri_##b##_scale;                                                                  \
  csri_fill_fn csri_##b##_fill;                                                                    \
  csri_copy_fn csri_##b##_copy;                                                                    \
  csri_reduce_fn csri_##b##_reduce;                                                                \
  csri_exact_sums_fn csri_##b##_exact_sums;                                                        \
  csri_spmv_fn csri_##b##_spmv;                                                                    \
  csri_row_stats_fn csri_##b##_row_stats;                                                          \
  csri_from_coo_fn csri_##b##_from_coo;                                                            \
  csri_from_coo_take_fn csri_##b##_from_coo_take;                                                  \
  csri_check_csr_fn csri_##b##_check_csr;                                                          \
  csri_spmv_prepare_fn csri_##b##_spmv_prepare;                                                    \
  csri_pack_ranges_fn csri_##b##_pack_ranges;                                                      \
  csri_pack_fill_fn csri_##b##_pack_fill;                                                          \
  csri_to_coo_fn csri_##b##_to_coo;                                                                \
  csri_from_dense_fn csri_##b##_from_dense;                                                        \
  csri_to_dense_fn csri_##b##_to_dense;                                                            \
  csri_transpose_fn csri_##b##_transpose;                                                          \
  csri_symmetric_expand_fn csri_##b##_symmetric_expand;                                            \
  csri_permute_rows_fn csri_##b##_permute_rows;                                                    \
  csri_gather_fn csri_##b##_gather;                                                                \
  csri_invert_fn csri_##b##_invert;                                                                \
  csri_order_keys_fn csri_##b##_order_keys;                                                        \
  csri_cg_step_fn csri_##b##_cg_step;                                                              \
  csri_cg_update_fn csri_##b##_cg_update;                                                          \
  csri_jacobi_fn csri_##b##_jacobi;                                                                \
  csri_spsv_fn csri_##b##_spsv;                                                                    \
  csri_spsv_prepare_fn csri_##b##_spsv_prepare;                                                    \
  csri_factor0_fn csri_##b##_factor0;                                                              \
  csri_pagerank_weights_fn csri_##b##_pagerank_weights;                                            \
  csri_pagerank_pull_fn csri_##b##_pagerank_pull;                                                  \
  csri_pagerank_spread_fn csri_##b##_pagerank_spread;                                              \
  csri_pagerank_update_fn csri_##b##_pagerank_update;                                              \
  csri_pagerank_step_fn csri_##b##_pagerank_step;                                                  \
  csri_pagerank_degrees_fn csri_##b##_pagerank_degrees;                                            \
  csri_pagerank_exact_update_fn csri_##b##_pagerank_exact_update;                                  \
  csri_scan_bytes_fn csri_##b##_scan_bytes;                                                        \
  csri_scan_fn csri_##b##_scan;                                                                    \
  csri_compact_bytes_fn csri_##b##_compact_bytes;                                                  \
  csri_compact_fn csri_##b##_compact;                                                              \
  csri_radix_sort_bytes_fn csri_##b##_radix_sort_bytes;                                            \
  csri_radix_sort_fn csri_##b##_radix_sort;                                                        \
  csri_histogram_bytes_fn csri_##b##_histogram_bytes;                                              \
  csri_histogram_fn csri_##b##_histogram

/* The tables (src/ref/table.c, src/omp/table.c, cuda/table.c). */
extern const csri_backend csri_ref_backend, csri_omp_backend, csri_cuda_backend;

/* --- dispatch (src/core/dispatch.c) --------------------------------------------------------- */

/* The table of a backend that is built into this libcsr, else NULL (and NULL for AUTO). */
const csri_backend *csri_backend_of(csr_backend id);

/* Picks the backend that runs `entry` (a member of csri_backend, as an offset) for operands at
 * `location`: the backends are tried in the order cuda, omp, ref, starting at the one the
 * context asks for (AUTO: the first), skipping those not built, those whose operands live
 * elsewhere and those whose entry is NULL. Returns CSR_SUCCESS, or CSR_INFO_DECLINED when the
 * context named a backend that did not take the call (CUDA with host operands, say), with
 * *chosen set; else an error naming `operation`: CSR_ERR_LOCATION_MISMATCH (device operands and a
 * CPU backend asked for), CSR_ERR_NOT_COMPILED (device operands without the CUDA backend),
 * CSR_ERR_UNSUPPORTED (the CUDA backend lacks the operation). */
csr_status csri_dispatch(csr_context *ctx, csr_location location, size_t entry,
                         const char *operation, const csri_backend **chosen);
#define CSRI_DISPATCH(ctx, location, entry, operation, chosen)                                     \
  csri_dispatch((ctx), (location), offsetof(csri_backend, entry), (operation), (chosen))

/* A call's status once it ran on b: its error if it failed, else `dispatched` (CSR_SUCCESS or
 * CSR_INFO_DECLINED), with b recorded as the context's last backend. */
csr_status csri_ran(csr_context *ctx, const csri_backend *b, csr_status dispatched, csr_status ran);

/* CSR_ERR_NOT_COMPILED, recorded with the reason: device memory needs the CUDA backend. */
csr_status csri_not_compiled(csr_context *ctx);

#ifdef __cplusplus
}
#endif
#endif /* CSR_CORE_BACKEND_H */
