/* Work partitions for the OpenMP backend (src/omp/partition.c). Internal. */
#ifndef CSR_OMP_PARTITION_H
#define CSR_OMP_PARTITION_H

#include "internal.h"

/* Most blocks csri_omp_blocks makes (callers keep bounds[CSRI_MAX_BLOCKS + 1] on the stack). */
#define CSRI_MAX_BLOCKS 1024

/* First row of part t of nt: the smallest r with r + off[r] >= floor(t * work / nt), where
 * work = rows + off[rows] (off NULL: rows alone). Counting a row as one unit besides its entries
 * keeps runs of empty rows balanced; a dense row lands whole in one part. */
int64_t csri_omp_part_begin(const int64_t *off, int64_t rows, int64_t t, int64_t nt);
/* Splits rows [0, rows) into up to 4 blocks per thread (at most CSRI_MAX_BLOCKS) of about
 * equal work; bounds[0..nblocks]. */
int csri_omp_blocks(const int64_t *off, int64_t rows, int threads, int64_t *bounds);
/* In-place inclusive prefix sum of a[0..n). */
void csri_omp_scan_i64(int64_t *a, int64_t n, int threads);

#endif
