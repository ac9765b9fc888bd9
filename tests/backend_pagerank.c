/* SPDX-License-Identifier: BSD-3-Clause */
/* csr_pagerank on one backend (argv: ref, omp, cuda; the graph and the ranks placed where it
 * runs) against a dense power iteration written here from the model in csr.h, on hand-worked and
 * random graphs: dangling pages, self-loops, duplicate links, weights, personalization, f64 and
 * f32; plus its statuses and errors. On the backends other than ref, larger graphs (short rows,
 * rows of 16 to 64, a few very long rows) against the reference backend, with every SpMV kernel
 * the GPU has, and the same bits on a repeat; the GPU runs the rows of 16 to 64 as an SpMV and an
 * update pass, the others in one fused pass (src/kernels/pagerank_plan.h). A backend without
 * PageRank must refuse it cleanly. */
#include "kernels/pagerank_plan.h"
#include "testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static csrt_rng rng;
static csr_backend backend;

/* csr_pagerank(ctx, A, o, r, info) on copies of the host A and r where the backend runs (the
 * personalization stays on the host); the ranks come back into the host r. */
static csr_status pagerank_placed(csr_context *ctx, const csr_matrix *A,
                                  const csr_pagerank_options *o, csr_vector *r,
                                  csr_pagerank_info *info) {
  csr_matrix *Ap = A ? csrt_place_matrix(backend, A) : NULL;
  csr_vector *rp = csrt_place_vector(backend, r);
  csr_status s = csr_pagerank(ctx, Ap, o, rp, info);
  csrt_set_vector(r, rp);
  csr_matrix_free(&Ap);
  csr_vector_free(&rp);
  return s;
}

/* The oracle: P (dense, column j = page j's out-links over its out-weight), then
 * r <- d (P r + dangling / n) + (1 - d) p from r = 1/n until the L1 change is below 1e-15. */
static void dense_pagerank(const csr_matrix *A, double d, int weighted, const double *p,
                           double *r) {
  int64_t n = A->rows;
  double *P = calloc((size_t)(n * n), sizeof *P), *w = calloc((size_t)n, sizeof *w),
         *next = malloc((size_t)n * sizeof *next);
  for (int64_t i = 0; i < n; i++)
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++)
      w[i] += weighted ? csrt_value(A->values, A->value_type, k) : 1.0;
  for (int64_t i = 0; i < n; i++)
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++)
      P[A->col_indices[k] * n + i] +=
          (weighted ? csrt_value(A->values, A->value_type, k) : 1.0) / w[i];
  for (int64_t i = 0; i < n; i++)
    r[i] = 1.0 / (double)n;
  for (int it = 0; it < 100000; it++) {
    double dangling = 0.0, change = 0.0;
    for (int64_t j = 0; j < n; j++)
      dangling += w[j] == 0.0 ? r[j] : 0.0;
    for (int64_t i = 0; i < n; i++) {
      double s = 0.0;
      for (int64_t j = 0; j < n; j++)
        s += P[i * n + j] * r[j];
      next[i] = d * (s + dangling / (double)n) + (1.0 - d) * (p ? p[i] : 1.0 / (double)n);
    }
    for (int64_t i = 0; i < n; i++) {
      change += fabs(next[i] - r[i]);
      r[i] = next[i];
    }
    if (change < 1e-15)
      break;
  }
  free(P);
  free(w);
  free(next);
}

static double l1_to(const csr_vector *r, const double *want) {
  double s = 0.0;
  for (int64_t i = 0; i < r->n; i++)
    s += fabs(csrt_value(r->data, r->value_type, i) - want[i]);
  return s;
}

/* The progress callback: called once per iteration, in order, with the run's last change. */
typedef struct progress_log {
  int64_t calls, last_iteration;
  double last_change;
} progress_log;
static void log_progress(void *user, int64_t iteration, double l1_change) {
  progress_log *log = user;
  log->calls++;
  CHECK(iteration == log->last_iteration + 1);
  log->last_iteration = iteration;
  log->last_change = l1_change;
}

/* Two pages, 0 -> 1, page 1 dangling: r0 = d r1 / 2 + (1 - d) / 2 with r0 + r1 = 1, so
 * r0 = 1 / (2 + d), r1 = (1 + d) / (2 + d).
 *     [ . 1 ]
 *     [ . . ]  */
