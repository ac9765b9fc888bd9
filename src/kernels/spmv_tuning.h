/* SPDX-License-Identifier: BSD-3-Clause */
/* The thresholds of the SpMV kernel choice (src/kernels/spmv_choice.h), in C so that the CPU
 * tests check the choice with the values the GPU uses. cuda/tuning.cuh includes this file: the
 * CUDA backend's tuning is read in one place. docs/algorithms.md ("Choosing the SpMV kernel")
 * says what each one is for. Internal. */
#ifndef CSR_KERNELS_SPMV_TUNING_H
#define CSR_KERNELS_SPMV_TUNING_H

/* Rows count as regular when at least this share of the nonzeros lies in rows whose length is
 * within a factor of two of the typical row (the log2 bin holding the median nonzero, and the
 * bins either side). Below it a row kernel leaves lanes idle while a few groups finish long rows.
 */
#define CSRI_SPMV_REGULAR_SHARE 0.90
/* A row kernel also needs the longest row to be harmless: its group of lanes takes longest/lanes
 * steps, while each lane's share of the whole product is nnz / (the lanes the GPU holds at once).
 * The longest row may take at most this many times that share. */
#define CSRI_SPMV_LONGEST_STEPS_FACTOR 4.0
/* ... and at least this many steps, whatever the size: a launch costs a few microseconds, about
 * what a group spends on this many steps, so on small matrices a row kernel's single launch still
 * beats the segmented kernel's three. */
#define CSRI_SPMV_LONGEST_STEPS_MIN 64.0
/* The lanes a large GPU holds at once (an H100 or H200: 132 multiprocessors x 2048 threads). The
 * test above needs only its order of magnitude; a constant keeps the choice, and so the bits of
 * the result, the same on every GPU model. */
#define CSRI_SPMV_RESIDENT_LANES (132.0 * 2048.0)
/* Above this share of empty rows the row kernels spend a thread or a group on rows with no work;
 * the segmented kernel spends one path item on each. */
#define CSRI_SPMV_EMPTY_SHARE 0.34
/* Regular rows of at most this many entries on average (empty rows left out) get a thread each:
 * the row is one or two cache sectors, read by one thread while its neighbours read the next. */
#define CSRI_SPMV_SCALAR_MEAN 8.0
/* ... and only when its warps' gathers of x share lines: a step of a warp (32 rows, each lane
 * reading its row's k-th column) may touch at most this many 128-byte lines per lane, sampled
 * (csri_gather_lines). Neighbouring rows of a stencil read neighbouring entries (about 0.1);
 * random columns give each lane its own line (about 1), and then the scalar kernel's dependent,
 * uncoalesced loads run at 0.55-0.63x cuSPARSE where the stream kernel, which stages the tile's
 * columns first, runs at 1.0-1.1x. */
#define CSRI_SPMV_SCALAR_LINES 0.25
/* Longer regular rows get a group of lanes (the vector kernel) only when every group is full:
 * the mean fills at least VECTOR_FILL of the group's passes (mean / (lanes x passes)) and the
 * rows' standard deviation is at most VECTOR_SPREAD of the mean. Otherwise lanes idle in every
 * pass, and the segmented kernel, which stages each tile's nonzeros with coalesced loads, wins. */
#define CSRI_SPMV_VECTOR_FILL 0.95
#define CSRI_SPMV_VECTOR_SPREAD 0.05
/* The stream kernel stages a tile of whole rows in shared memory: THREADS threads x ITEMS
 * nonzeros each (f64; _F32 for f32), the tiles placed so that rows of up to STREAM_LONGEST
 * entries always fit. Smaller tiles in more blocks per SM hide the staging's latency better, down
 * to the size where a tile's fixed work (its start, its rows' carries) starts to count: 5 items a
 * thread in f64, 6 in f32 (whose items are half the bytes). */
#ifndef CSRI_SPMV_STREAM_THREADS
#define CSRI_SPMV_STREAM_THREADS 256
#endif
#ifndef CSRI_SPMV_STREAM_ITEMS
#define CSRI_SPMV_STREAM_ITEMS 5
#endif
#ifndef CSRI_SPMV_STREAM_ITEMS_F32
#define CSRI_SPMV_STREAM_ITEMS_F32 6
#endif
#ifndef CSRI_SPMV_STREAM_LONGEST
#define CSRI_SPMV_STREAM_LONGEST 256
#endif
/* The stream kernel is chosen when every row fits its tile and the rows are alike enough: in a
 * tile of typical rows the longest row takes its group of lanes at most this many times the steps
 * of a lane's even share of the tile (the other lanes of the block wait for it). */
#define CSRI_SPMV_STREAM_STEPS_FACTOR 8.0

#endif
