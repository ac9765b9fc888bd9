/* SPDX-License-Identifier: BSD-3-Clause */
/* Distributed vectors: each rank's entries in its layout's order, then room for the ghosts of
 * the matrix it was made for (the halo lands there, so the local product reads x as one array).
 * Element-wise operations are the single-process ones on each rank's entries. */
#include "dist/dist.h"
#include "ops/ops.h"

#include <string.h>

csr_vector csri_dist_view(const csr_dist_vector *v, int64_t begin, int64_t end) {
  csr_vector view;
  memset(&view, 0, sizeof view);
  view.n = end - begin;
  view.data = (char *)v->data + (size_t)begin * csri_value_size(v->value_type);
  view.value_type = v->value_type;
  view.location = v->location;
  view.owns_data = 0;
  return view;
}

csr_status csri_dist_vector_make(csr_context *ctx, csri_dist_layout *L, int64_t ghosts,
                                 csr_value_type type, csr_location location, csr_dist_vector **v) {
  *v = NULL;
  CSRI_TRY(csri_check_value_type(ctx, type, 0));
  CSRI_TRY(csri_check_location(ctx, location));
  csr_dist_vector *w = csri_calloc(1, sizeof *w);
  if (w == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating a distributed vector failed");
  w->capacity = L->count + ghosts;
  w->value_type = type;
  w->location = location;
  csr_status status = csri_array_alloc(ctx, &w->data, w->capacity, csri_value_size(type), location,
                                       CSRI_ARRAY_ZERO);
  if (status < 0) {
    csri_free(w);
    return status;
  }
  w->layout = L;
  csri_dist_layout_retain(L);
  *v = w;
  return CSR_SUCCESS;
}

csr_status csr_dist_vector_create(csr_context *ctx, const csr_dist_matrix *A, csr_dist_side side,
                                  csr_value_type value_type, csr_location location,
                                  csr_dist_vector **v) {
  if (v == NULL || A == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "A and v must not be NULL");
  *v = NULL;
  MPI_Comm comm = A->rows->comm;
  csr_status status = CSR_SUCCESS;
  if (side != CSR_DIST_ROWS && side != CSR_DIST_COLS)
    status =
        CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "side %d: CSR_DIST_ROWS or CSR_DIST_COLS", (int)side);
  else if (location != A->location)
    status = CSRI_FAIL(ctx, CSR_ERR_LOCATION_MISMATCH, "a vector on the %s for a matrix on the %s",
                       location ? "device" : "host", A->location ? "device" : "host");
  else {
    /* Column vectors (and a square matrix's, which are both) get room for A's ghosts. */
    csri_dist_layout *L = side == CSR_DIST_ROWS ? A->rows : A->cols;
    int64_t ghosts = L == A->cols ? A->halo.ghosts : 0;
    status = csri_dist_vector_make(ctx, L, ghosts, value_type, location, v);
  }
  status = csri_dist_agree(ctx, comm, status);
  if (status < 0)
    csr_dist_vector_free(v);
  return status;
}

void csr_dist_vector_free(csr_dist_vector **v) {
  if (v == NULL || *v == NULL)
    return;
  csri_array_free((*v)->data, (*v)->location);
  csri_dist_layout_release(&(*v)->layout);
  csri_free(*v);
  *v = NULL;
}

void csr_dist_vector_size(const csr_dist_vector *v, int64_t *n, int64_t *first, int64_t *count) {
  if (n)
    *n = v ? v->layout->n : 0;
  if (first)
    *first = v ? v->layout->first : 0;
  if (count)
    *count = v ? v->layout->count : 0;
}

/* This rank's entries as doubles in global order, through a host copy when v is on the device. */
csr_status csr_dist_vector_get_local(csr_context *ctx, const csr_dist_vector *v, double *values) {
  CSRI_CHECK_NULL(ctx, v);
  const csri_dist_layout *L = v->layout;
  if (values == NULL && L->count > 0)
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "values must not be NULL");
  size_t vb = csri_value_size(v->value_type);
  void *host = v->data;
  if (v->location == CSR_DEVICE) {
    host = csri_malloc((size_t)L->count * vb + 1);
    if (host == NULL)
      return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating a host copy failed");
    csr_status status =
        csri_array_copy(ctx, host, CSR_HOST, v->data, CSR_DEVICE, (size_t)L->count * vb);
    if (status < 0) {
      csri_free(host);
      return status;
    }
  }
  for (int64_t p = 0; p < L->count; p++) {
    int64_t g = L->order ? L->order[p] : p;
    values[g] = v->value_type == CSR_F64 ? ((const double *)host)[p] : ((const float *)host)[p];
  }
  if (host != v->data)
    csri_free(host);
  return CSR_SUCCESS;
}

