/* SPDX-License-Identifier: BSD-3-Clause */
/* The exact sums of the OpenMP backend, a chunk a thread: each thread sums its chunks' terms into
 * accumulators of its own, which are then merged. Exact sums do not depend on how the terms are
 * grouped (and each entry a range writes is its own), so the result is the reference backend's
 * whatever the thread count. Two entries share the driver: the plain sums (src/core/backend.h,
 * csri_terms) and the distributed PageRank's update (csri_pagerank_exact). */
#include "kernels/exact_terms.h"
#include "kernels/pagerank_exact.h"
#include "omp/omp.h"

/* range(arg, begin, end, acc) adds the terms of entries [begin, end) to acc[0, sums). */
typedef void exact_range_fn(const void *arg, int64_t begin, int64_t end, csri_exact_acc *acc);

static void exact_chunks(const csr_context *ctx, int64_t n, int sums, exact_range_fn *range,
                         const void *arg, csri_exact_acc *acc) {
  (void)ctx; /* used only by OpenMP clauses */
  const int64_t chunks = csri_reduce_chunks(n);
  if (chunks == 1) { /* too short to share out */
    range(arg, 0, n, acc);
    return;
  }
#pragma omp parallel num_threads(csri_omp_threads(ctx))
  {
    csri_exact_acc mine[CSRI_TERMS_MAX_SUMS];
    for (int k = 0; k < sums; k++)
      csri_exact_init(&mine[k]);
#pragma omp for schedule(static)
    for (int64_t c = 0; c < chunks; c++)
      range(arg, csri_chunk_begin(n, chunks, c), csri_chunk_begin(n, chunks, c + 1), mine);
#pragma omp critical(csri_omp_exact_chunks)
    for (int k = 0; k < sums; k++)
      csri_exact_merge(&acc[k], &mine[k]);
  }
}

typedef struct terms_arg {
  csri_terms terms;
  const csr_vector *const *v;
} terms_arg;

static void terms_range(const void *arg, int64_t begin, int64_t end, csri_exact_acc *acc) {
  const terms_arg *t = arg;
  csri_exact_terms(t->terms, t->v, begin, end, acc);
}

csr_status csri_omp_exact_sums(csr_context *ctx, csri_terms terms, const csr_vector *const *v,
                               csri_exact_acc *acc) {
  terms_arg arg = {terms, v};
  /* acc holds as many accumulators as the terms have sums, no more: a dot's may be one of
   * several in the caller's array */
  exact_chunks(ctx, v[0]->n, terms == CSRI_TERMS_CG ? CSRI_CG_SUMS : 1, terms_range, &arg, acc);
  return CSR_SUCCESS;
}

static void pagerank_range(const void *arg, int64_t begin, int64_t end, csri_exact_acc *acc) {
  csri_pagerank_exact_range(arg, begin, end, acc);
}

csr_status csri_omp_pagerank_exact_update(csr_context *ctx, const csri_pagerank_exact *u,
                                          csri_exact_acc *acc) {
  exact_chunks(ctx, u->x->n, CSRI_PAGERANK_EXACT_SUMS, pagerank_range, u, acc);
  return CSR_SUCCESS;
}
