/* r = PageRank of the graph with adjacency A (A(i,j) != 0: a link i -> j), by power iteration
 * pulling along A^T: r_i <- d (sum_{j->i} r_j a_ji / w_j + dangling / n) + (1 - d) p_i. */
#include "ops/ops.h"

#include <math.h>

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
}

static double entry(const csr_vector *v, int64_t i) {
  return v->value_type == CSR_F64 ? ((const double *)v->data)[i] : ((const float *)v->data)[i];
}

/* The checks, and the backend of the rank passes (the one the SpMV of each iteration takes too). */
static csr_status check(csr_context *ctx, const csr_matrix *A, const csr_pagerank_options *o,
                        const csr_vector *ranks, const csri_backend **b) {
  CSRI_CHECK_NULL(ctx, A);
  CSRI_CHECK_NULL(ctx, o);
  CSRI_TRY(csri_check_vector(ctx, ranks, "ranks"));
  CSRI_TRY(CSRI_DISPATCH(ctx, A->location, graph.pagerank_update, "PageRank", b));
  if (ranks->location != A->location)
    return CSRI_FAIL(ctx, CSR_ERR_LOCATION_MISMATCH,
                     "PageRank: A and ranks live in different places");
  if (A->rows != A->cols || ranks->n != A->rows)
    return CSRI_FAIL(ctx, CSR_ERR_DIMENSION_MISMATCH,
                     "PageRank needs a square adjacency matrix and one rank per page: A is %lld x "
                     "%lld, ranks has %lld entries",
                     (long long)A->rows, (long long)A->cols, (long long)ranks->n);
  if (!(o->damping >= 0.0 && o->damping < 1.0) || !(o->tol > 0.0) || o->max_iter < 1)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "damping %g (0 <= d < 1), tol %g (> 0), max_iter %lld (>= 1) expected",
                     o->damping, o->tol, (long long)o->max_iter);
  if (o->weighted && A->value_type == CSR_PATTERN)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "weighted PageRank needs a matrix with values");
  const csr_vector *p = o->personalization;
  if (p == NULL)
    return CSR_SUCCESS;
  CSRI_TRY(csri_check_vector(ctx, p, "personalization"));
  if (p->location != CSR_HOST) /* read once, on the host, to scale it */
    return CSRI_FAIL(ctx, CSR_ERR_LOCATION_MISMATCH,
                     "PageRank: the personalization vector must be on the host");
  if (p->n != A->rows)
    return CSRI_FAIL(ctx, CSR_ERR_DIMENSION_MISMATCH,
                     "personalization has %lld entries for %lld pages", (long long)p->n,
                     (long long)A->rows);
  return CSR_SUCCESS;
}

/* The arrays of one run, released together. */
typedef struct work {
  double *inv_w; /* 1 / out-weight; 0 for a dangling page */
  double *p;     /* the teleport distribution, summing to 1; NULL: uniform */
  csr_matrix *AT;
  csr_vector *x, *y;
} work;

static void work_free(work *w) {
  csri_free(w->inv_w);
  csri_free(w->p);
  csr_matrix_free(&w->AT);
  csr_vector_free(&w->x);
  csr_vector_free(&w->y);
}

/* The weight of stored entry k as a link: its value when weighted, else 1 for a link and 0 for
 * an explicit zero (A(i,j) != 0 is a link; a pattern matrix stores links only). */
static double link_weight(const csr_matrix *A, int weighted, int64_t k) {
  if (A->value_type == CSR_PATTERN)
    return 1.0;
  double a =
      A->value_type == CSR_F64 ? ((const double *)A->values)[k] : ((const float *)A->values)[k];
  return weighted ? a : a != 0.0;
}

/* inv_w[i] = 1 / (out-degree, or row sum when weighted); 0 when the page has no out-weight.
 * *zeros counts explicit zeros (they are not links). */
static csr_status out_weights(csr_context *ctx, const csr_matrix *A, int weighted, double *inv_w,
                              int64_t *dangling, int64_t *zeros) {
  *dangling = *zeros = 0;
  for (int64_t i = 0; i < A->rows; i++) {
    double w = 0.0;
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++) {
      double a = link_weight(A, weighted, k);
      if (!(a >= 0.0 && isfinite(a)))
        return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                         "weighted PageRank: link %lld -> %d has weight %g (finite, >= 0 expected)",
                         (long long)i, A->col_indices[k], a);
      *zeros += link_weight(A, 0, k) == 0.0;
      w += a;
    }
    if (w > 0.0 && !(isfinite(w) && isfinite(1.0 / w)))
      return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                       "weighted PageRank: page %lld's out-weights sum to %g, whose reciprocal "
                       "does not fit a double; rescale the weights",
                       (long long)i, w);
    inv_w[i] = w > 0.0 ? 1.0 / w : 0.0;
    *dangling += w == 0.0;
  }
  return CSR_SUCCESS;
}

