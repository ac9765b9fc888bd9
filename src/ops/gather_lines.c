/* SPDX-License-Identifier: BSD-3-Clause */
/* How scattered the scalar SpMV kernel's gathers of x are: a warp gives 32 consecutive rows a
 * lane each, and step k has every lane read x at its row's k-th column. Measured on a sample of
 * warps: the distinct 128-byte lines of x (16 fp64 entries) that a step touches, over the lanes
 * that read one. About 0.1 on a stencil (neighbouring rows read neighbouring entries), near 1 on
 * random columns (every lane its own line), where the scalar kernel's dependent, uncoalesced
 * loads leave it at half the speed of a kernel that stages the tile's columns first. */
#include "ops/ops.h"

enum {
  WARP = 32,
  SAMPLED_WARPS = 64,
  LINE_ENTRIES = 16,          /* fp64 entries in a 128-byte line */
  MOST_SAMPLED_ENTRIES = 8192 /* a warp of longer rows is left out of the sample */
};

/* Distinct values among v[0..n) (n <= WARP), sorted in place. */
static int distinct(int64_t *v, int n) {
  for (int i = 1; i < n; i++) /* insertion sort: at most 32 values */
    for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
      int64_t t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
  int count = n > 0;
  for (int i = 1; i < n; i++)
    count += v[i] != v[i - 1];
  return count;
}

/* The lines and the lanes of every step of the warp of rows [0, rows) whose offsets (from 0) are
 * off and columns cols. */
static void count_warp(const int64_t *off, const int32_t *cols, int rows, int64_t *lines,
                       int64_t *lanes) {
  int64_t longest = 0;
  for (int r = 0; r < rows; r++)
    longest = off[r + 1] - off[r] > longest ? off[r + 1] - off[r] : longest;
  for (int64_t k = 0; k < longest; k++) {
    int64_t line[WARP];
    int n = 0;
    for (int r = 0; r < rows; r++)
      if (off[r] + k < off[r + 1])
        line[n++] = cols[off[r] + k] / LINE_ENTRIES;
    *lines += distinct(line, n);
    *lanes += n;
  }
}

/* Adds the lines and lanes of the warp of A's rows [first, first + rows) to *lines and *lanes,
 * its offsets and columns copied to the host (cols: room for MOST_SAMPLED_ENTRIES); a warp of
 * more entries is left out. */
static csr_status sample_warp(csr_context *ctx, const csr_matrix *A, int64_t first, int rows,
                              int32_t *cols, int64_t *lines, int64_t *lanes) {
  int64_t off[WARP + 1];
  CSRI_TRY(csri_array_copy(ctx, off, CSR_HOST, A->row_offsets + first, A->location,
                           (size_t)(rows + 1) * sizeof *off));
  const int64_t start = off[0], entries = off[rows] - off[0];
  if (entries > MOST_SAMPLED_ENTRIES)
    return CSR_SUCCESS;
  CSRI_TRY(csri_array_copy(ctx, cols, CSR_HOST, A->col_indices + start, A->location,
                           (size_t)entries * sizeof *cols));
  for (int r = 0; r <= rows; r++)
    off[r] -= start;
  count_warp(off, cols, rows, lines, lanes);
  return CSR_SUCCESS;
}

csr_status csri_gather_lines(csr_context *ctx, const csr_matrix *A, double *lines_per_lane) {
  *lines_per_lane = 0.0;
  if (A->rows == 0 || A->nnz == 0 || A->col_indices == NULL)
    return CSR_SUCCESS;
  const int64_t warps = (A->rows + WARP - 1) / WARP;
  const int64_t sampled = warps < SAMPLED_WARPS ? warps : SAMPLED_WARPS;
  void *room = NULL;
  CSRI_TRY(csri_array_alloc(ctx, &room, MOST_SAMPLED_ENTRIES, sizeof(int32_t), CSR_HOST, 0));
  int64_t lines = 0, lanes = 0;
  csr_status status = CSR_SUCCESS;
  for (int64_t w = 0; w < sampled && status == CSR_SUCCESS; w++) {
    const int64_t first = (w * warps / sampled) * WARP; /* warps spread evenly over A */
    const int rows = (int)(A->rows - first < WARP ? A->rows - first : WARP);
    status = sample_warp(ctx, A, first, rows, room, &lines, &lanes);
  }
  csri_free(room);
  CSRI_TRY(status);
  *lines_per_lane = lanes > 0 ? (double)lines / (double)lanes : 0.0;
  return CSR_SUCCESS;
}
