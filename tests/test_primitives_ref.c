/* SPDX-License-Identifier: BSD-3-Clause */
/* Reference tier of the primitives (include/csr_primitives.h): scan, segmented scan, compact,
 * radix sort and histogram on the reference backend against hand-worked answers, drawn in the
 * comments; then the argument checks and the workspace protocol of the public API. */
#include "csr_primitives.h"
#include "testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) ((int64_t)(sizeof(a) / sizeof((a)[0])))

static csr_context *ctx;

/* --- scan ------------------------------------------------------------------------------------ */

static void scan_plain(void) {
  /*  in     3  1  4  1  5
   *  excl   0  3  4  8  9
   *  incl   3  4  8  9 14 */
  const int32_t in[] = {3, 1, 4, 1, 5}, excl[] = {0, 3, 4, 8, 9}, incl[] = {3, 4, 8, 9, 14};
  int32_t out[5];
  CHECK_OK(ctx, csr_scan(ctx, CSR_HOST, CSR_DATA_I32, CSR_SCAN_EXCLUSIVE, in, out, 5, NULL, NULL));
  CHECK(memcmp(out, excl, sizeof out) == 0);
  CHECK_OK(ctx, csr_scan(ctx, CSR_HOST, CSR_DATA_I32, CSR_SCAN_INCLUSIVE, in, out, 5, NULL, NULL));
  CHECK(memcmp(out, incl, sizeof out) == 0);

  /* In place, 64-bit:  v = 10 -20 30 -> exclusive 0 10 -10 */
  int64_t v[] = {10, -20, 30};
  CHECK_OK(ctx, csr_scan(ctx, CSR_HOST, CSR_DATA_I64, CSR_SCAN_EXCLUSIVE, v, v, 3, NULL, NULL));
  CHECK(v[0] == 0 && v[1] == 10 && v[2] == -10);
  int64_t w[] = {10, -20, 30};
  CHECK_OK(ctx, csr_scan(ctx, CSR_HOST, CSR_DATA_I64, CSR_SCAN_INCLUSIVE, w, w, 3, NULL, NULL));
  CHECK(w[0] == 10 && w[1] == -10 && w[2] == 20);

  /* Sums wrap modulo 2^bits:
   *  U32  in   2^32-1   2   3        I32  in   2^31-1   1         (inclusive)
   *       out  2^32-1   1   4             out  2^31-1  -2^31
   *  U64  in   2^64-1   1   (excl)   I64  in   2^63-1   1   -1    (inclusive)
   *       out  0   2^64-1                 out  2^63-1  -2^63  2^63-1 */
  const uint32_t u32[] = {UINT32_MAX, 2, 3};
  uint32_t u32o[3];
  CHECK_OK(ctx,
           csr_scan(ctx, CSR_HOST, CSR_DATA_U32, CSR_SCAN_INCLUSIVE, u32, u32o, 3, NULL, NULL));
  CHECK(u32o[0] == UINT32_MAX && u32o[1] == 1 && u32o[2] == 4);
  const int32_t i32[] = {INT32_MAX, 1};
  int32_t i32o[2];
  CHECK_OK(ctx,
           csr_scan(ctx, CSR_HOST, CSR_DATA_I32, CSR_SCAN_INCLUSIVE, i32, i32o, 2, NULL, NULL));
  CHECK(i32o[0] == INT32_MAX && i32o[1] == INT32_MIN);
  const uint64_t u64[] = {UINT64_MAX, 1};
  uint64_t u64o[2];
  CHECK_OK(ctx,
           csr_scan(ctx, CSR_HOST, CSR_DATA_U64, CSR_SCAN_EXCLUSIVE, u64, u64o, 2, NULL, NULL));
  CHECK(u64o[0] == 0 && u64o[1] == UINT64_MAX);
  const int64_t i64[] = {INT64_MAX, 1, -1};
  int64_t i64o[3];
  CHECK_OK(ctx,
           csr_scan(ctx, CSR_HOST, CSR_DATA_I64, CSR_SCAN_INCLUSIVE, i64, i64o, 3, NULL, NULL));
  CHECK(i64o[0] == INT64_MAX && i64o[1] == INT64_MIN && i64o[2] == INT64_MAX);

  /* n = 0 with NULL arrays, and n = 1. */
  CHECK_OK(ctx,
           csr_scan(ctx, CSR_HOST, CSR_DATA_U64, CSR_SCAN_EXCLUSIVE, NULL, NULL, 0, NULL, NULL));
  uint32_t one = 7, one_out = 99;
  CHECK_OK(ctx, csr_scan(ctx, CSR_HOST, CSR_DATA_U32, CSR_SCAN_EXCLUSIVE, &one, &one_out, 1, NULL,
                         NULL));
  CHECK(one_out == 0);
  CHECK_OK(NULL, csr_scan(NULL, CSR_HOST, CSR_DATA_U32, CSR_SCAN_INCLUSIVE, &one, &one_out, 1, NULL,
                          NULL));
  CHECK(one_out == 7);
}