static void test_hand(csr_context *ctx) {
  csr_matrix *A = NULL;
  CHECK_OK(ctx, csr_matrix_create(ctx, &A, 2, 2, 1, CSR_PATTERN, CSR_HOST));
  A->row_offsets[1] = A->row_offsets[2] = 1;
  A->col_indices[0] = 1;
  csr_vector *r = NULL;
  CHECK_OK(ctx, csr_vector_create(ctx, &r, 2, CSR_F64, CSR_HOST));
  csr_pagerank_options o;
  csr_pagerank_options_init(&o);
  o.tol = 1e-14;
  csr_pagerank_info info;
  CHECK_OK(ctx, pagerank_placed(ctx, A, &o, r, &info));
  const double *x = r->data;
  CHECKF(fabs(x[0] - 1.0 / 2.85) < 1e-13 && fabs(x[1] - 1.85 / 2.85) < 1e-13,
         "two pages: %.17g %.17g, expected %.17g %.17g", x[0], x[1], 1.0 / 2.85, 1.85 / 2.85);
  CHECK(info.dangling == 1 && info.iterations > 1 && info.l1_change < 1e-14);
  progress_log log = {0, 0, 0.0};
  o.progress = log_progress;
  o.progress_user = &log;
  CHECK_OK(ctx, pagerank_placed(ctx, A, &o, r, &info));
  CHECK(log.calls == info.iterations && log.last_change == info.l1_change);
  o.progress = NULL;
  /* Stopping at the limit says so, and leaves the last iterate. */
  o.max_iter = 2;
  CHECK_STATUS(ctx, pagerank_placed(ctx, A, &o, r, &info), CSR_INFO_NOT_CONVERGED);
  CHECK(info.iterations == 2 && fabs(x[0] + x[1] - 1.0) < 1e-15);
  csr_vector_free(&r);
  csr_matrix_free(&A);
}

/* An n-page graph with the row lengths len (freed here), random (possibly repeated, possibly
 * self) links; values made nonnegative for the weighted runs. */
static csr_matrix *graph_of_lengths(csr_context *ctx, int64_t n, int64_t *len,
                                    csr_value_type type) {
  csr_matrix *A = csrt_from_row_lengths(ctx, n, n, len, type, CSRT_RANDOM, &rng);
  free(len);
  for (int64_t k = 0; type != CSR_PATTERN && k < A->nnz; k++)
    if (type == CSR_F64)
      ((double *)A->values)[k] = fabs(((double *)A->values)[k]);
    else
      ((float *)A->values)[k] = fabsf(((float *)A->values)[k]);
  return A;
}

/* A random graph of n pages: row lengths 0 (dangling) to 6, one link repeated. */
static csr_matrix *random_graph(csr_context *ctx, int64_t n, csr_value_type type) {
  int64_t *len = malloc((size_t)n * sizeof *len);
  for (int64_t i = 0; i < n; i++)
    len[i] = csrt_below(&rng, 4) == 0 ? 0 : (int64_t)csrt_below(&rng, 7);
  csr_matrix *A = graph_of_lengths(ctx, n, len, type);
  if (A->nnz > 1) /* a repeated link counts twice */
    A->col_indices[1] = A->col_indices[0];
  return A;
}

