/* SPDX-License-Identifier: BSD-3-Clause */
/* The packed column index (src/kernels/packed_layout.h), on the CPU: columns packed chunk by
 * chunk with the layout's own helpers, then every entry decoded and compared with the column it
 * came from, for column arrays whose chunks span just under and just over 2^16, hold the
 * extremes of int32 (0, INT32_MAX, negative values of an invalid matrix), end part-way through a
 * chunk or hold no entry; and the counts (chunks, escapes, bytes) against a direct walk. */
#include "kernels/packed_layout.h"
#include "testing.h"

#include <stdlib.h>

/* Packs col[0, nnz) as the backends do, decodes every entry, checks the counts. */
static void check_columns(const int32_t *col, int64_t nnz, const char *what) {
  const int64_t chunks = csri_pack_chunks(nnz);
  CHECKF(chunks * CSRI_PACK_CHUNK >= nnz && (chunks == 0 || (chunks - 1) * CSRI_PACK_CHUNK < nnz),
         "%s: %lld chunks for %lld entries", what, (long long)chunks, (long long)nnz);
  int32_t *heads = malloc((size_t)(chunks + 1) * sizeof *heads);
  uint16_t *lo = malloc((size_t)(nnz + 1) * sizeof *lo);
  uint16_t *hi = malloc((size_t)(chunks * CSRI_PACK_CHUNK + 1) * sizeof *hi);
  int64_t escaped = 0, expected_escapes = 0;
  for (int64_t c = 0; c < chunks; c++) {
    /* the direct walk: does the chunk's span fit, with no negative column? */
    int64_t low = INT64_MAX, high = INT64_MIN;
    for (int64_t k = c * CSRI_PACK_CHUNK; k < nnz && k < (c + 1) * CSRI_PACK_CHUNK; k++) {
      low = col[k] < low ? col[k] : low;
      high = col[k] > high ? col[k] : high;
    }
    const int direct_fits = low >= 0 && high - low <= 65535;
    expected_escapes += !direct_fits;
    int32_t smallest;
    const int fits = csri_pack_chunk_range(col, nnz, c, &smallest);
    CHECKF(fits == direct_fits && smallest == low, "%s: chunk %lld fits %d, smallest %d", what,
           (long long)c, fits, (int)smallest);
    heads[c] = csri_pack_head(fits, smallest, escaped);
    CHECKF(fits ? heads[c] == low : heads[c] == -1 - escaped, "%s: chunk %lld head %d", what,
           (long long)c, (int)heads[c]);
    escaped += !fits;
    csri_pack_chunk_fill(col, nnz, c, heads[c], lo, hi);
  }
  CHECKF(escaped == expected_escapes, "%s: %lld escapes", what, (long long)escaped);
  int64_t wrong = 0;
  for (int64_t k = 0; k < nnz; k++)
    wrong += csri_packed_column_at(heads, lo, hi, k) != col[k];
  CHECKF(wrong == 0, "%s: %lld of %lld entries decode wrong", what, (long long)wrong,
         (long long)nnz);
  CHECKF(csri_pack_bytes(nnz, escaped) == 4 * chunks + 2 * nnz + 2 * CSRI_PACK_CHUNK * escaped,
         "%s: bytes", what);
  free(heads);
  free(lo);
  free(hi);
}

/* Chunks of a band: chunk c's columns from base_c up to base_c + span - 1 (both reached). */
static void test_spans(csrt_rng *rng) {
  const int64_t spans[] = {1, 2, 255, 256, 65535, 65536, 65537, 1 << 20};
  enum { CHUNKS = 9 };
  const int64_t nnz = CHUNKS * CSRI_PACK_CHUNK - 37; /* the last chunk part-full */
  int32_t *col = malloc((size_t)nnz * sizeof *col);
  for (int s = 0; s < 8; s++) {
    for (int64_t k = 0; k < nnz; k++) {
      const int64_t c = k / CSRI_PACK_CHUNK, in = k % CSRI_PACK_CHUNK;
      const int64_t base = c * 100003;
      /* the first entry at the chunk's top, the last of a full chunk at its bottom */
      const int64_t offset = in == 0   ? spans[s] - 1
                             : in == 1 ? 0
                                       : (int64_t)csrt_below(rng, (uint64_t)spans[s]);
      col[k] = (int32_t)(base + offset);
    }
    char what[64];
    snprintf(what, sizeof what, "span %lld", (long long)spans[s]);
    check_columns(col, nnz, what);
  }
  free(col);
}

/* The extremes: INT32_MAX beside 0, columns just below 2^31 that fit, negative (invalid) ones,
 * random columns over the whole range, and no entries at all. */
static void test_extremes(csrt_rng *rng) {
  enum { N = 5 * CSRI_PACK_CHUNK + 1 };
  int32_t col[N];
  for (int64_t k = 0; k < N; k++)
    col[k] = k % 2 ? INT32_MAX : 0;
  check_columns(col, N, "0 and INT32_MAX");
  for (int64_t k = 0; k < N; k++)
    col[k] = INT32_MAX - (int32_t)csrt_below(rng, 65536);
  check_columns(col, N, "the top 2^16 columns");
  for (int64_t k = 0; k < N; k++)
    col[k] = (int32_t)(csrt_below(rng, 1000)) - (k % 3 == 0 ? 500 : 0);
  check_columns(col, N, "negative columns");
  for (int64_t k = 0; k < N; k++)
    col[k] = (int32_t)(csrt_next(rng) & 0xffffffffu);
  check_columns(col, N, "any 32-bit value");
  check_columns(col, 1, "one entry");
  check_columns(col, 0, "no entries");
}

/* Each decoding step on its own. */
static void test_pieces(void) {
  CHECK(csri_pack_fits(0, 65535) && !csri_pack_fits(0, 65536) && !csri_pack_fits(-1, 0));
  CHECK(csri_pack_fits(INT32_MAX - 65535, INT32_MAX) && !csri_pack_fits(0, INT32_MAX));
  CHECK(csri_pack_high_at(-1, 0) == 0 && csri_pack_high_at(-1, 5) == 5);
  CHECK(csri_pack_high_at(-3, 2 * CSRI_PACK_CHUNK + 7) == 2 * CSRI_PACK_CHUNK + 7);
  CHECK(csri_pack_high_at(-2, 9 * CSRI_PACK_CHUNK + 1) == CSRI_PACK_CHUNK + 1);
  CHECK(csri_pack_column(7, 3, 0) == 10 && csri_pack_column(-1, 0x5678, 0x1234) == 0x12345678);
  CHECK(csri_pack_low(7, 10) == 3 && csri_pack_low(-1, 0x12345678) == 0x5678);
  CHECK(csri_pack_chunk_end(2, 3 * CSRI_PACK_CHUNK - 1) == 3 * CSRI_PACK_CHUNK - 1);
  CHECK(csri_pack_chunk_of(CSRI_PACK_CHUNK - 1) == 0 && csri_pack_chunk_of(CSRI_PACK_CHUNK) == 1);
}

int main(void) {
  csrt_rng rng = {csrt_seed("test_packed_layout")};
  test_pieces();
  test_spans(&rng);
  test_extremes(&rng);
  return csrt_finish("test_packed_layout");
}