static void scan_segmented(void) {
  /*  in      1  2 | 3  4 | 5 | 6      heads 0 0 1 0 1 1 (position 0 starts one anyway)
   *  excl    0  1 | 0  3 | 0 | 0
   *  incl    1  3 | 3  7 | 5 | 6 */
  const int32_t in[] = {1, 2, 3, 4, 5, 6};
  const uint8_t heads[] = {0, 0, 1, 0, 1, 1};
  const int32_t excl[] = {0, 1, 0, 3, 0, 0}, incl[] = {1, 3, 3, 7, 5, 6};
  int32_t out[6];
  CHECK_OK(ctx, csr_segmented_scan(ctx, CSR_HOST, CSR_DATA_I32, CSR_SCAN_EXCLUSIVE, in, heads, out,
                                   6, NULL, NULL));
  CHECK(memcmp(out, excl, sizeof out) == 0);
  CHECK_OK(ctx, csr_segmented_scan(ctx, CSR_HOST, CSR_DATA_I32, CSR_SCAN_INCLUSIVE, in, heads, out,
                                   6, NULL, NULL));
  CHECK(memcmp(out, incl, sizeof out) == 0);

  /*  A head at every element (any nonzero byte): exclusive all 0, inclusive = in.
   *  No head at all: the plain scan.  U64 in place:  5 6 7 | 8  heads 0 0 0 200
   *  -> inclusive 5 11 18 | 8 */
  const uint8_t all[] = {1, 2, 255, 1, 7, 1};
  CHECK_OK(ctx, csr_segmented_scan(ctx, CSR_HOST, CSR_DATA_I32, CSR_SCAN_EXCLUSIVE, in, all, out, 6,
                                   NULL, NULL));
  CHECK(out[0] == 0 && out[1] == 0 && out[2] == 0 && out[3] == 0 && out[4] == 0 && out[5] == 0);
  CHECK_OK(ctx, csr_segmented_scan(ctx, CSR_HOST, CSR_DATA_I32, CSR_SCAN_INCLUSIVE, in, all, out, 6,
                                   NULL, NULL));
  CHECK(memcmp(out, in, sizeof out) == 0);
  const uint8_t none[] = {0, 0, 0, 0, 0, 0};
  CHECK_OK(ctx, csr_segmented_scan(ctx, CSR_HOST, CSR_DATA_I32, CSR_SCAN_INCLUSIVE, in, none, out,
                                   6, NULL, NULL));
  CHECK(out[0] == 1 && out[1] == 3 && out[2] == 6 && out[3] == 10 && out[4] == 15 && out[5] == 21);
  uint64_t v[] = {5, 6, 7, 8};
  const uint8_t h4[] = {0, 0, 0, 200};
  CHECK_OK(ctx, csr_segmented_scan(ctx, CSR_HOST, CSR_DATA_U64, CSR_SCAN_INCLUSIVE, v, h4, v, 4,
                                   NULL, NULL));
  CHECK(v[0] == 5 && v[1] == 11 && v[2] == 18 && v[3] == 8);

  /* Wrap inside a segment, U32:  1 | 2^32-1  2 -> inclusive 1 | 2^32-1  1 */
  const uint32_t w[] = {1, UINT32_MAX, 2};
  const uint8_t hw[] = {1, 1, 0};
  uint32_t wo[3];
  CHECK_OK(ctx, csr_segmented_scan(ctx, CSR_HOST, CSR_DATA_U32, CSR_SCAN_INCLUSIVE, w, hw, wo, 3,
                                   NULL, NULL));
  CHECK(wo[0] == 1 && wo[1] == UINT32_MAX && wo[2] == 1);
}

/* --- compact --------------------------------------------------------------------------------- */

static void compact_flags(void) {
  /*  in     10 20 30 40 50
   *  flags   1  0  0  9  1    -> 10 40 50, kept 3 */
  const int32_t in[] = {10, 20, 30, 40, 50};
  const uint8_t flags[] = {1, 0, 0, 9, 1};
  int32_t out[5] = {-1, -1, -1, -1, -1};
  int64_t kept = -1;
  CHECK_OK(ctx, csr_compact(ctx, CSR_HOST, CSR_DATA_I32, in, flags, out, 5, &kept, NULL, NULL));
  CHECK(kept == 3 && out[0] == 10 && out[1] == 40 && out[2] == 50 && out[3] == -1);

  /* U8 and U16 elements, none kept / all kept. */
  const uint8_t b[] = {7, 8, 9}, zero[] = {0, 0, 0}, ones[] = {1, 1, 1};
  uint8_t bo[3] = {0, 0, 0};
  CHECK_OK(ctx, csr_compact(ctx, CSR_HOST, CSR_DATA_U8, b, zero, bo, 3, &kept, NULL, NULL));
  CHECK(kept == 0 && bo[0] == 0);
  const uint16_t h[] = {700, 800, 900};
  uint16_t ho[3];
  CHECK_OK(ctx, csr_compact(ctx, CSR_HOST, CSR_DATA_U16, h, ones, ho, 3, &kept, NULL, NULL));
  CHECK(kept == 3 && ho[0] == 700 && ho[1] == 800 && ho[2] == 900);

  /* F64 by flags moves the bits as they are (a NaN payload, -0.0). */
  double d[3] = {-0.0, 0.0, 0.0};
  uint64_t payload = UINT64_C(0x7FF8000000012345);
  memcpy(&d[1], &payload, 8);
  double dout[3];
  const uint8_t f2[] = {1, 1, 0};
  CHECK_OK(ctx, csr_compact(ctx, CSR_HOST, CSR_DATA_F64, d, f2, dout, 3, &kept, NULL, NULL));
  CHECK(kept == 2 && memcmp(dout, d, 16) == 0);

  /* n = 0: NULL arrays, kept 0. */
  kept = 5;
  CHECK_OK(ctx, csr_compact(ctx, CSR_HOST, CSR_DATA_I64, NULL, NULL, NULL, 0, &kept, NULL, NULL));
  CHECK(kept == 0);
}

