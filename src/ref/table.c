/* SPDX-License-Identifier: BSD-3-Clause */
/* The reference backend's table: every operation on host operands (it is the fallback of
 * last resort, so no entry is NULL but device memory's). */
#include "ref/ref.h"

const csri_backend csri_ref_backend = {
    .id = CSR_BACKEND_REF,
    .location = CSR_HOST,
    .vector.axpby = csri_ref_axpby,
    .vector.scale = csri_ref_scale,
    .vector.fill = csri_ref_fill,
    .vector.copy = csri_ref_copy,
    .vector.reduce = csri_ref_reduce,
    .vector.exact_sums = csri_ref_exact_sums,
    .sparse.spmv = csri_ref_spmv,
    .sparse.row_stats = csri_ref_row_stats,
    .convert.from_coo = csri_ref_from_coo,
    .convert.to_coo = csri_ref_to_coo,
    .convert.from_dense = csri_ref_from_dense,
    .convert.to_dense = csri_ref_to_dense,
    .convert.transpose = csri_ref_transpose,
    .convert.symmetric_expand = csri_ref_symmetric_expand,
    .solve.cg_step = csri_ref_cg_step,
    .solve.cg_update = csri_ref_cg_update,
    .solve.jacobi = csri_ref_jacobi,
    .graph.pagerank_weights = csri_ref_pagerank_weights,
    .graph.pagerank_pull = csri_ref_pagerank_pull,
    .graph.pagerank_spread = csri_ref_pagerank_spread,
    .graph.pagerank_update = csri_ref_pagerank_update,
    .graph.pagerank_exact_update = csri_ref_pagerank_exact_update,
    .primitive.scan_bytes = csri_ref_scan_bytes,
    .primitive.scan = csri_ref_scan,
    .primitive.compact_bytes = csri_ref_compact_bytes,
    .primitive.compact = csri_ref_compact,
    .primitive.radix_sort_bytes = csri_ref_radix_sort_bytes,
    .primitive.radix_sort = csri_ref_radix_sort,
    .primitive.histogram_bytes = csri_ref_histogram_bytes,
    .primitive.histogram = csri_ref_histogram,
};
