/* SPDX-License-Identifier: BSD-3-Clause */
/* r = PageRank of the graph with adjacency A (A(i,j) != 0: a link i -> j), by power iteration
 * pulling along A^T: r_i <- d (sum_{j->i} r_j a_ji / w_j + dangling / n) + (1 - d) p_i. */
#include "graph/pagerank.h"
#include "kernels/pagerank_plan.h"
#include "kernels/scattered.h"
#include "ops/ops.h"

#include <math.h>
#include <stdio.h>

void csr_pagerank_options_init(csr_pagerank_options *options) {
  if (options == NULL)
    return;
  options->damping = 0.85;
  options->tol = 1e-6;
  options->max_iter = 1000;
  options->weighted = 0;
  options->personalization = NULL;
  options->progress = NULL;
  options->progress_user = NULL;
  options->compress = CSR_COMPRESS_AUTO;
  options->reorder = CSR_REORDER_AUTO;
}

static double entry(const csr_vector *v, int64_t i) {
  return v->value_type == CSR_F64 ? ((const double *)v->data)[i] : ((const float *)v->data)[i];
}

csr_status csri_pagerank_check_options(csr_context *ctx, const csr_pagerank_options *o,
                                       csr_value_type value_type) {
  if (!(o->damping >= 0.0 && o->damping < 1.0) || !(o->tol > 0.0) || o->max_iter < 1)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "damping %g (0 <= d < 1), tol %g (> 0), max_iter %lld (>= 1) expected",
                     o->damping, o->tol, (long long)o->max_iter);
  if (o->weighted && value_type == CSR_PATTERN)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "weighted PageRank needs a matrix with values");
  return CSR_SUCCESS;
}

/* The checks, and the backend of the rank passes (the one the SpMV of each iteration takes too). */
static csr_status check(csr_context *ctx, const csr_matrix *A, const csr_pagerank_options *o,
                        const csr_vector *ranks, const csri_backend **b) {
  CSRI_CHECK_NULL(ctx, A);
  CSRI_CHECK_NULL(ctx, o);
  CSRI_TRY(csri_check_vector(ctx, ranks, "ranks"));
  CSRI_TRY(CSRI_DISPATCH(ctx, A->location, graph.pagerank_weights, "PageRank", b));
  if (ranks->location != A->location)
    return CSRI_FAIL(ctx, CSR_ERR_LOCATION_MISMATCH,
                     "PageRank: A and ranks live in different places");
  if (A->rows != A->cols || ranks->n != A->rows)
    return CSRI_FAIL(ctx, CSR_ERR_DIMENSION_MISMATCH,
                     "PageRank needs a square adjacency matrix and one rank per page: A is %lld x "
                     "%lld, ranks has %lld entries",
                     (long long)A->rows, (long long)A->cols, (long long)ranks->n);
  CSRI_TRY(csri_pagerank_check_options(ctx, o, A->value_type));
  const csr_vector *p = o->personalization;
  if (p == NULL)
    return CSR_SUCCESS;
  CSRI_TRY(csri_check_vector(ctx, p, "personalization"));
  if (p->n != A->rows)
    return CSRI_FAIL(ctx, CSR_ERR_DIMENSION_MISMATCH,
                     "personalization has %lld entries for %lld pages", (long long)p->n,
                     (long long)A->rows);
  return CSR_SUCCESS;
}

/* The arrays of one run, where A lives, released together. */
typedef struct work {
  csr_vector *inv_w;     /* F64: 1 / out-weight; 0 for a dangling page */
  int32_t *degree;       /* links a page, for a step that reads them; or NULL */
  csr_location location; /* where A and these live */
  csr_vector *p;         /* F64: the teleport distribution, summing to 1; NULL: uniform */
  csr_matrix *AT;
  csr_spmv_plan *plan; /* AT's planned SpMV: its columns packed, or plain */
  csr_vector *x, *y;
} work;

static void work_free(csr_context *ctx, work *w) {
  if (w->AT != NULL) /* what the context keeps for the pull graph's SpMV goes with it */
    csri_spmv_cache_forget(ctx, w->AT);
  csr_spmv_plan_free(&w->plan);
  csr_vector_free(&w->inv_w);
  csri_array_free(w->degree, w->location);
  csr_vector_free(&w->p);
  csr_matrix_free(&w->AT);
  csr_vector_free(&w->x);
  csr_vector_free(&w->y);
}

