/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared by the incomplete factorizations (src/solve/factor*.c, matching.c, ilut*.c). Internal. */
#ifndef CSR_SOLVE_FACTOR_H
#define CSR_SOLVE_FACTOR_H

#include "ops/ops.h"

/* A square host matrix in the form the factorizations read: in each row the columns ascend, no
 * column twice, and the diagonal stored (an explicit 0 when A has none), at dpos[i]. */
typedef struct csri_factor_csr {
  int64_t n;
  int64_t *off;  /* n + 1 */
  int32_t *col;  /* off[n] */
  double *val;   /* off[n] */
  int64_t *dpos; /* n: row i's diagonal entry is col[dpos[i]] == i */
} csri_factor_csr;

/* A maximum-product matching of the square host A (F64 or F32, read as double; a pattern A weighs
 * every entry 1; duplicates summed; stored zeros, and duplicates summing to 0, are not edges) and
 * the scalings its dual variables give (Duff and Koster, MC64 job 5): column j is matched to row
 * row_of_col[j], and with Dr = diag(row_scale), Dc = diag(col_scale), |(Dr A Dc)_ij| is 1 on the
 * matched entries and at most 1 on every other (to rounding; form the product as
 * (row_scale[i] * col_scale[j]) * a_ij: each scale alone may be as large as e^700). Arrays of n
 * entries, the caller's. CSR_ERR_INVALID_MATRIX when no perfect matching exists on A's nonzero
 * entries (A is structurally singular), naming a column that cannot be matched; INVALID_VALUE for
 * a non-finite entry; OVERFLOW when a scaling would pass e^700 (the magnitudes along the matching
 * span more than double's range); DIMENSION_MISMATCH, LOCATION_MISMATCH (a device A),
 * OUT_OF_MEMORY. */
csr_status csri_weighted_matching(csr_context *ctx, const csr_matrix *A, int32_t *row_of_col,
                                  double *row_scale, double *col_scale);

/* Saad's ILUT(tau, p) of B, row by row: row i's entries below tau * ||b_i||_2 are dropped (the
 * diagonal never; exact zeros off it always), then the p = max(1, fill_factor * nnz(b_i) / 2)
 * largest of its L part and of its U part kept (ties: the lower column; nnz(b_i) counts B's stored
 * entries of row i). *L: strictly lower triangle, unit diagonal implied;
 * *U: upper triangle with its diagonal first in each row; both new host F64 csr_matrix,
 * columns ascending, flags SORTED | NO_DUPLICATES.
 * pivot_threshold in [0, 1] (ILUTP, threshold column pivoting): 0 pivots never. Otherwise, once
 * row i is eliminated and dropped as above, when |w_ii| < pivot_threshold max_{j > i} |w_ij| over
 * the entries its U part keeps, columns i and j (the largest; ties: the lower column) swap, in the
 * column order as it stands then; columns before i never move again. The old diagonal then counts
 * as an entry of the U part at column j (dropped when 0 or below tau ||b_i||_2). So the factors
 * are of B Q, L U ~ B Q with Q a column permutation, their columns numbered in the new order, and
 * every row of U has |u_ii| >= pivot_threshold |u_ij|. col_order: NULL, or n entries, the
 * caller's, set on success: col_order[s] is the column of B that became column s (the identity
 * when pivot_threshold is 0); with tau = 0 and an unbounded fill_factor this is the LU with
 * threshold column pivoting, L U = B Q.
 * *failed_row: -1, or the first row whose pivot (after any swap) fails (not finite, or
 * |u_ii| <= 1e-14 max_j |b_ij|; also a row of B holding a non-finite value, or one whose
 * elimination overflows), then *L and *U are NULL, col_order is left undefined, and the status is
 * CSR_SUCCESS: the caller decides whether to shift and try again. Errors: INVALID_VALUE (tau or
 * fill_factor negative or NaN, pivot_threshold outside [0, 1] or NaN), OUT_OF_MEMORY (also past
 * the context's memory limit as the factors grow). */
csr_status csri_ilut(csr_context *ctx, const csri_factor_csr *B, double tau, double fill_factor,
                     double pivot_threshold, csr_matrix **L, csr_matrix **U, int32_t *col_order,
                     int64_t *failed_row);