static void compact_predicates(void) {
  int64_t kept;
  /*  I32  in     -2  0  5 -7  0
   *       != 0   -2     5 -7        < 0   -2 -7        >= 0   0  5  0 */
  const int32_t in[] = {-2, 0, 5, -7, 0};
  int32_t out[5], zero = 0;
  CHECK_OK(ctx, csr_compact_if(ctx, CSR_HOST, CSR_DATA_I32, in, CSR_KEEP_NOT_EQUAL, &zero, out, 5,
                               &kept, NULL, NULL));
  CHECK(kept == 3 && out[0] == -2 && out[1] == 5 && out[2] == -7);
  CHECK_OK(ctx, csr_compact_if(ctx, CSR_HOST, CSR_DATA_I32, in, CSR_KEEP_LESS, &zero, out, 5, &kept,
                               NULL, NULL));
  CHECK(kept == 2 && out[0] == -2 && out[1] == -7);
  CHECK_OK(ctx, csr_compact_if(ctx, CSR_HOST, CSR_DATA_I32, in, CSR_KEEP_GREATER_EQUAL, &zero, out,
                               5, &kept, NULL, NULL));
  CHECK(kept == 3 && out[0] == 0 && out[1] == 5 && out[2] == 0);

  /*  Signed against unsigned, operand 2:
   *  U32  0  1  2^32-1  7    < 2: 0 1         >= 2: 2^32-1 7
   *  I64  0  1  -1      7    < 2: 0 1 -1      >= 2: 7            */
  const uint32_t u[] = {0, 1, UINT32_MAX, 7};
  uint32_t uo[4], two = 2;
  CHECK_OK(ctx, csr_compact_if(ctx, CSR_HOST, CSR_DATA_U32, u, CSR_KEEP_LESS, &two, uo, 4, &kept,
                               NULL, NULL));
  CHECK(kept == 2 && uo[0] == 0 && uo[1] == 1);
  CHECK_OK(ctx, csr_compact_if(ctx, CSR_HOST, CSR_DATA_U32, u, CSR_KEEP_GREATER_EQUAL, &two, uo, 4,
                               &kept, NULL, NULL));
  CHECK(kept == 2 && uo[0] == UINT32_MAX && uo[1] == 7);
  const int64_t s[] = {0, 1, -1, 7};
  int64_t so[4], two64 = 2;
  CHECK_OK(ctx, csr_compact_if(ctx, CSR_HOST, CSR_DATA_I64, s, CSR_KEEP_LESS, &two64, so, 4, &kept,
                               NULL, NULL));
  CHECK(kept == 3 && so[0] == 0 && so[1] == 1 && so[2] == -1);
  CHECK_OK(ctx, csr_compact_if(ctx, CSR_HOST, CSR_DATA_I64, s, CSR_KEEP_GREATER_EQUAL, &two64, so,
                               4, &kept, NULL, NULL));
  CHECK(kept == 1 && so[0] == 7);
  /*  U64  2^63  5  2^64-1    != 5: 2^63 2^64-1
   *  U8   255 0 128           >= 128: 255 128      U16  1 65535   < 65535: 1 */
  const uint64_t big[] = {UINT64_C(1) << 63, 5, UINT64_MAX};
  uint64_t bo[3], five = 5;
  CHECK_OK(ctx, csr_compact_if(ctx, CSR_HOST, CSR_DATA_U64, big, CSR_KEEP_NOT_EQUAL, &five, bo, 3,
                               &kept, NULL, NULL));
  CHECK(kept == 2 && bo[0] == UINT64_C(1) << 63 && bo[1] == UINT64_MAX);
  const uint8_t b[] = {255, 0, 128};
  uint8_t bb[3], half = 128;
  CHECK_OK(ctx, csr_compact_if(ctx, CSR_HOST, CSR_DATA_U8, b, CSR_KEEP_GREATER_EQUAL, &half, bb, 3,
                               &kept, NULL, NULL));
  CHECK(kept == 2 && bb[0] == 255 && bb[1] == 128);
  const uint16_t w[] = {1, 65535};
  uint16_t wo[2], top = 65535;
  CHECK_OK(ctx, csr_compact_if(ctx, CSR_HOST, CSR_DATA_U16, w, CSR_KEEP_LESS, &top, wo, 2, &kept,
                               NULL, NULL));
  CHECK(kept == 1 && wo[0] == 1);

  /*  F64  1.5  NaN  0.0  -0.0  -3     (-0.0 == 0.0; NaN compares false except !=)
   *       != 0: 1.5 NaN -3     < 0: -3     >= 0: 1.5 0.0 -0.0 */
  const double d[] = {1.5, NAN, 0.0, -0.0, -3.0};
  double dout[5], dz = 0.0;
  CHECK_OK(ctx, csr_compact_if(ctx, CSR_HOST, CSR_DATA_F64, d, CSR_KEEP_NOT_EQUAL, &dz, dout, 5,
                               &kept, NULL, NULL));
  CHECK(kept == 3 && dout[0] == 1.5 && isnan(dout[1]) && dout[2] == -3.0);
  CHECK_OK(ctx, csr_compact_if(ctx, CSR_HOST, CSR_DATA_F64, d, CSR_KEEP_LESS, &dz, dout, 5, &kept,
                               NULL, NULL));
  CHECK(kept == 1 && dout[0] == -3.0);
  CHECK_OK(ctx, csr_compact_if(ctx, CSR_HOST, CSR_DATA_F64, d, CSR_KEEP_GREATER_EQUAL, &dz, dout, 5,
                               &kept, NULL, NULL));
  CHECK(kept == 3 && dout[0] == 1.5 && dout[1] == 0.0 && !signbit(dout[1]) && signbit(dout[2]));
  /*  F32  0.25  NaN  -1  2    operand 0.5:  < : 0.25 -1    >= : 2    != NaN operand: all four */
  const float f[] = {0.25f, NAN, -1.0f, 2.0f};
  float fo[4], fh = 0.5f, fnan = NAN;
  CHECK_OK(ctx, csr_compact_if(ctx, CSR_HOST, CSR_DATA_F32, f, CSR_KEEP_LESS, &fh, fo, 4, &kept,
                               NULL, NULL));
  CHECK(kept == 2 && fo[0] == 0.25f && fo[1] == -1.0f);
  CHECK_OK(ctx, csr_compact_if(ctx, CSR_HOST, CSR_DATA_F32, f, CSR_KEEP_GREATER_EQUAL, &fh, fo, 4,
                               &kept, NULL, NULL));
  CHECK(kept == 1 && fo[0] == 2.0f);
  CHECK_OK(ctx, csr_compact_if(ctx, CSR_HOST, CSR_DATA_F32, f, CSR_KEEP_NOT_EQUAL, &fnan, fo, 4,
                               &kept, NULL, NULL));
  CHECK(kept == 4 && fo[0] == 0.25f && isnan(fo[1]) && fo[3] == 2.0f);
}