/* w->inv_w from the backend's pass; the first bad row's weight becomes the message. */
static csr_status out_weights(csr_context *ctx, const csri_backend *b, const csr_matrix *A,
                              int weighted, work *w, csri_pagerank_weights *found) {
  CSRI_TRY(csr_vector_create(ctx, &w->inv_w, A->rows, CSR_F64, A->location));
  CSRI_TRY(b->graph.pagerank_weights(ctx, A, weighted, w->inv_w->data, found));
  if (found->bad_row < 0)
    return CSR_SUCCESS;
  if (found->bad_entry >= 0)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "weighted PageRank: link %lld -> %d has weight %g (finite, >= 0 expected)",
                     (long long)found->bad_row, found->bad_col, found->bad_value);
  return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                   "weighted PageRank: page %lld's out-weights sum to %g, whose reciprocal "
                   "does not fit a double; rescale the weights",
                   (long long)found->bad_row, found->bad_value);
}

/* w->p: v scaled to sum 1, at `location` (v NULL: p stays NULL, uniform). Read once, on the
 * host (a device v is copied there first). */
static csr_status teleport(csr_context *ctx, const csr_vector *v, csr_location location, work *w) {
  if (v == NULL)
    return CSR_SUCCESS;
  if (v->location != CSR_HOST) {
    csr_vector *copy = NULL;
    CSRI_TRY(csr_vector_clone(ctx, v, &copy, CSR_HOST));
    csr_status s = teleport(ctx, copy, location, w);
    csr_vector_free(&copy);
    return s;
  }
  double top = 0.0, sum = 0.0; /* summed over the largest entry: no overflow to inf */
  for (int64_t i = 0; i < v->n; i++) {
    double e = entry(v, i);
    if (!(e >= 0.0 && isfinite(e)))
      return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                       "personalization[%lld] = %g: finite and >= 0 expected", (long long)i, e);
    top = e > top ? e : top;
  }
  if (!(top > 0.0))
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "personalization sums to 0");
  for (int64_t i = 0; i < v->n; i++)
    sum += entry(v, i) / top;
  csr_vector *host = NULL;
  CSRI_TRY(csr_vector_create(ctx, &host, v->n, CSR_F64, CSR_HOST));
  for (int64_t i = 0; i < v->n; i++)
    ((double *)host->data)[i] = entry(v, i) / top / sum;
  if (location == CSR_HOST) {
    w->p = host;
    return CSR_SUCCESS;
  }
  csr_status s = csr_vector_clone(ctx, host, &w->p, location);
  csr_vector_free(&host);
  return s;
}

/* AT = A^T as a pattern matrix, or (weighted, or unweighted with explicit zeros, which are not
 * links) with link weight / w_j in the ranks' precision: each iteration is then one SpMV of the
 * precision asked for. Built where A lives. */
static csr_status transposed(csr_context *ctx, const csri_backend *b, const csr_matrix *A,
                             int weighted, int64_t zeros, const csr_vector *inv_w,
                             csr_value_type type, csr_matrix **AT) {
  csr_matrix view = *A;
  if (!weighted &&
      zeros == 0) { /* links only: no value array to transpose or to read each iteration */
    view.value_type = CSR_PATTERN;
    view.values = NULL;
    return csr_transpose(ctx, &view, AT);
  }
  csr_matrix *T = NULL, *M = NULL;
  CSRI_TRY(csr_transpose(ctx, A, &T));
  csr_status s = csr_matrix_create(ctx, &M, T->rows, T->cols, T->nnz, type, A->location);
  if (s >= 0)
    s = b->graph.pagerank_pull(ctx, T, weighted, inv_w->data, M);
  if (s < 0) {
    csr_matrix_free(&T);
    csr_matrix_free(&M);
    return s;
  }
  M->flags = T->flags;
  csr_matrix_free(&T);
  *AT = M;
  return CSR_SUCCESS;
}

/* w->degree, for a backend whose step reads a page's links (4 bytes) in place of 1 / out-weight
 * (8), which only its split form does (src/kernels/pagerank_plan.h): where every out-weight is a
 * number of links (unweighted) that fits 31 bits (fewer entries than 2^31). */
