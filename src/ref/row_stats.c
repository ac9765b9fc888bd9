/* SPDX-License-Identifier: BSD-3-Clause */
/* Row-length histogram, longest, empty rows, mean and population variance: one serial sweep. */
#include "kernels/row_length.h"
#include "ref/ref.h"

csr_status csri_ref_row_stats(csr_context *ctx, const int64_t *off, int64_t rows,
                              csr_row_stats *stats) {
  stats->rows = rows;
  stats->nnz = off[rows] - off[0];
  /* The mean is known before the sweep, so the variance is the stable two-pass form
   * sum (len - mean)^2 / rows in a single pass. */
  double mean = rows > 0 ? (double)stats->nnz / (double)rows : 0.0;
  double squares = 0.0;
  for (int64_t i = 0; i < rows; i++) {
    int64_t len = off[i + 1] - off[i];
    if (len < 0)
      return csri_offsets_error(ctx);
    stats->histogram[csri_row_length_bin(len)]++;
    stats->longest = len > stats->longest ? len : stats->longest;
    stats->empty_rows += len == 0;
    squares += ((double)len - mean) * ((double)len - mean);
  }
  stats->mean = mean;
  stats->variance = rows > 0 ? squares / (double)rows : 0.0;
  return CSR_SUCCESS;
}
