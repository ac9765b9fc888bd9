/* SPDX-License-Identifier: BSD-3-Clause */
/* The ballot rule that matches a warp's lanes by label (src/kernels/warp_match.h), on the CPU: a
 * warp of 32 lanes is simulated, the ballot of each label bit made from the lanes' labels, and
 * every lane folds csri_lanes_agreeing over the bits as the radix sort's ranking does. Its result
 * must be exactly the lanes whose label agrees with its own in the bits matched, whatever the
 * higher bits hold:
 *  - 1 to 32 bits matched; labels drawn from 1, 2, 3, 5, 32 and all values of those bits, with
 *    random higher bits, so that groups of every size occur;
 *  - labels that differ from lane 0's in one bit only, each bit in turn;
 *  - the ranking's use: the number of the lane's peers below it (its rank in its group) and the
 *    group's lowest lane, against a count of the labels. */
#include "kernels/warp_match.h"
#include "testing.h"

#include <string.h>

enum { LANES = 32 };

static uint32_t low_bits(uint32_t label, int bits) {
  return bits >= 32 ? label : label & ((1u << bits) - 1);
}

/* What a lane's fold over the ballots gives, for every lane. */
static void match_by_ballots(const uint32_t *label, int bits, uint32_t *alike) {
  uint32_t ballot[32];
  for (int b = 0; b < bits; b++) {
    ballot[b] = 0;
    for (int lane = 0; lane < LANES; lane++)
      ballot[b] |= (uint32_t)(label[lane] >> b & 1u) << lane;
  }
  for (int lane = 0; lane < LANES; lane++) {
    alike[lane] = 0xffffffffu;
    for (int b = 0; b < bits; b++)
      alike[lane] = csri_lanes_agreeing(alike[lane], ballot[b], (label[lane] >> b & 1u) != 0);
  }
}

static void check_warp(const uint32_t *label, int bits, const char *what) {
  uint32_t alike[LANES];
  match_by_ballots(label, bits, alike);
  for (int lane = 0; lane < LANES; lane++) {
    uint32_t want = 0;
    int below = 0, lowest = lane;
    for (int other = 0; other < LANES; other++)
      if (low_bits(label[other], bits) == low_bits(label[lane], bits)) {
        want |= 1u << other;
        below += other < lane;
        if (other < lowest)
          lowest = other;
      }
    CHECKF(alike[lane] == want, "%s, %d bits, lane %d: lanes %08x, want %08x", what, bits, lane,
           alike[lane], want);
    const uint32_t lanes_below = (1u << lane) - 1;
    CHECKF(__builtin_popcount(alike[lane] & lanes_below) == below,
           "%s, %d bits, lane %d: rank %d, want %d", what, bits, lane,
           __builtin_popcount(alike[lane] & lanes_below), below);
    CHECKF(((alike[lane] & lanes_below) == 0) == (lowest == lane),
           "%s, %d bits, lane %d: lowest of its group %d, want %d", what, bits, lane,
           (alike[lane] & lanes_below) == 0, lowest == lane);
  }
}

int main(void) {
  csrt_rng rng = {csrt_seed("test_warp_match")};
  uint32_t label[LANES];
  for (int bits = 1; bits <= 32; bits++) {
    const uint64_t values = bits >= 32 ? (uint64_t)1 << 32 : (uint64_t)1 << bits;
    const uint64_t kinds[] = {1, 2, 3, 5, 32, values};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
      for (int round = 0; round < 200; round++) {
        /* `kinds[k]` distinct values of the matched bits, spread over the lanes */
        uint32_t pool[32];
        for (int i = 0; i < 32; i++)
          pool[i] = (uint32_t)csrt_below(&rng, values);
        for (int lane = 0; lane < LANES; lane++) {
          const uint32_t high = bits >= 32 ? 0 : (uint32_t)csrt_next(&rng) & ~((1u << bits) - 1);
          const uint64_t pick = csrt_below(&rng, kinds[k] < 32 ? kinds[k] : 32);
          const uint32_t matched =
              kinds[k] == values ? (uint32_t)csrt_below(&rng, values) : pool[pick];
          label[lane] = high | matched;
        }
        check_warp(label, bits, "random labels");
      }
    for (int flip = 0; flip < bits; flip++) {
      const uint32_t base = (uint32_t)csrt_next(&rng);
      for (int lane = 0; lane < LANES; lane++)
        label[lane] = lane % 2 ? base ^ (1u << flip) : base;
      check_warp(label, bits, "one bit apart");
    }
  }
  memset(label, 0, sizeof label);
  check_warp(label, 9, "all equal");
  return csrt_finish("test_warp_match");
}
