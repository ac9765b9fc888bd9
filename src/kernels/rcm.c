/* SPDX-License-Identifier: BSD-3-Clause */
/* Reverse Cuthill-McKee (Cuthill and McKee 1969; George and Liu 1981) of the pattern of A + A':
 * each connected part is numbered by a breadth-first search from a pseudo-peripheral row (one at
 * the end of a longest search from where it started), each row's unnumbered neighbours taken by
 * increasing degree, and the whole order then reversed. Rows that are near in the graph end near
 * in the numbering: the reordered matrix has a narrow profile, so an incomplete factorization of it
 * drops less of what a complete one would fill (src/solve/factor_build.c), and a product with it
 * reads x from a narrow window (csr_reorder, src/ops/reorder.c). */
#include "kernels/rcm.h"

#include <stdlib.h>

typedef struct graph {
  int64_t n;
  int64_t *off;   /* n + 1 */
  int32_t *adj;   /* the neighbours of row i (j != i, each once): adj[off[i] .. off[i + 1]) */
  uint64_t *keys; /* n: room to sort a row's new neighbours */
} graph;

/* A + A' without the diagonal, each neighbour once (a stamp per row removes the repeats). */
static csr_status symmetrize(csr_context *ctx, const csri_pattern *B, graph *g, int64_t *stamp) {
  int64_t n = B->n;
  g->n = n;
  CSRI_TRY(
      csri_array_alloc(ctx, (void **)&g->off, n + 1, sizeof(int64_t), CSR_HOST, CSRI_ARRAY_ZERO));
  for (int64_t i = 0; i < n; i++)
    for (int64_t k = B->off[i]; k < B->off[i + 1]; k++)
      if (B->col[k] != i) {
        g->off[i + 1]++;
        g->off[B->col[k] + 1]++;
      }
  for (int64_t i = 0; i < n; i++)
    g->off[i + 1] += g->off[i];
  CSRI_TRY(csri_array_alloc(ctx, (void **)&g->adj, g->off[n], sizeof(int32_t), CSR_HOST, 0));
  int64_t *fill = NULL;
  CSRI_TRY(csri_array_alloc(ctx, (void **)&fill, n, sizeof(int64_t), CSR_HOST, 0));
  for (int64_t i = 0; i < n; i++)
    fill[i] = g->off[i];
  for (int64_t i = 0; i < n; i++)
    for (int64_t k = B->off[i]; k < B->off[i + 1]; k++)
      if (B->col[k] != i) {
        g->adj[fill[i]++] = B->col[k];
        g->adj[fill[B->col[k]]++] = (int32_t)i;
      }
  csri_free(fill);
  int64_t out = 0; /* compact each list, dropping repeats */
  for (int64_t i = 0; i < n; i++)
    stamp[i] = -1;
  for (int64_t i = 0, begin = 0; i < n; i++) {
    int64_t end = g->off[i + 1];
    for (int64_t k = begin; k < end; k++)
      if (stamp[g->adj[k]] != i) {
        stamp[g->adj[k]] = i;
        g->adj[out++] = g->adj[k];
      }
    begin = end;
    g->off[i + 1] = out;
  }
  return CSR_SUCCESS;
}

static int64_t degree(const graph *g, int32_t i) {
  return g->off[i + 1] - g->off[i];
}

