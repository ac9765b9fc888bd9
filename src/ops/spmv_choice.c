/* SPDX-License-Identifier: BSD-3-Clause */
/* The SpMV plan for a matrix, and why: its row statistics (computed once per matrix and kept in
 * the context, src/core/spmv_cache.c) through the rule of src/kernels/spmv_choice.h, and the
 * rule's reason in words. The front ends make the plan and hand it to the backend. */
#include "kernels/spmv_choice.h"
#include "ops/ops.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *csr_spmv_kernel_name(csr_spmv_kernel kernel) {
  if (kernel == CSR_KERNEL_AUTO)
    return "auto";
  const csri_spmv_kernel_info *k = csri_spmv_kernel_of(kernel);
  return k != NULL ? k->name : "unknown";
}

csr_status csr_spmv_kernel_from_name(const char *name, csr_spmv_kernel *kernel) {
  if (name == NULL || kernel == NULL)
    return CSR_ERR_NULL_POINTER;
  if (strcmp(name, "auto") == 0) {
    *kernel = CSR_KERNEL_AUTO;
    return CSR_SUCCESS;
  }
  for (int k = 0; k < CSRI_SPMV_KERNEL_COUNT; k++)
    if (strcmp(name, csri_spmv_kernels[k].name) == 0) {
      *kernel = csri_spmv_kernels[k].kernel;
      return CSR_SUCCESS;
    }
  return CSR_ERR_INVALID_VALUE;
}

/* A's statistics: from the context's cache, or computed (in *seconds) and kept there. */
static csr_status stats_of(csr_context *ctx, const csr_matrix *A, csr_row_stats *stats,
                           double *seconds, int *cached) {
  *cached = csri_spmv_cache_find(ctx, A, stats, seconds);
  if (*cached)
    return CSR_SUCCESS;
  double start = csri_seconds_now();
  CSRI_TRY(csr_row_stats_compute(ctx, A, stats));
  *seconds = csri_seconds_now() - start;
  csri_spmv_cache_keep(ctx, A, stats, *seconds);
  return CSR_SUCCESS;
}

csr_status csri_row_stats_kept(csr_context *ctx, const csr_matrix *A, csr_row_stats *stats) {
  double seconds;
  int cached;
  return stats_of(ctx, A, stats, &seconds, &cached);
}

/* AUTO's pick for A with statistics s. The scalar kernel also needs its warps' gathers of x to
 * share lines: they are sampled, and kept with the statistics, only when the rule would pick it,
 * so a matrix's later picks (every AUTO product asks) apply the rule once with what was kept
 * (*lines: the sample, or -1 when none was needed; *seconds: what sampling now cost). */
static csr_status auto_pick(csr_context *ctx, const csr_matrix *A, const csr_row_stats *s,
                            csri_spmv_pick *pick, double *lines, double *seconds) {
  *seconds = 0.0;
  if (csri_spmv_cache_lines(ctx, A, lines)) {
    *pick = csri_spmv_choose(s, *lines, CSRI_SPMV_RESIDENT_LANES);
    return CSR_SUCCESS;
  }
  *lines = -1.0;
  *pick = csri_spmv_choose(s, 0.0, CSRI_SPMV_RESIDENT_LANES); /* gathers taken as local */
  if (pick->why != CSRI_WHY_SHORT_ROWS)
    return CSR_SUCCESS;
  double start = csri_seconds_now();
  CSRI_TRY(csri_gather_lines(ctx, A, lines));
  *seconds = csri_seconds_now() - start;
  csri_spmv_cache_keep_lines(ctx, A, *lines, *seconds);
  *pick = csri_spmv_choose(s, *lines, CSRI_SPMV_RESIDENT_LANES);
  return CSR_SUCCESS;
}

