/* SPDX-License-Identifier: BSD-3-Clause */
/* PageRank across ranks, the iteration of csr_pagerank (src/graph/pagerank.c):
 *   r_i <- d (sum_{j->i} r_j a_ji / w_j + dangling / n) + (1 - d) p_i,  r = 1/n at the start,
 * on the pull graph M = A^T, distributed once by its own weights (a page's in-links), with the
 * out-weights moved from A's split to M's. Each iteration: y = M x (halo overlapped), then the
 * update with the next x = r / w, the L1 change and the next dangling sum, both exact sums across
 * ranks in one reduction. The update is one backend pass where the vectors live
 * (csri_pagerank_exact_update: the CPU backends on CPU ranks, a kernel on GPU ranks, whose ranks,
 * weights and teleport stay on the device): only the sums' words come to the host each
 * iteration, and the ranks once at the end. */
#include "graph/pagerank.h"
#include "dist/dist.h"
#include "kernels/rows.h"

#include <math.h>
#include <string.h>

/* The arrays on M's split: built on the host, then all placed where A lives at the end of the
 * set-up (`where` says where they are). */
typedef struct work {
  csr_dist_matrix *M;
  csr_location where;
  double *inv_w; /* 1 / out-weight on M's split (0: dangling) */
  double *p;     /* the teleport distribution on M's split, or NULL (uniform) */
  double *rank;  /* r on M's split, as doubles (the vector's type applied when stored) */
  csr_dist_vector *x, *y;
  int scale; /* x = r / w (M holds the links only), else x = r (M holds a_ji / w_j) */
} work;

static void work_free(work *w) {
  csr_dist_matrix_free(&w->M);
  csri_array_free(w->inv_w, w->where);
  csri_array_free(w->p, w->where);
  csri_array_free(w->rank, w->where);
  csr_dist_vector_free(&w->x);
  csr_dist_vector_free(&w->y);
}

static double value_at(const csr_matrix *m, int64_t k) {
  return csri_value_get(m->values, m->value_type, k);
}

/* The out-weights of this rank's rows of A (in A's local order): links, or weights summed in
 * stored order; the first bad one named. *zeros counts explicit zeros. */
static csr_status out_weights(csr_context *ctx, const csr_dist_matrix *A, int weighted,
                              double *inv_w, int64_t *dangling, int64_t *zeros) {
  const csr_matrix *part[2] = {A->interior, A->boundary};
  int64_t p = 0;
  for (int h = 0; h < 2; h++)
    for (int64_t i = 0; i < part[h]->rows; i++, p++) {
      double w = 0.0;
      for (int64_t k = part[h]->row_offsets[i]; k < part[h]->row_offsets[i + 1]; k++) {
        double a = part[h]->value_type == CSR_PATTERN ? 1.0 : value_at(part[h], k);
        *zeros += a == 0.0;
        if (!weighted)
          a = a != 0.0;
        if (!(a >= 0.0 && isfinite(a)))
          return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                           "weighted PageRank: a link of page %lld has weight %g (finite, >= 0 "
                           "expected)",
                           (long long)(A->rows->first + A->rows->order[p]), a);
        w += a;
      }
      if (w > 0.0 && !(isfinite(w) && isfinite(1.0 / w)))
        return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                         "weighted PageRank: page %lld's out-weights sum to %g, whose reciprocal "
                         "does not fit a double; rescale the weights",
                         (long long)(A->rows->first + A->rows->order[p]), w);
      inv_w[p] = w > 0.0 ? 1.0 / w : 0.0;
      *dangling += w == 0.0;
    }
  return CSR_SUCCESS;
}

/* This rank's links as M's triples (j, i, value): value = link weight / w_i, or none. */
static csr_status pull_triples(csr_context *ctx, const csr_dist_matrix *A, const double *inv_w,
                               int weighted, csr_value_type type, csri_dist_triples *t) {
  const csri_dist_layout *R = A->rows, *C = A->cols;
  CSRI_TRY(csri_dist_triples_make(ctx, t, A->interior->nnz + A->boundary->nnz, type));
  const csr_matrix *part[2] = {A->interior, A->boundary};
  int64_t p = 0, at = 0;
  for (int h = 0; h < 2; h++)
    for (int64_t i = 0; i < part[h]->rows; i++, p++) {
      int64_t row = R->first + R->order[p];
      for (int64_t k = part[h]->row_offsets[i]; k < part[h]->row_offsets[i + 1]; k++, at++) {
        int64_t c = part[h]->col_indices[k];
        t->row[at] = c >= C->count ? A->halo.ghost_columns[c - C->count] : C->first + C->order[c];
        t->col[at] = row;
        t->seq[at] = row;
        double a = part[h]->value_type == CSR_PATTERN ? 1.0 : value_at(part[h], k);
        double v = (weighted ? a : a != 0.0) * inv_w[p];
        if (type == CSR_F64)
          ((double *)t->values)[at] = v;
        else if (type == CSR_F32)
          ((float *)t->values)[at] = (float)v;
      }
    }
  return CSR_SUCCESS;
}

