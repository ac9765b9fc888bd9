/* SPDX-License-Identifier: BSD-3-Clause */
/* The SpMV kernel choice: the rule of src/kernels/spmv_choice.h either side of each threshold of
 * src/kernels/spmv_tuning.h, on statistics built from row lengths; and csr_spmv_choose's cache
 * (hits, forgetting, a new matrix at old addresses, eviction), its forced kernel and its errors;
 * the sampled gathers that keep the scalar kernel from random short rows. */
#include "kernels/spmv_choice.h"
#include "ops/ops.h"
#include "testing.h"

#include <stdlib.h>
#include <string.h>

/* Statistics of a matrix holding count[i] rows of length len[i] (i < groups), as
 * csr_row_stats_compute would count them. */
static csr_row_stats stats_of(int groups, const int64_t *count, const int64_t *len) {
  csr_row_stats s;
  memset(&s, 0, sizeof s);
  for (int i = 0; i < groups; i++) {
    s.rows += count[i];
    s.nnz += count[i] * len[i];
    s.histogram[csr_row_length_bin(len[i])] += count[i];
    if (len[i] == 0)
      s.empty_rows += count[i];
    if (count[i] > 0 && len[i] > s.longest)
      s.longest = len[i];
  }
  s.mean = s.rows > 0 ? (double)s.nnz / (double)s.rows : 0.0;
  for (int i = 0; i < groups; i++)
    s.variance += (double)count[i] * ((double)len[i] - s.mean) * ((double)len[i] - s.mean);
  s.variance = s.rows > 0 ? s.variance / (double)s.rows : 0.0;
  return s;
}

static csri_spmv_pick pick_of(int groups, const int64_t *count, const int64_t *len) {
  csr_row_stats s = stats_of(groups, count, len);
  return csri_spmv_choose(&s, 0.0, CSRI_SPMV_RESIDENT_LANES);
}

/* Uniform rows: scalar up to a mean of CSRI_SPMV_SCALAR_MEAN; then stream while the rows fit its
 * tiles (CSRI_SPMV_STREAM_LONGEST); longer rows the vector kernel only when they fill its groups
 * of lanes (at least CSRI_SPMV_VECTOR_FILL of every pass), else the segmented kernel. */