static void test_random(csr_context *ctx) {
  const int64_t sizes[] = {1, 3, 17, 150};
  for (int s = 0; s < 4; s++)
    for (int variant = 0; variant < 4; variant++) { /* plain, weighted, personalized, f32 */
      int64_t n = sizes[s];
      csr_value_type rt = variant == 3 ? CSR_F32 : CSR_F64;
      csr_matrix *A = random_graph(ctx, n, variant == 1 ? CSR_F64 : CSR_PATTERN);
      csr_vector *r = NULL, *pv = NULL;
      CHECK_OK(ctx, csr_vector_create(ctx, &r, n, rt, CSR_HOST));
      double *p = NULL, *want = malloc((size_t)n * sizeof *want);
      csr_pagerank_options o;
      csr_pagerank_options_init(&o);
      o.tol = variant == 3 ? 1e-6 : 1e-13;
      o.damping = variant == 2 ? 0.7 : 0.85;
      o.weighted = variant == 1;
      if (variant == 2) {
        pv = csrt_random_vector(ctx, n, CSR_F64, &rng);
        p = malloc((size_t)n * sizeof *p);
        double sum = 0.0;
        for (int64_t i = 0; i < n; i++)
          sum += fabs(((double *)pv->data)[i]);
        for (int64_t i = 0; i < n; i++) {
          ((double *)pv->data)[i] = 3.0 * fabs(((double *)pv->data)[i]); /* scaled inside */
          p[i] = ((double *)pv->data)[i] / (3.0 * sum);
        }
        o.personalization = pv;
      }
      csr_pagerank_info info;
      csr_status st = pagerank_placed(ctx, A, &o, r, &info);
      CHECKF(st == CSR_SUCCESS, "n %lld variant %d: %s (%s)", (long long)n, variant,
             csr_status_string(st), csr_context_last_error(ctx));
      dense_pagerank(A, o.damping, o.weighted, p, want);
      double err = l1_to(r, want), bound = variant == 3 ? 1e-5 : 1e-11, sum = 0.0;
      for (int64_t i = 0; i < n; i++)
        sum += csrt_value(r->data, r->value_type, i);
      CHECKF(err < bound && fabs(sum - 1.0) < bound,
             "n %lld variant %d: L1 %.3g to the dense iteration (bound %.1g), sum %.17g",
             (long long)n, variant, err, bound, sum);
      free(p);
      free(want);
      csr_vector_free(&pv);
      csr_vector_free(&r);
      csr_matrix_free(&A);
    }
}

/* A graph of n pages whose row lengths follow `kind`: 0 short rows (0 to 8, a quarter dangling),
 * 1 rows of 16 to 64 with every tenth page dangling (so that the split form's update pass sums
 * dangling pages too), 2 short rows with every 5000th page linking to n / 3 pages. */
static csr_matrix *shaped_graph(csr_context *ctx, int64_t n, int kind, csr_value_type type) {
  int64_t *len = malloc((size_t)n * sizeof *len);
  for (int64_t i = 0; i < n; i++)
    len[i] = kind == 1 && i % 10 == 3     ? 0
             : kind == 1                  ? 16 + (int64_t)csrt_below(&rng, 49)
             : kind == 2 && i % 5000 == 7 ? n / 3
             : csrt_below(&rng, 4) == 0   ? 0
                                          : 1 + (int64_t)csrt_below(&rng, 8);
  return graph_of_lengths(ctx, n, len, type);
}

/* A host teleport distribution for personalized runs: n random positive entries (unscaled). */
static csr_vector *teleport_vector(csr_context *ctx, int64_t n) {
  csr_vector *p = csrt_random_vector(ctx, n, CSR_F64, &rng);
  for (int64_t i = 0; i < n; i++)
    ((double *)p->data)[i] = fabs(((double *)p->data)[i]);
  return p;
}

/* The backend's ranks against the reference backend's on the same graph: L1 below 1e-12 in f64
 * (the SpMV sums rows in another order), 1e-6 in f32; iterations within one; and the backend's
 * ranks the same bits on a second run. Every SpMV kernel is forced in turn (the CPU backends
 * ignore the choice). */
