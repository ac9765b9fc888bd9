/* SPDX-License-Identifier: BSD-3-Clause */
/* Row-length histogram, longest, empty rows, mean and population variance: OpenMP over rows. */
#include "kernels/row_length.h"
#include "omp/omp.h"

/* Integer counts are exact in any order, so each thread keeps its own and merges them at the end.
 * The variance sum uses the fixed chunks of src/omp/partition.h: the same bits for every thread
 * count. */
typedef struct counts {
  int64_t histogram[CSR_HIST_BINS];
  int64_t longest, empty_rows;
  int bad;
} counts;

static double chunk(const int64_t *off, int64_t b, int64_t e, double mean, counts *s) {
  double squares = 0.0; /* sum (len - mean)^2: mean is known up front (nnz / rows) */
  for (int64_t i = b; i < e; i++) {
    int64_t len = off[i + 1] - off[i];
    s->bad |= len < 0;
    s->histogram[csri_row_length_bin(len)]++;
    s->longest = len > s->longest ? len : s->longest;
    s->empty_rows += len == 0;
    squares += ((double)len - mean) * ((double)len - mean);
  }
  return squares;
}

csr_status csri_omp_row_stats(csr_context *ctx, const int64_t *off, int64_t rows,
                              csr_row_stats *stats) {
  (void)ctx; /* used only by OpenMP clauses */
  stats->rows = rows;
  stats->nnz = off[rows] - off[0];
  double mean = rows > 0 ? (double)stats->nnz / (double)rows : 0.0;
  int64_t chunks = csri_reduce_chunks(rows);
  double part[CSRI_REDUCE_MAX_CHUNKS];
  int bad = 0;
#pragma omp parallel num_threads(csri_omp_threads(ctx)) if (chunks > 1)
  {
    counts s = {{0}, 0, 0, 0};
#pragma omp for schedule(static)
    for (int64_t c = 0; c < chunks; c++)
      part[c] = chunk(off, csri_chunk_begin(rows, chunks, c), csri_chunk_begin(rows, chunks, c + 1),
                      mean, &s);
#pragma omp critical(csri_row_stats_merge)
    {
      for (int b = 0; b < CSR_HIST_BINS; b++)
        stats->histogram[b] += s.histogram[b];
      stats->longest = s.longest > stats->longest ? s.longest : stats->longest;
      stats->empty_rows += s.empty_rows;
      bad |= s.bad;
    }
  }
  double squares = 0.0;
  for (int64_t c = 0; c < chunks; c++)
    squares += part[c];
  stats->mean = mean;
  stats->variance = rows > 0 ? squares / (double)rows : 0.0;
  return bad ? csri_offsets_error(ctx) : CSR_SUCCESS;
}