static csr_status degrees(csr_context *ctx, const csri_backend *b, const csr_matrix *A,
                          int weighted, work *w) {
  if (b->graph.pagerank_degrees == NULL || weighted || A->nnz > INT32_MAX ||
      !csri_pagerank_split(A->rows, A->nnz))
    return CSR_SUCCESS;
  CSRI_TRY(csri_array_alloc(ctx, (void **)&w->degree, A->rows, sizeof(int32_t), A->location,
                            CSRI_ARRAY_ORDERED));
  return b->graph.pagerank_degrees(ctx, A->rows, w->inv_w->data, w->degree);
}

static csr_status setup(csr_context *ctx, const csri_backend *b, const csr_matrix *A,
                        const csr_pagerank_options *o, const csr_vector *ranks, work *w,
                        int64_t *dangling) {
  int64_t n = A->rows;
  csri_pagerank_weights found;
  CSRI_TRY(out_weights(ctx, b, A, o->weighted, w, &found));
  *dangling = found.dangling;
  CSRI_TRY(teleport(ctx, o->personalization, A->location, w));
  CSRI_TRY(transposed(ctx, b, A, o->weighted, found.zeros, w->inv_w, ranks->value_type, &w->AT));
  CSRI_TRY(degrees(ctx, b, A, o->weighted, w));
  CSRI_TRY(csr_spmv_analyze(ctx, w->AT, o->compress, &w->plan));
  CSRI_TRY(csr_vector_create(ctx, &w->x, n, ranks->value_type, A->location));
  return csr_vector_create(ctx, &w->y, n, ranks->value_type, A->location);
}

/* One iteration from x = the spread of r: r and x become the next iterate's (x by swapping x and
 * y when the backend's step writes the next spread to y, which may then leave r to finish()).
 * *base: the iteration's dangling share. */
static csr_status iterate(csr_context *ctx, const csri_backend *b, work *w, csr_vector *ranks,
                          double d, int scale, double *dangling, double *l1_change, double *base) {
  *base = *dangling / (double)ranks->n; /* the update also spreads for the next one */
  const double *p = w->p ? w->p->data : NULL, *inv_w = w->inv_w->data;
  if (b->graph.pagerank_step) {
    csri_spmv_plan plan;
    const csri_spmv_plan *handed;
    CSRI_TRY(csri_spmv_plan_for(ctx, b, w->AT, &plan, &handed));
    handed = csri_spmv_plan_packed(&plan, handed, w->plan);
    CSRI_TRY(b->graph.pagerank_step(ctx, handed, w->AT, w->x, ranks, 0, p, d, *base, inv_w,
                                    w->degree, scale, w->y, dangling, l1_change));
    csr_vector *next = w->y;
    w->y = w->x;
    w->x = next;
    return CSR_SUCCESS;
  }
  CSRI_TRY(csr_spmv_run(ctx, w->plan, 1.0, w->x, 0.0, w->y));
  return b->graph.pagerank_update(ctx, ranks, w->y, p, d, *base, inv_w, scale, w->x, dangling,
                                  l1_change);
}

/* The ranks of the last iteration written to r, where the backend's step kept them in x alone
 * (f64 ranks only): that iteration again, from the x before it (in y since the swap) and its
 * dangling share. Its x_next is the x it made before, rewritten with the same bits. */
static csr_status finish(csr_context *ctx, const csri_backend *b, work *w, csr_vector *ranks,
                         double d, int scale, double base) {
  if (!b->graph.pagerank_step || ranks->value_type != CSR_F64)
    return CSR_SUCCESS;
  double dangling = 0.0, change = 0.0;
  const double *p = w->p ? w->p->data : NULL;
  csri_spmv_plan plan;
  const csri_spmv_plan *handed;
  CSRI_TRY(csri_spmv_plan_for(ctx, b, w->AT, &plan, &handed));
  handed = csri_spmv_plan_packed(&plan, handed, w->plan);
  return b->graph.pagerank_step(ctx, handed, w->AT, w->y, ranks, 1, p, d, base, w->inv_w->data,
                                w->degree, scale, w->x, &dangling, &change);
}