/* The personalization (rank 0's host vector) scaled to sum 1, on M's split. */
static csr_status teleport(csr_context *ctx, const csr_vector *v, work *w, int64_t n) {
  const csri_dist_layout *L = w->M->rows;
  int rank = L->rank;
  double *all = NULL, top = 0.0, sum = 0.0;
  csr_status status = CSR_SUCCESS;
  if (rank == 0) {
    if (v == NULL || v->location != CSR_HOST || v->n != n)
      status = CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                         "the personalization must be a host vector of %lld entries on rank 0",
                         (long long)n);
    for (int64_t i = 0; status >= 0 && i < n; i++) {
      double e = csri_value_get(v->data, v->value_type, i);
      if (!(e >= 0.0 && isfinite(e)))
        status = CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                           "personalization[%lld] = %g: finite and >= 0 expected", (long long)i, e);
      top = e > top ? e : top;
    }
    if (status >= 0 && !(top > 0.0))
      status = CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "personalization sums to 0");
    if (status >= 0 && !(all = csri_malloc(((size_t)n + 1) * sizeof *all)))
      status = CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating the personalization failed");
    for (int64_t i = 0; status >= 0 && i < n; i++)
      sum += csri_value_get(v->data, v->value_type, i) / top;
    for (int64_t i = 0; status >= 0 && i < n; i++)
      all[i] = csri_value_get(v->data, v->value_type, i) / top / sum;
  }
  w->p = csri_malloc(((size_t)L->count + 1) * sizeof *w->p);
  if (w->p == NULL && status >= 0)
    status = CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating the personalization failed");
  status = csri_dist_agree(ctx, L->comm, status);
  if (status >= 0) { /* rank 0's array, as a layout of one block, moved to M's split */
    int64_t *one = csri_calloc((size_t)L->size + 1, sizeof *one);
    csri_dist_layout whole = *L;
    status = one ? CSR_SUCCESS : CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating failed");
    status = csri_dist_agree(ctx, L->comm, status);
    if (status >= 0) {
      for (int r = 1; r <= L->size; r++)
        one[r] = n;
      whole.starts = one;
      whole.first = 0;
      whole.count = rank == 0 ? n : 0;
      whole.order = whole.position = NULL;
      status = csri_dist_move(ctx, &whole, all, L, w->p);
    }
    csri_free(one);
  }
  csri_free(all);
  return status;
}

static csr_status check(csr_context *ctx, const csr_dist_matrix *A, const csr_pagerank_options *o,
                        const csr_dist_vector *ranks) {
  if (A == NULL || ranks == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "PageRank: A and ranks must not be NULL");
  if (A->global_rows != A->global_cols || A->rows != A->cols ||
      !csri_dist_layout_same(ranks->layout, A->rows))
    return CSRI_FAIL(ctx, CSR_ERR_DIMENSION_MISMATCH,
                     "PageRank needs a square adjacency matrix and ranks laid out like its rows: "
                     "A is %lld x %lld, ranks has %lld entries",
                     (long long)A->global_rows, (long long)A->global_cols,
                     (long long)ranks->layout->n);
  if (ranks->location != A->location)
    return CSRI_FAIL(ctx, CSR_ERR_LOCATION_MISMATCH,
                     "PageRank: A and ranks live in different places");
  if (o->reorder != CSR_REORDER_NONE && o->reorder != CSR_REORDER_AUTO)
    return CSRI_FAIL(ctx, CSR_ERR_UNSUPPORTED,
                     "PageRank across processes keeps the pages' numbering: reorder %s is for one "
                     "process (AUTO and NONE keep it)",
                     csr_reorder_method_name(o->reorder));
  return csri_pagerank_check_options(ctx, o, A->value_type);
}

/* The weights, M, the vectors: everything before the first iteration. */
static csr_status setup_host(csr_context *ctx, const csr_dist_matrix *A, csr_location where,
                             const csr_pagerank_options *o, const csr_dist_vector *ranks, work *w,
                             int64_t *dangling_pages);