csr_status csri_spmv_plan_for(csr_context *ctx, const csri_backend *b, const csr_matrix *A,
                              csri_spmv_plan *plan, const csri_spmv_plan **handed) {
  *handed = NULL;
  if (!b->sparse.plans)
    return CSR_SUCCESS;
  const csr_spmv_kernel forced = csr_context_kernel(ctx);
  csr_row_stats s;
  double seconds;
  if (forced == CSR_KERNEL_AUTO) {
    CSRI_TRY(csri_row_stats_kept(ctx, A, &s));
  } else if (!csri_spmv_cache_find(ctx, A, &s, &seconds)) {
    /* forcing computes no statistics: the mean alone sizes a vector's groups */
    memset(&s, 0, sizeof s);
    s.mean = A->rows > 0 ? (double)A->nnz / (double)A->rows : 0.0;
    s.longest = -1;
  }
  csri_spmv_pick pick;
  if (forced == CSR_KERNEL_AUTO) {
    double lines, sampling;
    CSRI_TRY(auto_pick(ctx, A, &s, &pick, &lines, &sampling));
  } else {
    pick = csri_spmv_forced(&s, forced);
  }
  *plan = (csri_spmv_plan){pick.kernel, pick.lanes, s.longest, NULL};
  *handed = plan;
  return CSR_SUCCESS;
}

/* The row lengths that the bins around the typical one hold: [2^(b-2), 2^(b+1)). */
static void typical_range(const csri_spmv_pick *p, long long *low, long long *high) {
  int b = p->typical_bin;
  *low = b >= 2 ? 1LL << (b - 2) : 1;
  *high = (1LL << (b + 1)) - 1;
}

/* The rule's reason for pick p, in one sentence. */
static void describe(const csri_spmv_pick *p, const csr_row_stats *s, char *out, size_t size) {
  if (p->scattered) { /* short regular rows that the scalar kernel would have taken */
    snprintf(out, size,
             "rows regular and short (%.1f entries per non-empty row) but their gathers of x "
             "scatter: a warp's step of the scalar kernel would touch %.2f lines of x per lane "
             "(it needs at most %g): %s, which stages each tile's columns with coalesced loads",
             p->nonempty_mean, p->gather_lines, CSRI_SPMV_SCALAR_LINES,
             csr_spmv_kernel_name(p->kernel));
    return;
  }
  long long low, high;
  typical_range(p, &low, &high);
  double share = 100.0 * p->regular_share;
  switch (p->why) {
  case CSRI_WHY_NO_WORK: snprintf(out, size, "no nonzeros: y = beta*y, no kernel runs"); break;
  case CSRI_WHY_EMPTY_ROWS:
    snprintf(out, size,
             "%.0f%% of the rows are empty (a row kernel is used up to %.0f%%): segmented, "
             "which spends one path item on an empty row where a row kernel spends a thread",
             100.0 * (double)s->empty_rows / (double)s->rows, 100.0 * CSRI_SPMV_EMPTY_SHARE);
    break;
  case CSRI_WHY_UNEVEN:
    snprintf(out, size,
             "uneven rows: %.0f%% of the nonzeros lie in rows of %lld to %lld entries around "
             "the typical length (a row kernel needs %.0f%%), the longest row has %lld: "
             "segmented, which gives every thread the same number of nonzeros",
             share, low, high, 100.0 * CSRI_SPMV_REGULAR_SHARE, (long long)s->longest);
    break;
  case CSRI_WHY_LONGEST_ROW:
    snprintf(out, size,
             "rows regular (%.0f%% of the nonzeros in rows of %lld to %lld entries) but the "
             "longest row (%lld entries) would take its lanes %.0f steps, more than %.0f: "
             "segmented",
             share, low, high, (long long)s->longest, p->longest_steps,
             csri_longest_steps_allowed(p->lane_share));
    break;
  case CSRI_WHY_SHORT_ROWS:
    snprintf(out, size,
             "rows regular (%.0f%% of the nonzeros in rows of %lld to %lld entries, longest "
             "%lld), %.1f entries per non-empty row (at most %g): scalar, one thread per row",
             share, low, high, (long long)s->longest, p->nonempty_mean, CSRI_SPMV_SCALAR_MEAN);
    break;
  case CSRI_WHY_FULL_GROUPS:
    snprintf(out, size,
             "rows regular and alike (%.1f entries per non-empty row, standard deviation %.0f%% "
             "of the mean), filling %.0f%% of groups of %d lanes: vector",
             p->nonempty_mean, 100.0 * sqrt(p->spread_squared), 100.0 * p->group_fill, p->lanes);
    break;
  case CSRI_WHY_IDLE_LANES:
    snprintf(out, size,
             "rows regular (%.0f%% of the nonzeros in rows of %lld to %lld entries), %.1f per "
             "non-empty row, but groups of lanes would idle (%.0f%% full, standard deviation "
             "%.0f%% of the mean; the vector kernel needs %.0f%% and %.0f%%): segmented",
             share, low, high, p->nonempty_mean, 100.0 * p->group_fill,
             100.0 * sqrt(p->spread_squared), 100.0 * CSRI_SPMV_VECTOR_FILL,
             100.0 * CSRI_SPMV_VECTOR_SPREAD);
    break;
  case CSRI_WHY_ROWS_FIT:
    snprintf(out, size,
             "every row fits a stream tile (longest %lld entries, tiles stage rows of up to %d) "
             "and the longest would take its lanes %.1f steps, at most %g times a lane's share "
             "of %.1f: stream, which stages whole rows in shared memory and sums each there",
             (long long)s->longest, CSRI_SPMV_STREAM_LONGEST, p->stream_steps,
             CSRI_SPMV_STREAM_STEPS_FACTOR, p->stream_share);
    break;
  default: snprintf(out, size, "forced by the context (csr_context_set_kernel)"); break;
  }
}

