/* SPDX-License-Identifier: BSD-3-Clause */
/* libcsr primitives: scan, compact, radix sort and histogram over plain arrays.
 *
 * The building blocks of the converters (COO -> CSR sorts, scans and compacts) and of SpMV kernel
 * choice (a row-length histogram), offered on their own. Every primitive has one signature for all
 * backends: `location` says where every array argument lives; CSR_DEVICE runs the CUDA backend on
 * the context's stream, CSR_HOST the context's CPU backend (OpenMP, or the reference). Results on
 * both are identical, bit for bit.
 *
 * Workspace (CUB's two-phase protocol). Each call takes `void *workspace, size_t *workspace_bytes`:
 *  - workspace == NULL: only *workspace_bytes is written (the bytes this call needs, possibly 0);
 *    nothing else is read or touched. Allocate that much at `location` and call again.
 *  - workspace != NULL: *workspace_bytes says how large it is; too small is CSR_ERR_INVALID_VALUE.
 *  - workspace_bytes == NULL: the context's cached workspace is used (grown as needed, freed with
 *    the context); the simplest form, and what libcsr's own converters use.
 *
 * Device calls are asynchronous on the context's stream unless they return a host value (compact's
 * kept count) or the context's debug-sync flag is on. Lengths are 64-bit throughout: n may exceed
 * 2^31. Integer sums wrap modulo 2^bits (as unsigned arithmetic does), on every backend alike.
 */
#ifndef CSR_PRIMITIVES_H
#define CSR_PRIMITIVES_H

#include "csr.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Element type of a primitive's array. */
typedef enum csr_data_type {
  CSR_DATA_I32 = 0,
  CSR_DATA_I64 = 1,
  CSR_DATA_U32 = 2,
  CSR_DATA_U64 = 3,
  CSR_DATA_U16 = 4,
  CSR_DATA_U8 = 5,
  CSR_DATA_F32 = 6,
  CSR_DATA_F64 = 7
} csr_data_type;

/** Bytes of one element of `type` (0 for a value outside the enum). */
size_t csr_data_type_size(csr_data_type type);

/* ---------------------------------------------------------------------------------------------
 * Scan
 * ------------------------------------------------------------------------------------------- */

/** Exclusive: out[i] = in[0] + ... + in[i-1] (out[0] = 0). Inclusive: out[i] = in[0] + ... + in[i].
 */
typedef enum csr_scan_kind { CSR_SCAN_EXCLUSIVE = 0, CSR_SCAN_INCLUSIVE = 1 } csr_scan_kind;

/** Prefix sums of in[0, n) into out[0, n); out == in is allowed (in place), other overlaps are
 *  not. type: CSR_DATA_I32,
 *  I64, U32 or U64 (else CSR_ERR_INVALID_VALUE). Returns CSR_ERR_NULL_POINTER (in or out NULL with
 *  n > 0), CSR_ERR_INVALID_VALUE (n < 0, bad kind, small workspace), CSR_ERR_NOT_COMPILED (device
 *  without CUDA), CSR_ERR_DEVICE, CSR_ERR_OUT_OF_MEMORY (cached workspace). */
csr_status csr_scan(csr_context *ctx, csr_location location, csr_data_type type, csr_scan_kind kind,
                    const void *in, void *out, int64_t n, void *workspace, size_t *workspace_bytes);

/** Segmented prefix sums: heads[i] != 0 starts a new segment at i (position 0 always starts
 *  one), and each segment is scanned on its own: exclusive out[i] = sum of in[s..i-1], inclusive
 *  out[i] = sum of in[s..i], where s is the start of i's segment. Same types and statuses as
 *  csr_scan; heads is an array of n bytes at `location`. */
csr_status csr_segmented_scan(csr_context *ctx, csr_location location, csr_data_type type,
                              csr_scan_kind kind, const void *in, const uint8_t *heads, void *out,
                              int64_t n, void *workspace, size_t *workspace_bytes);

/* ---------------------------------------------------------------------------------------------
 * Compact (stream compaction, stable)
 * ------------------------------------------------------------------------------------------- */

/** out[0, *kept) = the in[i] with flags[i] != 0, in their order. Any csr_data_type; out must
 *  hold n elements (the most that can be kept) and must not overlap in. *kept is a host int64
 *  (device calls synchronise to return it). Statuses as csr_scan. */