static csr_status setup(csr_context *ctx, const csr_dist_matrix *A, const csr_pagerank_options *o,
                        const csr_dist_vector *ranks, work *w, int64_t *dangling_pages) {
  if (A->location == CSR_DEVICE) { /* the set-up reads A's rows on the host */
    csr_dist_matrix view = *A;
    view.interior = view.boundary = NULL;
    csr_status status = csr_matrix_copy(ctx, A->interior, &view.interior, CSR_HOST);
    if (status >= 0)
      status = csr_matrix_copy(ctx, A->boundary, &view.boundary, CSR_HOST);
    view.location = CSR_HOST;
    status = csri_dist_agree(ctx, A->rows->comm, status);
    if (status >= 0)
      status = setup_host(ctx, &view, A->location, o, ranks, w, dangling_pages);
    csr_matrix_free(&view.interior);
    csr_matrix_free(&view.boundary);
    return status;
  }
  return setup_host(ctx, A, A->location, o, ranks, w, dangling_pages);
}

/* inv_w and p (host) moved to `where` and the ranks' array made there, all or nothing, so that
 * w->where says where every array is whatever fails. */
static csr_status place(csr_context *ctx, work *w, csr_location where) {
  const int64_t count = w->M->rows->count;
  const size_t bytes = (size_t)count * sizeof(double);
  void *rank = NULL, *inv_w = NULL, *p = NULL;
  csr_status status = csri_array_alloc(ctx, &rank, count, sizeof(double), where, 0);
  if (status >= 0 && where == CSR_DEVICE) {
    status = csri_array_alloc(ctx, &inv_w, count, sizeof(double), where, 0);
    if (status >= 0)
      status = csri_array_copy(ctx, inv_w, where, w->inv_w, CSR_HOST, bytes);
    if (status >= 0 && w->p != NULL)
      status = csri_array_alloc(ctx, &p, count, sizeof(double), where, 0);
    if (status >= 0 && w->p != NULL)
      status = csri_array_copy(ctx, p, where, w->p, CSR_HOST, bytes);
  }
  if (status < 0) {
    csri_array_free(rank, where);
    csri_array_free(inv_w, where);
    csri_array_free(p, where);
    return status;
  }
  w->rank = rank;
  if (where == CSR_DEVICE) {
    csri_free(w->inv_w);
    csri_free(w->p);
    w->inv_w = inv_w;
    w->p = p;
  }
  w->where = where;
  return CSR_SUCCESS;
}

/* The set-up from A's rows on the host; M and the vectors made at `where`. */
static csr_status setup_host(csr_context *ctx, const csr_dist_matrix *A, csr_location where,
                             const csr_pagerank_options *o, const csr_dist_vector *ranks, work *w,
                             int64_t *dangling_pages) {
  MPI_Comm comm = A->rows->comm;
  double *inv_w_a = csri_malloc(((size_t)A->rows->count + 1) * sizeof *inv_w_a);
  int64_t counts[2] = {0, 0}, all[2]; /* dangling pages, explicit zeros */
  csr_status status = inv_w_a ? out_weights(ctx, A, o->weighted, inv_w_a, &counts[0], &counts[1])
                              : CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating weights failed");
  status = csri_dist_agree(ctx, comm, status);
  if (status >= 0)
    CSRI_MPI(ctx, MPI_Allreduce(counts, all, 2, MPI_INT64_T, MPI_SUM, comm));
  *dangling_pages = all[0];
  csri_dist_triples t = {0};
  w->scale = !o->weighted && all[1] == 0; /* links only: M needs no values */
  if (status >= 0)
    status = csri_dist_agree(
        ctx, comm,
        pull_triples(ctx, A, inv_w_a, o->weighted, w->scale ? CSR_PATTERN : ranks->value_type, &t));
  if (status >= 0)
    status = csri_dist_from_triples(ctx, comm, A->global_rows, A->global_cols, &t, where, &w->M);
  csri_dist_triples_free(&t);
  if (status >= 0) {
    const csri_dist_layout *L = w->M->rows;
    w->inv_w = csri_malloc(((size_t)L->count + 1) * sizeof *w->inv_w);
    status = w->inv_w
                 ? CSR_SUCCESS
                 : CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating PageRank's weights failed");
    if (status >= 0)
      status = csri_dist_vector_make(ctx, w->M->cols, w->M->halo.ghosts, ranks->value_type, where,
                                     &w->x);
    if (status >= 0)
      status = csri_dist_vector_make(ctx, w->M->rows, 0, ranks->value_type, where, &w->y);
    status = csri_dist_agree(ctx, comm, status);
  }
  if (status >= 0)
    status = csri_dist_move(ctx, A->rows, inv_w_a, w->M->rows, w->inv_w);
  int personal = o->personalization != NULL; /* rank 0's say */
  if (status >= 0)
    CSRI_MPI(ctx, MPI_Bcast(&personal, 1, MPI_INT, 0, comm));
  if (status >= 0 && personal)
    status = teleport(ctx, o->personalization, w, A->global_rows);
  if (status >= 0)
    status = csri_dist_agree(ctx, comm, place(ctx, w, where));
  csri_free(inv_w_a);
  return status;
}

