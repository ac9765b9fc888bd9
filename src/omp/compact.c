/* SPDX-License-Identifier: BSD-3-Clause */
/* out[0, kept) = (in[i] : keep(i)) in order, keep(i) = flags[i] != 0 or in[i] <pred> operand.
 * OpenMP over one chunk per thread: each chunk counts what it keeps, an exclusive scan of the
 * counts in chunk order gives each chunk's first output place, and the chunks copy in parallel.
 * Stable, and the reference's result exactly. */
#include "omp/omp.h"

#include <string.h>

#define MIN_PARALLEL 32768 /* shorter inputs are compacted by one thread */

/* Per element type T: the elements of [b, e) that are kept, copied to out[0, k) when out is not
 * NULL (bytes moved as they are: a NaN keeps its payload); returns k. Comparisons in T. */
#define SELECT_CHUNK(T, member)                                                                    \
  static int64_t select_##member(const void *in, const csri_select *s, int64_t b, int64_t e,       \
                                 void *out) {                                                      \
    const char *src = in;                                                                          \
    char *dst = out;                                                                               \
    int64_t k = 0;                                                                                 \
    if (s->flags) {                                                                                \
      for (int64_t i = b; i < e; i++)                                                              \
        if (s->flags[i]) {                                                                         \
          if (dst)                                                                                 \
            memcpy(dst + (size_t)k * sizeof(T), src + (size_t)i * sizeof(T), sizeof(T));           \
          k++;                                                                                     \
        }                                                                                          \
      return k;                                                                                    \
    }                                                                                              \
    T op = s->operand.member;                                                                      \
    csr_predicate p = s->predicate;                                                                \
    for (int64_t i = b; i < e; i++) {                                                              \
      T x;                                                                                         \
      memcpy(&x, src + (size_t)i * sizeof(T), sizeof(T));                                          \
      int keep = p == CSR_KEEP_NOT_EQUAL ? x != op : p == CSR_KEEP_LESS ? x < op : x >= op;        \
      if (keep) {                                                                                  \
        if (dst)                                                                                   \
          memcpy(dst + (size_t)k * sizeof(T), src + (size_t)i * sizeof(T), sizeof(T));             \
        k++;                                                                                       \
      }                                                                                            \
    }                                                                                              \
    return k;                                                                                      \
  }
SELECT_CHUNK(int32_t, i32)
SELECT_CHUNK(int64_t, i64)
SELECT_CHUNK(uint32_t, u32)
SELECT_CHUNK(uint64_t, u64)
SELECT_CHUNK(uint16_t, u16)
SELECT_CHUNK(uint8_t, u8)
SELECT_CHUNK(float, f32)
SELECT_CHUNK(double, f64)

typedef int64_t (*select_fn)(const void *, const csri_select *, int64_t, int64_t, void *);

static select_fn select_of(csr_data_type type) {
  switch (type) {
  case CSR_DATA_I32: return select_i32;
  case CSR_DATA_I64: return select_i64;
  case CSR_DATA_U32: return select_u32;
  case CSR_DATA_U64: return select_u64;
  case CSR_DATA_U16: return select_u16;
  case CSR_DATA_U8: return select_u8;
  case CSR_DATA_F32: return select_f32;
  default: return select_f64;
  }
}

size_t csri_omp_compact_bytes(const csr_context *ctx, csr_data_type type, int64_t n) {
  (void)type;
  int64_t chunks = csri_thread_chunks(ctx, n, MIN_PARALLEL);
  return chunks == 1 ? 0 : (size_t)chunks * sizeof(int64_t);
}

csr_status csri_omp_compact(csr_context *ctx, csr_data_type type, const void *in,
                            const csri_select *select, void *out, int64_t n, int64_t *kept,
                            void *workspace) {
  select_fn run = select_of(type);
  size_t size = csri_data_type_size(type);
  int64_t chunks = csri_thread_chunks(ctx, n, MIN_PARALLEL);
  if (chunks == 1) {
    *kept = run(in, select, 0, n, out);
    return CSR_SUCCESS;
  }
  int64_t *first = workspace, total = 0; /* each chunk's count, then its first output place */
#pragma omp parallel num_threads(csri_omp_threads(ctx))
  {
#pragma omp for schedule(static)
    for (int64_t c = 0; c < chunks; c++)
      first[c] =
          run(in, select, csri_chunk_begin(n, chunks, c), csri_chunk_begin(n, chunks, c + 1), NULL);
#pragma omp single
    for (int64_t c = 0; c < chunks; c++) {
      int64_t count = first[c];
      first[c] = total;
      total += count;
    }
#pragma omp for schedule(static)
    for (int64_t c = 0; c < chunks; c++)
      run(in, select, csri_chunk_begin(n, chunks, c), csri_chunk_begin(n, chunks, c + 1),
          (char *)out + (size_t)first[c] * size);
  }
  *kept = total;
  return CSR_SUCCESS;
}
