/* SPDX-License-Identifier: BSD-3-Clause */
/* The conclusions of the device check of given COO triples (csri_order_check4 of
 * src/kernels/coo_order.h, which the kernel calls), on the CPU, on groups formed as the check
 * forms them, against a walk of the triples. Groups of 4 consecutive
 * triples, each against the triple before it: the halo before triple 0; past the end of T the
 * filler, and before a group whose predecessor lies past the end either the filler (a lane whose
 * neighbour's group ran past the end) or the halo (lane 0, whose load of it was skipped); one
 * whole group past the end, as a tile's idle lanes have. What the check must conclude:
 *   - the order breaks exactly where the walk finds a triple below the one before it, never at
 *     the filler: for triples inside the matrix, and for rows in [0, INT32_MAX) whatever the
 *     columns (a triple outside may wrap its difference only with a negative or INT32_MAX row);
 *   - the repeats and the rows' first triples are the walk's, and no bit is set for the filler;
 *   - the triples outside the matrix are the walk's, so the first of them is too;
 * over extents from 1 to CSR_MAX_DIM, indices at both ends of them, in order with repeats, with
 * one step back anywhere (across groups and at the last triple), shuffled, and with bad triples
 * (-1, INT32_MIN, INT32_MAX, one past the end) anywhere. */
#include "kernels/coo_order.h"
#include "testing.h"

#include <stdlib.h>

typedef struct {
  int32_t r, c;
} triple;

/* What the check concludes about T: the conclusions the walk is compared with. */
typedef struct {
  int back;            /* some group's signs say the order breaks */
  int64_t first_bad;   /* the first triple outside, or -1 */
  int filler_bits;     /* some bit set for a triple past the end (the check must mask them) */
  unsigned char *bits; /* per triple: 1 repeat, 2 row start, 4 outside */
} verdict;

/* The check's conclusions over T as the device groups it; `lane0` picks the halo (not the filler)
 * before a group whose predecessor is past the end. */
static void check_groups(const triple *T, int64_t n, int64_t rows, int64_t cols, int lane0,
                         verdict *v) {
  const uint32_t row_end = csri_order_end(rows), col_end = csri_order_end(cols);
  v->back = v->filler_bits = 0;
  v->first_bad = -1;
  const int64_t groups = (n + 3) / 4 + 1; /* and one whole group past the end */
  for (int64_t g = 0; g < groups; g++) {
    const int64_t k = 4 * g;
    int32_t a[4], b[4], pr[4], pc[4];
    for (int e = 0; e < 4; e++) {
      a[e] = k + e < n ? T[k + e].r : CSRI_ORDER_PAST;
      b[e] = k + e < n ? T[k + e].c : CSRI_ORDER_PAST;
    }
    if (k == 0 || (k - 1 >= n && lane0))
      pr[0] = pc[0] = CSRI_ORDER_HALO;
    else if (k - 1 >= n)
      pr[0] = pc[0] = CSRI_ORDER_PAST;
    else
      pr[0] = T[k - 1].r, pc[0] = T[k - 1].c;
    for (int e = 1; e < 4; e++)
      pr[e] = a[e - 1], pc[e] = b[e - 1];
    const int in = k >= n ? 0 : n - k < 4 ? (int)(n - k) : 4;
    const csri_order_verdict found =
        csri_order_check4(a, b, pr, pc, row_end, col_end, (1u << in) - 1u);
    v->back |= found.breaks;
    v->filler_bits |= ((found.repeats | found.starts | found.outside) >> in) != 0;
    for (int e = 0; e < 4 && v->first_bad < 0; e++)
      if ((found.outside >> e) & 1u)
        v->first_bad = k + e;
    for (int e = 0; e < in; e++)
      v->bits[k + e] =
          (unsigned char)(((found.repeats >> e) & 1u) | ((found.starts >> e) & 1u) << 1 |
                          ((found.outside >> e) & 1u) << 2);
  }
}

/* (row, column) read as (signed, unsigned): the order the check's keys give. */
static int below(triple x, triple y) {
  return x.r != y.r ? x.r < y.r : (uint32_t)x.c < (uint32_t)y.c;
}

/* The walk: each triple against the one before it, the halo before triple 0. */
static void walk(const triple *T, int64_t n, int64_t rows, int64_t cols, verdict *v,
                 int *exact_order) {
  v->back = 0;
  v->first_bad = -1;
  *exact_order = 1;
  triple before = {-1, -1};
  for (int64_t k = 0; k < n; k++) {
    const triple t = T[k];
    const int outside = t.r < 0 || t.r >= rows || t.c < 0 || t.c >= cols;
    if (outside && v->first_bad < 0)
      v->first_bad = k;
    if (t.r < 0 || t.r == INT32_MAX)
      *exact_order = 0; /* may wrap its difference: only its report stands */
    v->back |= below(t, before);
    v->bits[k] = (unsigned char)((t.r == before.r && t.c == before.c) | (t.r != before.r) << 1 |
                                 outside << 2);
    before = t;
  }
}

static void compare(const triple *T, int64_t n, int64_t rows, int64_t cols, const char *name) {
  verdict want = {0, -1, 0, calloc((size_t)n + 1, 1)}, got = {0, -1, 0, calloc((size_t)n + 1, 1)};
  int exact_order = 1;
  walk(T, n, rows, cols, &want, &exact_order);
  for (int lane0 = 0; lane0 < 2; lane0++) {
    snprintf(csrt_case, sizeof csrt_case, "%s: n %lld, %lld x %lld, %s", name, (long long)n,
             (long long)rows, (long long)cols, lane0 ? "halo past the end" : "filler past the end");
    check_groups(T, n, rows, cols, lane0, &got);
    int64_t first_diff = -1;
    for (int64_t k = 0; k < n && first_diff < 0; k++)
      if (got.bits[k] != want.bits[k])
        first_diff = k;
    EXPECT(first_diff < 0); /* repeats, row starts and bad triples, triple by triple */
    EXPECT(got.first_bad == want.first_bad);
    EXPECT(!got.filler_bits);
    if (exact_order) /* every input inside the matrix among them: the filler and the halo */
      EXPECT(got.back == want.back); /* never read as a break */
  }
  free(want.bits);
  free(got.bits);
}

