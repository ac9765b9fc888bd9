/* SPDX-License-Identifier: BSD-3-Clause */
/* What the front ends of src/ops (and src/graph, src/solve) share: operand checks, the
 * primitives' workspace protocol, the converters' checks. Internal. */
#ifndef CSR_OPS_H
#define CSR_OPS_H

#include "core/backend.h"

/* --- vectors (src/ops/operands.c) ------------------------------------------------------------ */

/* NULL, value type (F64 / F32), location, data present when n > 0. `name` is for the message. */
csr_status csri_check_vector(csr_context *ctx, const csr_vector *v, const char *name);
/* Both vectors valid, same n, same type, and not partly overlapping (the same array is fine for
 * element-wise work); their locations may differ. */
csr_status csri_check_vector_shapes(csr_context *ctx, const csr_vector *x, const csr_vector *y);
/* csri_check_vector_shapes, and both at the same location. */
csr_status csri_check_vector_pair(csr_context *ctx, const csr_vector *x, const csr_vector *y);
/* 1 when a matrix of value type a takes vectors x and y (x and y checked vectors): one type
 * for all, or a pattern matrix with x and y both F64 or both F32. */
int csri_matrix_vector_types_fit(csr_value_type a, csr_value_type x, csr_value_type y);
/* 1 when the arrays of x and y share any byte (both non-empty). */
int csri_vectors_overlap(const csr_vector *x, const csr_vector *y);

/* --- exact sums (src/ops/exact_sums.c) -------------------------------------------------------- */

/* acc[k] += the exact sums of the terms csri_terms names over v's entries, on the backend where
 * v lives (v checked by the caller: one type, one length, one location). */
csr_status csri_exact_sums(csr_context *ctx, csri_terms terms, const csr_vector *const *v,
                           csri_exact_acc *acc);

/* --- the SpMV plan (src/ops/spmv_choice.c) --------------------------------------------------- */

/* The plan of an SpMV with A on backend b (src/core/backend.h, csri_spmv_plan), made in *plan
 * with *handed = plan when b's table asks for plans, else *handed = NULL and nothing computed. A
 * matrix's statistics are computed on its first plan and kept in the context. */
csr_status csri_spmv_plan_for(csr_context *ctx, const csri_backend *b, const csr_matrix *A,
                              csri_spmv_plan *plan, const csri_spmv_plan **handed);
/* How many 128-byte lines of x a step of the scalar kernel's warps touches per lane that reads,
 * sampled on 64 warps of A (src/ops/gather_lines.c): about 0.1 when neighbouring rows read
 * neighbouring entries, near 1 when each lane reads its own line; 0 for an empty matrix. */
csr_status csri_gather_lines(csr_context *ctx, const csr_matrix *A, double *lines_per_lane);
/* A's row statistics as the plan reads them: kept in the context, computed on first use. */
csr_status csri_row_stats_kept(csr_context *ctx, const csr_matrix *A, csr_row_stats *stats);

/* --- planned SpMV (src/ops/spmv_plan.c, src/ops/spmv.c) ------------------------------------- */

/* What csr_spmv_analyze prepared: A (the caller's, read in place) and, packed, its column
 * indices in 16 bits where A lives (heads NULL: plain CSR). */
struct csr_spmv_plan {
  const csr_matrix *A;
  csr_location location; /* A's, where the packed arrays live */
  csri_packed packed;
  csr_spmv_plan_info info;
};

/* The kernel plan to hand a backend for a product with `planned`'s matrix: `handed` (from
 * csri_spmv_plan_for, into `plan`) with the packed index added when `planned` holds one (a
 * backend without plans then gets a plan of its own). */
const csri_spmv_plan *csri_spmv_plan_packed(csri_spmv_plan *plan, const csri_spmv_plan *handed,
                                            const csr_spmv_plan *planned);

/* --- the primitives (src/ops/primitives_common.c) ----------------------------------------------
 */

/* Checks n >= 0, and that `what` is non-NULL when n > 0. */
csr_status csri_check_array(csr_context *ctx, const void *p, int64_t n, const char *what);
/* The workspace protocol of csr_primitives.h. need: the backend's bytes. Returns with
 * *run = 0 after a size query (workspace NULL: *workspace_bytes = need), or *run = 1 and *use
 * pointing at a workspace of at least `need` bytes (the caller's, or the context's cache).
 * CSR_ERR_INVALID_VALUE for a caller's workspace smaller than need. */
csr_status csri_primitive_workspace(csr_context *ctx, csr_location location, size_t need,
                                    void *workspace, size_t *workspace_bytes, int *run, void **use);
/* Releases what csri_primitive_workspace took when the context is NULL (no cache to keep). */
void csri_primitive_workspace_done(csr_context *ctx, csr_location location, void *use,
                                   void *workspace, size_t *workspace_bytes);

/* --- the converters (src/ops/convert_checks.c) ------------------------------------------------ */

/* A CSR the converters can walk (its location checked by the dispatch, which chose b): valid
 * enums and shape, arrays present, row_offsets[0] == 0, non-decreasing, row_offsets[rows] == nnz;
 * b checks the offsets of a device A. Columns are checked by the backends that index with them. */
csr_status csri_convert_check_csr(csr_context *ctx, const csri_backend *b, const csr_matrix *A);
/* The backend for converter `entry` (a member of csri_backend, as an offset) on A, then A's
 * csri_convert_check_csr: CSR_SUCCESS or CSR_INFO_DECLINED with *b set, or an error. */
csr_status csri_convert_dispatch(csr_context *ctx, const csr_matrix *A, size_t entry,
                                 const char *operation, const csri_backend **b);

/* --- COO to CSR for a COO the caller gives up (src/ops/convert_coo.c) ------------------------ */

/* csr_from_coo, which may move T's column and value arrays into *A instead of copying them
 * (csr_read_csr: the reader's triples often come in order already). The caller still frees T. */
csr_status csri_from_coo_take(csr_context *ctx, csr_coo *T, unsigned options, csr_matrix **A);

#endif /* CSR_OPS_H */
