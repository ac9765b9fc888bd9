/* SPDX-License-Identifier: BSD-3-Clause */
/* PageRank's layout arithmetic on the GPU (src/kernels/pagerank_plan.h), on the CPU: which form
 * an iteration takes, and the page's links taken back from 1 / out-weight, which the split update
 * pass reads in place of it: exact for every count tried (all up to 2^20, the powers of two and
 * their neighbours up to 2^31 - 1, and a million random counts), and 1 / d of them the same bits
 * as the out-weight pass's. */
#include "kernels/pagerank_plan.h"
#include "testing.h"

static csrt_rng rng;

static void check_count(int64_t d) {
  const double inv_w = 1.0 / (double)d;
  const int32_t links = csri_pagerank_links(inv_w);
  CHECKF(links == d && 1.0 / (double)links == inv_w, "%lld links came back as %d", (long long)d,
         links);
}

static void test_links(void) {
  CHECK(csri_pagerank_links(0.0) == 0);
  for (int64_t d = 1; d <= (1 << 20); d++)
    check_count(d);
  for (int b = 1; b <= 31; b++)
    for (int64_t d = ((int64_t)1 << b) - 2; d <= ((int64_t)1 << b) + 2; d++)
      if (d >= 1 && d <= INT32_MAX)
        check_count(d);
  for (int k = 0; k < 1000000; k++)
    check_count(1 + (int64_t)csrt_below(&rng, INT32_MAX));
}

static void test_split(void) {
  CHECK(!csri_pagerank_split(0, 0));
  CHECK(!csri_pagerank_split(10, 10 * CSRI_PAGERANK_SPLIT_LINKS - 1));
  CHECK(csri_pagerank_split(10, 10 * CSRI_PAGERANK_SPLIT_LINKS));
  CHECK(csri_pagerank_split(1, (int64_t)1 << 40));
}

int main(void) {
  rng.state = csrt_seed("test_pagerank_plan");
  test_links();
  test_split();
  return csrt_finish("test_pagerank_plan");
}