static void test_regular(void) {
  const int64_t rows[] = {1000000};
  for (int64_t len = 1; len <= 700; len++) {
    csri_spmv_pick p = pick_of(1, rows, &len);
    int lanes = len <= 16 ? 16 : 32;
    double passes = (double)((len + lanes - 1) / lanes);
    if (len <= (int64_t)CSRI_SPMV_SCALAR_MEAN) {
      CHECKF(p.kernel == CSR_KERNEL_SCALAR && p.lanes == 1 && p.why == CSRI_WHY_SHORT_ROWS,
             "length %lld: kernel %d lanes %d", (long long)len, (int)p.kernel, p.lanes);
    } else if (len <= CSRI_SPMV_STREAM_LONGEST) {
      CHECKF(p.kernel == CSR_KERNEL_STREAM && p.lanes == 0 && p.why == CSRI_WHY_ROWS_FIT,
             "length %lld: kernel %d why %d", (long long)len, (int)p.kernel, (int)p.why);
      CHECK(p.stream_steps < 2.1 * p.stream_share); /* (len + 1) / (4 lanes) < 2 + 1/128 */
    } else if ((double)len >= CSRI_SPMV_VECTOR_FILL * lanes * passes) {
      CHECKF(p.kernel == CSR_KERNEL_VECTOR && p.lanes == lanes && p.why == CSRI_WHY_FULL_GROUPS,
             "length %lld: kernel %d lanes %d", (long long)len, (int)p.kernel, p.lanes);
    } else {
      CHECKF(p.kernel == CSR_KERNEL_SEGMENTED && p.why == CSRI_WHY_IDLE_LANES,
             "length %lld: kernel %d why %d", (long long)len, (int)p.kernel, (int)p.why);
    }
    CHECK(p.regular_share == 1.0 && p.spread_squared == 0.0);
  }
  /* By hand, past the stream tiles: 288, 310, 320, 512 fill their groups of 32; 257, 300, 330
   * do not. */
  const int64_t full[] = {288, 310, 320, 512}, idle[] = {257, 300, 330};
  for (int k = 0; k < 4; k++)
    CHECK(pick_of(1, rows, &full[k]).kernel == CSR_KERNEL_VECTOR);
  for (int k = 0; k < 3; k++)
    CHECK(pick_of(1, rows, &idle[k]).kernel == CSR_KERNEL_SEGMENTED);
  /* Lengths 20 to 27 (a 27-point stencil with its boundary rows): stream. */
  const int64_t count[] = {1000, 20000, 3000000}, len[] = {20, 24, 27};
  csri_spmv_pick p = pick_of(3, count, len);
  CHECK(p.kernel == CSR_KERNEL_STREAM && p.why == CSRI_WHY_ROWS_FIT);
  /* Rows of 16 on average but of lengths 8 to 24: the vector kernel's lanes would idle; stream. */
  const int64_t tall_count[] = {1000000, 1000000, 1000000}, tall_len[] = {8, 16, 24};
  p = pick_of(3, tall_count, tall_len);
  CHECK(p.group_fill == 1.0 &&
        p.spread_squared > CSRI_SPMV_VECTOR_SPREAD * CSRI_SPMV_VECTOR_SPREAD);
  CHECK(p.kernel == CSR_KERNEL_STREAM);
  /* The same past the stream tiles (lengths 264 to 392 around 328): segmented. */
  const int64_t long_len[] = {264, 328, 392};
  p = pick_of(3, tall_count, long_len);
  CHECK(p.kernel == CSR_KERNEL_SEGMENTED && p.why == CSRI_WHY_IDLE_LANES);
  /* The spread either side of CSRI_SPMV_VECTOR_SPREAD: 320s with a few 319s and 321s, then with
   * more of them. */
  int64_t near_count[3] = {0, 1000000, 0};
  const int64_t near_len[3] = {300, 320, 340};
  near_count[0] = near_count[2] = 1000; /* sd = 20 sqrt(2000 / 1002000) ~ 0.9, 0.3% of 320 */
  CHECK(pick_of(3, near_count, near_len).kernel == CSR_KERNEL_VECTOR);
  near_count[0] = near_count[2] = 10000; /* sd ~ 2.8, 0.9% */
  CHECK(pick_of(3, near_count, near_len).kernel == CSR_KERNEL_VECTOR);
  near_count[0] = near_count[2] = 200000; /* sd ~ 11.5, 3.6% */
  CHECK(pick_of(3, near_count, near_len).kernel == CSR_KERNEL_VECTOR);
  near_count[0] = near_count[2] = 600000; /* sd ~ 14.8, 4.6% */
  CHECK(pick_of(3, near_count, near_len).kernel == CSR_KERNEL_VECTOR);
  near_count[0] = near_count[2] = 2000000; /* sd ~ 17.9, 5.6% */
  CHECK(pick_of(3, near_count, near_len).kernel == CSR_KERNEL_SEGMENTED);
}

/* The stream kernel's rule either side of its thresholds: the longest row's length
 * (CSRI_SPMV_STREAM_LONGEST) and its steps against a lane's share of a tile
 * (CSRI_SPMV_STREAM_STEPS_FACTOR), on rows of 12 with one longer row. */
