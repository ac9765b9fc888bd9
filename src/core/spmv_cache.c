/* SPDX-License-Identifier: BSD-3-Clause */
/* What the context keeps per matrix for its SpMV plans: the row statistics (computed once by the
 * front end) and, on the device, a tiled kernel's tile starts. A core service: front ends keep and
 * find the statistics, backends keep their tile starts here, and neither calls the other. */
#include "core/internal.h"

typedef csri_spmv_cache_entry entry;

static int same_matrix(const entry *e, const csr_matrix *A) {
  return e->serial == A->serial && e->offsets == A->row_offsets && e->columns == A->col_indices &&
         e->rows == A->rows && e->cols == A->cols && e->nnz == A->nnz && e->location == A->location;
}

/* Frees what an entry keeps on the device. */
static void entry_release(entry *e) {
  csri_device_free(e->tiles); /* waits for work that may still read them */
  e->tiles = NULL;
}

void csri_spmv_cache_forget(csr_context *ctx, const csr_matrix *A) {
  if (ctx == NULL)
    return;
  csri_spmv_cache *c = &ctx->spmv_cache;
  for (int i = 0; i < c->filled;)
    if (A == NULL || same_matrix(&c->entries[i], A)) {
      entry_release(&c->entries[i]);
      c->entries[i] = c->entries[--c->filled]; /* order does not matter: last_use decides */
    } else {
      i++;
    }
}

void csr_context_forget_matrix(csr_context *ctx, const csr_matrix *A) {
  csri_spmv_cache_forget(ctx, A);
}

/* A's entry in the context's cache, or NULL. */
static entry *entry_of(csr_context *ctx, const csr_matrix *A) {
  if (ctx == NULL)
    return NULL;
  for (int i = 0; i < ctx->spmv_cache.filled; i++)
    if (same_matrix(&ctx->spmv_cache.entries[i], A))
      return &ctx->spmv_cache.entries[i];
  return NULL;
}

int csri_spmv_cache_find(csr_context *ctx, const csr_matrix *A, csr_row_stats *stats,
                         double *seconds) {
  entry *e = entry_of(ctx, A);
  if (e == NULL)
    return 0;
  e->last_use = ++ctx->spmv_cache.clock;
  *stats = e->stats;
  *seconds = e->seconds;
  return 1;
}

void csri_spmv_cache_keep(csr_context *ctx, const csr_matrix *A, const csr_row_stats *stats,
                          double seconds) {
  if (ctx == NULL)
    return;
  csri_spmv_cache *c = &ctx->spmv_cache;
  int slot = 0;
  if (c->filled < CSRI_SPMV_CACHE_ENTRIES) {
    slot = c->filled++; /* a free slot (what it held was moved or released) */
  } else {              /* full: the entry used longest ago goes */
    for (int i = 1; i < CSRI_SPMV_CACHE_ENTRIES; i++)
      if (c->entries[i].last_use < c->entries[slot].last_use)
        slot = i;
    entry_release(&c->entries[slot]);
  }
  c->entries[slot] =
      (entry){A->serial,  A->row_offsets, A->col_indices, A->rows, A->cols, A->nnz, A->location,
              ++c->clock, seconds,        *stats,         -1.0,    NULL,    0};
}

int csri_spmv_cache_lines(csr_context *ctx, const csr_matrix *A, double *lines) {
  const entry *e = entry_of(ctx, A);
  if (e == NULL || e->gather_lines < 0.0)
    return 0;
  *lines = e->gather_lines;
  return 1;
}

void csri_spmv_cache_keep_lines(csr_context *ctx, const csr_matrix *A, double lines,
                                double seconds) {
  entry *e = entry_of(ctx, A);
  if (e == NULL)
    return;
  e->gather_lines = lines;
  e->seconds += seconds;
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
