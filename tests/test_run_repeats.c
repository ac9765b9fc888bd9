/* SPDX-License-Identifier: BSD-3-Clause */
/* Repeats taken out inside the radix sort (cuda/radix_sort_agent.cuh, pass_mode), on the CPU:
 *  - csri_run_roots (src/kernels/run_repeats.h) against a search of every earlier key, on runs of
 *    1 to CSRI_RUN_MOST keys drawn from 1 to 20 values; the places' encoding round trip;
 *  - a model of the two passes: the pass before the last, tile by tile, stages its tile by its
 *    digit, finds the runs of keys agreeing below the last digit, leaves the head (a tile's first
 *    keys continuing a run of the input's sorted bits from the tile before) and says "left" as the
 *    kernel does (a head key equal to another head key or to a key of the run before the tile; a
 *    head or a run before it of 32 keys; a run longer than CSRI_RUN_MOST; no room for a record),
 *    marks the recorded repeats and adds their values to their roots' in the run's order; the last
 *    pass drops the marked keys; when something was left, the check after the sort sums what
 *    still repeats, in order. The result must be every key once with its values summed in input
 *    order, bit for bit, against a plain left-to-right sum per key; and when nothing was left, no
 *    key may repeat after the last pass.
 *  - the rule is needed: the same model with the head marked like any other run, or with the
 *    head's equal keys not reported, gives wrong sums on inputs made for it. */
#include "kernels/run_repeats.h"
#include "testing.h"

#include <stdlib.h>
#include <string.h>

enum { WINDOW = 32 }; /* warp 0's lanes: the head and the run before it that the kernel sees */

static void check_roots(csrt_rng *rng) {
  uint64_t keys[CSRI_RUN_MOST];
  for (int trial = 0; trial < 20000; trial++) {
    const int len = 1 + (int)csrt_below(rng, CSRI_RUN_MOST);
    const uint64_t values = 1 + csrt_below(rng, 20);
    for (int m = 0; m < len; m++)
      keys[m] = csrt_below(rng, values) * 0x9e3779b97f4a7c15ull;
    uint64_t roots = ~0ull;
    const int repeats = csri_run_roots(keys, len, &roots);
    int expected = 0;
    for (int m = 0; m < len; m++) {
      int root = m;
      for (int q = m - 1; q >= 0; q--)
        if (keys[q] == keys[m])
          root = q;
      expected += root != m;
      EXPECT(csri_run_root(roots, m) == root);
    }
    EXPECT(repeats == expected);
    const int start = (int)csrt_below(rng, 1u << 16);
    const uint32_t place = csri_run_place(start, len);
    EXPECT(csri_run_start(place) == start && csri_run_length(place) == len);
  }
}

/* --- the model ------------------------------------------------------------------------------ */

typedef struct {
  uint64_t key;
  double value;
  int marked;
} item;

typedef struct {
  int low_shift, digit_bits, key_bits; /* the pass before the last: input sorted below low_shift */
  int tile, records;                   /* tile size, records a tile has room for */
  int mark_head, report_head;          /* the rule (1, 1), or one half of it broken (mutations) */
} model;

static uint64_t below(uint64_t key, int bits) {
  return key & ((1ull << bits) - 1);
}

/* Stable counting sort of x[0..n) by bits [shift, shift + bits), into y. */
static void stable_by(const item *x, item *y, int64_t n, int shift, int bits) {
  const int64_t digits = (int64_t)1 << bits;
  int64_t *start = calloc((size_t)digits + 1, sizeof *start);
  for (int64_t i = 0; i < n; i++)
    start[((x[i].key >> shift) & (uint64_t)(digits - 1)) + 1]++;
  for (int64_t d = 0; d < digits; d++)
    start[d + 1] += start[d];
  for (int64_t i = 0; i < n; i++)
    y[start[(x[i].key >> shift) & (uint64_t)(digits - 1)]++] = x[i];
  free(start);
}

/* The pass before the last over x (sorted below low_shift), tile by tile, its staged tiles to
 * out (the kernel reads its input, the keys before a tile included, unchanged): marks and sums;
 * returns whether anything was left. */