static void test_against_reference(csr_context *ctx) {
  csr_context *ref = csrt_context(CSR_BACKEND_REF);
  for (int kind = 0; kind < 3; kind++)
    for (int variant = 0; variant < 4; variant++) { /* plain, weighted, personalized, f32 */
      /* Under a sanitizer (csrt_quick) a tenth: still many tiles, and long rows. */
      const int64_t n = (kind == 1 ? 20000 : 60000) / (csrt_quick() ? 10 : 1);
      csr_matrix *A = shaped_graph(ctx, n, kind, variant == 1 ? CSR_F64 : CSR_PATTERN);
      /* Both forms of the GPU's iteration are tested (the pull graph has A's links and pages). */
      CHECKF(csri_pagerank_split(A->rows, A->nnz) == (kind == 1),
             "kind %d: %lld links on %lld pages, split %d: the GPU's two forms are not both tested",
             kind, (long long)A->nnz, (long long)A->rows, csri_pagerank_split(A->rows, A->nnz));
      csr_value_type rt = variant == 3 ? CSR_F32 : CSR_F64;
      csr_vector *want = NULL, *got = NULL, *again = NULL, *pv = NULL;
      CHECK_OK(ctx, csr_vector_create(ctx, &want, n, rt, CSR_HOST));
      CHECK_OK(ctx, csr_vector_create(ctx, &got, n, rt, CSR_HOST));
      CHECK_OK(ctx, csr_vector_create(ctx, &again, n, rt, CSR_HOST));
      csr_pagerank_options o;
      csr_pagerank_options_init(&o);
      o.tol = variant == 3 ? 1e-6 : 1e-11;
      o.weighted = variant == 1;
      csr_vector *p_placed = NULL;
      if (variant == 2) {
        pv = teleport_vector(ctx, n);
        p_placed = csrt_place_vector(backend, pv); /* the personalization where the graph is */
      }
      csr_pagerank_info ref_info, info, info2;
      o.personalization = pv;
      CHECK_OK(ref, csr_pagerank(ref, A, &o, want, &ref_info));
      o.personalization = p_placed;
      for (int k = 0; k < csrt_spmv_kernel_count(); k++) {
        if (k > 0 && backend != CSR_BACKEND_CUDA)
          break;
        CHECK_OK(ctx, csr_context_set_kernel(ctx, csrt_spmv_kernel(k)));
        CHECK_OK(ctx, pagerank_placed(ctx, A, &o, got, &info));
        CHECK_OK(ctx, pagerank_placed(ctx, A, &o, again, &info2));
        double err = 0.0;
        for (int64_t i = 0; i < n; i++)
          err += fabs(csrt_value(got->data, rt, i) - csrt_value(want->data, rt, i));
        const double bound = variant == 3 ? 1e-6 : 1e-12;
        CHECKF(err < bound && llabs(info.iterations - ref_info.iterations) <= 1 &&
                   info.dangling == ref_info.dangling,
               "kind %d variant %d kernel %s: L1 %.3g to the reference (bound %.0e), %lld "
               "iterations against %lld, %lld dangling against %lld",
               kind, variant, csr_spmv_kernel_name(csrt_spmv_kernel(k)), err, bound,
               (long long)info.iterations, (long long)ref_info.iterations, (long long)info.dangling,
               (long long)ref_info.dangling);
        CHECKF(memcmp(got->data, again->data, (size_t)n * (rt == CSR_F64 ? 8 : 4)) == 0 &&
                   info.l1_change == info2.l1_change,
               "kind %d variant %d kernel %s: a second run gave other bits", kind, variant,
               csr_spmv_kernel_name(csrt_spmv_kernel(k)));
        /* The pull graph's columns packed, then plain: the same bits. */
        o.compress = CSR_COMPRESS_ON;
        CHECK_OK(ctx, pagerank_placed(ctx, A, &o, got, &info));
        o.compress = CSR_COMPRESS_OFF;
        CHECK_OK(ctx, pagerank_placed(ctx, A, &o, again, &info2));
        o.compress = CSR_COMPRESS_AUTO;
        CHECKF(info.packed && !info2.packed &&
                   memcmp(got->data, again->data, (size_t)n * (rt == CSR_F64 ? 8 : 4)) == 0 &&
                   info.iterations == info2.iterations,
               "kind %d variant %d kernel %s: packed %d and plain %d runs differ", kind, variant,
               csr_spmv_kernel_name(csrt_spmv_kernel(k)), info.packed, info2.packed);
      }
      CHECK_OK(ctx, csr_context_set_kernel(ctx, CSR_KERNEL_AUTO));
      csr_vector_free(&p_placed);
      csr_vector_free(&pv);
      csr_vector_free(&want);
      csr_vector_free(&got);
      csr_vector_free(&again);
      csr_matrix_free(&A);
    }
  csr_context_free(&ref);
}

/* Renumbered pages (options.reorder): every method's ranks, back in the graph's numbering,
 * within L1 1e-12 of the run without renumbering (f64; 1e-6 f32), iterations within one, the
 * same dangling pages; weighted and personalized (the teleport vector renumbered too). AUTO on
 * a graph whose links lie near the diagonal, or a run too short to repay RCM, keeps the
 * numbering and says why; on a scattered graph and a long run on the host it takes RCM. */