/* r = next (rounded to the ranks' type), x = the spread of r; the terms of the L1 change and of
 * the dangling sum into s, exactly. first: r = 1/n, no change counted. One pass of the backend
 * where the vectors live. */
static csr_status update(csr_context *ctx, work *w, double d, double base, int64_t n, int first,
                         csri_dist_sums *s) {
  const int64_t count = w->M->rows->count;
  csr_vector y = csri_dist_view(w->y, 0, count), x = csri_dist_view(w->x, 0, count);
  csri_pagerank_exact u = {.r = w->rank,
                           .y = first ? NULL : &y,
                           .x = &x,
                           .p = w->p,
                           .inv_w = w->inv_w,
                           .d = d,
                           .base = base,
                           .uniform = 1.0 / (double)n,
                           .scale = w->scale};
  return csri_pagerank_exact_update(ctx, &u, s->acc);
}

csr_status csr_dist_pagerank(csr_context *ctx, const csr_dist_matrix *A,
                             const csr_pagerank_options *options, csr_dist_vector *ranks,
                             csr_pagerank_info *info) {
  csr_pagerank_options defaults;
  csr_pagerank_options_init(&defaults);
  const csr_pagerank_options *o = options ? options : &defaults;
  MPI_Comm comm = A ? A->rows->comm : ranks ? ranks->layout->comm : MPI_COMM_SELF;
  CSRI_TRY(csri_dist_agree(ctx, comm, check(ctx, A, o, ranks)));
  csr_pagerank_info done = {0, 0.0, 0, 0.0, 0.0, 0, CSR_REORDER_NONE, 0.0, ""};
  int64_t n = A->global_rows;
  work w;
  memset(&w, 0, sizeof w);
  double start = MPI_Wtime();
  csr_status status = n == 0 ? CSR_SUCCESS : setup(ctx, A, o, ranks, &w, &done.dangling);
  if (status >= 0 && n > 0) {
    csri_dist_sums s;
    double sums[2] = {0.0, 0.0}; /* L1 change, dangling sum */
    csri_dist_sums_init(&s, 2);
    status =
        csri_dist_sums_finish(ctx, comm, &s, update(ctx, &w, o->damping, 0.0, n, 1, &s), 0u, sums);
    done.setup_seconds = MPI_Wtime() - start;
    start = MPI_Wtime();
    while (status >= 0 && done.iterations < o->max_iter) {
      double base = sums[1] / (double)n;
      csr_status local = csri_dist_spmv(ctx, 1.0, w.M, w.x, 0.0, w.y);
      csri_dist_sums_init(&s, 2);
      if (local >= 0)
        local = update(ctx, &w, o->damping, base, n, 0, &s);
      status = csri_dist_sums_finish(ctx, comm, &s, local, 0u, sums);
      if (status < 0)
        break;
      done.iterations++;
      done.l1_change = sums[0];
      if (o->progress)
        o->progress(o->progress_user, done.iterations, done.l1_change);
      if (done.l1_change < o->tol)
        break;
    }
    if (status >= 0)
      status = done.l1_change < o->tol ? CSR_SUCCESS : CSR_INFO_NOT_CONVERGED;
    done.iterate_seconds = MPI_Wtime() - start;
  }
  if (status >= 0 && n > 0) { /* r back to the ranks' split and type */
    double *back = csri_malloc(((size_t)ranks->layout->count + 1) * sizeof *back);
    csr_status s = csri_dist_agree(
        ctx, comm,
        back ? CSR_SUCCESS : CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating the ranks failed"));
    double *rank = w.rank; /* GPU ranks: copied down once */
    if (s >= 0 && w.where == CSR_DEVICE) {
      rank = csri_malloc(((size_t)w.M->rows->count + 1) * sizeof *rank);
      s = rank ? csri_array_copy(ctx, rank, CSR_HOST, w.rank, CSR_DEVICE,
                                 (size_t)w.M->rows->count * sizeof *rank)
               : CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating the ranks failed");
      s = csri_dist_agree(ctx, comm, s);
    }
    if (s >= 0)
      s = csri_dist_move(ctx, w.M->rows, rank, ranks->layout, back);
    if (rank != w.rank)
      csri_free(rank);
    if (s >= 0)
      s = csri_dist_store_local(ctx, ranks, back);
    csri_free(back);
    status = s < 0 ? s : status;
  }
  if (w.M != NULL) /* the pull graph's exchanges are A's PageRank's */
    ((csr_dist_matrix *)A)->comm_seconds += w.M->comm_seconds;
  work_free(&w);
  if (info && status >= 0)
    *info = done;
  return status;
}
