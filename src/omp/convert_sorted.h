/* SPDX-License-Identifier: BSD-3-Clause */
/* The OpenMP backend's COO to CSR fast path for triples that already come in (row, column) order
 * (src/omp/convert_sorted.c), and the one pass over the triples that finds out. Internal. */
#ifndef CSR_OMP_CONVERT_SORTED_H
#define CSR_OMP_CONVERT_SORTED_H

#include "omp/omp.h"

/* What one pass over a COO's triples finds. */
typedef struct csri_coo_scan {
  int64_t bad;     /* the first triple outside the matrix, nnz when none */
  int sorted;      /* no triple's (row, column) is below the one before it (when bad == nnz) */
  int64_t repeats; /* triples whose (row, column) equals the one before it (when sorted) */
} csri_coo_scan;

/* Chunks of T's triples for the scan and the fast path: one per thread (csri_thread_chunks), at
 * most CSRI_MAX_BLOCKS, a single one below 65536 triples. */
static inline int csri_omp_coo_chunks(const csr_context *ctx, const csr_coo *T) {
  int64_t nc = csri_thread_chunks(ctx, T->nnz, 65536);
  return (int)(nc > CSRI_MAX_BLOCKS ? CSRI_MAX_BLOCKS : nc);
}

/* Checks every index of T and its order, in one read of both index arrays. */
void csri_omp_coo_scan(const csr_context *ctx, const csr_coo *T, csri_coo_scan *s);

/* *A = T as CSR for a sorted T (nnz > 0, indices in range, `repeats` as the scan found): the same
 * bits as the general path. Into new arrays; or, when take is T itself, in T's own column and
 * value arrays, which then move into *A (T's pointers NULL): without repeats and DROP_ZEROS
 * nothing in them moves at all, and only the row offsets are new. */
csr_status csri_omp_from_sorted_coo(csr_context *ctx, const csr_coo *T, csr_coo *take, int drop,
                                    int64_t repeats, csr_matrix **A);

/* Closes the gaps between nc chunks of items in place: chunk c's len[c] items at from[c] (in
 * cols, and in vals of vs bytes each unless vs is 0) move down to at[c] = at[c - 1] + len[c - 1]
 * (at[0] <= from[0], from[c] + len[c] <= from[c + 1]). In parallel, the items of a chunk that the
 * moves of the chunks above it would overwrite before it has read them set aside first; chunk by
 * chunk in order when those are many. CSR_ERR_OUT_OF_MEMORY (nothing moved) when the room to set
 * them aside cannot be had. */
csr_status csri_omp_slide_chunks(csr_context *ctx, int nc, const int64_t *from, const int64_t *len,
                                 const int64_t *at, int32_t *cols, void *vals, size_t vs);

#endif /* CSR_OMP_CONVERT_SORTED_H */