static void test_renumbered(csr_context *ctx) {
  const csr_reorder_method methods[] = {CSR_REORDER_RCM, CSR_REORDER_DEGREE, CSR_REORDER_HUB,
                                        CSR_REORDER_APPEARANCE};
  const int64_t n = csrt_quick() ? 2000 : 20000;
  for (int variant = 0; variant < 4; variant++) { /* plain, weighted, personalized, f32 */
    csr_matrix *A = shaped_graph(ctx, n, 0, variant == 1 ? CSR_F64 : CSR_PATTERN);
    const csr_value_type rt = variant == 3 ? CSR_F32 : CSR_F64;
    csr_vector *plain = NULL, *got = NULL, *pv = NULL, *p_placed = NULL;
    CHECK_OK(ctx, csr_vector_create(ctx, &plain, n, rt, CSR_HOST));
    CHECK_OK(ctx, csr_vector_create(ctx, &got, n, rt, CSR_HOST));
    csr_pagerank_options o;
    csr_pagerank_options_init(&o);
    o.tol = variant == 3 ? 1e-6 : 1e-11;
    o.weighted = variant == 1;
    if (variant == 2) {
      pv = teleport_vector(ctx, n);
      p_placed = csrt_place_vector(backend, pv);
      o.personalization = p_placed;
    }
    csr_pagerank_info base, info;
    o.reorder = CSR_REORDER_NONE;
    CHECK_OK(ctx, pagerank_placed(ctx, A, &o, plain, &base));
    CHECK(base.reordered == CSR_REORDER_NONE);
    for (int m = 0; m < 4; m++) {
      o.reorder = methods[m];
      CHECK_OK(ctx, pagerank_placed(ctx, A, &o, got, &info));
      double err = 0.0;
      for (int64_t i = 0; i < n; i++)
        err += fabs(csrt_value(got->data, rt, i) - csrt_value(plain->data, rt, i));
      const double bound = variant == 3 ? 1e-6 : 1e-12;
      CHECKF(err < bound && llabs(info.iterations - base.iterations) <= 1 &&
                 info.dangling == base.dangling && info.reordered == methods[m] &&
                 strstr(info.reorder_reason, "as asked") != NULL && info.reorder_seconds >= 0.0,
             "variant %d, %s: L1 %.3g to the plain run (bound %.0e), %lld iterations against "
             "%lld, reordered %d (%s)",
             variant, csr_reorder_method_name(methods[m]), err, bound, (long long)info.iterations,
             (long long)base.iterations, (int)info.reordered, info.reorder_reason);
    }
    /* AUTO, default tolerance: too few iterations to repay RCM (or, on the GPU, not measured) */
    csr_pagerank_options_init(&o);
    CHECK_OK(ctx, pagerank_placed(ctx, A, &o, got, &info));
    CHECKF(info.reordered == CSR_REORDER_NONE && strstr(info.reorder_reason, ": none") != NULL,
           "AUTO on %lld pages: %s", (long long)n, info.reorder_reason);
    csr_vector_free(&p_placed);
    csr_vector_free(&pv);
    csr_vector_free(&plain);
    csr_vector_free(&got);
    csr_matrix_free(&A);
  }
  /* A scattered graph (2^18 pages, random links) and a run of 440 iterations: AUTO takes RCM on
   * the host, and still gives the ranks of the plain run. */
  if (csrt_quick())
    return;
  const int64_t big = 1 << 18;
  int64_t *len = malloc((size_t)big * sizeof *len);
  for (int64_t i = 0; i < big; i++)
    len[i] = 2;
  csr_matrix *A = graph_of_lengths(ctx, big, len, CSR_PATTERN);
  csr_vector *plain = NULL, *got = NULL;
  CHECK_OK(ctx, csr_vector_create(ctx, &plain, big, CSR_F64, CSR_HOST));
  CHECK_OK(ctx, csr_vector_create(ctx, &got, big, CSR_F64, CSR_HOST));
  csr_pagerank_options o;
  csr_pagerank_options_init(&o);
  o.tol = 1e-30; /* 440 iterations expected (fewer when the change reaches exactly 0) */
  o.max_iter = 440;
  csr_pagerank_info info, base;
  o.reorder = CSR_REORDER_NONE;
  CHECK(pagerank_placed(ctx, A, &o, plain, &base) >= 0); /* converged when the change hits 0 */
  o.reorder = CSR_REORDER_AUTO;
  CHECK(pagerank_placed(ctx, A, &o, got, &info) >= 0);
  const csr_reorder_method want = backend == CSR_BACKEND_CUDA ? CSR_REORDER_NONE : CSR_REORDER_RCM;
  double err = 0.0;
  for (int64_t i = 0; i < big; i++)
    err += fabs(((double *)got->data)[i] - ((double *)plain->data)[i]);
  CHECKF(info.reordered == want && err < 1e-12, "AUTO on a scattered graph: %s (L1 %.3g): %s",
         csr_reorder_method_name(info.reordered), err, info.reorder_reason);
  csr_vector_free(&plain);
  csr_vector_free(&got);
  csr_matrix_free(&A);
}