csr_status csr_dist_vector_set_local(csr_context *ctx, csr_dist_vector *v, const double *values) {
  CSRI_CHECK_NULL(ctx, v);
  const csri_dist_layout *L = v->layout;
  if (values == NULL && L->count > 0)
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "values must not be NULL");
  size_t vb = csri_value_size(v->value_type);
  void *host = v->location == CSR_DEVICE ? csri_malloc((size_t)L->count * vb + 1) : v->data;
  if (host == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating a host copy failed");
  for (int64_t p = 0; p < L->count; p++) {
    double x = values[L->order ? L->order[p] : p];
    if (v->value_type == CSR_F64)
      ((double *)host)[p] = x;
    else
      ((float *)host)[p] = (float)x;
  }
  csr_status status = CSR_SUCCESS;
  if (host != v->data) {
    status = csri_array_copy(ctx, v->data, CSR_DEVICE, host, CSR_HOST, (size_t)L->count * vb);
    csri_free(host);
  }
  return status;
}

/* Counts and displacements of each rank's block, for MPI_Scatterv / MPI_Gatherv. */
static csr_status block_counts(csr_context *ctx, const csri_dist_layout *L, int **count,
                               int **displ) {
  *count = csri_malloc((size_t)L->size * sizeof **count);
  *displ = csri_malloc((size_t)L->size * sizeof **displ);
  if (*count == NULL || *displ == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating block counts failed");
  for (int r = 0; r < L->size; r++) {
    if (L->starts[r + 1] > INT32_MAX)
      return CSRI_FAIL(ctx, CSR_ERR_OVERFLOW,
                       "a vector of %lld entries: more than one MPI message holds",
                       (long long)L->n);
    (*count)[r] = (int)(L->starts[r + 1] - L->starts[r]);
    (*displ)[r] = (int)L->starts[r];
  }
  return CSR_SUCCESS;
}

/* The checks of a root-side vector argument (root only). */
static csr_status check_global(csr_context *ctx, const csr_dist_vector *v, int root, int rank,
                               const csr_vector *global) {
  if (v == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "v must not be NULL");
  if (root < 0 || root >= v->layout->size)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "root %d: not a rank of %d", root,
                     v->layout->size);
  if (rank != root)
    return CSR_SUCCESS;
  CSRI_TRY(csri_check_vector(ctx, global, "global"));
  if (global->n != v->layout->n)
    return CSRI_FAIL(ctx, CSR_ERR_DIMENSION_MISMATCH,
                     "the global vector has %lld entries, not %lld", (long long)global->n,
                     (long long)v->layout->n);
  if (global->location != CSR_HOST)
    return CSRI_FAIL(ctx, CSR_ERR_LOCATION_MISMATCH, "the global vector must be on the host");
  return CSR_SUCCESS;
}

/* Moves doubles between root's global array and every rank's block: scatter or gather. */
static csr_status move(csr_context *ctx, csr_dist_vector *v, int root, csr_vector *global,
                       int scatter) {
  int rank = 0;
  MPI_Comm comm = v ? v->layout->comm : MPI_COMM_SELF; /* no vector: nothing to wait for */
  MPI_Comm_rank(comm, &rank);
  CSRI_TRY(csri_dist_agree(ctx, comm, check_global(ctx, v, root, rank, global)));
  const csri_dist_layout *L = v->layout;
  int *count = NULL, *displ = NULL;
  double *all = NULL, *mine = csri_malloc(((size_t)L->count + 1) * sizeof *mine);
  csr_status status = mine ? block_counts(ctx, L, &count, &displ)
                           : CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating a block failed");
  if (status >= 0 && rank == root) {
    all = csri_malloc(((size_t)L->n + 1) * sizeof *all);
    if (all == NULL)
      status =
          CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating %lld entries failed", (long long)L->n);
    for (int64_t i = 0; all && scatter && i < L->n; i++)
      all[i] = global->value_type == CSR_F64 ? ((const double *)global->data)[i]
                                             : ((const float *)global->data)[i];
  }
  if (status >= 0 && !scatter)
    status = csr_dist_vector_get_local(ctx, v, mine);
  status = csri_dist_agree(ctx, comm, status);
  if (status >= 0) {
    int code = scatter ? MPI_Scatterv(all, count, displ, MPI_DOUBLE, mine, (int)L->count,
                                      MPI_DOUBLE, root, comm)
                       : MPI_Gatherv(mine, (int)L->count, MPI_DOUBLE, all, count, displ, MPI_DOUBLE,
                                     root, comm);
    status = code == MPI_SUCCESS ? CSR_SUCCESS : csri_dist_mpi_error(ctx, code, "MPI_Scatterv");
    if (status >= 0 && scatter)
      status = csr_dist_vector_set_local(ctx, v, mine);
    for (int64_t i = 0; status >= 0 && !scatter && rank == root && i < L->n; i++) {
      if (global->value_type == CSR_F64)
        ((double *)global->data)[i] = all[i];
      else
        ((float *)global->data)[i] = (float)all[i];
    }
    status = csri_dist_agree(ctx, comm, status);
  }
  csri_free(count);
  csri_free(displ);
  csri_free(all);
  csri_free(mine);
  return status;
}