/* The power iteration on checked operands, in A's numbering. */
static csr_status rank(csr_context *ctx, const csri_backend *b, const csr_matrix *A,
                       const csr_pagerank_options *o, csr_vector *ranks, csr_pagerank_info *info) {
  csr_pagerank_info done = {0, 0.0, 0, 0.0, 0.0, 0, CSR_REORDER_NONE, 0.0, ""};
  int64_t n = A->rows;
  work w = {NULL, NULL, A->location, NULL, NULL, NULL, NULL, NULL};
  double start = csri_seconds_now();
  csr_status status = n == 0 ? CSR_SUCCESS : setup(ctx, b, A, o, ranks, &w, &done.dangling);
  if (status >= 0 && n > 0)
    status = csr_fill(ctx, 1.0 / (double)n, ranks);
  if (status >= 0 && n > 0) {
    status = CSR_INFO_NOT_CONVERGED;
    int scale = w.AT->value_type == CSR_PATTERN;
    double d = o->damping, dangling = 0.0, base = 0.0;
    /* The spread returns its sum: the device is done with the set-up when it returns. */
    csr_status s = b->graph.pagerank_spread(ctx, ranks, w.inv_w->data, scale, w.x, &dangling);
    done.setup_seconds = csri_seconds_now() - start;
    start = csri_seconds_now();
    if (s < 0)
      status = s;
    while (s >= 0 && done.iterations < o->max_iter) {
      s = iterate(ctx, b, &w, ranks, d, scale, &dangling, &done.l1_change, &base);
      if (s < 0) {
        status = s;
        break;
      }
      done.iterations++;
      if (o->progress)
        o->progress(o->progress_user, done.iterations, done.l1_change);
      if (!isfinite(done.l1_change)) { /* cannot happen with checked inputs; never loop on NaN */
        status =
            CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "PageRank iteration %lld gave non-finite ranks",
                      (long long)done.iterations);
        break;
      }
      if (done.l1_change < o->tol) {
        status = CSR_SUCCESS;
        break;
      }
    }
    if (status >= 0 && done.iterations > 0) {
      csr_status f = finish(ctx, b, &w, ranks, d, scale, base);
      status = f < 0 ? f : status;
    }
  }
  done.iterate_seconds = done.iterations > 0 ? csri_seconds_now() - start : 0.0;
  done.packed = w.plan != NULL && w.plan->info.packed;
  work_free(ctx, &w);
  if (status < 0)
    return status;
  if (info)
    *info = done;
  return status;
}

/* --- renumbering the pages --------------------------------------------------------------------
 * A renumbering that brings each page's in-links together makes the pull graph's gathers of x
 * hit the caches; it costs a reordering and a permutation, paid back over the iterations. */

/* The iterations the run can be expected to take: the L1 change falls by at least d an
 * iteration from at most 2, so below tol after log(tol / 2) / log(d) of them; at most max_iter. */
static double expected_iterations(const csr_pagerank_options *o) {
  double k = o->damping > 0.0 ? ceil(log(o->tol / 2.0) / log(o->damping)) : 1.0;
  return k < 1.0 ? 1.0 : k > (double)o->max_iter ? (double)o->max_iter : k;
}

/* AUTO's renumbering, and why. The costs and gains are what bench/reorder_cpu measured for RCM
 * on two CPU cores (docs/benchmarks.md, "Reordering on the CPU"): RCM and the permutation cost
 * up to CSRI_RCM_COST_SPMVS products, and on graphs whose links were scattered the product then
 * ran up to CSRI_RCM_GAIN times faster. AUTO renumbers when the iterations expected would save
 * twice that cost at that gain; on the GPU, where the cost is not measured, it does not. */