static void test_stream(void) {
  int64_t count[2] = {1000000, 1}, len[2] = {12, 12};
  csri_spmv_pick base = pick_of(2, count, len);
  CHECK(base.kernel == CSR_KERNEL_STREAM);
  /* lanes per row in a typical tile, from the steps of a row of 12 */
  double lanes = 12.0 / base.stream_steps;
  CHECK(lanes >= 1.0 && lanes <= 32.0);
  int64_t at = (int64_t)(CSRI_SPMV_STREAM_STEPS_FACTOR * base.stream_share * lanes);
  CHECK(at < CSRI_SPMV_STREAM_LONGEST); /* the steps decide here, not the length */
  len[1] = at;
  csri_spmv_pick p = pick_of(2, count, len);
  CHECKF(p.kernel == CSR_KERNEL_STREAM, "longest %lld: kernel %d (steps %.2f share %.2f)",
         (long long)at, (int)p.kernel, p.stream_steps, p.stream_share);
  len[1] = at + (int64_t)lanes + 1;
  p = pick_of(2, count, len);
  CHECKF(p.kernel == CSR_KERNEL_SEGMENTED, "longest %lld: kernel %d why %d", (long long)len[1],
         (int)p.kernel, (int)p.why);
  /* Rows of 100 (more lanes per row): the length decides, either side of the limit. */
  len[0] = 100;
  len[1] = CSRI_SPMV_STREAM_LONGEST;
  CHECK(pick_of(2, count, len).kernel == CSR_KERNEL_STREAM);
  len[1] = CSRI_SPMV_STREAM_LONGEST + 1;
  CHECK(pick_of(2, count, len).kernel != CSR_KERNEL_STREAM);
  /* Empty rows do not keep rows out of the tiles: every other row empty. */
  const int64_t odd_count[2] = {1000000, 1000000}, odd_len[2] = {0, 16};
  p = pick_of(2, odd_count, odd_len);
  CHECK(p.kernel == CSR_KERNEL_STREAM && p.why == CSRI_WHY_ROWS_FIT);
}

/* The regular share either side of CSRI_SPMV_REGULAR_SHARE: rows of 8 (bin 4, the typical one)
 * with some far longer rows of 256 (bin 9) holding the rest of the nonzeros. */
static void test_uneven(void) {
  const int64_t typical = 1000000, len[] = {8, 256};
  /* Estimated nonzeros: bin 4 holds 0.75 * 16 = 12 per row, bin 9 0.75 * 512 = 384 per row. */
  double per_typical = 12.0, per_far = 384.0, limit = CSRI_SPMV_REGULAR_SHARE;
  int64_t far_at_limit = (int64_t)((double)typical * per_typical * (1.0 - limit) /
                                   (limit * per_far)); /* share == limit, rounded down */
  int64_t count[2] = {typical, far_at_limit};
  csri_spmv_pick p = pick_of(2, count, len);
  CHECKF(p.regular_share >= limit && p.why != CSRI_WHY_UNEVEN, "share %.4f why %d", p.regular_share,
         (int)p.why);
  count[1] = far_at_limit + 2;
  p = pick_of(2, count, len);
  CHECKF(p.regular_share < limit && p.kernel == CSR_KERNEL_SEGMENTED && p.why == CSRI_WHY_UNEVEN,
         "share %.4f why %d", p.regular_share, (int)p.why);
  /* A power law: rows of 2^k entries, 2^(20-k) of them (equal nonzeros in every bin). */
  int64_t pl_count[12], pl_len[12];
  for (int k = 0; k < 12; k++) {
    pl_len[k] = (int64_t)1 << k;
    pl_count[k] = (int64_t)1 << (20 - k);
  }
  p = pick_of(12, pl_count, pl_len);
  CHECK(p.kernel == CSR_KERNEL_SEGMENTED && p.why == CSRI_WHY_UNEVEN);
  CHECK(p.typical_bin == 6 || p.typical_bin == 7);
}