csr_status csr_dist_vector_scatter(csr_context *ctx, csr_dist_vector *v, int root,
                                   const csr_vector *global) {
  return move(ctx, v, root, (csr_vector *)global, 1);
}

csr_status csr_dist_vector_gather(csr_context *ctx, const csr_dist_vector *v, int root,
                                  csr_vector *global) {
  return move(ctx, (csr_dist_vector *)v, root, global, 0);
}

csr_status csri_dist_check_vectors(csr_context *ctx, const char *what, const csr_dist_vector *a,
                                   const csr_dist_vector *b) {
  if (a == NULL || b == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "%s: a vector is NULL", what);
  if (!csri_dist_layout_same(a->layout, b->layout))
    return CSRI_FAIL(ctx, CSR_ERR_DIMENSION_MISMATCH,
                     "%s: the vectors are laid out differently (%lld and %lld entries, or "
                     "another split or communicator)",
                     what, (long long)a->layout->n, (long long)b->layout->n);
  if (a->value_type != b->value_type)
    return CSRI_FAIL(ctx, CSR_ERR_TYPE_MISMATCH, "%s: the vectors differ in value type", what);
  if (a->location != b->location)
    return CSRI_FAIL(ctx, CSR_ERR_LOCATION_MISMATCH, "%s: the vectors live in different places",
                     what);
  return CSR_SUCCESS;
}

/* The communicator of an operand, for agreeing when the operands themselves may be bad: a NULL
 * operand on every rank is agreed on over MPI_COMM_SELF (nothing to wait for). */
static MPI_Comm comm_of(const csr_dist_vector *a, const csr_dist_vector *b) {
  return a ? a->layout->comm : b ? b->layout->comm : MPI_COMM_SELF;
}

csr_status csr_dist_axpby(csr_context *ctx, double alpha, const csr_dist_vector *x, double beta,
                          csr_dist_vector *y) {
  csr_status status = csri_dist_check_vectors(ctx, "axpby", x, y);
  if (status >= 0) {
    csr_vector xv = csri_dist_view(x, 0, x->layout->count),
               yv = csri_dist_view(y, 0, y->layout->count);
    status = csr_axpby(ctx, alpha, &xv, beta, &yv);
  }
  return csri_dist_agree(ctx, comm_of(x, y), status);
}

csr_status csr_dist_copy(csr_context *ctx, const csr_dist_vector *x, csr_dist_vector *y) {
  csr_status status = csri_dist_check_vectors(ctx, "copy", x, y);
  if (status >= 0) {
    csr_vector xv = csri_dist_view(x, 0, x->layout->count),
               yv = csri_dist_view(y, 0, y->layout->count);
    status = csr_copy(ctx, &xv, &yv);
  }
  return csri_dist_agree(ctx, comm_of(x, y), status);
}

csr_status csr_dist_fill(csr_context *ctx, double alpha, csr_dist_vector *x) {
  csr_status status = x ? CSR_SUCCESS : CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "x is NULL");
  if (status >= 0) {
    csr_vector xv = csri_dist_view(x, 0, x->layout->count);
    status = csr_fill(ctx, alpha, &xv);
  }
  return csri_dist_agree(ctx, comm_of(x, NULL), status);
}

csr_status csri_dist_store_local(csr_context *ctx, csr_dist_vector *v, const double *values) {
  int64_t n = v->layout->count;
  size_t vb = csri_value_size(v->value_type);
  void *typed = csri_malloc((size_t)n * vb + 1);
  if (typed == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating a host copy failed");
  for (int64_t p = 0; p < n; p++)
    if (v->value_type == CSR_F64)
      ((double *)typed)[p] = values[p];
    else
      ((float *)typed)[p] = (float)values[p];
  csr_status status = csri_array_copy(ctx, v->data, v->location, typed, CSR_HOST, (size_t)n * vb);
  csri_free(typed);
  return status;
}

csr_status csri_dist_load_local(csr_context *ctx, const csr_dist_vector *v, double *values) {
  int64_t n = v->layout->count;
  size_t vb = csri_value_size(v->value_type);
  void *typed = v->data;
  if (v->location == CSR_DEVICE) {
    typed = csri_malloc((size_t)n * vb + 1);
    if (typed == NULL)
      return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating a host copy failed");
    csr_status status = csri_array_copy(ctx, typed, CSR_HOST, v->data, CSR_DEVICE, (size_t)n * vb);
    if (status < 0) {
      csri_free(typed);
      return status;
    }
  }
  for (int64_t p = 0; p < n; p++)
    values[p] = v->value_type == CSR_F64 ? ((const double *)typed)[p] : ((const float *)typed)[p];
  if (typed != v->data)
    csri_free(typed);
  return CSR_SUCCESS;
}