/* What csr_spmv with the chosen kernel would allocate or search on its first call on a device
 * matrix, done now (the backend's spmv_prepare), so that a call captured into a CUDA graph next
 * needs neither; nothing can be readied inside a capture. */
static csr_status ready(csr_context *ctx, const csr_matrix *A, const csr_spmv_choice *choice) {
  const csri_backend *b;
  if (A->location != CSR_DEVICE || csri_device_capturing(ctx))
    return CSR_SUCCESS;
  csr_status status = CSRI_DISPATCH(ctx, A->location, sparse.spmv_prepare, "SpMV", &b);
  if (status == CSR_ERR_UNSUPPORTED) /* a backend with nothing to ready */
    return CSR_SUCCESS;
  CSRI_TRY(status);
  const csri_spmv_plan plan = {choice->kernel, choice->lanes, choice->stats.longest, NULL};
  return b->sparse.spmv_prepare(ctx, A, &plan);
}

csr_status csr_spmv_choose(csr_context *ctx, const csr_matrix *A, csr_spmv_choice *choice) {
  CSRI_CHECK_NULL(ctx, A);
  CSRI_CHECK_NULL(ctx, choice);
  memset(choice, 0, sizeof *choice);
  /* A matrix not yet cached is checked by csr_row_stats_compute. */
  CSRI_TRY(stats_of(ctx, A, &choice->stats, &choice->analysis_seconds, &choice->cached));
  csri_spmv_pick chosen;
  double sampling;
  CSRI_TRY(auto_pick(ctx, A, &choice->stats, &chosen, &choice->gather_lines, &sampling));
  choice->analysis_seconds += sampling;
  csr_spmv_kernel forced = csr_context_kernel(ctx);
  if (forced == CSR_KERNEL_AUTO) {
    choice->kernel = chosen.kernel;
    choice->lanes = chosen.lanes;
    describe(&chosen, &choice->stats, choice->reason, sizeof choice->reason);
  } else {
    csri_spmv_pick pick = csri_spmv_forced(&choice->stats, forced);
    choice->kernel = pick.kernel;
    choice->lanes = pick.lanes;
    choice->forced = 1;
    snprintf(choice->reason, sizeof choice->reason,
             "forced by the context (csr_context_set_kernel); from the statistics alone: %s",
             csr_spmv_kernel_name(chosen.kernel));
  }
  return ready(ctx, A, choice);
}