/* Graphs at the edges: one page without links, one page linking to itself, only dangling pages
 * (no links), and pages whose only links are self-loops: every rank is 1/n. */
static void test_shapes(csr_context *ctx) {
  for (int shape = 0; shape < 4; shape++) {
    const int64_t n = shape < 2 ? 1 : 1000;
    const int64_t nnz = shape == 1 ? 1 : shape == 3 ? n : 0;
    csr_matrix *A = NULL;
    CHECK_OK(ctx, csr_matrix_create(ctx, &A, n, n, nnz, CSR_PATTERN, CSR_HOST));
    for (int64_t i = 0; i < n; i++)
      A->row_offsets[i + 1] = nnz == 0 ? 0 : i + 1;
    for (int64_t k = 0; k < nnz; k++)
      A->col_indices[k] = (int32_t)k;
    for (int f = 0; f < 2; f++) {
      csr_vector *r = NULL;
      CHECK_OK(ctx, csr_vector_create(ctx, &r, n, f ? CSR_F32 : CSR_F64, CSR_HOST));
      csr_pagerank_info info;
      CHECK_OK(ctx, pagerank_placed(ctx, A, NULL, r, &info));
      double worst = 0.0;
      for (int64_t i = 0; i < n; i++)
        worst = fmax(worst, fabs(csrt_value(r->data, r->value_type, i) - 1.0 / (double)n));
      CHECKF(worst < (f ? 1e-7 / (double)n : 1e-16) && info.dangling == (nnz == 0 ? n : 0) &&
                 info.iterations >= 1,
             "shape %d %s: ranks off 1/n by up to %.3g, %lld dangling, %lld iterations", shape,
             f ? "f32" : "f64", worst, (long long)info.dangling, (long long)info.iterations);
      csr_vector_free(&r);
    }
    csr_matrix_free(&A);
  }
}

/* OpenMP: the same bits at any thread count (fixed chunks, partials in chunk order). */
static void test_threads(csr_context *ctx) {
  csr_matrix *A = random_graph(ctx, 30000, CSR_PATTERN);
  csr_vector *r1 = NULL, *r4 = NULL;
  CHECK_OK(ctx, csr_vector_create(ctx, &r1, A->rows, CSR_F64, CSR_HOST));
  CHECK_OK(ctx, csr_vector_create(ctx, &r4, A->rows, CSR_F64, CSR_HOST));
  CHECK_OK(ctx, csr_context_set_threads(ctx, 1));
  CHECK_OK(ctx, pagerank_placed(ctx, A, NULL, r1, NULL));
  CHECK_OK(ctx, csr_context_set_threads(ctx, 4));
  CHECK_OK(ctx, pagerank_placed(ctx, A, NULL, r4, NULL));
  CHECK(memcmp(r1->data, r4->data, (size_t)A->rows * 8) == 0);
  CHECK_OK(ctx, csr_context_set_threads(ctx, 0));
  csr_vector_free(&r1);
  csr_vector_free(&r4);
  csr_matrix_free(&A);
}