/* --- radix sort ------------------------------------------------------------------------------ */

static void sort_cases(void) {
  /*  keys    5  3  5  1  3        all 32 bits, U32 payload = original position
   *  sorted  1  3  3  5  5
   *  values  3  1  4  0  2        (equal keys keep their order: stable) */
  uint32_t k[] = {5, 3, 5, 1, 3}, v[] = {0, 1, 2, 3, 4};
  CHECK_OK(ctx,
           csr_radix_sort(ctx, CSR_HOST, CSR_DATA_U32, k, CSR_DATA_U32, v, 5, 0, 32, NULL, NULL));
  CHECK(k[0] == 1 && k[1] == 3 && k[2] == 3 && k[3] == 5 && k[4] == 5);
  CHECK(v[0] == 3 && v[1] == 1 && v[2] == 4 && v[3] == 0 && v[4] == 2);

  /*  Bits [4, 8) only (one narrow digit):
   *  keys    0x13 0x25 0x11 0x02 0x1F0 0x10
   *  digit      1    2    1    0     F    1
   *  sorted  0x02 0x13 0x11 0x10 0x25 0x1F0   (0x13 before 0x11: lower bits ignored)
   *  values     3    0    2    5    1     4   (I32 payload) */
  uint32_t pk[] = {0x13, 0x25, 0x11, 0x02, 0x1F0, 0x10};
  int32_t pv[] = {0, 1, 2, 3, 4, 5};
  CHECK_OK(ctx,
           csr_radix_sort(ctx, CSR_HOST, CSR_DATA_U32, pk, CSR_DATA_I32, pv, 6, 4, 8, NULL, NULL));
  const uint32_t pk_want[] = {0x02, 0x13, 0x11, 0x10, 0x25, 0x1F0};
  const int32_t pv_want[] = {3, 0, 2, 5, 1, 4};
  CHECK(memcmp(pk, pk_want, sizeof pk) == 0 && memcmp(pv, pv_want, sizeof pv) == 0);

  /*  Bits above the range ignored, [0, 8), keys only:
   *  0x100 0x001 0x101 0x200  (digits 0 1 1 0) -> 0x100 0x200 0x001 0x101 */
  uint32_t hk[] = {0x100, 0x001, 0x101, 0x200};
  CHECK_OK(ctx, csr_radix_sort(ctx, CSR_HOST, CSR_DATA_U32, hk, CSR_DATA_U32, NULL, 4, 0, 8, NULL,
                               NULL));
  CHECK(hk[0] == 0x100 && hk[1] == 0x200 && hk[2] == 0x001 && hk[3] == 0x101);

  /*  U64 keys, F64 payload, bits [28, 44) (two digits, 12 bits of the key above 2^32):
   *  key          0x5_0000_0001  0x1_F000_0000  0x5_0000_0000  0x1000_0000_0000  0x0
   *  bits 28..43  0x50           0x1F           0x50           0x000             0x000
   *  sorted       0x1000_0000_0000 (0)  0x0 (0)  0x1_F000_0000  0x5_0000_0001  0x5_0000_0000 */
  uint64_t wk[] = {UINT64_C(0x500000001), UINT64_C(0x1F0000000), UINT64_C(0x500000000),
                   UINT64_C(0x100000000000), 0};
  double wv[] = {0.5, 1.5, 2.5, 3.5, 4.5};
  CHECK_OK(ctx, csr_radix_sort(ctx, CSR_HOST, CSR_DATA_U64, wk, CSR_DATA_F64, wv, 5, 28, 44, NULL,
                               NULL));
  const uint64_t wk_want[] = {UINT64_C(0x100000000000), 0, UINT64_C(0x1F0000000),
                              UINT64_C(0x500000001), UINT64_C(0x500000000)};
  const double wv_want[] = {3.5, 4.5, 1.5, 0.5, 2.5};
  CHECK(memcmp(wk, wk_want, sizeof wk) == 0 && memcmp(wv, wv_want, sizeof wv) == 0);

  /*  Full 64 bits, the top bit and U64 payload: 2^63+1  1  2^64-1  0  ->  0  1  2^63+1  2^64-1 */
  uint64_t fk[] = {(UINT64_C(1) << 63) + 1, 1, UINT64_MAX, 0}, fv[] = {10, 11, 12, 13};
  CHECK_OK(ctx,
           csr_radix_sort(ctx, CSR_HOST, CSR_DATA_U64, fk, CSR_DATA_U64, fv, 4, 0, 64, NULL, NULL));
  CHECK(fk[0] == 0 && fk[1] == 1 && fk[2] == (UINT64_C(1) << 63) + 1 && fk[3] == UINT64_MAX);
  CHECK(fv[0] == 13 && fv[1] == 11 && fv[2] == 10 && fv[3] == 12);

  /*  U32 keys with an 8-byte payload, the top bit only [31, 32): 2^31  5  2^31+1  0
   *  -> 5  0  2^31  2^31+1 */
  uint32_t tk[] = {UINT32_C(1) << 31, 5, (UINT32_C(1) << 31) + 1, 0};
  int64_t tv[] = {-1, -2, -3, -4};
  CHECK_OK(ctx, csr_radix_sort(ctx, CSR_HOST, CSR_DATA_U32, tk, CSR_DATA_I64, tv, 4, 31, 32, NULL,
                               NULL));
  CHECK(tk[0] == 5 && tk[1] == 0 && tk[2] == UINT32_C(1) << 31 && tk[3] == (UINT32_C(1) << 31) + 1);
  CHECK(tv[0] == -2 && tv[1] == -4 && tv[2] == -1 && tv[3] == -3);

  /* begin == end: nothing moves; n = 0 and n = 1 succeed. */
  uint32_t same[] = {3, 1, 2};
  CHECK_OK(ctx, csr_radix_sort(ctx, CSR_HOST, CSR_DATA_U32, same, CSR_DATA_U32, NULL, 3, 7, 7, NULL,
                               NULL));
  CHECK(same[0] == 3 && same[1] == 1 && same[2] == 2);
  CHECK_OK(ctx, csr_radix_sort(ctx, CSR_HOST, CSR_DATA_U64, NULL, CSR_DATA_U64, NULL, 0, 0, 64,
                               NULL, NULL));
  CHECK_OK(ctx, csr_radix_sort(ctx, CSR_HOST, CSR_DATA_U32, same, CSR_DATA_U32, NULL, 1, 0, 32,
                               NULL, NULL));
  CHECK(same[0] == 3);
}