/* What csr_factor_compute makes (include/csr.h). */
struct csr_factor {
  csr_factor_kind kind;
  int64_t n;
  csr_location location;
  csr_value_type value_type; /* A's: the factors' and the vectors' */
  csr_matrix *L, *U;         /* where A is, in A's type (host F64 while being made) */
  csr_spsv_plan *solve_L, *solve_U;
  csr_matrix *permute_scale;     /* P Dr as a matrix (one entry a row) where A is, or NULL */
  csr_matrix *col_scale_matrix;  /* Dc Q as a matrix where A is, or NULL */
  int32_t *row_order;            /* host, or NULL: row t of B is A's row row_order[t] */
  int32_t *col_order;            /* host, or NULL: column s of B is A's column col_order[s] */
  double *row_scale, *col_scale; /* host, or NULL */
  double shift;
  int64_t attempts;
  csr_vector *work[2]; /* apply's intermediates, made at its first call (of r's type) */
};

/* B made from the host A as options say: rows ordered (and scaled), duplicates summed, columns
 * ascending, the diagonal stored, and for IC(0) only the lower triangle kept. scale[i]: the
 * largest |b_ij| of row i over A's whole row (host, n, the caller's). f->row_order, row_scale and
 * col_scale are set when the rows were matched. Errors: INVALID_VALUE naming a non-finite a_ij;
 * INVALID_MATRIX from the matching; OUT_OF_MEMORY (src/solve/factor_build.c). */
csr_status csri_factor_build(csr_context *ctx, const csr_matrix *A, const csr_factor_options *o,
                             csr_factor *f, csri_factor_csr *B, double *scale);
void csri_factor_csr_free(csri_factor_csr *B);

/* B's diagonal shifted by alpha: b_ii + alpha s_i scale_i into val (a copy of B's values; s_i the
 * sign of b_ii, + for zero and always for IC). */
void csri_factor_shift(const csri_factor_csr *B, const double *scale, double alpha, int ic,
                       double *val);

/* ILU(0) / IC(0) of B (f->kind) on the backend where f lives, with the shift schedule of
 * options->shift; on success f->L and f->U are host F64 triangles, f->shift and f->attempts set
 * (src/solve/factor0.c). */
csr_status csri_factor0(csr_context *ctx, const csri_factor_csr *B, const double *scale,
                        const csr_factor_options *o, csr_factor *f);
/* ILUT of B on the host, with the shift schedule; as csri_factor0 (src/solve/factor.c). */
csr_status csri_factor_ilut(csr_context *ctx, const csri_factor_csr *B, const double *scale,
                            const csr_factor_options *o, csr_factor *f);
/* One factorization of B shifted by alpha: *failed_row -1, or the row whose pivot failed. */
typedef csr_status csri_factor_attempt_fn(void *self, double alpha, int64_t *failed_row);
/* The shift schedule of options->shift (src/solve/factor.c): attempt with alpha = 0 (or the
 * fixed shift), and after each failed pivot with the next shift of the schedule, until one
 * succeeds (f->shift and f->attempts then say what it took) or the schedule ends: an error
 * naming `method` and the row. */
csr_status csri_factor_shifted(csr_context *ctx, const csr_factor_options *o, const char *method,
                               csri_factor_attempt_fn *attempt, void *self, csr_factor *f);

/* csr_spsv_analyze's host work for a host A already checked (src/solve/spsv_analyze.c). */
csr_status csri_spsv_analyze_host(csr_context *ctx, const csr_matrix *A, csr_triangle triangle,
                                  csr_diagonal diagonal, csr_spsv_plan **plan);
/* The plan of the host matrix host_A for solves at `where`: analysed on the host, then mirrored
 * by the backend there, so a matrix that is on the host already is not copied back to it. */
csr_status csri_spsv_analyze_for(csr_context *ctx, const csr_matrix *host_A, csr_triangle triangle,
                                 csr_diagonal diagonal, csr_location where, csr_spsv_plan **plan);

#endif /* CSR_SOLVE_FACTOR_H */
