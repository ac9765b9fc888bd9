/* SPDX-License-Identifier: BSD-3-Clause */
/* Matching a warp's lanes by label, one ballot per label bit: a lane keeps, for each bit, the
 * ballot of that bit (the lanes whose bit is set) if its own bit is set, else the ballot's
 * complement; what it keeps of every bit is the lanes whose label agrees with its own. The radix
 * sort's ranking (cuda/radix_sort_agent.cuh) gives it the ballots of __ballot_sync;
 * tests/test_warp_match.c gives it ballots made on the CPU. Internal. */
#ifndef CSR_KERNELS_WARP_MATCH_H
#define CSR_KERNELS_WARP_MATCH_H

#include "kernels/host_device.h"

#include <stdbool.h>
#include <stdint.h>

/* Of the lanes in `alike`, those that agree with this lane on one bit of their labels, given
 * the ballot of that bit (the lanes whose bit is set) and this lane's bit. Starting from all
 * lanes, one call per bit leaves the lanes whose label agrees with this lane's on every bit. */
CSRI_HD uint32_t csri_lanes_agreeing(uint32_t alike, uint32_t lanes_set, bool set) {
  return alike & (set ? lanes_set : ~lanes_set);
}

#endif
