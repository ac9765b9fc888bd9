/* Every tuning constant of the CUDA backend in one place (block sizes, items per thread, grid
 * sizes, thresholds). Chosen for sm_90 (H100 / H200); docs/algorithms.md says why each is what it
 * is. */
#ifndef CSR_CUDA_TUNING_CUH
#define CSR_CUDA_TUNING_CUH

/* Scan and compact: one tile = SCAN_THREADS threads x BYTES_PER_THREAD bytes of input each, as
 * 16-byte loads all in flight before the first use (8 loads, 32 int32 per thread; compact at 64
 * bytes ran at 0.71x CUB's throughput, at 128 at 0.85x, at 32 at 0.66x; scan at 128 bytes 0.93x,
 * at 192 0.94x, at 256 0.89x; compact's tile at 192 bytes outgrows 48 KB of static shared
 * memory: H100, 2026-11-24). */
#define CSRI_SCAN_THREADS 256
#ifndef CSRI_SCAN_BYTES_PER_THREAD
#define CSRI_SCAN_BYTES_PER_THREAD 128
#endif
#ifndef CSRI_COMPACT_BYTES_PER_THREAD
#define CSRI_COMPACT_BYTES_PER_THREAD 128
#endif

/* Look-back: 1 packs a tile's flag and value into one 64-bit word where they fit (counts and 4-byte
 * values, cuda/common.cuh), 0 keeps them in separate words ordered by fences. */
#ifndef CSRI_TILE_STATUS_PACKED
#define CSRI_TILE_STATUS_PACKED 1
#endif
/* Look-back: a waiting reader sleeps PAUSE ns, doubling up to PAUSE_MAX, between polls. */
#ifndef CSRI_LOOK_BACK_PAUSE_NS
#define CSRI_LOOK_BACK_PAUSE_NS 32
#endif
#ifndef CSRI_LOOK_BACK_PAUSE_MAX_NS
#define CSRI_LOOK_BACK_PAUSE_MAX_NS 512
#endif
/* Scan, compact and the COO converter's runs: warp 0 sleeps FIRST_PAUSE ns after publishing its
 * tile's total, before its first poll, so that the tile before has had the time to publish its
 * inclusive prefix (rather than a window of aggregates re-read while they change; the polls were
 * not counted, the times below were).
 * 2^28 int32, H100, 2026-11-28, three rounds of builds side by side, medians: no pause, scan
 * 0.941-0.948 ms and compact 0.758-0.761; 500 ns 0.898 and 0.725; 800 ns 0.873 and 0.711; 1200 ns
 * 0.835-0.838 and 0.676-0.679; 2000 ns 0.838 and 0.680 (CUB's sm90 scan waits ~1.2 us too). */
#ifndef CSRI_LOOK_BACK_FIRST_PAUSE_NS
#define CSRI_LOOK_BACK_FIRST_PAUSE_NS 1200
#endif

/* Radix sort (onesweep): 8-bit digits, or up to WIDE_BITS where wider digits take fewer passes
 * (src/kernels/radix_plan.h); a tile of RADIX_THREADS threads (one or more digits each in the
 * per-digit steps) x RADIX_ITEMS keys, staged with their values in shared memory before the
 * scatter. */
#define CSRI_RADIX_BITS 8
/* 9: H100, 2026-11-24, 2^26 triples over 2^22 x 2^22 (44-bit keys) to CSR 7.43-7.52 ms against
 * 7.83-7.86 with 8-bit digits only (5 passes against 6); 10 made it 8.58 ms, and 2^26 40-bit COO
 * pairs in 4 passes of 10 bits 0.75x CUB against 0.85x in 5 of 8. Instantiations of the 9-bit pass
 * that no measured case runs spill 8 to 16 bytes (32-bit keys over 9, 17-18 or 25-27 bits, and the
 * COO converter's first pass over 64-bit keys without values); those over 64-bit keys with 4- or
 * 8-byte values do not. */