/* Empty rows either side of CSRI_SPMV_EMPTY_SHARE. */
static void test_empty_rows(void) {
  const int64_t len[] = {0, 4};
  int64_t count[2] = {0, 1000000};
  /* empty / (empty + 10^6) <= share  <=>  empty <= share * 10^6 / (1 - share) */
  int64_t at = (int64_t)(CSRI_SPMV_EMPTY_SHARE * 1e6 / (1.0 - CSRI_SPMV_EMPTY_SHARE));
  count[0] = at;
  csri_spmv_pick p = pick_of(2, count, len);
  CHECK(p.kernel == CSR_KERNEL_SCALAR && p.nonempty_mean == 4.0);
  count[0] = at + 2; /* too many empty rows for scalar; the rows fit stream tiles */
  p = pick_of(2, count, len);
  CHECK(p.kernel == CSR_KERNEL_STREAM && p.why == CSRI_WHY_ROWS_FIT);
  /* Rows too long for the stream tiles: segmented, for the empty rows. */
  const int64_t long_len[2] = {0, 300};
  p = pick_of(2, count, long_len);
  CHECK(p.kernel == CSR_KERNEL_SEGMENTED && p.why == CSRI_WHY_EMPTY_ROWS);
  count[0] = at;
  p = pick_of(2, count, long_len);
  CHECK(p.why != CSRI_WHY_EMPTY_ROWS);
  /* All rows empty, and no rows: nothing to balance. */
  count[1] = 0;
  p = pick_of(2, count, len);
  CHECK(p.kernel == CSR_KERNEL_SCALAR && p.why == CSRI_WHY_NO_WORK);
  count[0] = 0;
  p = pick_of(2, count, len);
  CHECK(p.kernel == CSR_KERNEL_SCALAR && p.why == CSRI_WHY_NO_WORK);
}

/* One long row in regular rows: allowed up to CSRI_SPMV_LONGEST_STEPS_FACTOR times a lane's
 * share of the nonzeros (and at least CSRI_SPMV_LONGEST_STEPS_MIN steps). */
static void test_longest_row(void) {
  const int64_t rows = 4000000;
  int64_t count[2] = {rows, 1}, len[2] = {5, 0};
  for (int lanes_case = 0; lanes_case < 2; lanes_case++) {
    len[0] = lanes_case == 0 ? 5 : 32; /* scalar, then 32 lanes */
    int lanes = lanes_case == 0 ? 1 : 32;
    /* Find the longest allowed row directly from the rule's figures. */
    len[1] = len[0];
    csri_spmv_pick base = pick_of(2, count, len);
    double allowed = csri_longest_steps_allowed(base.lane_share);
    int64_t at = (int64_t)(allowed * lanes);
    len[1] = at;
    csri_spmv_pick p = pick_of(2, count, len);
    /* At the limit the row passes this test (32 lanes: the row's spread then rules the vector
     * kernel out, which is the next test's business). */
    CHECKF(p.why != CSRI_WHY_LONGEST_ROW && (lanes == 32 || p.kernel == CSR_KERNEL_SCALAR),
           "longest %lld (allowed %.1f steps of %d lanes): kernel %d", (long long)at, allowed,
           lanes, (int)p.kernel);
    len[1] = at + lanes;
    p = pick_of(2, count, len);
    CHECKF(p.kernel == CSR_KERNEL_SEGMENTED && p.why == CSRI_WHY_LONGEST_ROW,
           "longest %lld: kernel %d why %d", (long long)len[1], (int)p.kernel, (int)p.why);
  }
  /* A small matrix: the floor of CSRI_SPMV_LONGEST_STEPS_MIN steps applies. */
  int64_t small_count[2] = {10000, 1}, small_len[2] = {4, (int64_t)CSRI_SPMV_LONGEST_STEPS_MIN};
  csri_spmv_pick p = pick_of(2, small_count, small_len);
  CHECK(p.kernel == CSR_KERNEL_SCALAR);
  small_len[1] = (int64_t)CSRI_SPMV_LONGEST_STEPS_MIN + 1;
  p = pick_of(2, small_count, small_len);
  CHECK(p.kernel == CSR_KERNEL_SEGMENTED);
  /* The GPU's size matters: fewer resident lanes, a bigger share each. */
  len[0] = 5;
  len[1] = (int64_t)csri_longest_steps_allowed(pick_of(1, count, len).lane_share) + 1;
  csr_row_stats s = stats_of(2, count, len); /* 5s and one row just too long for a thread */
  CHECK(csri_spmv_choose(&s, 0.0, CSRI_SPMV_RESIDENT_LANES).kernel == CSR_KERNEL_SEGMENTED);
  CHECK(csri_spmv_choose(&s, 0.0, CSRI_SPMV_RESIDENT_LANES / 2.0).kernel == CSR_KERNEL_SCALAR);
}