/* --- histogram ------------------------------------------------------------------------------- */

static csr_histogram_bins bins_of(csr_bin_rule rule, int bins, double lower, double upper) {
  csr_histogram_bins b;
  b.rule = rule;
  b.bins = bins;
  b.lower = lower;
  b.upper = upper;
  return b;
}

static void histogram_cases(void) {
  /*  INTEGER, 4 bins, I32:  0 3 3 -1 4 2 3  -> bin 0: 1, 1: 0, 2: 1, 3: 3 (-1 and 4: none) */
  const int32_t s[] = {0, 3, 3, -1, 4, 2, 3};
  csr_histogram_bins b = bins_of(CSR_BINS_INTEGER, 4, 0, 0);
  uint32_t c32[4] = {9, 9, 9, 9};
  CHECK_OK(ctx, csr_histogram(ctx, CSR_HOST, CSR_DATA_I32, s, COUNT(s), &b, CSR_DATA_U32, c32, NULL,
                              NULL));
  CHECK(c32[0] == 1 && c32[1] == 0 && c32[2] == 1 && c32[3] == 3);
  /*  INTEGER, U8 samples, 300 bins: 255 255 0 -> bin 255: 2, bin 0: 1 (U64 counts) */
  const uint8_t u8[] = {255, 255, 0};
  uint64_t c300[300];
  b = bins_of(CSR_BINS_INTEGER, 300, 0, 0);
  CHECK_OK(ctx,
           csr_histogram(ctx, CSR_HOST, CSR_DATA_U8, u8, 3, &b, CSR_DATA_U64, c300, NULL, NULL));
  CHECK(c300[255] == 2 && c300[0] == 1 && c300[1] == 0 && c300[299] == 0);
  /*  INTEGER, U64 samples far past int range: 2^32+1 counts nowhere (not as bin 1). */
  const uint64_t u64[] = {(UINT64_C(1) << 32) + 1, 1};
  uint16_t c2[2];
  b = bins_of(CSR_BINS_INTEGER, 2, 0, 0);
  CHECK_OK(ctx,
           csr_histogram(ctx, CSR_HOST, CSR_DATA_U64, u64, 2, &b, CSR_DATA_U16, c2, NULL, NULL));
  CHECK(c2[0] == 0 && c2[1] == 1);

  /*  EVEN, 4 bins over [0, 1), F64:
   *  0.0 -> 0   0.25 -> 1   0.2499 -> 0   0.99 -> 3   0.5 -> 2
   *  1.0, -0.1, NaN, +inf -> none                      -> 2 1 1 1 */
  const double d[] = {0.0, 0.25, 0.2499, 0.99, 1.0, -0.1, NAN, INFINITY, 0.5};
  uint64_t c4[4];
  b = bins_of(CSR_BINS_EVEN, 4, 0.0, 1.0);
  CHECK_OK(ctx, csr_histogram(ctx, CSR_HOST, CSR_DATA_F64, d, COUNT(d), &b, CSR_DATA_U64, c4, NULL,
                              NULL));
  CHECK(c4[0] == 2 && c4[1] == 1 && c4[2] == 1 && c4[3] == 1);
  /*  Same with F32 samples. */
  const float f[] = {0.0f, 0.25f, 0.2499f, 0.99f, 1.0f, -0.1f, NAN, 0.5f};
  CHECK_OK(ctx, csr_histogram(ctx, CSR_HOST, CSR_DATA_F32, f, COUNT(f), &b, CSR_DATA_U64, c4, NULL,
                              NULL));
  CHECK(c4[0] == 2 && c4[1] == 1 && c4[2] == 1 && c4[3] == 1);
  /*  EVEN over [-10, 10), 4 bins of width 5, I64:
   *  -10 -> 0   -6 -> 0   -5 -> 1   0 -> 2   9 -> 3   10, -11 -> none   -> 2 1 1 1 */
  const int64_t e[] = {-10, -6, -5, 0, 9, 10, -11};
  b = bins_of(CSR_BINS_EVEN, 4, -10.0, 10.0);
  CHECK_OK(ctx, csr_histogram(ctx, CSR_HOST, CSR_DATA_I64, e, COUNT(e), &b, CSR_DATA_U64, c4, NULL,
                              NULL));
  CHECK(c4[0] == 2 && c4[1] == 1 && c4[2] == 1 && c4[3] == 1);
  /*  EVEN, 10 bins over [0, 0.1): scale 10 / 0.1 = 100; x = the double below 0.1 gives the
   *  product 9.999999999999999something, rounded to 10.0: clamped into bin 9. 0.1 itself: none. */
  const double top[] = {nextafter(0.1, 0.0), 0.1, 0.05};
  uint64_t c10[10];
  b = bins_of(CSR_BINS_EVEN, 10, 0.0, 0.1);
  CHECK_OK(ctx,
           csr_histogram(ctx, CSR_HOST, CSR_DATA_F64, top, 3, &b, CSR_DATA_U64, c10, NULL, NULL));
  CHECK(top[0] * (10 / 0.1) == 10.0 && c10[9] == 1 && c10[5] == 1 && c10[0] == 0);

  /*  LOG2, 4 bins, I32:  0 -> 0   1 -> 1   2, 3 -> 2   4, 7 -> 3   8 (bin 4), 100, -1 -> none
   *                      -> 1 1 2 2 */
  const int32_t l[] = {0, 1, 2, 3, 4, 7, 8, -1, 100};
  b = bins_of(CSR_BINS_LOG2, 4, 0, 0);
  CHECK_OK(ctx, csr_histogram(ctx, CSR_HOST, CSR_DATA_I32, l, COUNT(l), &b, CSR_DATA_U64, c4, NULL,
                              NULL));
  CHECK(c4[0] == 1 && c4[1] == 1 && c4[2] == 2 && c4[3] == 2);
  /*  LOG2, 65 bins, U64: 2^64-1 -> 64, 2^63 -> 64, 2^63-1 -> 63; U16 samples: 65535 -> 16 */
  const uint64_t lu[] = {UINT64_MAX, UINT64_C(1) << 63, (UINT64_C(1) << 63) - 1};
  uint32_t c65[65];
  b = bins_of(CSR_BINS_LOG2, 65, 0, 0);
  CHECK_OK(ctx,
           csr_histogram(ctx, CSR_HOST, CSR_DATA_U64, lu, 3, &b, CSR_DATA_U32, c65, NULL, NULL));
  CHECK(c65[64] == 2 && c65[63] == 1 && c65[0] == 0);
  const uint16_t lw[] = {65535, 1};
  CHECK_OK(ctx,
           csr_histogram(ctx, CSR_HOST, CSR_DATA_U16, lw, 2, &b, CSR_DATA_U32, c65, NULL, NULL));
  CHECK(c65[16] == 1 && c65[1] == 1 && c65[64] == 0);

  /*  U16 counts saturate: 70000 zeros -> bin 0 holds 65535; bin 1 (zeroed first) 0. */
  uint8_t *zeros = calloc(70000, 1);
  uint16_t sat[2] = {0xABCD, 0xABCD};
  b = bins_of(CSR_BINS_INTEGER, 2, 0, 0);
  CHECK_OK(ctx, csr_histogram(ctx, CSR_HOST, CSR_DATA_U8, zeros, 70000, &b, CSR_DATA_U16, sat, NULL,
                              NULL));
  CHECK(sat[0] == 65535 && sat[1] == 0);
  free(zeros);

  /*  n = 0 (NULL samples): the counts are still zeroed. */
  uint64_t z[3] = {5, 6, 7};
  b = bins_of(CSR_BINS_LOG2, 3, 0, 0);
  CHECK_OK(ctx,
           csr_histogram(ctx, CSR_HOST, CSR_DATA_I32, NULL, 0, &b, CSR_DATA_U64, z, NULL, NULL));
  CHECK(z[0] == 0 && z[1] == 0 && z[2] == 0);
}