static void test_errors(csr_context *ctx) {
  csr_matrix *A = NULL, *R = NULL;
  CHECK_OK(ctx, csr_matrix_create(ctx, &A, 3, 3, 0, CSR_PATTERN, CSR_HOST));
  CHECK_OK(ctx, csr_matrix_create(ctx, &R, 3, 4, 0, CSR_F64, CSR_HOST));
  csr_vector *r = NULL, *r2 = NULL, *p = NULL;
  CHECK_OK(ctx, csr_vector_create(ctx, &r, 3, CSR_F64, CSR_HOST));
  CHECK_OK(ctx, csr_vector_create(ctx, &r2, 2, CSR_F64, CSR_HOST));
  CHECK_OK(ctx, csr_vector_create(ctx, &p, 3, CSR_F64, CSR_HOST));
  csr_pagerank_options o;
  csr_pagerank_options_init(&o);
  CHECK_STATUS(ctx, pagerank_placed(ctx, NULL, &o, r, NULL), CSR_ERR_NULL_POINTER);
  CHECK_STATUS(ctx, pagerank_placed(ctx, R, &o, r, NULL), CSR_ERR_DIMENSION_MISMATCH);
  CHECK_STATUS(ctx, pagerank_placed(ctx, A, &o, r2, NULL), CSR_ERR_DIMENSION_MISMATCH);
  o.damping = 1.0;
  CHECK_STATUS(ctx, pagerank_placed(ctx, A, &o, r, NULL), CSR_ERR_INVALID_VALUE);
  csr_pagerank_options_init(&o);
  o.tol = 0.0;
  CHECK_STATUS(ctx, pagerank_placed(ctx, A, &o, r, NULL), CSR_ERR_INVALID_VALUE);
  csr_pagerank_options_init(&o);
  o.weighted = 1; /* a pattern matrix has no weights */
  CHECK_STATUS(ctx, pagerank_placed(ctx, A, &o, r, NULL), CSR_ERR_INVALID_VALUE);
  csr_pagerank_options_init(&o);
  o.personalization = p; /* all zero */
  CHECK_STATUS(ctx, pagerank_placed(ctx, A, &o, r, NULL), CSR_ERR_INVALID_VALUE);
  ((double *)p->data)[1] = -1.0;
  CHECK_STATUS(ctx, pagerank_placed(ctx, A, &o, r, NULL), CSR_ERR_INVALID_VALUE);
  /* A graph with no links: every page dangling, all ranks 1/n. */
  csr_pagerank_options_init(&o);
  csr_pagerank_info info;
  CHECK_OK(ctx, pagerank_placed(ctx, A, &o, r, &info));
  CHECK(info.dangling == 3 && fabs(((double *)r->data)[2] - 1.0 / 3.0) < 1e-15);
  /* A negative weight. */
  csr_matrix *W = NULL;
  CHECK_OK(ctx, csr_matrix_create(ctx, &W, 3, 3, 1, CSR_F64, CSR_HOST));
  W->row_offsets[1] = W->row_offsets[2] = W->row_offsets[3] = 1;
  W->col_indices[0] = 2;
  ((double *)W->values)[0] = -0.5;
  o.weighted = 1;
  CHECK_STATUS(ctx, pagerank_placed(ctx, W, &o, r, NULL), CSR_ERR_INVALID_VALUE);
  /* No pages. */
  csr_matrix *E = NULL;
  csr_vector *r0 = NULL;
  CHECK_OK(ctx, csr_matrix_create(ctx, &E, 0, 0, 0, CSR_PATTERN, CSR_HOST));
  CHECK_OK(ctx, csr_vector_create(ctx, &r0, 0, CSR_F64, CSR_HOST));
  CHECK_OK(ctx, pagerank_placed(ctx, E, NULL, r0, &info));
  CHECK(info.iterations == 0);
  csr_matrix_free(&E);
  csr_vector_free(&r0);
  csr_matrix_free(&W);
  csr_vector_free(&p);
  csr_vector_free(&r);
  csr_vector_free(&r2);
  csr_matrix_free(&A);
  csr_matrix_free(&R);
}

/* Inputs at the edges of double (found in review): weights whose sum or reciprocal does not fit
 * are refused; a huge teleport vector still sums to 1; an explicit zero is not a link. */