static int mark_pass(const model *M, const item *x, item *out, int64_t n) {
  const int s = M->low_shift, low = M->low_shift + M->digit_bits;
  int left = 0;
  item *staged = malloc((size_t)M->tile * sizeof *staged);
  for (int64_t base = 0; base < n; base += M->tile) {
    const int tn = (int)(n - base < M->tile ? n - base : M->tile);
    /* the head, as warp 0 sees it */
    int head_on = 0;
    uint64_t head_low = 0;
    if (base > 0 && below(x[base].key, s) == below(x[base - 1].key, s)) {
      head_on = 1;
      head_low = below(x[base - 1].key, s);
      int head_n = 0, before_n = 0;
      while (head_n < WINDOW && head_n < tn && below(x[base + head_n].key, s) == head_low)
        head_n++;
      while (before_n < WINDOW && base - 1 - before_n >= 0 &&
             below(x[base - 1 - before_n].key, s) == head_low)
        before_n++;
      int equal = 0;
      for (int l = 0; l < head_n; l++) {
        for (int j = 0; j < l; j++)
          equal |= x[base + l].key == x[base + j].key;
        for (int j = 1; j <= before_n; j++)
          equal |= x[base + l].key == x[base - j].key;
      }
      if (M->report_head && (equal || head_n == WINDOW || before_n == WINDOW))
        left = 1;
      if (M->mark_head)
        head_on = 0;
    }
    /* staged by the pass's digit, stable: sorted below `low` */
    stable_by(x + base, staged, tn, s, M->digit_bits);
    int records = 0;
    for (int i = 0; i + 1 < tn; i++) {
      const uint64_t k = below(staged[i].key, low);
      if (below(staged[i + 1].key, low) != k || (i > 0 && below(staged[i - 1].key, low) == k))
        continue;
      if (head_on && below(staged[i].key, s) == head_low)
        continue;
      int len = 2;
      while (len <= CSRI_RUN_MOST && i + len < tn && below(staged[i + len].key, low) == k)
        len++;
      if (len > CSRI_RUN_MOST) {
        left = 1;
        continue;
      }
      uint64_t keys[CSRI_RUN_MOST], roots;
      for (int m = 0; m < len; m++)
        keys[m] = staged[i + m].key;
      if (csri_run_roots(keys, len, &roots) == 0)
        continue;
      if (records++ >= M->records) {
        left = 1;
        continue;
      }
      for (int m = 1; m < len; m++) {
        const int root = csri_run_root(roots, m);
        if (root != m) {
          staged[i + m].marked = 1;
          staged[i + root].value += staged[i + m].value;
        }
      }
    }
    /* the pass writes by digit across tiles; kept in tile order here, sorted globally below */
    memcpy(out + base, staged, (size_t)tn * sizeof *staged);
  }
  free(staged);
  return left;
}

