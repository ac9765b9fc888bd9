/* SPDX-License-Identifier: BSD-3-Clause */
/* The library's one clock: what an operation reports of its own stages (the SpMV choice's cost,
 * PageRank's set-up and iterations). */
#include "core/internal.h"

#include <time.h>

double csri_seconds_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