static void test_extremes(csr_context *ctx) {
  csr_matrix *W = NULL;
  csr_vector *r = NULL, *p = NULL;
  CHECK_OK(ctx, csr_matrix_create(ctx, &W, 3, 3, 3, CSR_F64, CSR_HOST));
  CHECK_OK(ctx, csr_vector_create(ctx, &r, 3, CSR_F64, CSR_HOST));
  CHECK_OK(ctx, csr_vector_create(ctx, &p, 3, CSR_F64, CSR_HOST));
  /* A 3-cycle 0 -> 1 -> 2 -> 0:
   *   [ . a . ]
   *   [ . . b ]
   *   [ c . . ]  */
  for (int i = 0; i < 3; i++) {
    W->row_offsets[i + 1] = i + 1;
    W->col_indices[i] = (i + 1) % 3;
    ((double *)W->values)[i] = 1.0;
  }
  csr_pagerank_options o;
  csr_pagerank_options_init(&o);
  o.weighted = 1;
  ((double *)W->values)[0] = 1e-320; /* 1 / w overflows */
  CHECK_STATUS(ctx, pagerank_placed(ctx, W, &o, r, NULL), CSR_ERR_INVALID_VALUE);
  ((double *)W->values)[0] = 1.0;
  /* Teleport entries whose plain sum overflows: p ~ (1/2, 1/2, 0). */
  ((double *)p->data)[0] = ((double *)p->data)[1] = 1e308;
  ((double *)p->data)[2] = 1.0;
  o.weighted = 0;
  o.personalization = p;
  o.tol = 1e-14;
  CHECK_OK(ctx, pagerank_placed(ctx, W, &o, r, NULL));
  double want[3], pn[3] = {0.5, 0.5, 0.5e-308};
  dense_pagerank(W, o.damping, 0, pn, want);
  CHECKF(l1_to(r, want) < 1e-12, "huge personalization: L1 %.3g", l1_to(r, want));
  /* An explicit zero is not a link: with (0, 1) stored as 0, page 0 dangles. */
  ((double *)W->values)[0] = 0.0;
  o.personalization = NULL;
  csr_pagerank_info info;
  CHECK_OK(ctx, pagerank_placed(ctx, W, &o, r, &info));
  csr_matrix *L = NULL; /* the same graph without the zero: links 1 -> 2, 2 -> 0 */
  CHECK_OK(ctx, csr_matrix_create(ctx, &L, 3, 3, 2, CSR_PATTERN, CSR_HOST));
  L->row_offsets[1] = 0, L->row_offsets[2] = 1, L->row_offsets[3] = 2;
  L->col_indices[0] = 2, L->col_indices[1] = 0;
  dense_pagerank(L, o.damping, 0, NULL, want);
  CHECKF(info.dangling == 1 && l1_to(r, want) < 1e-12, "explicit zero: dangling %lld, L1 %.3g",
         (long long)info.dangling, l1_to(r, want));
  /* Weights whose row sum overflows. */
  ((double *)W->values)[0] = 1e308;
  W->row_offsets[1] = 2, W->row_offsets[2] = 2; /* row 0: (0,1) and (0,2) weigh 1e308 each */
  W->col_indices[1] = 2, ((double *)W->values)[1] = 1e308;
  o.weighted = 1;
  CHECK_STATUS(ctx, pagerank_placed(ctx, W, &o, r, NULL), CSR_ERR_INVALID_VALUE);
  csr_matrix_free(&L);
  csr_matrix_free(&W);
  csr_vector_free(&r);
  csr_vector_free(&p);
}

/* A backend without PageRank: device operands are refused, with the reason, and nothing runs. */
static void test_refused(csr_context *ctx) {
  csr_matrix *A = NULL;
  csr_vector *r = NULL;
  CHECK_OK(ctx, csr_matrix_create(ctx, &A, 2, 2, 1, CSR_PATTERN, CSR_HOST));
  A->row_offsets[1] = A->row_offsets[2] = 1;
  A->col_indices[0] = 1;
  CHECK_OK(ctx, csr_vector_create(ctx, &r, 2, CSR_F64, CSR_HOST));
  CHECK_STATUS(ctx, pagerank_placed(ctx, A, NULL, r, NULL), CSR_ERR_UNSUPPORTED);
  CHECK(strstr(csr_context_last_error(ctx), "PageRank is not in the CUDA backend") != NULL);
  printf("PageRank is not in the %s backend: its refusal checked\n", csr_backend_name(backend));
  csr_vector_free(&r);
  csr_matrix_free(&A);
}

int main(int argc, char **argv) {
  backend = csrt_backend_from_args(argc, argv);
  rng.state = csrt_seed("backend_pagerank");
  csr_context *ctx = csrt_context(backend);
  if (!CSRT_IMPLEMENTS(backend, graph.pagerank_weights)) {
    test_refused(ctx);
    csr_context_free(&ctx);
    return csrt_finish("backend_pagerank");
  }
  test_hand(ctx);
  test_random(ctx);
  test_errors(ctx);
  test_extremes(ctx);
  test_shapes(ctx);
  if (backend != CSR_BACKEND_REF)
    test_against_reference(ctx);
  if (backend == CSR_BACKEND_OMP)
    test_threads(ctx);
  test_renumbered(ctx);
  csr_context_free(&ctx);
  return csrt_finish("backend_pagerank");
}