#define CSRI_RCM_COST_SPMVS 105.0
#define CSRI_RCM_GAIN 2.15
static csr_reorder_method choose_order(const csr_matrix *A, const csr_pagerank_options *o,
                                       char *why, size_t size) {
  if (A->location == CSR_DEVICE) {
    snprintf(why, size, "on the GPU the cost of a renumbering is not measured: none");
    return CSR_REORDER_NONE;
  }
  const double share = csri_scattered_share(A), iterations = expected_iterations(o);
  const double saved = iterations * (1.0 - 1.0 / CSRI_RCM_GAIN);
  if (share < 0.5) {
    snprintf(why, size, "%.0f%% of the sampled links lie far from the diagonal: none", 100 * share);
    return CSR_REORDER_NONE;
  }
  if (saved < 2.0 * CSRI_RCM_COST_SPMVS) {
    snprintf(why, size,
             "%.0f iterations expected would save %.0f products at best, less than twice RCM's "
             "%.0f: none",
             iterations, saved, CSRI_RCM_COST_SPMVS);
    return CSR_REORDER_NONE;
  }
  snprintf(why, size,
           "%.0f%% of the sampled links lie far from the diagonal and %.0f iterations expected "
           "would save up to %.0f products, more than twice RCM's %.0f: rcm",
           100 * share, iterations, saved, CSRI_RCM_COST_SPMVS);
  return CSR_REORDER_RCM;
}

/* PageRank of A renumbered by `method`: B = P A P', p' = P p, the ranks of B brought back. */
static csr_status rank_renumbered(csr_context *ctx, const csri_backend *b, const csr_matrix *A,
                                  const csr_pagerank_options *o, csr_reorder_method method,
                                  csr_vector *ranks, csr_pagerank_info *info) {
  const double start = csri_seconds_now();
  csr_permutation *P = NULL;
  csr_matrix *B = NULL;
  csr_vector *p = NULL, *p_new = NULL, *r_new = NULL;
  csr_pagerank_options renumbered = *o;
  csr_status s = csr_reorder(ctx, A, method, &P);
  if (s >= 0)
    s = csr_permute(ctx, A, P, P, &B);
  if (s >= 0 && o->personalization != NULL) {
    s = csr_vector_clone(ctx, o->personalization, &p, A->location);
    if (s >= 0)
      s = csr_vector_create(ctx, &p_new, p->n, p->value_type, A->location);
    if (s >= 0)
      s = csr_permute_vector(ctx, P, CSR_PERMUTE_FORWARD, p, p_new);
    renumbered.personalization = p_new;
  }
  if (s >= 0)
    s = csr_vector_create(ctx, &r_new, ranks->n, ranks->value_type, ranks->location);
  const double renumbering = csri_seconds_now() - start;
  csr_status ran = s >= 0 ? rank(ctx, b, B, &renumbered, r_new, info) : s;
  if (ran >= 0) {
    s = csr_permute_vector(ctx, P, CSR_PERMUTE_BACKWARD, r_new, ranks);
    ran = s < 0 ? s : ran;
  }
  if (ran >= 0 && info) {
    info->reordered = method;
    info->reorder_seconds = renumbering;
  }
  csr_vector_free(&r_new);
  csr_vector_free(&p_new);
  csr_vector_free(&p);
  csr_matrix_free(&B);
  csr_permutation_free(&P);
  return ran;
}

csr_status csr_pagerank(csr_context *ctx, const csr_matrix *A, const csr_pagerank_options *options,
                        csr_vector *ranks, csr_pagerank_info *info) {
  csr_pagerank_options defaults;
  csr_pagerank_options_init(&defaults);
  const csr_pagerank_options *o = options ? options : &defaults;
  const csri_backend *b;
  CSRI_TRY(check(ctx, A, o, ranks, &b));
  if (o->reorder < CSR_REORDER_NONE || o->reorder > CSR_REORDER_APPEARANCE)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "PageRank: reorder %d is no csr_reorder_method",
                     (int)o->reorder);
  char why[sizeof info->reorder_reason];
  csr_reorder_method method = o->reorder;
  if (method == CSR_REORDER_AUTO)
    method = A->rows > 0 ? choose_order(A, o, why, sizeof why) : CSR_REORDER_NONE;
  else
    snprintf(why, sizeof why, "%s, as asked", csr_reorder_method_name(method));
  csr_pagerank_info done;
  csr_status s = method == CSR_REORDER_NONE || A->rows == 0
                     ? rank(ctx, b, A, o, ranks, &done)
                     : rank_renumbered(ctx, b, A, o, method, ranks, &done);
  if (s < 0)
    return s;
  snprintf(done.reorder_reason, sizeof done.reorder_reason, "%s", why);
  csri_set_last_backend(ctx, b->id);
  if (info)
    *info = done;
  return s;
}