#ifndef CSRI_RADIX_WIDE_BITS
#define CSRI_RADIX_WIDE_BITS 9
#endif
#define CSRI_RADIX_THREADS 256
/* Keys a thread ranks in a tile, and the blocks per SM that the pass's register budget must fit,
 * by key and value size: 32-bit keys with 4-byte values or none, 32-bit keys with 8-byte values,
 * and 64-bit keys. History (H100, ours over CUB's throughput in the same run): 2026-11-24, u64
 * keys with f64 values at 12 keys a thread 0.77x, 16 0.81x, 20 0.84x (2 blocks); u32 keys and
 * values at 16 keys: 4 blocks 0.77x, 3 0.74x, 2 0.60x. A later pair of runs: u64 + f64 at 24 keys
 * 0.855 and 0.851x against 0.830 and 0.832x at 20, at 16 keys with 3 blocks 0.818 and 0.816x; u32
 * pairs at 12 keys with 5 blocks 0.687 and 0.690x against 0.760 and 0.761x. Prefetching into L2
 * the tile one round of resident blocks ahead (264 or 132 tiles) made 64-bit passes slower,
 * 1.37-1.42 ms against 1.29-1.34 (2026-11-25, Nsight Compute). 2026-11-28, 2^28 u32 pairs, three
 * rounds of builds side by side: 16 keys with 4 blocks (4096-key tiles) 11.71-12.13 ms, 0.76-0.78x;
 * 20 with 3 10.19-10.60 ms, 0.87-0.92x; 24 with 2 11.00-11.02 ms, 0.84-0.86x; 32 with 2 (8192-key
 * tiles, 127 registers) 10.01 ms, 0.92-0.95x. The profile that led there (Nsight Compute, one
 * pass): ours with 4096-key tiles moved its bytes at 1.59 TB/s to CUB's 1.92 (CUB: 6528-key tiles
 * of 384 threads, 2 blocks an SM), though CUB's warps are fewer (24 an SM to 32) and ours were not
 * short of instruction issue (a ranking in a third fewer instructions changed nothing): each tile's
 * fixed latencies (its two loads, the look-back, ten barriers) are spent once per 8192 keys instead
 * of 4096. 32-bit keys alone take the same shape: 2^28 keys 7.52-7.53 ms against 8.05-8.07 at 16
 * keys with 3 blocks (0.73-0.74x CUB against 0.69x). 32-bit keys with 8-byte values keep 16 keys
 * with 3 blocks: 32 would spill. */
#ifndef CSRI_RADIX_ITEMS_32
#define CSRI_RADIX_ITEMS_32 32
#endif
#ifndef CSRI_RADIX_MIN_BLOCKS_32
#define CSRI_RADIX_MIN_BLOCKS_32 2
#endif
#ifndef CSRI_RADIX_ITEMS_32_WIDE_VALUES
#define CSRI_RADIX_ITEMS_32_WIDE_VALUES 16
#endif
#ifndef CSRI_RADIX_MIN_BLOCKS_32_WIDE_VALUES
#define CSRI_RADIX_MIN_BLOCKS_32_WIDE_VALUES 3
#endif
#ifndef CSRI_RADIX_ITEMS_64
#define CSRI_RADIX_ITEMS_64 24
#endif
#ifndef CSRI_RADIX_MIN_BLOCKS_64
#define CSRI_RADIX_MIN_BLOCKS_64 2
#endif
/* The keys a thread ranks for keys of key_size bytes with values of value_size (0: none): C and
 * CUDA alike (the tests put their tile boundaries there). */
#define CSRI_RADIX_ITEMS_FOR(key_size, value_size)                                                 \
  ((key_size) == 8     ? CSRI_RADIX_ITEMS_64                                                       \
   : (value_size) == 8 ? CSRI_RADIX_ITEMS_32_WIDE_VALUES                                           \
                       : CSRI_RADIX_ITEMS_32)
#define CSRI_RADIX_MIN_BLOCKS_FOR(key_size, value_size)                                            \
  ((key_size) == 8     ? CSRI_RADIX_MIN_BLOCKS_64                                                  \
   : (value_size) == 8 ? CSRI_RADIX_MIN_BLOCKS_32_WIDE_VALUES                                      \
                       : CSRI_RADIX_MIN_BLOCKS_32)
/* The all-digits histogram that precedes the passes: threads, the keys a thread loads at once
 * (all in flight before it counts any), and at most RADIX_HIST_BLOCKS_PER_SM blocks per
 * multiprocessor (a grid-stride loop covers the rest). H100, 2026-11-24, 2^26 COO keys of 5
 * passes, Nsight Compute, one launch each: one key at a time 0.45 ms (the passes' loop then not
 * unrolled), 4 keys 0.40, 8 keys 0.69, 16 keys 0.72, 8 keys with 8 blocks an SM 0.54; in a later
 * call 4 keys 0.395, 2 keys 0.392, 4 keys with 8 blocks an SM 0.360; in a whole sort, built
 * beside each other (2026-11-25), 8 blocks an SM changed nothing (2^26 triples to CSR 7.005 and
 * 7.011 ms against 7.005 and 6.979 with 4). With the next chunk's loads issued before the chunk in
 * hand is counted (2026-11-27, web-NotreDame x23 shuffled, 34.4M 46-bit keys): 0.156 ms with 8
 * blocks an SM against 0.185 for the loads and counting in turn with 4 (Nsight Compute); the
 * whole conversion 3.29 ms with 8 against 3.39 with 4 (builds side by side, two runs each). */
