/* The SpMV kernel for a matrix, and why: its row statistics (computed once per matrix and kept in
 * the context) through the rule of src/kernels/spmv_choice.h, and the rule's reason in words. */
#include "ops/ops.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

typedef csri_choice_entry entry;

const char *csr_spmv_kernel_name(csr_spmv_kernel kernel) {
  switch (kernel) {
  case CSR_KERNEL_AUTO: return "auto";
  case CSR_KERNEL_SCALAR: return "scalar";
  case CSR_KERNEL_VECTOR: return "vector";
  case CSR_KERNEL_SEGMENTED: return "segmented";
  case CSR_KERNEL_STREAM: return "stream";
  default: return "unknown";
  }
}

static int same_matrix(const entry *e, const csr_matrix *A) {
  return e->serial == A->serial && e->offsets == A->row_offsets && e->columns == A->col_indices &&
         e->rows == A->rows && e->cols == A->cols && e->nnz == A->nnz && e->location == A->location;
}

/* Frees what an entry keeps on the device. */
static void entry_release(entry *e) {
  csri_device_free(e->tiles); /* waits for work that may still read them */
  e->tiles = NULL;
}

void csr_context_forget_matrix(csr_context *ctx, const csr_matrix *A) {
  if (ctx == NULL)
    return;
  csri_choice_cache *c = &ctx->choices;
  for (int i = 0; i < c->filled;)
    if (A == NULL || same_matrix(&c->entries[i], A)) {
      entry_release(&c->entries[i]);
      c->entries[i] = c->entries[--c->filled]; /* order does not matter: last_use decides */
    } else {
      i++;
    }
}

/* A's entry in the context's cache, or NULL. */
static entry *entry_of(csr_context *ctx, const csr_matrix *A) {
  if (ctx == NULL)
    return NULL;
  for (int i = 0; i < ctx->choices.filled; i++)
    if (same_matrix(&ctx->choices.entries[i], A))
      return &ctx->choices.entries[i];
  return NULL;
}

int64_t csri_spmv_known_longest(csr_context *ctx, const csr_matrix *A) {
  const entry *e = entry_of(ctx, A);
  return e != NULL ? e->stats.longest : -1;
}

csr_status csri_spmv_tiles_for(csr_context *ctx, const csr_matrix *A, uint64_t key, size_t bytes,
                               int may_allocate, void **tiles, int *fresh) {
  *tiles = NULL;
  *fresh = 0;
  entry *e = A->location == CSR_DEVICE ? entry_of(ctx, A) : NULL;
  if (e == NULL)
    return CSR_SUCCESS;
  if (e->tiles != NULL && e->tiles_key == key) {
    *tiles = e->tiles;
    return CSR_SUCCESS;
  }
  if (!may_allocate) /* nor free: a free synchronises the device */
    return CSR_SUCCESS;
  entry_release(e); /* another kernel's or tile size's */
  void *p = NULL;
  if (csri_device_alloc(NULL, &p, bytes) < 0) /* no error for the caller: it has its scratch */
    return CSR_SUCCESS;
  e->tiles = *tiles = p;
  e->tiles_key = key;
  *fresh = 1;
  return CSR_SUCCESS;
}

/* A's statistics: from the context's cache, or computed (in *seconds) and cached. */
static csr_status stats_of(csr_context *ctx, const csr_matrix *A, csr_row_stats *stats,
                           double *seconds, int *cached) {
  csri_choice_cache *c = ctx ? &ctx->choices : NULL;
  entry *known = entry_of(ctx, A);
  *cached = known != NULL;
  if (known != NULL) {
    known->last_use = ++c->clock;
    *stats = known->stats;
    *seconds = known->seconds;
    return CSR_SUCCESS;
  }
  double start = csri_seconds_now();
  CSRI_TRY(csr_row_stats_compute(ctx, A, stats));
  *seconds = csri_seconds_now() - start;
  if (c == NULL)
    return CSR_SUCCESS;
  int slot = 0;
  if (c->filled < CSRI_CHOICE_ENTRIES) {
    slot = c->filled++; /* a free slot (what it held was moved or released) */
  } else {              /* full: the entry used longest ago goes */
    for (int i = 1; i < CSRI_CHOICE_ENTRIES; i++)
      if (c->entries[i].last_use < c->entries[slot].last_use)
        slot = i;
    entry_release(&c->entries[slot]);
  }
  c->entries[slot] = (entry){A->serial,   A->row_offsets, A->col_indices, A->rows, A->cols, A->nnz,
                             A->location, ++c->clock,     *seconds,       *stats,  NULL,    0};
  return CSR_SUCCESS;
}

csr_status csri_spmv_pick_for(csr_context *ctx, const csr_matrix *A, csri_spmv_pick *pick) {
  csr_spmv_kernel forced = csr_context_kernel(ctx);
  if (forced != CSR_KERNEL_AUTO) { /* no statistics needed: the mean sizes a vector's groups */
    csr_row_stats s;
    memset(&s, 0, sizeof s);
    s.mean = A->rows > 0 ? (double)A->nnz / (double)A->rows : 0.0;
    *pick = csri_spmv_forced(&s, forced);
    return CSR_SUCCESS;
  }
  csr_row_stats s;
  double seconds;
  int cached;
  CSRI_TRY(stats_of(ctx, A, &s, &seconds, &cached));
  *pick = csri_spmv_choose(&s, CSRI_SPMV_RESIDENT_LANES);
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

/* What csr_spmv with `kernel` would allocate or search on its first call on a device matrix,
 * done now (the backend's spmv_prepare), so that a call captured into a CUDA graph next needs
 * neither; nothing can be readied inside a capture. */
static csr_status ready(csr_context *ctx, const csr_matrix *A, csr_spmv_kernel kernel) {
  const csri_backend *cuda = csri_backend_of(CSR_BACKEND_CUDA);
  if (A->location != CSR_DEVICE || cuda == NULL || cuda->sparse.spmv_prepare == NULL ||
      csri_device_capturing(ctx))
    return CSR_SUCCESS;
  return cuda->sparse.spmv_prepare(ctx, A, kernel);
}

csr_status csr_spmv_choose(csr_context *ctx, const csr_matrix *A, csr_spmv_choice *choice) {
  CSRI_CHECK_NULL(ctx, A);
  CSRI_CHECK_NULL(ctx, choice);
  memset(choice, 0, sizeof *choice);
  /* A matrix not yet cached is checked by csr_row_stats_compute. */
  CSRI_TRY(stats_of(ctx, A, &choice->stats, &choice->analysis_seconds, &choice->cached));
  csri_spmv_pick chosen = csri_spmv_choose(&choice->stats, CSRI_SPMV_RESIDENT_LANES);
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
  return ready(ctx, A, choice->kernel);
}