static void test_forced(void) {
  const int64_t rows[] = {1000}, len[] = {20};
  csr_row_stats s = stats_of(1, rows, len);
  CHECK(csri_spmv_forced(&s, CSR_KERNEL_SCALAR).lanes == 1);
  CHECK(csri_spmv_forced(&s, CSR_KERNEL_VECTOR).lanes == 32);
  CHECK(csri_spmv_forced(&s, CSR_KERNEL_SEGMENTED).lanes == 0);
  CHECK(csri_spmv_forced(&s, CSR_KERNEL_SEGMENTED).why == CSRI_WHY_FORCED);
  CHECK(csri_spmv_forced(&s, CSR_KERNEL_STREAM).lanes == 0);
}

/* csr_spmv_choose on host matrices: the cache and the words. */
static void test_choose(csrt_rng *rng) {
  csr_context *ctx = csrt_context(CSR_BACKEND_REF);
  int64_t len[64];
  for (int i = 0; i < 64; i++)
    len[i] = 3 + (i % 3);
  csr_matrix *A = csrt_from_row_lengths(ctx, 64, 64, len, CSR_F64, CSRT_RANDOM, rng);
  csr_spmv_choice c1, c2;
  CHECK_OK(ctx, csr_spmv_choose(ctx, A, &c1));
  CHECK(c1.kernel == CSR_KERNEL_SCALAR && c1.lanes == 1 && !c1.forced && !c1.cached);
  CHECK(c1.stats.rows == 64 && c1.stats.nnz == A->nnz && c1.stats.longest == 5);
  CHECK(strstr(c1.reason, "scalar") != NULL && strstr(c1.reason, "regular") != NULL);
  CHECK(c1.analysis_seconds >= 0.0);
  CHECK_OK(ctx, csr_spmv_choose(ctx, A, &c2));
  CHECK(c2.cached && c2.kernel == c1.kernel && strcmp(c2.reason, c1.reason) == 0);
  CHECK(c2.analysis_seconds == c1.analysis_seconds);
  csr_context_forget_matrix(ctx, A);
  CHECK_OK(ctx, csr_spmv_choose(ctx, A, &c2));
  CHECK(!c2.cached);
  /* A view of A (same arrays, same serial) shares its entry; a copy does not. */
  csr_matrix view = *A, *B = NULL;
  CHECK_OK(ctx, csr_spmv_choose(ctx, &view, &c2));
  CHECK(c2.cached);
  CHECK_OK(ctx, csr_matrix_copy(ctx, A, &B, CSR_HOST));
  CHECK(B->serial != A->serial && B->serial != 0);
  CHECK_OK(ctx, csr_spmv_choose(ctx, B, &c2));
  CHECK(!c2.cached);
  /* A new matrix, possibly at the freed one's addresses, is not taken for it. */
  csr_matrix_free(&B);
  for (int i = 0; i < 64; i++)
    len[i] = 32;
  B = csrt_from_row_lengths(ctx, 64, 64, len, CSR_F64, CSRT_RANDOM, rng);
  CHECK_OK(ctx, csr_spmv_choose(ctx, B, &c2));
  CHECK(!c2.cached && c2.kernel == CSR_KERNEL_STREAM && c2.lanes == 0);
  CHECK(strstr(c2.reason, "stream") != NULL && strstr(c2.reason, "fits") != NULL);
  /* Eight more matrices push A out (the least recently used). */
  csr_matrix *more[8];
  for (int k = 0; k < 8; k++) {
    more[k] = csrt_from_row_lengths(ctx, 64, 64, len, CSR_F64, CSRT_RANDOM, rng);
    CHECK_OK(ctx, csr_spmv_choose(ctx, more[k], &c2));
  }
  CHECK_OK(ctx, csr_spmv_choose(ctx, more[7], &c2));
  CHECK(c2.cached);
  CHECK_OK(ctx, csr_spmv_choose(ctx, A, &c2));
  CHECK(!c2.cached);
  csr_context_forget_matrix(ctx, NULL);
  CHECK_OK(ctx, csr_spmv_choose(ctx, more[7], &c2));
  CHECK(!c2.cached);
  for (int k = 0; k < 8; k++)
    csr_matrix_free(&more[k]);
  /* Forced: the override's kernel, and what the statistics alone would pick. */
  CHECK_OK(ctx, csr_context_set_kernel(ctx, CSR_KERNEL_SEGMENTED));
  CHECK_OK(ctx, csr_spmv_choose(ctx, A, &c2));
  CHECK(c2.forced && c2.kernel == CSR_KERNEL_SEGMENTED && c2.lanes == 0);
  CHECK(strstr(c2.reason, "forced") != NULL && strstr(c2.reason, "scalar") != NULL);
  CHECK_OK(ctx, csr_context_set_kernel(ctx, CSR_KERNEL_AUTO));
  /* A NULL context keeps nothing. */
  CHECK_OK(NULL, csr_spmv_choose(NULL, A, &c2));
  CHECK_OK(NULL, csr_spmv_choose(NULL, A, &c2));
  CHECK(!c2.cached && c2.kernel == CSR_KERNEL_SCALAR);
  /* Errors. */
  CHECK_STATUS(ctx, csr_spmv_choose(ctx, NULL, &c2), CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, csr_spmv_choose(ctx, A, NULL), CSR_ERR_NULL_POINTER);
  csr_matrix bad = *A;
  bad.serial = 0;
  int64_t *off = malloc((size_t)(A->rows + 1) * sizeof *off);
  memcpy(off, A->row_offsets, (size_t)(A->rows + 1) * sizeof *off);
  off[10] = off[12]; /* row 10 longer, row 11 negative */
  bad.row_offsets = off;
  CHECK_STATUS(ctx, csr_spmv_choose(ctx, &bad, &c2), CSR_ERR_INVALID_MATRIX);
  free(off);
  CHECK(strcmp(csr_spmv_kernel_name(CSR_KERNEL_SEGMENTED), "segmented") == 0);
  CHECK(strcmp(csr_spmv_kernel_name(CSR_KERNEL_STREAM), "stream") == 0);
  CHECK(strcmp(csr_spmv_kernel_name(CSR_KERNEL_AUTO), "auto") == 0);
  CHECK(strcmp(csr_spmv_kernel_name((csr_spmv_kernel)9), "unknown") == 0);
  csr_matrix_free(&A);
  csr_matrix_free(&B);
  csr_context_free(&ctx);
}

