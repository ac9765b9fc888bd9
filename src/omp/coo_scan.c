/* SPDX-License-Identifier: BSD-3-Clause */
/* One read of a COO's index arrays: the first triple outside the matrix, whether
 * (row_k, col_k) >= (row_{k-1}, col_{k-1}) for every k (lexicographically), and how many equal. */
#include "omp/convert_sorted.h"

/* Scan blocks: small enough to rescan for the first bad triple, large enough to vectorise. */
#define SCAN_BLOCK 4096

/* The first triple in [b, e) outside the matrix, or e. */
static int64_t first_bad(const csr_coo *T, int64_t b, int64_t e) {
  for (int64_t k = b; k < e; k++)
    if (T->row_indices[k] < 0 || T->row_indices[k] >= T->rows || T->col_indices[k] < 0 ||
        T->col_indices[k] >= T->cols)
      return k;
  return e;
}

/* One chunk [b, e) of the scan: each triple against the one before it (k - 1 may lie in the
 * chunk before: it is only read). Branch-free inner loop; a block with a bad triple is rescanned
 * for the first one and ends the chunk (what follows it no longer matters). */
static void scan_chunk(const csr_coo *T, int64_t b, int64_t e, csri_coo_scan *s) {
  const int32_t *ri = T->row_indices, *ci = T->col_indices;
  int32_t rows = (int32_t)T->rows, cols = (int32_t)T->cols;
  unsigned down = 0;
  int64_t repeats = 0;
  s->bad = T->nnz; /* none */
  s->sorted = 0;
  s->repeats = 0;
  if (b == 0 && e > 0 && first_bad(T, 0, 1) == 0) {
    s->bad = 0;
    return;
  }
  for (int64_t k0 = b > 0 ? b : 1; k0 < e; k0 += SCAN_BLOCK) {
    int64_t k1 = e - k0 > SCAN_BLOCK ? k0 + SCAN_BLOCK : e;
    unsigned out = 0, same = 0;
    for (int64_t k = k0; k < k1; k++) {
      int32_t r = ri[k], c = ci[k], pr = ri[k - 1], pc = ci[k - 1];
      out |= (unsigned)(r < 0) | (unsigned)(r >= rows) | (unsigned)(c < 0) | (unsigned)(c >= cols);
      down |= (unsigned)(r < pr) | ((unsigned)(r == pr) & (unsigned)(c < pc));
      same += (unsigned)(r == pr) & (unsigned)(c == pc);
    }
    repeats += same;
    if (out) {
      s->bad = first_bad(T, k0, k1);
      break;
    }
  }
  s->sorted = !down;
  s->repeats = repeats;
}

void csri_omp_coo_scan(const csr_context *ctx, const csr_coo *T, csri_coo_scan *s) {
  csri_coo_scan part[CSRI_MAX_BLOCKS];
  int64_t n = T->nnz;
  int nc = csri_omp_coo_chunks(ctx, T);
#pragma omp parallel for if (nc > 1) num_threads(nc) schedule(static, 1)
  for (int c = 0; c < nc; c++)
    scan_chunk(T, n * c / nc, n * (c + 1) / nc, &part[c]);
  s->bad = n;
  s->sorted = 1;
  s->repeats = 0;
  for (int c = 0; c < nc; c++) { /* the first chunk with a bad triple names it */
    if (part[c].bad < n) {
      s->bad = part[c].bad;
      return;
    }
    s->sorted &= part[c].sorted;
    s->repeats += part[c].repeats;
  }
}
