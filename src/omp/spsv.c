/* SPDX-License-Identifier: BSD-3-Clause */
/* The triangular solve, level-scheduled: the rows of one level depend only on rows of earlier
 * levels, so a level's rows are split over the threads, with a barrier before the next level.
 * Each row is computed by the shared kernel (src/kernels/spsv_rows.c) from x entries that are
 * final when it runs, so the result does not depend on which thread solves which row: the same
 * bits as the reference backend's substitution, for every thread count. */
#include "kernels/rows.h"
#include "omp/omp.h"

#ifdef _OPENMP
#include <omp.h>
#endif

/* A level whose work (rows + entries) is below this runs on one thread, together with the small
 * levels that follow it, with no barrier between them. A barrier across the threads costs about
 * a microsecond or more; a unit of row work (an indexed load and a multiply-add) a nanosecond or
 * so, so a level below 4096 units (a few microseconds on one core) would spend about as much at
 * its barrier as splitting it saves. The same bound below which the backend's reductions stay on
 * one chunk (CSRI_REDUCE_MIN_CHUNK). */
#define CSRI_SPSV_PARALLEL_WORK 4096

static int wide(const csr_spsv_plan *p, int64_t level) {
  return p->level_work[level] >= CSRI_SPSV_PARALLEL_WORK;
}

/* Level l's rows split evenly over the team: this thread's share. */
static void solve_share(const csr_spsv_plan *p, double alpha, const csr_vector *b, csr_vector *x,
                        int64_t l) {
  int64_t me = 0, team = 1;
#ifdef _OPENMP
  me = omp_get_thread_num();
  team = omp_get_num_threads();
#endif
  int64_t begin = p->level_offsets[l], rows = p->level_offsets[l + 1] - begin;
  int64_t first = begin + rows / team * me + rows % team * me / team;
  int64_t last = begin + rows / team * (me + 1) + rows % team * (me + 1) / team;
  csri_spsv_rows(p, alpha, b, x, p->level_rows + first, last - first);
}

csr_status csri_omp_spsv(csr_context *ctx, const csr_spsv_plan *plan, double alpha,
                         const csr_vector *b, csr_vector *x) {
  int threads = csri_omp_threads(ctx);
  int64_t levels = plan->levels, any_wide = 0;
  for (int64_t l = 0; l < levels && !any_wide; l++)
    any_wide = wide(plan, l);
  if (threads < 2 || !any_wide) { /* the reference's substitution order: rows in memory order */
    csri_spsv_rows(plan, alpha, b, x, NULL, plan->n);
    return CSR_SUCCESS;
  }
#pragma omp parallel num_threads(threads)
  {
    /* Every thread walks the same levels and takes the same branches (they depend on the plan
     * alone), so each meets the same barriers. */
    for (int64_t l = 0; l < levels;) {
      if (wide(plan, l)) {
        solve_share(plan, alpha, b, x, l);
#pragma omp barrier
        l++;
        continue;
      }
      int64_t m = l + 1;
      while (m < levels && !wide(plan, m))
        m++;
#pragma omp single
      csri_spsv_rows(plan, alpha, b, x, plan->level_rows + plan->level_offsets[l],
                     plan->level_offsets[m] - plan->level_offsets[l]);
      l = m; /* the single's implied barrier: levels l .. m - 1 are solved */
    }
  }
  return CSR_SUCCESS;
}