/* The registry: each kernel's name reads back through csr_spmv_kernel_from_name, a context takes
 * exactly its kernels and AUTO, a forced kernel gets the registry's lanes, and the last rule takes
 * every matrix (here: figures that keep every other rule away). */
static void test_registry(void) {
  csr_context *ctx = NULL;
  CHECK_OK(ctx, csr_context_create(&ctx));
  csr_spmv_kernel k;
  CHECK(csr_spmv_kernel_from_name("auto", &k) == CSR_SUCCESS && k == CSR_KERNEL_AUTO);
  CHECK(csr_spmv_kernel_from_name("warp", &k) == CSR_ERR_INVALID_VALUE);
  CHECK(csr_spmv_kernel_from_name(NULL, &k) == CSR_ERR_NULL_POINTER);
  CHECK(strcmp(csr_spmv_kernel_name((csr_spmv_kernel)99), "unknown") == 0);
  CHECK(csr_context_set_kernel(ctx, (csr_spmv_kernel)99) == CSR_ERR_INVALID_VALUE);
  CHECK(csr_context_set_kernel(ctx, (csr_spmv_kernel)-1) == CSR_ERR_INVALID_VALUE);
  csr_row_stats s;
  memset(&s, 0, sizeof s);
  s.mean = 20.0;
  for (int i = 0; i < CSRI_SPMV_KERNEL_COUNT; i++) {
    const csri_spmv_kernel_info *info = &csri_spmv_kernels[i];
    CHECKF(csr_spmv_kernel_from_name(info->name, &k) == CSR_SUCCESS && k == info->kernel,
           "kernel %s", info->name);
    CHECK(strcmp(csr_spmv_kernel_name(info->kernel), info->name) == 0);
    CHECK(csri_spmv_kernel_of(info->kernel) == info);
    CHECK_OK(ctx, csr_context_set_kernel(ctx, info->kernel));
    csri_spmv_pick p = csri_spmv_forced(&s, info->kernel);
    CHECK(p.kernel == info->kernel && p.why == CSRI_WHY_FORCED);
    CHECK(p.lanes == (info->forced_lanes == CSRI_LANES_FROM_MEAN ? 32 : info->forced_lanes));
    CHECK(info->row_kernel == (p.lanes > 0));
  }
  csri_spmv_pick p;
  memset(&p, 0, sizeof p);
  p.many_empty = p.uneven = p.long_row = 1;
  p.stream_steps = 1e30;
  s.longest = INT64_MAX;
  for (int i = 0; i + 1 < CSRI_SPMV_KERNEL_COUNT; i++)
    CHECKF(!csri_spmv_kernels[i].picks(&s, &p), "rule of %s", csri_spmv_kernels[i].name);
  CHECK(csri_spmv_kernels[CSRI_SPMV_KERNEL_COUNT - 1].picks(&s, &p));
  csr_context_free(&ctx);
}