/* --- argument errors and the workspace protocol ---------------------------------------------- */

static void errors(void) {
  int32_t in[4] = {1, 2, 3, 4}, out[4];
  uint8_t heads[4] = {1, 0, 0, 0};
  int64_t kept;
  const csr_status invalid = CSR_ERR_INVALID_VALUE, null = CSR_ERR_NULL_POINTER;
  /* scan */
  CHECK_STATUS(ctx,
               csr_scan(ctx, CSR_HOST, CSR_DATA_F64, CSR_SCAN_INCLUSIVE, in, out, 4, NULL, NULL),
               invalid);
  CHECK_STATUS(ctx,
               csr_scan(ctx, CSR_HOST, CSR_DATA_U16, CSR_SCAN_INCLUSIVE, in, out, 4, NULL, NULL),
               invalid);
  CHECK_STATUS(
      ctx, csr_scan(ctx, CSR_HOST, (csr_data_type)42, CSR_SCAN_INCLUSIVE, in, out, 4, NULL, NULL),
      invalid);
  CHECK_STATUS(ctx, csr_scan(ctx, CSR_HOST, CSR_DATA_I32, (csr_scan_kind)2, in, out, 4, NULL, NULL),
               invalid);
  CHECK_STATUS(ctx,
               csr_scan(ctx, CSR_HOST, CSR_DATA_I32, CSR_SCAN_INCLUSIVE, in, out, -1, NULL, NULL),
               invalid);
  CHECK_STATUS(ctx,
               csr_scan(ctx, CSR_HOST, CSR_DATA_I32, CSR_SCAN_INCLUSIVE, NULL, out, 4, NULL, NULL),
               null);
  CHECK_STATUS(ctx,
               csr_scan(ctx, CSR_HOST, CSR_DATA_I32, CSR_SCAN_INCLUSIVE, in, NULL, 4, NULL, NULL),
               null);
  CHECK_STATUS(ctx,
               csr_segmented_scan(ctx, CSR_HOST, CSR_DATA_I32, CSR_SCAN_INCLUSIVE, in, NULL, out, 4,
                                  NULL, NULL),
               null);
  CHECK_STATUS(ctx,
               csr_segmented_scan(ctx, CSR_HOST, CSR_DATA_I64, (csr_scan_kind)-1, in, heads, out, 2,
                                  NULL, NULL),
               invalid);
  CHECK_STATUS(
      ctx, csr_scan(ctx, (csr_location)7, CSR_DATA_I32, CSR_SCAN_INCLUSIVE, in, out, 4, NULL, NULL),
      invalid);
  /* compact */
  int32_t zero = 0;
  CHECK_STATUS(ctx,
               csr_compact(ctx, CSR_HOST, (csr_data_type)8, in, heads, out, 4, &kept, NULL, NULL),
               invalid);
  CHECK_STATUS(ctx, csr_compact(ctx, CSR_HOST, CSR_DATA_I32, in, NULL, out, 4, &kept, NULL, NULL),
               null);
  CHECK_STATUS(ctx, csr_compact(ctx, CSR_HOST, CSR_DATA_I32, in, heads, out, 4, NULL, NULL, NULL),
               null);
  CHECK_STATUS(ctx,
               csr_compact(ctx, CSR_HOST, CSR_DATA_I32, in, heads, in + 1, 3, &kept, NULL, NULL),
               invalid); /* in and out overlap */
  CHECK_STATUS(ctx,
               csr_compact_if(ctx, CSR_HOST, CSR_DATA_I32, in, (csr_predicate)3, &zero, out, 4,
                              &kept, NULL, NULL),
               invalid);
  CHECK_STATUS(ctx,
               csr_compact_if(ctx, CSR_HOST, CSR_DATA_I32, in, CSR_KEEP_LESS, NULL, out, 4, &kept,
                              NULL, NULL),
               null);
  CHECK_STATUS(ctx,
               csr_compact_if(ctx, CSR_HOST, (csr_data_type)-1, in, CSR_KEEP_LESS, &zero, out, 4,
                              &kept, NULL, NULL),
               invalid);
  CHECK_STATUS(ctx,
               csr_compact_if(ctx, CSR_HOST, CSR_DATA_I32, in, CSR_KEEP_LESS, &zero, out, -3, &kept,
                              NULL, NULL),
               invalid);
  /* radix sort */
  uint32_t keys[4] = {4, 3, 2, 1};
  uint64_t wide[2] = {2, 1};
  uint16_t narrow[4] = {0, 1, 2, 3};
  CHECK_STATUS(
      ctx,
      csr_radix_sort(ctx, CSR_HOST, CSR_DATA_I32, keys, CSR_DATA_U32, NULL, 4, 0, 32, NULL, NULL),
      invalid);
  CHECK_STATUS(
      ctx,
      csr_radix_sort(ctx, CSR_HOST, CSR_DATA_U32, keys, CSR_DATA_U16, narrow, 4, 0, 32, NULL, NULL),
      invalid);
  CHECK_STATUS(
      ctx,
      csr_radix_sort(ctx, CSR_HOST, CSR_DATA_U32, keys, CSR_DATA_U32, NULL, 4, 0, 33, NULL, NULL),
      invalid);
  CHECK_STATUS(
      ctx,
      csr_radix_sort(ctx, CSR_HOST, CSR_DATA_U64, wide, CSR_DATA_U32, NULL, 2, -1, 8, NULL, NULL),
      invalid);
  CHECK_STATUS(
      ctx,
      csr_radix_sort(ctx, CSR_HOST, CSR_DATA_U64, wide, CSR_DATA_U32, NULL, 2, 9, 8, NULL, NULL),
      invalid);
  CHECK_STATUS(
      ctx,
      csr_radix_sort(ctx, CSR_HOST, CSR_DATA_U64, wide, CSR_DATA_U32, NULL, 2, 0, 65, NULL, NULL),
      invalid);
  CHECK_STATUS(
      ctx,
      csr_radix_sort(ctx, CSR_HOST, CSR_DATA_U32, NULL, CSR_DATA_U32, NULL, 4, 0, 32, NULL, NULL),
      null);
  CHECK(keys[0] == 4 && keys[3] == 1 && wide[0] == 2); /* nothing moved */
  /* histogram */
  uint64_t counts[4];
  csr_histogram_bins b = bins_of(CSR_BINS_INTEGER, 4, 0, 0);
  CHECK_STATUS(
      ctx,
      csr_histogram(ctx, CSR_HOST, CSR_DATA_I32, in, 4, NULL, CSR_DATA_U64, counts, NULL, NULL),
      null);
  CHECK_STATUS(
      ctx, csr_histogram(ctx, CSR_HOST, CSR_DATA_I32, in, 4, &b, CSR_DATA_U64, NULL, NULL, NULL),
      null);
  CHECK_STATUS(
      ctx,
      csr_histogram(ctx, CSR_HOST, CSR_DATA_I32, NULL, 4, &b, CSR_DATA_U64, counts, NULL, NULL),
      null);
  CHECK_STATUS(
      ctx, csr_histogram(ctx, CSR_HOST, CSR_DATA_I32, in, 4, &b, CSR_DATA_I32, counts, NULL, NULL),
      invalid);
  CHECK_STATUS(
      ctx, csr_histogram(ctx, CSR_HOST, CSR_DATA_I32, in, 4, &b, CSR_DATA_U8, counts, NULL, NULL),
      invalid);
  CHECK_STATUS(
      ctx,
      csr_histogram(ctx, CSR_HOST, (csr_data_type)9, in, 4, &b, CSR_DATA_U64, counts, NULL, NULL),
      invalid);
  CHECK_STATUS(
      ctx, csr_histogram(ctx, CSR_HOST, CSR_DATA_F32, in, 4, &b, CSR_DATA_U64, counts, NULL, NULL),
      invalid); /* floats need EVEN */
  const csr_histogram_bins bad[] = {
      bins_of((csr_bin_rule)3, 4, 0, 0),        bins_of(CSR_BINS_INTEGER, 0, 0, 0),
      bins_of(CSR_BINS_LOG2, -2, 0, 0),         bins_of(CSR_BINS_LOG2, (1 << 24) + 1, 0, 0),
      bins_of(CSR_BINS_EVEN, 4, 1.0, 1.0),      bins_of(CSR_BINS_EVEN, 4, 2.0, 1.0),
      bins_of(CSR_BINS_EVEN, 4, 0.0, INFINITY), bins_of(CSR_BINS_EVEN, 4, NAN, 1.0),
      bins_of(CSR_BINS_EVEN, 4, -1e308, 1e308)};
  for (int i = 0; i < COUNT(bad); i++)
    CHECK_STATUS(ctx,
                 csr_histogram(ctx, CSR_HOST, CSR_DATA_I32, in, 4, &bad[i], CSR_DATA_U64, counts,
                               NULL, NULL),
                 invalid);
  /* Device arrays without CUDA: not compiled (AUTO), or a location mismatch (REF asked). */
  if (!csr_backend_available(CSR_BACKEND_CUDA)) {
    CHECK_STATUS(
        NULL, csr_scan(NULL, CSR_DEVICE, CSR_DATA_I32, CSR_SCAN_INCLUSIVE, in, out, 4, NULL, NULL),
        CSR_ERR_NOT_COMPILED);
    CHECK_STATUS(NULL,
                 csr_radix_sort(NULL, CSR_DEVICE, CSR_DATA_U32, keys, CSR_DATA_U32, NULL, 4, 0, 32,
                                NULL, NULL),
                 CSR_ERR_NOT_COMPILED);
  }
  CHECK_STATUS(ctx,
               csr_compact(ctx, CSR_DEVICE, CSR_DATA_I32, in, heads, out, 4, &kept, NULL, NULL),
               CSR_ERR_LOCATION_MISMATCH);
  CHECK_STATUS(
      ctx,
      csr_histogram(ctx, CSR_DEVICE, CSR_DATA_I32, in, 4, &b, CSR_DATA_U64, counts, NULL, NULL),
      CSR_ERR_LOCATION_MISMATCH);
}