csr_status csr_compact(csr_context *ctx, csr_location location, csr_data_type type, const void *in,
                       const uint8_t *flags, void *out, int64_t n, int64_t *kept, void *workspace,
                       size_t *workspace_bytes);

/** Which elements csr_compact_if keeps, compared with `operand`. */
typedef enum csr_predicate {
  CSR_KEEP_NOT_EQUAL = 0,    /**< x != operand (operand 0: the nonzeros; NaN is kept) */
  CSR_KEEP_LESS = 1,         /**< x < operand */
  CSR_KEEP_GREATER_EQUAL = 2 /**< x >= operand */
} csr_predicate;

/** As csr_compact, keeping the in[i] for which `predicate` holds against *operand, a host value of
 *  `type`. */
csr_status csr_compact_if(csr_context *ctx, csr_location location, csr_data_type type,
                          const void *in, csr_predicate predicate, const void *operand, void *out,
                          int64_t n, int64_t *kept, void *workspace, size_t *workspace_bytes);

/* ---------------------------------------------------------------------------------------------
 * Radix sort (LSD, stable)
 * ------------------------------------------------------------------------------------------- */

/** Sorts keys[0, n) ascending by their bits [begin_bit, end_bit), in place, carrying values
 *  along (values may be NULL: keys only). Stable: equal keys keep their order. key_type:
 *  CSR_DATA_U32 or U64; value_type: any type of 4 or 8 bytes (ignored when values is NULL).
 *  0 <= begin_bit < end_bit <= key bits (begin_bit == end_bit: nothing to sort, success). Bits
 *  outside the range do not take part in the order (a COO key of 20-bit rows above 20-bit columns
 *  sorts in 40 bits, in about two thirds of the passes of 64). The workspace depends on the bit
 *  range: on the GPU, a range that takes an odd number of passes (three or more) needs room for
 *  a second copy of the keys and values besides the first, so that the last pass writes keys and
 *  values in place of a copy back; query it with the same bits. Statuses as csr_scan. */
csr_status csr_radix_sort(csr_context *ctx, csr_location location, csr_data_type key_type,
                          void *keys, csr_data_type value_type, void *values, int64_t n,
                          int begin_bit, int end_bit, void *workspace, size_t *workspace_bytes);

/* ---------------------------------------------------------------------------------------------
 * Histogram
 * ------------------------------------------------------------------------------------------- */

/** How a sample x picks its bin b in [0, bins); samples that pick none are not counted. */
typedef enum csr_bin_rule {
  CSR_BINS_INTEGER = 0, /**< b = x, for integer x in [0, bins) */
  CSR_BINS_EVEN = 1, /**< b = floor((x - lower) * (bins / (upper - lower))) for lower <= x < upper,
                          computed in double (clamped to bins - 1 at the top edge) */
  CSR_BINS_LOG2 = 2  /**< b = 0 for x == 0, floor(log2 x) + 1 for x >= 1 (the row-length bins of
                          csr_row_length_bin); negative x and b >= bins are not counted */
} csr_bin_rule;

/** The bins of a histogram: a rule and its parameters (csr_histogram). */
typedef struct csr_histogram_bins {
  csr_bin_rule rule;
  int bins;            /**< number of bins, 1 .. 1 << 24 */
  double lower, upper; /**< CSR_BINS_EVEN only: the range, lower < upper, both finite */
} csr_histogram_bins;

/** counts[b] = the number of samples[0, n) in bin b (overwritten, not accumulated).
 *  sample_type: any csr_data_type; float samples with CSR_BINS_EVEN only (NaN counts nowhere).
 *  count_type: CSR_DATA_U32 (wraps modulo 2^32, as unsigned arithmetic does), CSR_DATA_U64, or
 *  CSR_DATA_U16, which saturates at 65535 (half the shared memory per bin: twice the bins fit).
 *  Statuses as csr_scan (a bad rule, bin count, range or type pairing is CSR_ERR_INVALID_VALUE). */
csr_status csr_histogram(csr_context *ctx, csr_location location, csr_data_type sample_type,
                         const void *samples, int64_t n, const csr_histogram_bins *bins,
                         csr_data_type count_type, void *counts, void *workspace,
                         size_t *workspace_bytes);

#ifdef __cplusplus
}
#endif
#endif /* CSR_PRIMITIVES_H */
