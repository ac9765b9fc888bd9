/* SPDX-License-Identifier: BSD-3-Clause */
/* Every tuning constant of the CUDA backend in one place: block sizes, items per thread, grid
 * bounds and thresholds, chosen for sm_90 (H100 / H200). Each says what it sets and the rule
 * behind its value; docs/algorithms.md explains the kernels, docs/benchmarks.md holds the
 * measurements. A constant under #ifndef may be set at build time (-D) to try another value.
 * Plain #defines of integer expressions: C tests and tests/algorithms/check_examples.py read
 * them too. */
#ifndef CSR_CUDA_TUNING_CUH
#define CSR_CUDA_TUNING_CUH

/* --- scan, compact and the look-back ------------------------------------------------------- */

/* Scan and compact: a tile is SCAN_THREADS threads x BYTES_PER_THREAD bytes of input each.
 * 256 threads: 8 warps, a power of two for the tile arithmetic. 128 bytes: 8 16-byte loads a
 * thread (32 int32), all in flight before the first use, the fastest of the sizes measured for
 * both; compact's tile stays within 48 KB of static shared memory (at 192 bytes it would not). */
#define CSRI_SCAN_THREADS 256
#ifndef CSRI_SCAN_BYTES_PER_THREAD
#define CSRI_SCAN_BYTES_PER_THREAD 128
#endif
#ifndef CSRI_COMPACT_BYTES_PER_THREAD
#define CSRI_COMPACT_BYTES_PER_THREAD 128
#endif

/* Look-back: 1 packs a tile's flag and value into one 64-bit word where they fit (counts and 4-byte
 * values, cuda/common.cuh): one load reads both, no fence between them; 0 keeps them in separate
 * words ordered by fences. */
#ifndef CSRI_TILE_STATUS_PACKED
#define CSRI_TILE_STATUS_PACKED 1
#endif
/* Look-back: a waiting reader sleeps PAUSE ns, doubling up to PAUSE_MAX, between polls: a first
 * poll soon after the wait starts, and a long wait that costs the memory system few polls. */
#ifndef CSRI_LOOK_BACK_PAUSE_NS
#define CSRI_LOOK_BACK_PAUSE_NS 32
#endif
#ifndef CSRI_LOOK_BACK_PAUSE_MAX_NS
#define CSRI_LOOK_BACK_PAUSE_MAX_NS 512
#endif
/* Scan, compact and the COO converter's runs: warp 0 sleeps FIRST_PAUSE ns after publishing its
 * tile's total, before its first poll, so that the tile before has had time to publish its
 * inclusive prefix (rather than a window of aggregates re-read while they change). 1200 ns: the
 * shortest pause past which a longer one gained nothing; CUB's sm90 scan waits about as long. */
#ifndef CSRI_LOOK_BACK_FIRST_PAUSE_NS
#define CSRI_LOOK_BACK_FIRST_PAUSE_NS 1200
#endif

/* --- radix sort (onesweep) ------------------------------------------------------------------ */

/* Digits of 8 bits: 256 counters per warp in shared memory, one digit per thread of a 256-thread
 * block in the per-digit steps. */
#define CSRI_RADIX_BITS 8
/* Digits of up to WIDE_BITS where wider digits take fewer passes (src/kernels/radix_plan.h): a
 * pass saved outweighs the larger counts at 9 bits, not at 10. Instantiations of the 9-bit pass
 * that no measured case runs spill 8 to 16 bytes (32-bit keys over 9, 17-18 or 25-27 bits, and the
 * COO converter's first pass over 64-bit keys without values); those over 64-bit keys with 4- or
 * 8-byte values do not. */
#ifndef CSRI_RADIX_WIDE_BITS
#define CSRI_RADIX_WIDE_BITS 9
#endif
/* A pass's threads: 8 warps, so that a digit value of a narrow or wide pass is one or two per
 * thread in the per-digit steps (digits a multiple of threads). */
