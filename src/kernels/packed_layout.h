/* SPDX-License-Identifier: BSD-3-Clause */
/* Column indices packed in 16 bits (frame of reference, with whole-chunk escapes), in one
 * definition for C and CUDA so that the CPU tests check the GPU's decoding. Internal.
 *
 * The nonzeros, in stored order, fall into chunks of CSRI_PACK_CHUNK. A chunk whose columns all
 * lie within 2^16 of its smallest column m stores head = m (>= 0) and, for each entry k, the
 * offset lo_k = col_k - m: column = head + lo_k. A chunk that does not fit escapes: it is the
 * e-th escaped chunk (counted in stored order), stores head = -1 - e, keeps the low halves in lo
 * and the high halves in hi[e * CSRI_PACK_CHUNK + (k mod CSRI_PACK_CHUNK)]: column =
 * hi << 16 | lo. So any entry decodes on its own (no prefix sum): every SpMV kernel reads the
 * columns it always read, in the order it always did, and sums in the same order. A plain CSR
 * index costs 4 bytes a nonzero; this costs 2 + 4 / CSRI_PACK_CHUNK, plus 2 for every entry of
 * an escaped chunk. */
#ifndef CSR_KERNELS_PACKED_LAYOUT_H
#define CSR_KERNELS_PACKED_LAYOUT_H

#include "kernels/host_device.h"

#include <stdint.h>

/* 128: a head costs 4 / 128 = 0.03 bytes a nonzero, while a chunk still spans few enough rows
 * that on banded and crawl-ordered matrices its columns stay within 2^16 (measured over the
 * chunk sizes 32 to 512: docs/algorithms.md, "Packed column indices"). */
#define CSRI_PACK_CHUNK_LOG2 7
#define CSRI_PACK_CHUNK (1 << CSRI_PACK_CHUNK_LOG2)
#define CSRI_PACK_SPAN 65536 /* a chunk fits when max - min < this */

/* The chunks that hold nnz entries. */
CSRI_HD int64_t csri_pack_chunks(int64_t nnz) {
  return (nnz + CSRI_PACK_CHUNK - 1) >> CSRI_PACK_CHUNK_LOG2;
}

/* The chunk of entry k, and its first and one-past-last entries. */
CSRI_HD int64_t csri_pack_chunk_of(int64_t k) {
  return k >> CSRI_PACK_CHUNK_LOG2;
}
CSRI_HD int64_t csri_pack_chunk_begin(int64_t c) {
  return c << CSRI_PACK_CHUNK_LOG2;
}
CSRI_HD int64_t csri_pack_chunk_end(int64_t c, int64_t nnz) {
  int64_t end = (c + 1) << CSRI_PACK_CHUNK_LOG2;
  return end < nnz ? end : nnz;
}

/* Whether a chunk whose columns span [smallest, largest] fits in 16-bit offsets. A negative
 * column (an invalid matrix, which csr_spmv does not check) escapes: its chunk's head could not
 * be told from an escape's, and the escape keeps every 32-bit value as it was. */
CSRI_HD int csri_pack_fits(int32_t smallest, int32_t largest) {
  return smallest >= 0 && (int64_t)largest - (int64_t)smallest < CSRI_PACK_SPAN;
}

/* The head of a fitting chunk (its smallest column) or of the e-th escaped chunk. */
CSRI_HD int32_t csri_pack_head(int fits, int32_t smallest, int64_t escape) {
  return fits ? smallest : (int32_t)(-1 - escape);
}

/* Where entry k's high half lies in hi, for an escaped chunk with that head. */
CSRI_HD int64_t csri_pack_high_at(int32_t head, int64_t k) {
  return ((int64_t)(-1 - (int64_t)head) << CSRI_PACK_CHUNK_LOG2) + (k & (CSRI_PACK_CHUNK - 1));
}

/* What entry k of a chunk with that head stores: its offset from the head, or its low half. */
CSRI_HD uint16_t csri_pack_low(int32_t head, int32_t column) {
  return (uint16_t)(head >= 0 ? column - head : column & 0xffff);
}

/* Column of an entry from its chunk's head, its lo and (escaped chunks only) its high half. */
CSRI_HD int32_t csri_pack_column(int32_t head, uint16_t low, uint16_t high) {
  return head >= 0 ? head + (int32_t)low : (int32_t)(((uint32_t)high << 16) | low);
}

/* The bytes of the packed index (heads, lo, hi) of nnz entries with `escaped` escaped chunks. */
CSRI_HD int64_t csri_pack_bytes(int64_t nnz, int64_t escaped) {
  return csri_pack_chunks(nnz) * 4 + nnz * 2 + escaped * CSRI_PACK_CHUNK * 2;
}

/* Entry k's column, read from host (or device-visible) arrays. */
CSRI_HD int32_t csri_packed_column_at(const int32_t *heads, const uint16_t *lo, const uint16_t *hi,
                                      int64_t k) {
  const int32_t head = heads[csri_pack_chunk_of(k)];
  return csri_pack_column(head, lo[k], head >= 0 ? (uint16_t)0 : hi[csri_pack_high_at(head, k)]);
}

/* Chunk c of the nnz columns col, on the host: *smallest = its smallest column; returns whether
 * it fits. */
static inline int csri_pack_chunk_range(const int32_t *col, int64_t nnz, int64_t c,
                                        int32_t *smallest) {
  const int64_t end = csri_pack_chunk_end(c, nnz);
  int32_t low = col[csri_pack_chunk_begin(c)], high = low;
  for (int64_t k = csri_pack_chunk_begin(c) + 1; k < end; k++) {
    low = col[k] < low ? col[k] : low;
    high = col[k] > high ? col[k] : high;
  }
  *smallest = low;
  return csri_pack_fits(low, high);
}

/* Writes chunk c's lo (and, escaped, hi) halves from its columns, given its head. */
static inline void csri_pack_chunk_fill(const int32_t *col, int64_t nnz, int64_t c, int32_t head,
                                        uint16_t *lo, uint16_t *hi) {
  const int64_t end = csri_pack_chunk_end(c, nnz);
  for (int64_t k = csri_pack_chunk_begin(c); k < end; k++) {
    lo[k] = csri_pack_low(head, col[k]);
    if (head < 0)
      hi[csri_pack_high_at(head, k)] = (uint16_t)((uint32_t)col[k] >> 16);
  }
}

#endif /* CSR_KERNELS_PACKED_LAYOUT_H */