#define CSRI_RADIX_HIST_THREADS 256
#ifndef CSRI_RADIX_HIST_ITEMS
#define CSRI_RADIX_HIST_ITEMS 4
#endif
#ifndef CSRI_RADIX_HIST_BLOCKS_PER_SM
#define CSRI_RADIX_HIST_BLOCKS_PER_SM 8
#endif

/* The pass over ordered COO triples (cuda/coo_runs.cuh): a tile of RUNS_THREADS threads x
 * RUNS_ITEMS triples; RUNS_MIN_BLOCKS blocks an SM, a budget of 64 registers a thread that the
 * kernel fits unspilled. H100, 2026-11-24, sorted 2^26 f64 triples, same runs: 4 blocks 1.04 ms,
 * 3 blocks 1.16-1.20, 5 (spills) 1.16-1.25; 12 triples a thread (3 blocks) 1.06-1.11, 4 (8
 * blocks) 1.21-1.23; 128-thread blocks 1.11-1.14. Later, same runs: 512-thread blocks (2 an SM)
 * 1.016 and 1.037 ms against 1.054 and 1.026, shuffled 7.22-7.24 against 7.31: within the
 * spread, not changed. Each block prefetching into L2 the tile one round of resident blocks ahead
 * (2026-11-25, Nsight Compute) made the pass over sorted keys slower: 1.05-1.21 ms against 1.00;
 * so did resident blocks copying their next tile into shared memory (cp.async, two buffers, 3
 * blocks an SM) while writing the current one: sorted 1.35-1.49 ms against 1.03-1.06
 * (docs/benchmarks.md). */
#ifndef CSRI_RUNS_THREADS
#define CSRI_RUNS_THREADS 256
#endif
#ifndef CSRI_RUNS_ITEMS
#define CSRI_RUNS_ITEMS 8
#endif
#ifndef CSRI_RUNS_MIN_BLOCKS
#define CSRI_RUNS_MIN_BLOCKS 4
#endif

/* The check of given COO triples (cuda/coo_check.cuh): groups of 4 consecutive triples a
 * thread (a tile is RUNS_THREADS x CHECK_GROUPS x 4), and the most repeats it lists (more, and
 * the pass above assembles A). H100, 2026-11-25, 2^26 sorted triples, Nsight Compute: 2 groups
 * 0.30 ms, and held to 48 registers (5 blocks an SM instead of 4) 0.295 ms, no gain; in an
 * earlier version of the check, 4 groups made the whole conversion slower (1.115-1.122 ms
 * against 1.086-1.117). */
#ifndef CSRI_CHECK_GROUPS
#define CSRI_CHECK_GROUPS 2
#endif
/* The check's blocks an SM that its register count must allow: 1 leaves the count free (74 with
 * the copy of the values it reads, 3 blocks an SM). H100, 2026-11-25: held to 64 registers (4
 * blocks), the check of sorted triples with repeats 0.328 ms against 0.341, but real matrices'
 * ordered triples converted 0.416-0.490 ms against 0.396-0.471 (same run). */
#ifndef CSRI_CHECK_MIN_BLOCKS
#define CSRI_CHECK_MIN_BLOCKS 1
#endif
#ifndef CSRI_REPEATS_LISTED
#define CSRI_REPEATS_LISTED 65536
#endif
/* Lists of at most this many repeats are put in order by a rank sort (one launch, D^2
 * comparisons); longer ones by the radix sort. H100, 2026-11-25: the radix sort of the 123
 * repeats of 2^26 generated triples took 52 us (five launches, three passes of 15 us). */
#ifndef CSRI_REPEATS_RANKED
#define CSRI_REPEATS_RANKED 4096
#endif
/* At most this many repeats are taken out by one kernel launched behind the check, each of its
 * blocks ranking them in shared memory (D^2 / RUNS_THREADS comparisons a thread). */
#ifndef CSRI_REPEATS_FEW
#define CSRI_REPEATS_FEW 512
#endif