static void workspace_protocol(void) {
  /* A size query writes *bytes and touches nothing else. */
  uint32_t keys[6] = {6, 5, 4, 3, 2, 1};
  uint64_t values[6] = {0, 1, 2, 3, 4, 5};
  size_t bytes = 12345;
  CHECK_OK(ctx, csr_radix_sort(ctx, CSR_HOST, CSR_DATA_U32, keys, CSR_DATA_U64, values, 6, 0, 32,
                               NULL, &bytes));
  CHECK(bytes != 12345 && bytes >= 6 * (4 + 8)); /* the reference ping-pongs keys and values */
  CHECK(keys[0] == 6 && keys[5] == 1 && values[0] == 0);
  /* Too small is refused, nothing moves; the exact size works. */
  char *ws = malloc(bytes);
  size_t small = bytes - 1;
  CHECK_STATUS(
      ctx,
      csr_radix_sort(ctx, CSR_HOST, CSR_DATA_U32, keys, CSR_DATA_U64, values, 6, 0, 32, ws, &small),
      CSR_ERR_INVALID_VALUE);
  CHECK(keys[0] == 6 && values[0] == 0);
  CHECK_OK(ctx, csr_radix_sort(ctx, CSR_HOST, CSR_DATA_U32, keys, CSR_DATA_U64, values, 6, 0, 32,
                               ws, &bytes));
  CHECK(keys[0] == 1 && keys[5] == 6 && values[0] == 5 && values[5] == 0);
  free(ws);
  /* The context's cache and a NULL context (a fresh workspace, freed: ASan watches). */
  uint32_t k2[3] = {9, 8, 7};
  CHECK_OK(NULL, csr_radix_sort(NULL, CSR_HOST, CSR_DATA_U32, k2, CSR_DATA_U32, NULL, 3, 0, 32,
                                NULL, NULL));
  CHECK(k2[0] == 7 && k2[2] == 9);

  /* Every primitive answers a query without reading its arrays (NULL here) beyond the checks. */
  int32_t in[3] = {1, 2, 3}, out[3] = {-5, -5, -5};
  bytes = 999;
  CHECK_OK(ctx,
           csr_scan(ctx, CSR_HOST, CSR_DATA_I32, CSR_SCAN_INCLUSIVE, in, out, 3, NULL, &bytes));
  CHECK(bytes != 999 && out[0] == -5 && out[2] == -5);
  int64_t kept = -7;
  const uint8_t flags[3] = {1, 1, 1};
  bytes = 999;
  CHECK_OK(ctx, csr_compact(ctx, CSR_HOST, CSR_DATA_I32, in, flags, out, 3, &kept, NULL, &bytes));
  CHECK(bytes != 999 && out[0] == -5 && kept == -7);
  uint32_t counts[2] = {77, 77};
  csr_histogram_bins b = bins_of(CSR_BINS_INTEGER, 2, 0, 0);
  bytes = 999;
  CHECK_OK(ctx, csr_histogram(ctx, CSR_HOST, CSR_DATA_I32, in, 3, &b, CSR_DATA_U32, counts, NULL,
                              &bytes));
  CHECK(bytes != 999 && counts[0] == 77 && counts[1] == 77);
  /* Then the same calls with a caller's buffer of that size (the reference needs none). */
  char spare[16];
  bytes = 0;
  CHECK_OK(ctx,
           csr_scan(ctx, CSR_HOST, CSR_DATA_I32, CSR_SCAN_INCLUSIVE, in, out, 3, spare, &bytes));
  CHECK(out[0] == 1 && out[1] == 3 && out[2] == 6);
  CHECK_OK(ctx, csr_histogram(ctx, CSR_HOST, CSR_DATA_I32, in, 3, &b, CSR_DATA_U32, counts, spare,
                              &bytes));
  CHECK(counts[0] == 0 && counts[1] == 1);
  CHECK(csr_data_type_size(CSR_DATA_U8) == 1 && csr_data_type_size(CSR_DATA_U16) == 2 &&
        csr_data_type_size(CSR_DATA_F32) == 4 && csr_data_type_size(CSR_DATA_I64) == 8 &&
        csr_data_type_size((csr_data_type)8) == 0);
  CHECK(csr_context_last_backend(ctx) == CSR_BACKEND_REF);
}

int main(void) {
  ctx = csrt_context(CSR_BACKEND_REF);
  scan_plain();
  scan_segmented();
  compact_flags();
  compact_predicates();
  sort_cases();
  histogram_cases();
  errors();
  workspace_protocol();
  csr_context_free(&ctx);
  return csrt_finish("test_primitives_ref");
}