static int by_key(const void *a, const void *b) {
  const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* One input through the model; returns the number of keys whose sum differs from the reference
 * (or that are missing or extra), plus one if something still repeats after the last pass though
 * nothing was left (the fast path would then keep the repeats); and *left. */
static int64_t run_model(const model *M, const uint64_t *keys, const double *values, int64_t n,
                         int *left) {
  item *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
  for (int64_t i = 0; i < n; i++)
    x[i] = (item){keys[i], values[i], 0};
  stable_by(x, y, n, 0, M->low_shift); /* the passes before: sorted below low_shift */
  *left = mark_pass(M, y, x, n);
  /* the last two passes' order: by the digit, then by the last digit, dropping the marked */
  stable_by(x, y, n, M->low_shift, M->digit_bits);
  memcpy(x, y, (size_t)n * sizeof *x);
  int64_t kept = 0;
  for (int64_t i = 0; i < n; i++)
    if (!x[i].marked)
      y[kept++] = x[i];
  const int low = M->low_shift + M->digit_bits;
  stable_by(y, x, kept, low, M->key_bits - low);
  /* the check after the sort: what still repeats is summed in order */
  int64_t out = 0, adjacent = 0;
  for (int64_t i = 0; i < kept; i++) {
    if (out > 0 && x[out - 1].key == x[i].key) {
      x[out - 1].value += x[i].value;
      adjacent++;
    } else
      x[out++] = x[i];
  }
  /* the reference: each distinct key's values summed left to right in input order */
  uint64_t *distinct = malloc((size_t)n * sizeof *distinct);
  memcpy(distinct, keys, (size_t)n * sizeof *distinct);
  qsort(distinct, (size_t)n, sizeof *distinct, by_key);
  int64_t d = 0;
  for (int64_t i = 0; i < n; i++)
    if (i == 0 || distinct[i] != distinct[i - 1])
      distinct[d++] = distinct[i];
  int64_t wrong = (d == out ? 0 : 1 + (d > out ? d - out : out - d)) + (!*left && adjacent > 0);
  for (int64_t j = 0; j < d && j < out; j++) {
    double sum = 0;
    int first = 1;
    for (int64_t i = 0; i < n; i++)
      if (keys[i] == distinct[j]) {
        sum = first ? values[i] : sum + values[i];
        first = 0;
      }
    wrong += x[j].key != distinct[j] || memcmp(&x[j].value, &sum, sizeof sum) != 0;
  }
  free(distinct);
  free(x);
  free(y);
  return wrong;
}

/* Inputs: keys of 20 bits (a 10-bit row above a 10-bit column); the pass before the last sorts
 * bits 8-13 of keys sorted below bit 8, the last pass bits 14-19. */
enum { SHAPES = 5 };
static const char *const shape_names[SHAPES] = {"pool", "long input runs", "long staged runs",
                                                "sparse", "groups across tiles"};

static void make_input(csrt_rng *rng, int shape, int64_t n, uint64_t *keys, double *values) {
  for (int64_t i = 0; i < n; i++) {
    uint64_t k;
    switch (shape) {
    case 0: /* a pool of n / 3 keys: most repeat, runs of a few */
      k = (csrt_below(rng, (uint64_t)n / 3) * 2654435761u) & 0xfffff;
      break;
    case 1: /* few values below bit 8: runs of the input's sorted bits cross many tiles */
      k = csrt_below(rng, 3) | csrt_below(rng, 64) << 8 | csrt_below(rng, 4) << 14;
      break;
    case 2: /* few values below bit 14: staged runs longer than a pass examines */
      k = csrt_below(rng, 2) | csrt_below(rng, 2) << 8 | csrt_below(rng, 64) << 14;
      break;
    case 3: /* spread over all 2^20 keys: few repeats */ k = csrt_below(rng, 1u << 20); break;
    default: /* runs of 1 to 40 keys of one value below bit 8, each run's keys from a few */
      k = 0;
      break;
    }
    keys[i] = k;
    values[i] = csrt_uniform(rng, -1, 1);
  }
  if (shape == 4) /* runs placed one after another: in input order they straddle tiles */
    for (int64_t i = 0; i < n;) {
      const int64_t len = 1 + (int64_t)csrt_below(rng, 40);
      const uint64_t low = csrt_below(rng, 256);
      for (int64_t j = i; j < i + len && j < n; j++)
        keys[j] = low | csrt_below(rng, 3) << 8 | csrt_below(rng, 2) << 14;
      i += len;
    }
}

static void check_model(csrt_rng *rng) {
  const model rule = {8, 6, 20, 97, 6, 0, 1};
  const model marked_head = {8, 6, 20, 97, 6, 1, 1};
  const model unreported_head = {8, 6, 20, 97, 6, 0, 0};
  const int64_t n = 3000;
  uint64_t *keys = malloc((size_t)n * sizeof *keys);
  double *values = malloc((size_t)n * sizeof *values);
  int64_t broken[2] = {0, 0};
  for (int shape = 0; shape < SHAPES; shape++) {
    int lefts = 0;
    for (int trial = 0; trial < 12; trial++) {
      make_input(rng, shape, n, keys, values);
      int left = 0;
      snprintf(csrt_case, sizeof csrt_case, "model, %s, trial %d", shape_names[shape], trial);
      EXPECT(run_model(&rule, keys, values, n, &left) == 0);
      lefts += left;
      int ignored;
      broken[0] += run_model(&marked_head, keys, values, n, &ignored);
      broken[1] += run_model(&unreported_head, keys, values, n, &ignored);
    }
    /* the common case mostly takes the fast path: spread keys leave something only where a
     * repeat's two keys fall in different tiles (here tiles of 97 keys: 4 trials of 12 with this
     * seed; tiles of 6144, as on the GPU, make that rarer still) */
    if (shape == 3)
      CHECKF(lefts <= 6, "%d of 12 trials left repeats", lefts);
  }
  snprintf(csrt_case, sizeof csrt_case, "model, mutations");
  EXPECT(broken[0] > 0); /* marking the head sums groups out of order */
  EXPECT(broken[1] > 0); /* not reporting it leaves repeats after the last pass unsaid */
  free(keys);
  free(values);
}

int main(void) {
  csrt_rng rng = {csrt_seed("test_run_repeats")};
  check_roots(&rng);
  check_model(&rng);
  return csrt_finish("test_run_repeats");
}