static int cmp_triple(const void *x, const void *y) {
  const triple *a = x, *b = y;
  return below(*a, *b) ? -1 : below(*b, *a) ? 1 : 0;
}

/* An index in [0, extent): near either end, or anywhere, so differences span the whole range. */
static int32_t index_in(int64_t extent, csrt_rng *rng) {
  const uint64_t pick = csrt_below(rng, 4), span = (uint64_t)extent;
  const uint64_t near = csrt_below(rng, span < 3 ? span : 3);
  return (int32_t)(pick == 0 ? near : pick == 1 ? span - 1 - near : csrt_below(rng, span));
}

/* n triples inside rows x cols, in order, about one in `repeat_every` a repeat of the one before.
 */
static void ordered(triple *T, int64_t n, int64_t rows, int64_t cols, int repeat_every,
                    csrt_rng *rng) {
  for (int64_t k = 0; k < n; k++) {
    T[k].r = index_in(rows, rng);
    T[k].c = index_in(cols, rng);
  }
  qsort(T, (size_t)n, sizeof *T, cmp_triple);
  for (int64_t k = 1; k < n; k++)
    if (csrt_below(rng, (uint64_t)repeat_every) == 0)
      T[k] = T[k - 1];
}

int main(void) {
  csrt_rng rng = {csrt_seed("test_coo_order")};

  /* The bounds as unsigned limits. */
  EXPECT(csri_order_end(0) == 0u);
  EXPECT(csri_order_end(7) == 7u);
  EXPECT(csri_order_end(CSR_MAX_DIM) == 0x7fffffffu);
  EXPECT(csri_order_end(CSR_MAX_DIM + 1) == 0x80000000u);
  EXPECT(csri_order_end(INT64_C(1) << 40) == 0x80000000u);
  /* The keys: signed rows, unsigned columns; the halo below (0, 0), the filler above the last
   * row and column of the largest matrix. */
  const triple halo = {CSRI_ORDER_HALO, CSRI_ORDER_HALO}, past = {CSRI_ORDER_PAST, CSRI_ORDER_PAST};
  EXPECT(below(halo, (triple){0, 0}));
  EXPECT(below((triple){(int32_t)CSR_MAX_DIM - 1, (int32_t)CSR_MAX_DIM - 1}, past));

  const int64_t extents[] = {1, 2, 3, 7, 1000, INT64_C(1) << 20, CSR_MAX_DIM};
  const int ne = (int)(sizeof extents / sizeof extents[0]);
  enum { MAX_N = 3000 };
  triple *T = calloc(MAX_N, sizeof *T);
  for (int ir = 0; ir < ne; ir++)
    for (int ic = 0; ic < ne; ic++) {
      const int64_t rows = extents[ir], cols = extents[ic];
      for (int64_t n = 0; n <= 70; n++) {
        ordered(T, n, rows, cols, 1 + (int)(n % 5), &rng);
        compare(T, n, rows, cols, "in order");
        for (int64_t k = 1; k < n; k++) { /* one step back at k, where there is one to take */
          if (!below(T[k - 1], T[k]))
            continue;
          const triple t = T[k];
          T[k] = T[k - 1], T[k - 1] = t;
          compare(T, n, rows, cols, "one step back");
          T[k - 1] = T[k], T[k] = t;
        }
        /* a bad row or column at k: the extents are at most CSR_MAX_DIM = INT32_MAX */
        const int32_t bad_rows[] = {-1, INT32_MIN, INT32_MAX, (int32_t)rows},
                      bad_cols[] = {-1, INT32_MIN, INT32_MAX, (int32_t)cols};
        for (int64_t k = 0; k < n; k++) {
          const triple t = T[k];
          for (int which = 0; which < 4; which++) {
            T[k].r = bad_rows[which];
            compare(T, n, rows, cols, "a bad row");
            T[k] = t;
            T[k].c = bad_cols[which];
            compare(T, n, rows, cols, "a bad column");
            T[k] = t;
          }
        }
      }
      for (int round = 0; round < 3; round++) { /* longer, in order, then shuffled */
        const int64_t n = 71 + (int64_t)csrt_below(&rng, MAX_N - 71);
        ordered(T, n, rows, cols, 2 + round * 50, &rng);
        compare(T, n, rows, cols, "long, in order");
        for (int64_t k = n - 1; k > 0; k--) {
          const int64_t j = (int64_t)csrt_below(&rng, (uint64_t)k + 1);
          const triple t = T[k];
          T[k] = T[j], T[j] = t;
        }
        compare(T, n, rows, cols, "long, shuffled");
      }
    }
  /* Triple 0 equal to the halo, and a triple of the filler inside the data: outside either way,
   * reported as such. */
  T[0] = halo;
  T[1] = (triple){0, 0};
  compare(T, 2, 5, 5, "triple 0 is the halo");
  T[0] = (triple){1, 1};
  T[1] = past;
  T[2] = past;
  compare(T, 3, 5, 5, "the filler inside the data");
  free(T);
  return csrt_finish("test_coo_order");
}