static int compare_keys(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* v[0, count) ordered by increasing degree, equal degrees as they came (a stable sort): by
 * insertion when short (most lists), else by sorting (degree, place) keys, since a hub's many
 * new neighbours would make insertion quadratic. */
static void sort_by_degree(const graph *g, int32_t *v, int64_t count) {
  if (count <= 16) {
    for (int64_t a = 1; a < count; a++) {
      int32_t u = v[a];
      int64_t b = a;
      while (b > 0 && degree(g, v[b - 1]) > degree(g, u)) {
        v[b] = v[b - 1];
        b--;
      }
      v[b] = u;
    }
    return;
  }
  for (int64_t a = 0; a < count; a++) /* a degree and a place each fit 32 bits (n < 2^31) */
    g->keys[a] = (uint64_t)degree(g, v[a]) << 32 | (uint64_t)a;
  qsort(g->keys, (size_t)count, sizeof *g->keys, compare_keys);
  for (int64_t a = 0; a < count; a++) /* the places, then the rows at them */
    g->keys[a] = (uint64_t)v[g->keys[a] & 0xffffffffu] << 32 | (g->keys[a] & 0xffffffffu);
  for (int64_t a = 0; a < count; a++)
    v[a] = (int32_t)(g->keys[a] >> 32);
}

/* A breadth-first search from `root` over rows whose mark is not `done`, writing them to queue
 * (marked `seen`); neighbours by increasing degree when `sorted`. Returns the count; *depth the
 * number of levels, *last the lowest-degree row of the last level. */
static int64_t search(const graph *g, int32_t root, int64_t *mark, int64_t seen, int sorted,
                      int32_t *queue, int64_t *depth, int32_t *last) {
  int64_t head = 0, tail = 0, level_end = 1, levels = 0;
  queue[tail++] = root;
  mark[root] = seen;
  *last = root;
  while (head < tail) {
    int32_t i = queue[head++];
    int64_t first_new = tail;
    for (int64_t k = g->off[i]; k < g->off[i + 1]; k++) {
      int32_t j = g->adj[k];
      if (mark[j] == seen)
        continue;
      mark[j] = seen;
      queue[tail++] = j;
    }
    if (sorted)
      sort_by_degree(g, queue + first_new, tail - first_new);
    if (head == level_end) { /* a level is done: the next one is what it found */
      levels++;
      if (tail > level_end) {
        *last = queue[level_end];
        for (int64_t a = level_end; a < tail; a++)
          if (degree(g, queue[a]) < degree(g, *last))
            *last = queue[a];
      }
      level_end = tail;
    }
  }
  *depth = levels;
  return tail;
}

/* Numbers the part containing `start` from order[at]: a pseudo-peripheral root (George and Liu:
 * restart from the far end while that lengthens the search), then the Cuthill-McKee search. */
static int64_t number_part(const graph *g, int32_t start, int64_t *mark, int64_t *pass,
                           int32_t *order, int64_t at) {
  int64_t depth = 0, next_depth = 0;
  int32_t root = start, far = start;
  search(g, root, mark, --(*pass), 0, order + at, &depth, &far);
  for (int tries = 0; tries < 8; tries++) {
    int32_t candidate = far;
    search(g, candidate, mark, --(*pass), 0, order + at, &next_depth, &far);
    if (next_depth <= depth)
      break;
    root = candidate;
    depth = next_depth;
  }
  return search(g, root, mark, --(*pass), 1, order + at, &depth, &far);
}

csr_status csri_rcm(csr_context *ctx, const csri_pattern *B, int32_t *order) {
  int64_t n = B->n;
  graph g = {0};
  int64_t *mark = NULL;
  csr_status status = csri_array_alloc(ctx, (void **)&mark, n, sizeof(int64_t), CSR_HOST, 0);
  if (status >= 0)
    status = csri_array_alloc(ctx, (void **)&g.keys, n, sizeof(uint64_t), CSR_HOST, 0);
  if (status >= 0)
    status = symmetrize(ctx, B, &g, mark);
  if (status >= 0) {
    /* Marks: 0 unnumbered; each search stamps its own negative pass number; numbered rows 1. */
    for (int64_t i = 0; i < n; i++)
      mark[i] = 0;
    int64_t pass = 0;
    int64_t at = 0;
    for (int64_t i = 0; i < n; i++) {
      if (mark[i] == 1)
        continue;
      if (degree(&g, (int32_t)i) == 0) { /* alone: no search */
        mark[i] = 1;
        order[at++] = (int32_t)i;
        continue;
      }
      int64_t count = number_part(&g, (int32_t)i, mark, &pass, order, at);
      for (int64_t t = at; t < at + count; t++)
        mark[order[t]] = 1;
      at += count;
    }
    for (int64_t t = 0; t < n / 2; t++) { /* reversed */
      int32_t v = order[t];
      order[t] = order[n - 1 - t];
      order[n - 1 - t] = v;
    }
  }
  csri_free(mark);
  csri_free(g.off);
  csri_free(g.adj);
  csri_free(g.keys);
  return status;
}
