/* SPDX-License-Identifier: BSD-3-Clause */
/* The arithmetic of ordered triples with their repeats taken out (src/kernels/repeats.h), on the
 * CPU, against a walk of the triples: for random sets of repeats (none, one, every other triple,
 * long runs, the first and last triples), every entry q starts at the q-th triple that is not a
 * repeat; a tile's narrowed search (between the counts of its first and last entry) agrees with
 * the search over the whole list; each triple's offset lowered by the repeats below it is the
 * number of kept triples below it, and a tile of offsets' narrowed search agrees too. */
#include "kernels/repeats.h"
#include "testing.h"

#include <stdlib.h>

/* n triples, each a repeat with chance `chance` (triple 0 never is), in runs of up to `run`. */
static int64_t make(int64_t n, double chance, int64_t run, int64_t *R, csrt_rng *rng) {
  int64_t D = 0;
  for (int64_t k = 1; k < n;) {
    if (csrt_uniform(rng, 0, 1) < chance) {
      int64_t len = 1 + (int64_t)csrt_below(rng, (uint64_t)run);
      for (; len > 0 && k < n; len--)
        R[D++] = k++;
    }
    k++;
  }
  return D;
}

static void check(int64_t n, const int64_t *R, int64_t D, int64_t tile, const char *name) {
  snprintf(csrt_case, sizeof csrt_case, "%s: n %lld, %lld repeats, tile %lld", name, (long long)n,
           (long long)D, (long long)tile);
  char *repeat = calloc((size_t)n + 1, 1);
  for (int64_t j = 0; j < D; j++)
    repeat[R[j]] = 1;
  int64_t q = 0, below = 0, ok_entries = 1, ok_offsets = 1;
  for (int64_t p = 0; p < n; p++) { /* the walk: kept triple p is entry q */
    if (csri_repeats_below(R, 0, D, p) != below)
      ok_offsets = 0;
    if (!repeat[p]) {
      if (q + csri_repeats_before_entry(R, 0, D, q) != p)
        ok_entries = 0;
      q++;
    } else {
      below++;
    }
  }
  EXPECT(q == n - D);
  EXPECT(ok_entries);
  EXPECT(ok_offsets);
  EXPECT(csri_repeats_below(R, 0, D, n) == D);
  int ok_tiles = 1;
  for (int64_t q0 = 0; q0 < n - D; q0 += tile) {
    const int64_t q1 = q0 + tile < n - D ? q0 + tile : n - D;
    const int64_t lo = csri_repeats_before_entry(R, 0, D, q0),
                  hi = csri_repeats_before_entry(R, 0, D, q1 - 1);
    for (int64_t e = q0; e < q1; e++)
      if (csri_repeats_before_entry(R, lo, hi, e) != csri_repeats_before_entry(R, 0, D, e))
        ok_tiles = 0;
  }
  EXPECT(ok_tiles);
  int ok_offset_tiles = 1; /* offsets 0 .. n in tiles, each search narrowed to its tile's ends */
  for (int64_t o0 = 0; o0 <= n; o0 += tile) {
    const int64_t o1 = o0 + tile < n + 1 ? o0 + tile : n + 1;
    const int64_t lo = csri_repeats_below(R, 0, D, o0), hi = csri_repeats_below(R, 0, D, o1 - 1);
    for (int64_t o = o0; o < o1; o++)
      if (csri_repeats_below(R, lo, hi, o) != csri_repeats_below(R, 0, D, o))
        ok_offset_tiles = 0;
  }
  EXPECT(ok_offset_tiles);
  free(repeat);
}

int main(void) {
  csrt_rng rng = {csrt_seed("test_repeats")};
  const int64_t n = 20000;
  int64_t *R = calloc((size_t)n, sizeof *R);
  check(n, R, 0, 2048, "no repeats");
  R[0] = n - 1;
  check(n, R, 1, 2048, "the last triple");
  R[0] = 1;
  check(n, R, 1, 2048, "the second triple");
  int64_t D = 0;
  for (int64_t k = 1; k < n; k += 2)
    R[D++] = k;
  check(n, R, D, 2048, "every other triple");
  D = 0;
  for (int64_t k = 1; k < n; k++)
    R[D++] = k;
  check(n, R, D, 2048, "one run of every triple");
  const struct {
    double chance;
    int64_t run;
  } mix[] = {{0.0005, 1}, {0.01, 3}, {0.2, 1}, {0.05, 40}, {0.001, 5000}};
  for (size_t m = 0; m < sizeof mix / sizeof mix[0]; m++)
    for (int64_t tile = 1; tile <= 4096; tile *= 8) {
      D = make(n, mix[m].chance, mix[m].run, R, &rng);
      check(n, R, D, tile, "random repeats");
    }
  free(R);
  return csrt_finish("test_repeats");
}