/* Histogram: privatised copies in shared memory, one per HIST_WARPS_PER_COPY warps (fewer
 * threads contending per copy), while the copies fit in HIST_SHARED_BYTES; beyond that a single
 * shared copy, and past what one copy fits, privatised copies in global memory. */
#define CSRI_HIST_THREADS 512
#define CSRI_HIST_WARPS_PER_COPY 2
#define CSRI_HIST_SHARED_BYTES (96 * 1024)
#define CSRI_HIST_BLOCKS_PER_SM 4
/* Global-memory fallback: blocks of the grid share at most GLOBAL_COPIES private copies of 64-bit
 * counters, as many as fit in GLOBAL_BYTES of workspace. */
#define CSRI_HIST_GLOBAL_COPIES 64
#define CSRI_HIST_GLOBAL_BYTES (64 << 20)
/* A block counts at most this many samples into its 32-bit shared counters, so they never wrap
 * (the grid grows past BLOCKS_PER_SM per SM for longer inputs). */
#define CSRI_HIST_SAMPLES_PER_BLOCK (1 << 30)
/* The kernel that adds the copies up: threads per block, one bin each. */
#define CSRI_HIST_FINISH_THREADS 256

/* SpMV and CG's step: threads per block. The thresholds of the kernel choice are C, for the CPU
 * tests: */
#define CSRI_SPMV_THREADS 256
#include "kernels/spmv_tuning.h"
/* The segmented (merge-path) SpMV: threads per block and path items (nonzeros and row ends) per
 * thread, f64 values and (_F32) f32; a tile is their product. */
#ifndef CSRI_SPMV_MERGE_THREADS
#define CSRI_SPMV_MERGE_THREADS 256
#endif
#ifndef CSRI_SPMV_MERGE_ITEMS
#define CSRI_SPMV_MERGE_ITEMS 7
#endif
#ifndef CSRI_SPMV_MERGE_ITEMS_F32
#define CSRI_SPMV_MERGE_ITEMS_F32 9
#endif
/* 1: the tiled kernels (segmented and stream) stage f32 products in float, 0: in double
 * (cuda/spmv_tile.cuh, csri_staged). */
#ifndef CSRI_SPMV_F32_STAGED_IN_FLOAT
#define CSRI_SPMV_F32_STAGED_IN_FLOAT 1
#endif
/* Its blocks per SM that the compiler must fit (the register budget). */
#ifndef CSRI_SPMV_MERGE_MIN_BLOCKS
#define CSRI_SPMV_MERGE_MIN_BLOCKS 5
#endif
#ifndef CSRI_SPMV_MERGE_MIN_BLOCKS_F32
#define CSRI_SPMV_MERGE_MIN_BLOCKS_F32 6
#endif
/* The stream (row-tile) SpMV's shape is in src/kernels/spmv_tuning.h (the choice reads it); here
 * the blocks per SM that the compiler must fit, f64 and (_F32) f32. */
#ifndef CSRI_SPMV_STREAM_MIN_BLOCKS
#define CSRI_SPMV_STREAM_MIN_BLOCKS 6
#endif
#ifndef CSRI_SPMV_STREAM_MIN_BLOCKS_F32
#define CSRI_SPMV_STREAM_MIN_BLOCKS_F32 6
#endif
/* CG's fused step: blocks per SM the compiler must fit (register budget); 1 leaves it free
 * (48 registers, 5 blocks of 256 threads per SM on sm_90). Forcing 6 (40 registers) or 8 (32)
 * spills and made a CG iteration 1.2x and 2.5x slower on an H100 (docs/benchmarks.md). */
#ifndef CSRI_CG_STEP_MIN_BLOCKS
#define CSRI_CG_STEP_MIN_BLOCKS 1
#endif
/* Element-wise vector kernels: threads per block; blocks cover n with a grid-stride loop. */
#define CSRI_VECTOR_THREADS 256
#define CSRI_VECTOR_MAX_BLOCKS 4096
/* Reductions (cuda/reduce.cuh) and CG's fused step: threads per block; the grid is one wave,
 * sized from the kernel's occupancy. */
#define CSRI_REDUCE_THREADS 256
/* The Jacobi diagonal: threads per block, and at most this many blocks (grid-stride loop). */
#define CSRI_JACOBI_THREADS 256
#define CSRI_JACOBI_MAX_BLOCKS 65535

/* Multiprocessors assumed when the device cannot be asked (an H100 SXM's 132): grids stay
 * sensible; results do not depend on it. */
#define CSRI_SM_COUNT_FALLBACK 132

#endif