/* The plan the front end hands a backend with plans (the CUDA backend's table says so; a table
 * of the same kind stands in here): none for a backend without; AUTO's pick and the longest row
 * from the statistics, which it keeps; a forced kernel without statistics (longest unknown, the
 * vector's lanes from the mean) until csr_spmv_choose has kept them. */
static void test_plan(csrt_rng *rng) {
  csr_context *ctx = csrt_context(CSR_BACKEND_REF);
  int64_t len[256];
  for (int i = 0; i < 256; i++)
    len[i] = i == 7 ? 40 : 20;
  csr_matrix *A = csrt_from_row_lengths(ctx, 256, 256, len, CSR_F64, CSRT_RANDOM, rng);
  csri_backend without, with;
  memset(&without, 0, sizeof without);
  with = without;
  with.sparse.plans = 1;
  csri_spmv_plan plan;
  const csri_spmv_plan *handed = &plan;
  CHECK_OK(ctx, csri_spmv_plan_for(ctx, &without, A, &plan, &handed));
  CHECK(handed == NULL);
  CHECK_OK(ctx, csr_context_set_kernel(ctx, CSR_KERNEL_VECTOR));
  CHECK_OK(ctx, csri_spmv_plan_for(ctx, &with, A, &plan, &handed));
  CHECK(handed == &plan && plan.kernel == CSR_KERNEL_VECTOR && plan.longest == -1);
  CHECK(plan.lanes == csri_vector_lanes((double)A->nnz / 256.0));
  CHECK_OK(ctx, csr_context_set_kernel(ctx, CSR_KERNEL_AUTO));
  CHECK_OK(ctx, csri_spmv_plan_for(ctx, &with, A, &plan, &handed));
  csr_spmv_choice c;
  CHECK_OK(ctx, csr_spmv_choose(ctx, A, &c));
  CHECK(c.cached && plan.kernel == c.kernel && plan.lanes == c.lanes && plan.longest == 40);
  CHECK_OK(ctx, csr_context_set_kernel(ctx, CSR_KERNEL_SEGMENTED));
  CHECK_OK(ctx, csri_spmv_plan_for(ctx, &with, A, &plan, &handed));
  CHECK(plan.kernel == CSR_KERNEL_SEGMENTED && plan.lanes == 0 && plan.longest == 40);
  csr_matrix_free(&A);
  csr_context_free(&ctx);
}

