/* SPDX-License-Identifier: BSD-3-Clause */
/* The digits of an LSD radix sort over key bits [begin, end): how many passes, and each pass's
 * shift and width, in one definition for C and CUDA so that the CPU tests check the GPU's plan.
 * Internal.
 *
 * Passes of `narrow` bits (the last one takes what is left) unless digits of up to `wide` bits
 * take fewer passes; then the bits are spread evenly over that many passes, the wider ones first.
 * A pass costs about the same whether its digits have 8 or 9 bits, so 44-bit keys (a 22-bit row
 * above a 22-bit column) sort in 5 passes of 9, 9, 9, 9 and 8 bits instead of 6 of 8, while
 * 40-bit keys keep 5 passes of 8. */
#ifndef CSR_KERNELS_RADIX_PLAN_H
#define CSR_KERNELS_RADIX_PLAN_H

#include "kernels/host_device.h"

/* The most passes a plan has: 64-bit keys in 8-bit digits. */
#define CSRI_RADIX_MOST_PASSES 8

typedef struct {
  int passes;
  int shift[CSRI_RADIX_MOST_PASSES], bits[CSRI_RADIX_MOST_PASSES];
} csri_radix_plan;

/* The plan for bits [begin, end) of a key (0 <= begin <= end <= 64), narrow >= 1 and
 * wide >= narrow; no bits: no passes. */
CSRI_HD csri_radix_plan csri_radix_plan_for(int begin, int end, int narrow, int wide) {
  csri_radix_plan plan;
  const int width = end - begin;
  const int narrow_passes = (width + narrow - 1) / narrow, wide_passes = (width + wide - 1) / wide;
  plan.passes = wide_passes < narrow_passes ? wide_passes : narrow_passes;
  int shift = begin;
  for (int p = 0; p < CSRI_RADIX_MOST_PASSES; p++) {
    int bits = 0;
    if (p < plan.passes && wide_passes < narrow_passes) /* even: width / passes, or one more */
      bits = width / plan.passes + (p < width % plan.passes ? 1 : 0);
    else if (p < plan.passes)
      bits = end - shift < narrow ? end - shift : narrow;
    plan.shift[p] = shift;
    plan.bits[p] = bits;
    shift += bits;
  }
  return plan;
}

/* The plan with at least two passes: one pass split into two of half its bits each (the first
 * one wider), no pass into two passes of no bits (every digit 0, at shift 0). For a sort whose
 * last pass writes somewhere of its own while the first reads through a reader of its own: they
 * are then never one kernel. */
CSRI_HD csri_radix_plan csri_radix_plan_two_or_more(csri_radix_plan plan) {
  if (plan.passes >= 2)
    return plan;
  const int bits = plan.passes == 1 ? plan.bits[0] : 0,
            shift = plan.passes == 1 ? plan.shift[0] : 0;
  plan.passes = 2;
  plan.bits[0] = bits - bits / 2;
  plan.bits[1] = bits / 2;
  plan.shift[0] = bits == 0 ? 0 : shift;
  plan.shift[1] = bits / 2 == 0 ? 0 : shift + plan.bits[0];
  return plan;
}

/* The buffers a sort's passes move the keys (and values) between: 0 the caller's arrays, 1 and 2
 * the workspace's. A pass cannot write what it reads, so an in-place sort alternates: 0 -> 1 ->
 * 0 -> ..., which ends in the caller's arrays after an even number of passes and in buffer 1,
 * one copy away, after an odd one. With three passes or more and a third buffer, an odd count
 * ends in the caller's arrays too: 0 -> 1 -> 2 -> 1 -> ... -> 2 -> 0 (what CUB's SortPairs does,
 * for the price of a third copy of the keys and values in the workspace). */
CSRI_HD int csri_radix_wants_third_buffer(int passes) {
  return passes >= 3 && passes % 2 == 1;
}

/* Where pass p of `passes` writes. in_place: pass 0 reads buffer 0 and each later pass what the
 * one before wrote, as above (third: the workspace has buffer 2, for an odd count of three or
 * more). Otherwise the first pass reads the input from elsewhere and the passes alternate
 * between 0 and 1 so that the last writes buffer 0. */
CSRI_HD int csri_radix_pass_writes(int passes, int in_place, int third, int p) {
  if (!in_place)
    return (passes - 1 - p) & 1;
  if (!third)
    return (p + 1) & 1;
  return p == passes - 1 ? 0 : p % 2 == 0 ? 1 : 2;
}

#endif