/* p scaled to sum 1 (NULL stays NULL: uniform). */
static csr_status teleport(csr_context *ctx, const csr_vector *v, double **p) {
  *p = NULL;
  if (v == NULL)
    return CSR_SUCCESS;
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
  if ((*p = csri_malloc((size_t)v->n * sizeof **p)) == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "personalization of %lld pages", (long long)v->n);
  for (int64_t i = 0; i < v->n; i++)
    (*p)[i] = entry(v, i) / top / sum;
  return CSR_SUCCESS;
}

/* AT = A^T as a pattern matrix, or (weighted, or unweighted with explicit zeros, which are not
 * links) with link_weight / w_j in the ranks' precision: each iteration is then one SpMV of the
 * precision asked for. */
static csr_status transposed(csr_context *ctx, const csr_matrix *A, int weighted, int64_t zeros,
                             const double *inv_w, csr_value_type type, csr_matrix **AT) {
  csr_matrix view = *A;
  if (!weighted &&
      zeros == 0) { /* links only: no value array to transpose or to read each iteration */
    view.value_type = CSR_PATTERN;
    view.values = NULL;
    return csr_transpose(ctx, &view, AT);
  }
  csr_matrix *T = NULL, *M = NULL;
  CSRI_TRY(csr_transpose(ctx, A, &T));
  csr_status s = csr_matrix_create(ctx, &M, T->rows, T->cols, T->nnz, type, CSR_HOST);
  if (s < 0) {
    csr_matrix_free(&T);
    return s;
  }
  for (int64_t i = 0; i <= T->rows; i++)
    M->row_offsets[i] = T->row_offsets[i];
  for (int64_t k = 0; k < T->nnz; k++) {
    double v = link_weight(T, weighted, k) * inv_w[T->col_indices[k]];
    M->col_indices[k] = T->col_indices[k];
    if (type == CSR_F64)
      ((double *)M->values)[k] = v;
    else
      ((float *)M->values)[k] = (float)v;
  }
  M->flags = T->flags;
  csr_matrix_free(&T);
  *AT = M;
  return CSR_SUCCESS;
}

static csr_status setup(csr_context *ctx, const csr_matrix *A, const csr_pagerank_options *o,
                        const csr_vector *ranks, work *w, int64_t *dangling) {
  int64_t n = A->rows;
  if ((w->inv_w = csri_malloc((size_t)n * sizeof *w->inv_w)) == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "out-weights of %lld pages", (long long)n);
  int64_t zeros = 0;
  CSRI_TRY(out_weights(ctx, A, o->weighted, w->inv_w, dangling, &zeros));
  CSRI_TRY(teleport(ctx, o->personalization, &w->p));
  CSRI_TRY(transposed(ctx, A, o->weighted, zeros, w->inv_w, ranks->value_type, &w->AT));
  CSRI_TRY(csr_vector_create(ctx, &w->x, n, ranks->value_type, CSR_HOST));
  return csr_vector_create(ctx, &w->y, n, ranks->value_type, CSR_HOST);
}

csr_status csr_pagerank(csr_context *ctx, const csr_matrix *A, const csr_pagerank_options *options,
                        csr_vector *ranks, csr_pagerank_info *info) {
  csr_pagerank_options defaults;
  csr_pagerank_options_init(&defaults);
  const csr_pagerank_options *o = options ? options : &defaults;
  const csri_backend *b;
  CSRI_TRY(check(ctx, A, o, ranks, &b));
  csr_pagerank_info done = {0, 0.0, 0};
  int64_t n = A->rows;
  work w = {NULL, NULL, NULL, NULL, NULL};
  csr_status status = n == 0 ? CSR_SUCCESS : setup(ctx, A, o, ranks, &w, &done.dangling);
  if (status >= 0 && n > 0)
    status = csr_fill(ctx, 1.0 / (double)n, ranks);
  if (status >= 0 && n > 0) {
    status = CSR_INFO_NOT_CONVERGED;
    int scale = w.AT->value_type == CSR_PATTERN;
    double d = o->damping, dangling = 0.0;
    csr_status s = b->graph.pagerank_spread(ctx, ranks, w.inv_w, scale, w.x, &dangling);
    if (s < 0)
      status = s;
    while (s >= 0 && done.iterations < o->max_iter) {
      s = csr_spmv(ctx, 1.0, w.AT, w.x, 0.0, w.y);
      double base = dangling / (double)n; /* the update also spreads for the next iteration */
      if (s >= 0)
        s = b->graph.pagerank_update(ctx, ranks, w.y, w.p, d, base, w.inv_w, scale, w.x, &dangling,
                                     &done.l1_change);
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
  }
  work_free(&w);
  if (status < 0)
    return status;
  csri_set_last_backend(ctx, b->id);
  if (info)
    *info = done;
  return status;
}