/* Short regular rows go to the scalar kernel only while its warps' gathers of x share lines
 * (CSRI_SPMV_SCALAR_LINES either side); sampled on a stencil (neighbouring rows read neighbouring
 * entries) and on random columns (each lane its own line), and only where the rule needs it. */
static void test_gather_lines(csrt_rng *rng) {
  const int64_t rows[] = {1000000}, six[] = {6};
  csr_row_stats s = stats_of(1, rows, six);
  csri_spmv_pick p = csri_spmv_choose(&s, CSRI_SPMV_SCALAR_LINES, CSRI_SPMV_RESIDENT_LANES);
  CHECK(p.kernel == CSR_KERNEL_SCALAR && !p.scattered);
  p = csri_spmv_choose(&s, CSRI_SPMV_SCALAR_LINES + 1e-3, CSRI_SPMV_RESIDENT_LANES);
  CHECKF(p.kernel == CSR_KERNEL_STREAM && p.scattered && p.why == CSRI_WHY_ROWS_FIT,
         "kernel %d why %d", (int)p.kernel, (int)p.why); /* not a vector of one lane */
  csr_context *ctx = csrt_context(CSR_BACKEND_REF);
  csr_matrix *stencil = csrt_poisson_2d(ctx, 300, 0.0);
  csr_spmv_choice c;
  CHECK_OK(ctx, csr_spmv_choose(ctx, stencil, &c));
  CHECKF(c.kernel == CSR_KERNEL_SCALAR && c.gather_lines > 0.0 && c.gather_lines < 0.15,
         "stencil: kernel %d, %.3f lines a lane", (int)c.kernel, c.gather_lines);
  const int64_t n = 100000;
  int64_t *len = malloc((size_t)n * sizeof *len);
  for (int64_t i = 0; i < n; i++)
    len[i] = 6;
  csr_matrix *scattered = csrt_from_row_lengths(ctx, n, n, len, CSR_F64, CSRT_RANDOM, rng);
  CHECK_OK(ctx, csr_spmv_choose(ctx, scattered, &c));
  CHECKF(c.kernel == CSR_KERNEL_STREAM && c.gather_lines > 0.9, "random: kernel %d, %.3f",
         (int)c.kernel, c.gather_lines);
  CHECK(strstr(c.reason, "scatter") != NULL && strstr(c.reason, "stream") != NULL);
  csr_spmv_choice again;
  CHECK_OK(ctx, csr_spmv_choose(ctx, scattered, &again)); /* kept with the statistics */
  CHECK(again.cached && again.gather_lines == c.gather_lines);
  CHECK(again.analysis_seconds == c.analysis_seconds && strcmp(again.reason, c.reason) == 0);
  for (int64_t i = 0; i < n; i++)
    len[i] = 20;
  csr_matrix *longer = csrt_from_row_lengths(ctx, n, n, len, CSR_F64, CSRT_RANDOM, rng);
  CHECK_OK(ctx, csr_spmv_choose(ctx, longer, &c)); /* no rule needs the sample */
  CHECK(c.kernel == CSR_KERNEL_STREAM && c.gather_lines == -1.0);
  free(len);
  csr_matrix_free(&stencil);
  csr_matrix_free(&scattered);
  csr_matrix_free(&longer);
  csr_context_free(&ctx);
}

int main(void) {
  csrt_rng rng = {csrt_seed("test_spmv_choice")};
  test_regular();
  test_uneven();
  test_empty_rows();
  test_longest_row();
  test_stream();
  test_forced();
  test_registry();
  test_choose(&rng);
  test_plan(&rng);
  test_gather_lines(&rng);
  return csrt_finish("test_spmv_choice");
}
