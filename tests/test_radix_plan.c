/* SPDX-License-Identifier: BSD-3-Clause */
/* The radix sort's digit plan (src/kernels/radix_plan.h), on the CPU, for every bit range of a
 * 64-bit key and the digit widths the device sort uses (cuda/tuning.cuh) and others:
 *  - the passes cover [begin, end) once, in order, lowest bits first, none empty, none wider than
 *    the wide digits, none wider than narrow unless that saves a pass;
 *  - as few passes as either width alone gives; wide digits spread evenly (widths differ by at
 *    most one, wider first); narrow passes all full but the last;
 *  - the cases the documentation names (44 bits: 9 9 9 9 8; 40 bits: 8 x 5);
 *  - a plan made two passes or more: longer plans unchanged, one pass split into two that cover
 *    its bits in order (a pass of no bits at shift 0);
 *  - the buffers the passes move between: each pass reads what the one before wrote and never
 *    writes what it reads; the last writes the caller's arrays (buffer 0), except an in-place sort
 *    of an odd count without a third buffer, which ends in buffer 1; buffer 2 only with a third
 *    buffer, which is wanted for odd counts of three or more. */
#include "kernels/radix_plan.h"
#include "testing.h"

#include "../cuda/tuning.cuh" /* the device sort's digit widths */

static void check_plan(int begin, int end, int narrow, int wide) {
  const csri_radix_plan plan = csri_radix_plan_for(begin, end, narrow, wide);
  const int width = end - begin;
  const int narrow_passes = (width + narrow - 1) / narrow, wide_passes = (width + wide - 1) / wide;
  const int fewest = wide_passes < narrow_passes ? wide_passes : narrow_passes;
  CHECKF(plan.passes == fewest, "[%d, %d) in %d/%d-bit digits: %d passes, want %d", begin, end,
         narrow, wide, plan.passes, fewest);
  CHECK(plan.passes <= CSRI_RADIX_MOST_PASSES);
  int shift = begin, widest = 0, narrowest = 64;
  for (int p = 0; p < plan.passes && p < CSRI_RADIX_MOST_PASSES; p++) {
    CHECKF(plan.shift[p] == shift && plan.bits[p] >= 1 && plan.bits[p] <= wide,
           "[%d, %d) in %d/%d-bit digits: pass %d takes %d bits at %d (want at %d)", begin, end,
           narrow, wide, p, plan.bits[p], plan.shift[p], shift);
    if (p > 0)
      CHECKF(plan.bits[p] <= plan.bits[p - 1], "[%d, %d): pass %d is wider than the one before",
             begin, end, p);
    if (wide_passes >= narrow_passes && p < plan.passes - 1) /* narrow digits: full but the last */
      CHECKF(plan.bits[p] == narrow, "[%d, %d) in %d/%d-bit digits: pass %d takes %d bits", begin,
             end, narrow, wide, p, plan.bits[p]);
    widest = plan.bits[p] > widest ? plan.bits[p] : widest;
    narrowest = plan.bits[p] < narrowest ? plan.bits[p] : narrowest;
    shift += plan.bits[p];
  }
  CHECKF(shift == end, "[%d, %d) in %d/%d-bit digits: the passes end at bit %d", begin, end, narrow,
         wide, shift);
  if (widest > narrow) /* wide digits only when they save a pass, and then spread evenly */
    CHECKF(wide_passes < narrow_passes && widest - narrowest <= 1,
           "[%d, %d) in %d/%d-bit digits: %d to %d bits a pass", begin, end, narrow, wide,
           narrowest, widest);
}