#define CSRI_RADIX_THREADS 256
/* Keys a thread ranks in a tile, and the blocks per SM that the pass's register budget must fit,
 * by key and value size: 32-bit keys with 4-byte values or none, 32-bit keys with 8-byte values,
 * and 64-bit keys. Rule: the largest tile that fits its registers unspilled at that many blocks.
 * Each tile pays fixed latencies (its two loads, the look-back, ten barriers), so a larger tile
 * pays them over more keys. 32-bit keys with 8-byte
 * values keep 16 keys with 3 blocks: 32 would spill. */
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
 * (all in flight before it counts any, the next chunk's loads issued before it counts this one),
 * and at most RADIX_HIST_BLOCKS_PER_SM blocks per multiprocessor (a grid-stride loop covers the
 * rest). 4 keys a thread with 8 blocks an SM keep enough loads in flight to read the keys at
 * memory speed; 8 or 16 keys a thread were slower. */
#define CSRI_RADIX_HIST_THREADS 256
#ifndef CSRI_RADIX_HIST_ITEMS
#define CSRI_RADIX_HIST_ITEMS 4
#endif
#ifndef CSRI_RADIX_HIST_BLOCKS_PER_SM
#define CSRI_RADIX_HIST_BLOCKS_PER_SM 8
#endif

/* --- COO to CSR ----------------------------------------------------------------------------- */

/* The pass over ordered COO triples (cuda/coo_runs.cuh): a tile of RUNS_THREADS threads x
 * RUNS_ITEMS triples; RUNS_MIN_BLOCKS blocks an SM, a budget of 64 registers a thread that the
 * kernel fits unspilled: the most blocks (so the most loads in flight) without spilling; 8
 * triples a thread, the fastest of the shapes measured. */
#ifndef CSRI_RUNS_THREADS
#define CSRI_RUNS_THREADS 256
#endif
#ifndef CSRI_RUNS_ITEMS
#define CSRI_RUNS_ITEMS 8
#endif
#ifndef CSRI_RUNS_MIN_BLOCKS
#define CSRI_RUNS_MIN_BLOCKS 4
#endif
/* The most row offsets one thread of the COO passes writes for a run of empty rows: a longer run
 * is listed and filled after (csri_runs_fill_gaps), so that hypersparse matrices do not
 * serialise on one thread; 256, one block's width of stores. */
#define CSRI_RUNS_GAP 256
/* Blocks of that fill, one per listed run, at most this many (a grid-stride loop covers the
 * rest): every SM busy many times over. */
#define CSRI_RUNS_GAP_MAX_BLOCKS 4096

/* The check of given COO triples (cuda/coo_check.cuh): groups of 4 consecutive triples a
 * thread (a tile is RUNS_THREADS x CHECK_GROUPS x 4), each group's rows and columns one 16-byte
 * load each. 2 groups: four loads in flight a thread; 4 made the conversion no faster. */
#ifndef CSRI_CHECK_GROUPS
#define CSRI_CHECK_GROUPS 2
#endif
/* The check's blocks an SM that its register count must allow: 1 leaves the count free (74 with
 * the copy of the values it reads, 3 blocks an SM). Held to 64 registers (4 blocks), triples with
 * many repeats were checked faster and real matrices' ordered triples converted slower. */
#ifndef CSRI_CHECK_MIN_BLOCKS
#define CSRI_CHECK_MIN_BLOCKS 1
#endif
/* The most repeats the check lists (8 bytes each in the workspace, 512 KB); with more, the pass
 * over ordered triples assembles A. */
#ifndef CSRI_REPEATS_LISTED
#define CSRI_REPEATS_LISTED 65536
#endif
/* Lists of at most this many repeats are put in order by a rank sort (one launch, D^2
 * comparisons); longer ones by the radix sort (five launches, linear work). */
#ifndef CSRI_REPEATS_RANKED
#define CSRI_REPEATS_RANKED 4096
#endif
/* At most this many repeats are taken out by one kernel launched behind the check, each of its
 * blocks ranking them in shared memory (8 KB): few enough that each block's ranking stays short,
 * D^2 / RUNS_THREADS = 1024 comparisons a thread at most. */
#ifndef CSRI_REPEATS_FEW
#define CSRI_REPEATS_FEW 512
#endif

/* A's row offsets from its sorted rows (cuda/coo_offsets.cuh): per thread and step, OFFSETS_GROUPS
 * 16-byte loads of 4 rows, a block's width apart, all issued before any is used (64 bytes in
 * flight a thread). */
#define CSRI_OFFSETS_GROUPS 4
/* Runs of empty rows of up to this many rows the warp fills together (at most 64 stores of 32
 * offsets); longer ones are listed and filled a block per run. */
#define CSRI_OFFSETS_WARP_GAP 2048

/* Every entry with its row (csri_for_each_entry, cuda/convert_common.cuh): a tile of
 * VECTOR_THREADS x ENTRY_ITEMS entries, and the most row offsets it stages in shared memory
 * (16 KB). The window is the tile's entries (2048): a tile spans at most that many non-empty rows,
 * so only runs of empty rows exceed it. */
#define CSRI_ENTRY_ITEMS 8
#define CSRI_ENTRY_WINDOW 2048

/* Dense from CSR and back (cuda/convert_dense.cu): a warp takes a segment of 32 x DENSE_STEPS
 * elements, one per lane a step. */
#define CSRI_DENSE_STEPS 8

/* --- histogram ------------------------------------------------------------------------------ */

/* Privatised copies in shared memory, one per HIST_WARPS_PER_COPY warps (fewer threads contending
 * per copy), while the copies fit in HIST_SHARED_BYTES (within the 227 KB an SM offers, with room
 * for a second block); beyond that a single shared copy, and past what one copy fits, privatised
 * copies in global memory. 512 threads and 4 blocks an SM: a full SM of warps to hide the
 * atomics' latency. */
#define CSRI_HIST_THREADS 512
#define CSRI_HIST_WARPS_PER_COPY 2
#define CSRI_HIST_SHARED_BYTES (96 * 1024)
#define CSRI_HIST_BLOCKS_PER_SM 4
/* Global-memory fallback: blocks of the grid share at most GLOBAL_COPIES private copies of 64-bit
 * counters, as many as fit in GLOBAL_BYTES of workspace (a bound on the workspace, whatever the
 * bins). */
#define CSRI_HIST_GLOBAL_COPIES 64
#define CSRI_HIST_GLOBAL_BYTES (64 << 20)
/* A block counts at most this many samples into its 32-bit shared counters, so they never wrap
 * (the grid grows past BLOCKS_PER_SM per SM for longer inputs). */
#define CSRI_HIST_SAMPLES_PER_BLOCK (1 << 30)
/* The kernel that adds the copies up: threads per block, one bin each. */
#define CSRI_HIST_FINISH_THREADS 256

/* --- SpMV and what runs on it ----------------------------------------------------------------- */

/* SpMV and CG's step: threads per block (8 warps; the vector kernels' warps or sub-warps per row
 * divide it). The thresholds of the kernel choice are C, for the CPU tests: */
#define CSRI_SPMV_THREADS 256
#include "kernels/spmv_tuning.h"
/* The segmented (merge-path) SpMV: threads per block and path items (nonzeros and row ends) per
 * thread, f64 values and (_F32) f32; a tile is their product. 7 and 9: the fastest of the
 * counts measured, each within the register budget of MIN_BLOCKS below. */
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
/* The segmented SpMV's fix-up: threads per block (8 warps, a warp per long row); tiles per group
 * (a group's carries summed once, so that a row spanning many groups reads one sum per group:
 * 256, a power of two, makes a group one round of a warp's 8 x 32 loads); the tiles of a run that
 * one thread sums alone (16 loads in flight: web graphs' rows of a few thousand links span 2 to
 * 16 tiles);
 * and the loads of the tiles' partials a thread keeps in flight together. */
#define CSRI_SPMV_FIX_UP_THREADS 256
#define CSRI_SPMV_MERGE_GROUP 256
#define CSRI_SPMV_MERGE_LANE_RUN 16
#define CSRI_SPMV_PARTIALS_IN_FLIGHT 8
/* The search of the tiled kernels' tile starts: threads per block, one tile start each. */
#define CSRI_SPMV_STARTS_THREADS 256
/* The stream (row-tile) SpMV's shape is in src/kernels/spmv_tuning.h (the choice reads it); here
 * the blocks per SM that the compiler must fit, f64 and (_F32) f32. */
#ifndef CSRI_SPMV_STREAM_MIN_BLOCKS
#define CSRI_SPMV_STREAM_MIN_BLOCKS 6
#endif
#ifndef CSRI_SPMV_STREAM_MIN_BLOCKS_F32
#define CSRI_SPMV_STREAM_MIN_BLOCKS_F32 6
#endif
/* The partials of the SpMV's fused reductions combined per fold: REDUCE_THREADS threads, 8 each,
 * their loads in flight together. */
#define CSRI_OUT_FOLD_ITEMS 8
/* CG's fused step: blocks per SM the compiler must fit (register budget); 1 leaves it free
 * (48 registers, 5 blocks of 256 threads per SM on sm_90): forcing more blocks spills, and
 * spilling costs more than the occupancy gains (docs/benchmarks.md). */
#ifndef CSRI_CG_STEP_MIN_BLOCKS
#define CSRI_CG_STEP_MIN_BLOCKS 1
#endif

/* --- vectors and reductions ----------------------------------------------------------------- */

/* Element-wise vector kernels: threads per block; blocks cover n with a grid-stride loop, at most
 * MAX_BLOCKS (every SM busy many times over). */
#define CSRI_VECTOR_THREADS 256
#define CSRI_VECTOR_MAX_BLOCKS 4096
/* Reductions (cuda/reduce.cuh) and CG's fused step: threads per block; the grid is one wave,
 * sized from the kernel's occupancy (a second, partial wave would leave SMs idle). */
#define CSRI_REDUCE_THREADS 256
/* Not a tuning choice but a capacity: the most results one reduction returns (doubles in the
 * context's pinned slots, cuda/reduce.cu). */
#define CSRI_REDUCE_MAX_RESULTS 8
/* The Jacobi diagonal: threads per block, and at most this many blocks, a grid size valid on any
 * device (a grid-stride loop covers the rest). */
#define CSRI_JACOBI_THREADS 256
#define CSRI_JACOBI_MAX_BLOCKS 65535

/* Multiprocessors assumed when the device cannot be asked (an H100 SXM's 132): grids stay
 * sensible; results do not depend on it. */
#define CSRI_SM_COUNT_FALLBACK 132

#endif
