/* SPDX-License-Identifier: BSD-3-Clause */
/* Work partitions for the OpenMP backend: contiguous row ranges of equal rows + entries, and an
 * in-place parallel prefix sum. Shared by SpMV, the converters and the row statistics. */
#include "omp/partition.h"

int64_t csri_omp_part_begin(const int64_t *off, int64_t rows, int64_t t, int64_t nt) {
  int64_t work = rows + (off ? off[rows] : 0);
  int64_t target = work / nt * t + work % nt * t / nt; /* floor(t * work / nt), no overflow */
  int64_t lo = 0, hi = rows; /* r + off[r] is non-decreasing, and reaches work at r = rows */
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (mid + (off ? off[mid] : 0) < target)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

int csri_omp_blocks(const int64_t *off, int64_t rows, int threads, int64_t *bounds) {
  int64_t nb = 4 * (int64_t)threads; /* a few blocks per thread smooth out uneven rows */
  nb = nb > CSRI_MAX_BLOCKS ? CSRI_MAX_BLOCKS : nb;
  nb = nb > rows ? rows : nb;
  nb = nb < 1 ? 1 : nb;
  for (int64_t b = 0; b < nb; b++)
    bounds[b] = csri_omp_part_begin(off, rows, b, nb);
  bounds[nb] = rows;
  return (int)nb;
}

void csri_omp_scan_i64(int64_t *a, int64_t n, int threads) {
  int64_t sums[CSRI_MAX_BLOCKS + 1];
  int nb = n < 65536 ? 1 : threads > CSRI_MAX_BLOCKS ? CSRI_MAX_BLOCKS : threads;
  sums[0] = 0;
#pragma omp parallel for if (nb > 1) num_threads(threads) schedule(static, 1)
  for (int b = 0; b < nb; b++) { /* scan each block locally, keep its total */
    int64_t s = 0;
    for (int64_t i = n * b / nb; i < n * (b + 1) / nb; i++)
      a[i] = s += a[i];
    sums[b + 1] = s;
  }
  for (int b = 0; b < nb; b++)
    sums[b + 1] += sums[b];
#pragma omp parallel for if (nb > 1) num_threads(threads) schedule(static, 1)
  for (int b = 1; b < nb; b++)
    for (int64_t i = n * b / nb; i < n * (b + 1) / nb; i++)
      a[i] += sums[b];
}