/* csri_radix_plan_two_or_more of the plan for [begin, end). */
static void check_two_or_more(int begin, int end, int narrow, int wide) {
  const csri_radix_plan plan = csri_radix_plan_for(begin, end, narrow, wide);
  const csri_radix_plan two = csri_radix_plan_two_or_more(plan);
  if (plan.passes >= 2) {
    CHECK(two.passes == plan.passes);
    for (int p = 0; p < plan.passes; p++)
      CHECK(two.shift[p] == plan.shift[p] && two.bits[p] == plan.bits[p]);
    return;
  }
  CHECKF(two.passes == 2, "[%d, %d): %d passes made two or more: %d", begin, end, plan.passes,
         two.passes);
  int shift = begin;
  for (int p = 0; p < 2; p++) {
    if (two.bits[p] == 0) {
      CHECKF(two.shift[p] == 0, "[%d, %d): pass %d of no bits at %d", begin, end, p, two.shift[p]);
      continue;
    }
    CHECKF(two.shift[p] == shift, "[%d, %d): pass %d at %d, want %d", begin, end, p, two.shift[p],
           shift);
    shift += two.bits[p];
  }
  CHECKF(shift == end, "[%d, %d) split in two ends at %d", begin, end, shift);
  CHECK(two.bits[0] >= two.bits[1] && two.bits[0] - two.bits[1] <= 1);
}

/* The buffers of a sort of `passes` passes, in place or not, with a third buffer or not. */
static void check_buffers(int passes, int in_place, int third) {
  int reads = in_place ? 0 : -1; /* the caller's arrays, or the input elsewhere */
  for (int p = 0; p < passes; p++) {
    const int writes = csri_radix_pass_writes(passes, in_place, third, p);
    CHECKF(writes >= 0 && writes <= (third ? 2 : 1) && writes != reads,
           "%d passes (in place %d, third %d): pass %d reads %d, writes %d", passes, in_place,
           third, p, reads, writes);
    reads = writes;
  }
  const int last = in_place && !third && passes % 2 == 1 ? 1 : 0;
  CHECKF(reads == last, "%d passes (in place %d, third %d) end in buffer %d", passes, in_place,
         third, reads);
}

int main(void) {
  const int widths[][2] = {
      {CSRI_RADIX_BITS, CSRI_RADIX_WIDE_BITS}, {8, 8}, {8, 9}, {8, 10}, {8, 11}, {4, 5}, {2, 3}};
  for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++)
    for (int begin = 0; begin <= 64; begin++)
      for (int end = begin; end <= 64; end++)
        if ((end - begin + widths[w][0] - 1) / widths[w][0] <= CSRI_RADIX_MOST_PASSES)
          check_plan(begin, end, widths[w][0], widths[w][1]);
  for (int begin = 0; begin <= 64; begin++)
    for (int end = begin; end <= 64 && end - begin <= 2 * CSRI_RADIX_WIDE_BITS; end++)
      check_two_or_more(begin, end, CSRI_RADIX_BITS, CSRI_RADIX_WIDE_BITS);

  for (int passes = 1; passes <= CSRI_RADIX_MOST_PASSES; passes++) {
    const int third = csri_radix_wants_third_buffer(passes);
    CHECKF(third == (passes >= 3 && passes % 2 == 1), "%d passes: third buffer %d", passes, third);
    check_buffers(passes, 1, third);
    check_buffers(passes, 1, 0);
    check_buffers(passes, 0, 0);
  }

  csri_radix_plan p = csri_radix_plan_for(0, 44, 8, 9);
  CHECK(p.passes == 5 && p.bits[0] == 9 && p.bits[3] == 9 && p.bits[4] == 8 && p.shift[4] == 36);
  p = csri_radix_plan_for(0, 40, 8, 9);
  CHECK(p.passes == 5 && p.bits[0] == 8 && p.bits[4] == 8);
  p = csri_radix_plan_for(3, 12, 8, 9);
  CHECK(p.passes == 1 && p.bits[0] == 9 && p.shift[0] == 3);
  p = csri_radix_plan_for(5, 5, 8, 9);
  CHECK(p.passes == 0);
  p = csri_radix_plan_for(0, 64, 8, 9);
  CHECK(p.passes == 8 && p.bits[7] == 8);
  p = csri_radix_plan_two_or_more(csri_radix_plan_for(3, 12, 8, 9));
  CHECK(p.passes == 2 && p.shift[0] == 3 && p.bits[0] == 5 && p.shift[1] == 8 && p.bits[1] == 4);
  p = csri_radix_plan_two_or_more(csri_radix_plan_for(64, 64, 8, 9));
  CHECK(p.passes == 2 && p.bits[0] == 0 && p.bits[1] == 0 && p.shift[0] == 0 && p.shift[1] == 0);
  return csrt_finish("test_radix_plan");
}
