/* SPDX-License-Identifier: BSD-3-Clause */
/* One rank's rows from its triples: each row sorted by column and its duplicates summed in
 * sequence order (csr_from_coo's rule, so a row is stored as on one process), the halo plan
 * (src/kernels/dist_plan.h), the rows reordered interior first, and the two parts made where
 * the matrix lives. */
#include "dist/dist.h"
#include "kernels/dist_plan.h"

#include <string.h>

typedef struct entry {
  int64_t col, seq, at; /* at: the triple's place, to read its value */
} entry;

static int entry_order(const void *a, const void *b) {
  const entry *x = a, *y = b;
  if (x->col != y->col)
    return (x->col > y->col) - (x->col < y->col);
  return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The local rows as CSR with global columns: off (count + 1), col, values. */
typedef struct rows_csr {
  int64_t count, nnz;
  int64_t *off, *col;
  void *values;
} rows_csr;

static void rows_free(rows_csr *r) {
  csri_free(r->off);
  csri_free(r->col);
  csri_free(r->values);
}

/* Sorts and merges the triples of rows [first, first + count) into r. */
static csr_status merge_rows(csr_context *ctx, int64_t first, int64_t count,
                             const csri_dist_triples *t, rows_csr *r) {
  size_t vb = csri_value_size(t->value_type);
  r->count = count;
  r->off = csri_calloc((size_t)count + 2, sizeof *r->off);
  entry *e = csri_malloc((size_t)(t->count > 0 ? t->count : 1) * sizeof *e);
  r->col = csri_malloc((size_t)(t->count > 0 ? t->count : 1) * sizeof *r->col);
  r->values = vb ? csri_malloc((size_t)(t->count > 0 ? t->count : 1) * vb) : NULL;
  if (r->off == NULL || e == NULL || r->col == NULL || (vb && r->values == NULL)) {
    csri_free(e);
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating %lld local entries failed",
                     (long long)t->count);
  }
  for (int64_t k = 0; k < t->count; k++) /* counting sort by row, stable */
    r->off[t->row[k] - first + 2]++;
  for (int64_t i = 0; i < count; i++)
    r->off[i + 2] += r->off[i + 1];
  for (int64_t k = 0; k < t->count; k++) {
    int64_t at = r->off[t->row[k] - first + 1]++;
    e[at] = (entry){t->col[k], t->seq[k], k};
  }
  int64_t kept = 0;
  for (int64_t i = 0; i < count; i++) {
    int64_t b = r->off[i], end = r->off[i + 1];
    qsort(e + b, (size_t)(end - b), sizeof *e, entry_order);
    r->off[i] = kept;
    for (int64_t k = b, q; k < end; k = q) {
      for (q = k + 1; q < end && e[q].col == e[k].col;)
        q++;
      r->col[kept] = e[k].col;
      if (t->value_type == CSR_F64) { /* the run's sum, from its first value, in seq order */
        const double *v = t->values;
        double s = v[e[k].at];
        for (int64_t m = k + 1; m < q; m++)
          s += v[e[m].at];
        ((double *)r->values)[kept] = s;
      } else if (t->value_type == CSR_F32) {
        const float *v = t->values;
        float s = v[e[k].at];
        for (int64_t m = k + 1; m < q; m++)
          s += v[e[m].at];
        ((float *)r->values)[kept] = s;
      }
      kept++;
    }
  }
  r->off[count] = kept;
  r->nnz = kept;
  csri_free(e);
  return CSR_SUCCESS;
}

csr_status csri_dist_triples_merge(csr_context *ctx, int64_t first, int64_t count,
                                   csri_dist_triples *t) {
  rows_csr r = {0};
  csri_dist_triples merged = {0};
  csr_status status = merge_rows(ctx, first, count, t, &r);
  if (status >= 0)
    status = csri_dist_triples_make(ctx, &merged, r.nnz, t->value_type);
  if (status >= 0) {
    for (int64_t i = 0; i < count; i++)
      for (int64_t k = r.off[i]; k < r.off[i + 1]; k++) {
        merged.row[k] = first + i;
        merged.col[k] = r.col[k];
        merged.seq[k] = k; /* no duplicates are left to order */
      }
    if (t->value_type != CSR_PATTERN)
      memcpy(merged.values, r.values, (size_t)r.nnz * csri_value_size(t->value_type));
    csri_dist_triples_free(t);
    *t = merged;
  }
  rows_free(&r);
  return status;
}

/* The rows of `pick` (1: boundary, 0: interior) in global order, as a host CSR over the local
 * columns. */
static csr_status part(csr_context *ctx, const rows_csr *r, const int32_t *local,
                       const uint8_t *boundary, int pick, int64_t cols, csr_value_type type,
                       csr_matrix **M) {
  int64_t rows = 0, nnz = 0;
  for (int64_t i = 0; i < r->count; i++)
    if (boundary[i] == pick) {
      rows++;
      nnz += r->off[i + 1] - r->off[i];
    }
  CSRI_TRY(csri_matrix_create(ctx, M, rows, cols, nnz, type, CSR_HOST));
  csr_matrix *m = *M;
  size_t vb = csri_value_size(type);
  int64_t at = 0, row = 0;
  for (int64_t i = 0; i < r->count; i++) {
    if (boundary[i] != pick)
      continue;
    int64_t b = r->off[i], n = r->off[i + 1] - b;
    memcpy(m->col_indices + at, local + b, (size_t)n * sizeof *local);
    if (vb)
      memcpy((char *)m->values + (size_t)at * vb, (const char *)r->values + (size_t)b * vb,
             (size_t)n * vb);
    at += n;
    m->row_offsets[++row] = at;
  }
  m->flags = CSR_FLAG_NO_DUPLICATES;
  return CSR_SUCCESS;
}

/* The exchange of the halo plan: how many ghosts this rank wants from each rank (from its
 * plan's slices) and, after MPI_Alltoall, how many it gives. */
typedef struct wants {
  int *want, *wdispl, *give, *gdispl;
  int64_t total; /* entries given */
} wants;

static void wants_free(wants *w) {
  csri_free(w->want);
  csri_free(w->wdispl);
  csri_free(w->give);
  csri_free(w->gdispl);
}

/* The receive side, from the ghosts' owners (local). */
static csr_status halo_receive_side(csr_context *ctx, csr_dist_matrix *A, const int64_t *from,
                                    wants *w) {
  csri_dist_halo *h = &A->halo;
  int P = A->cols->size;
  w->want = csri_calloc((size_t)P, sizeof(int));
  w->wdispl = csri_calloc((size_t)P, sizeof(int));
  w->give = csri_calloc((size_t)P, sizeof(int));
  w->gdispl = csri_calloc((size_t)P, sizeof(int));
  if (!w->want || !w->wdispl || !w->give || !w->gdispl)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating the halo plan failed");
  for (int q = 0; q < P; q++) {
    w->want[q] = (int)(from[q + 1] - from[q]); /* own + ghosts < 2^31: fits */
    w->wdispl[q] = (int)from[q];
    h->recv_ranks += w->want[q] > 0;
  }
  h->recv_rank = csri_malloc(((size_t)h->recv_ranks + 1) * sizeof *h->recv_rank);
  h->recv_at = csri_malloc(((size_t)h->recv_ranks + 1) * sizeof *h->recv_at);
  if (!h->recv_rank || !h->recv_at)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating the halo plan failed");
  h->recv_at[0] = 0;
  for (int q = 0, n = 0; q < P; q++)
    if (w->want[q] > 0) {
      h->recv_rank[n] = q;
      h->recv_at[n + 1] = from[q + 1];
      n++;
    }
  return CSR_SUCCESS;
}

/* How many entries each rank asks of this one (MPI_Alltoall), and room for their lists. */
static csr_status halo_send_counts(csr_context *ctx, csr_dist_matrix *A, wants *w) {
  csri_dist_halo *h = &A->halo;
  int P = A->cols->size;
  CSRI_MPI(ctx, MPI_Alltoall(w->want, 1, MPI_INT, w->give, 1, MPI_INT, A->cols->comm));
  for (int q = 0; q < P; q++) {
    if (w->total > INT32_MAX)
      return CSRI_FAIL(ctx, CSR_ERR_OVERFLOW, "more than 2^31 entries of x to send per product");
    w->gdispl[q] = (int)w->total;
    w->total += w->give[q];
    h->send_ranks += w->give[q] > 0;
  }
  h->send_index = csri_malloc(((size_t)w->total + 1) * sizeof *h->send_index);
  h->send_rank = csri_malloc(((size_t)h->send_ranks + 1) * sizeof *h->send_rank);
  h->send_at = csri_malloc(((size_t)h->send_ranks + 1) * sizeof *h->send_at);
  h->requests =
      csri_malloc(((size_t)h->recv_ranks + (size_t)h->send_ranks + 1) * sizeof *h->requests);
  /* Room for the packed entries of x in the widest value type, taken now so that a product
   * never fails half way through its exchange. */
  int gpu = A->location == CSR_DEVICE;
  h->send_buffer = gpu ? csri_dist_pinned_alloc((size_t)w->total * sizeof(double))
                       : csri_malloc(((size_t)w->total + 1) * sizeof(double));
  if (gpu)
    h->recv_buffer = csri_dist_pinned_alloc((size_t)h->ghosts * sizeof(double));
  if (!h->send_index || !h->send_rank || !h->send_at || !h->requests || !h->send_buffer ||
      (gpu && !h->recv_buffer))
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating the halo plan failed");
  return CSR_SUCCESS;
}

/* The columns each rank asks for (MPI_Alltoallv), turned into where x holds them. */
static csr_status halo_send_lists(csr_context *ctx, csr_dist_matrix *A, const wants *w) {
  csri_dist_halo *h = &A->halo;
  const csri_dist_layout *C = A->cols;
  CSRI_MPI(ctx, MPI_Alltoallv(h->ghost_columns, w->want, w->wdispl, MPI_INT64_T, h->send_index,
                              w->give, w->gdispl, MPI_INT64_T, C->comm));
  h->send_at[0] = 0;
  for (int q = 0, n = 0; q < C->size; q++)
    if (w->give[q] > 0) {
      h->send_rank[n] = q;
      h->send_at[n + 1] = w->gdispl[q] + w->give[q];
      n++;
    }
  for (int64_t k = 0; k < w->total; k++) { /* global column -> where x holds it */
    int64_t j = h->send_index[k] - C->first;
    h->send_index[k] = C->position ? C->position[j] : j;
  }
  return CSR_SUCCESS;
}

/* GPU ranks: the selection matrix that gathers the entries to send, and the device buffer it
 * writes (local). */
static csr_status halo_device_side(csr_context *ctx, csr_dist_matrix *A) {
  csri_dist_halo *h = &A->halo;
  if (A->location != CSR_DEVICE)
    return CSR_SUCCESS;
  int64_t total = h->send_at[h->send_ranks];
  csr_matrix *S = NULL;
  CSRI_TRY(csri_matrix_create(ctx, &S, total, A->cols->count, total, CSR_PATTERN, CSR_HOST));
  for (int64_t k = 0; k < total; k++) {
    S->row_offsets[k + 1] = k + 1;
    S->col_indices[k] = (int32_t)h->send_index[k];
  }
  S->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  csr_status status = csr_matrix_copy(ctx, S, &h->select, CSR_DEVICE);
  csri_matrix_free(&S);
  if (status >= 0)
    status = csri_array_alloc(ctx, &h->send_device, total, sizeof(double), CSR_DEVICE, 0);
  h->device_direct = csri_dist_cuda_aware();
  return status;
}

/* The local work: rows, plan, order, parts. Errors stay local (the caller agrees). */
static csr_status build(csr_context *ctx, csr_dist_matrix *A, csri_dist_triples *t,
                        int64_t **from_out) {
  csri_dist_layout *R = A->rows, *C = A->cols;
  rows_csr r = {0};
  int32_t *local = NULL;
  uint8_t *boundary = NULL;
  int64_t *ghosts = NULL, ghost_count = 0;
  int64_t *from = csri_malloc(((size_t)C->size + 1) * sizeof *from);
  csr_status status = from ? merge_rows(ctx, R->first, R->count, t, &r)
                           : CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating the plan failed");
  csri_dist_triples_free(t);
  if (status < 0)
    goto done;
  local = csri_malloc((size_t)(r.nnz > 0 ? r.nnz : 1) * sizeof *local);
  boundary = csri_malloc((size_t)(r.count > 0 ? r.count : 1));
  ghosts = csri_malloc((size_t)(r.nnz > 0 ? r.nnz : 1) * sizeof *ghosts);
  R->order = csri_malloc((size_t)(R->count > 0 ? R->count : 1) * sizeof *R->order);
  R->position = csri_malloc((size_t)(R->count > 0 ? R->count : 1) * sizeof *R->position);
  if (!local || !boundary || !ghosts || !R->order || !R->position) {
    status = CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating the halo plan failed");
    goto done;
  }
  if (csri_dist_plan(r.count, r.off, r.col, C->rank, C->size, C->starts, ghosts, &ghost_count,
                     local, boundary, from) != 0) {
    status = CSRI_FAIL(ctx, CSR_ERR_OVERFLOW,
                       "rank %d reads %lld owned + ghost columns: more than 32-bit indices hold; "
                       "use more ranks",
                       R->rank, (long long)(C->count + ghost_count));
    goto done;
  }
  /* Interior rows first, then boundary rows, each in global order. */
  int64_t p = 0;
  for (int pick = 0; pick < 2; pick++)
    for (int64_t i = 0; i < R->count; i++)
      if (boundary[i] == pick) {
        R->order[p] = i;
        R->position[i] = p++;
      }
  if (R == C) /* x shares the rows' order: rename the owned columns the same way */
    for (int64_t k = 0; k < r.nnz; k++)
      if (local[k] < C->count)
        local[k] = (int32_t)R->position[local[k]];
  int64_t local_cols = C->count + ghost_count;
  A->halo.ghosts = ghost_count;
  /* The sort's scratch had room for every entry: keep only the ghosts. */
  int64_t *kept = csri_realloc(ghosts, (size_t)(ghost_count > 0 ? ghost_count : 1) * sizeof *kept);
  A->halo.ghost_columns = kept ? kept : ghosts;
  ghosts = NULL;
  csr_matrix *host[2] = {NULL, NULL};
  status = part(ctx, &r, local, boundary, 0, local_cols, A->value_type, &host[0]);
  if (status >= 0)
    status = part(ctx, &r, local, boundary, 1, local_cols, A->value_type, &host[1]);
  if (status >= 0 && A->location == CSR_DEVICE) {
    status = csr_matrix_copy(ctx, host[0], &A->interior, CSR_DEVICE);
    if (status >= 0)
      status = csr_matrix_copy(ctx, host[1], &A->boundary, CSR_DEVICE);
    csri_matrix_free(&host[0]);
    csri_matrix_free(&host[1]);
  } else {
    A->interior = host[0];
    A->boundary = host[1];
  }
done:
  rows_free(&r);
  csri_free(local);
  csri_free(boundary);
  csri_free(ghosts);
  *from_out = from;
  return status;
}

csr_status csri_dist_assemble(csr_context *ctx, csri_dist_layout *rows, csri_dist_layout *cols,
                              int64_t global_cols, csri_dist_triples *t, csr_location location,
                              csr_dist_matrix **A) {
  *A = NULL;
  MPI_Comm comm = rows->comm;
  csr_dist_matrix *a = csri_calloc(1, sizeof *a);
  csr_status status = csri_dist_agree(
      ctx, comm,
      a ? CSR_SUCCESS
        : CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating a distributed matrix failed"));
  if (status < 0) { /* agreed before the layouts, and with them the communicator, go */
    csri_free(a);
    csri_dist_triples_free(t);
    csri_dist_layout_release(&rows);
    csri_dist_layout_release(&cols);
    return status;
  }
  a->rows = rows;
  a->cols = cols;
  a->global_rows = rows->n;
  a->global_cols = global_cols;
  a->value_type = t->value_type;
  a->location = location;
  int64_t *from = NULL;
  status = build(ctx, a, t, &from);
  status = csri_dist_agree(ctx, comm, status);
  wants w = {0};
  if (status >= 0)
    status = csri_dist_agree(ctx, comm, halo_receive_side(ctx, a, from, &w));
  if (status >= 0)
    status = csri_dist_agree(ctx, comm, halo_send_counts(ctx, a, &w));
  if (status >= 0)
    status = csri_dist_agree(ctx, comm, halo_send_lists(ctx, a, &w));
  if (status >= 0)
    status = csri_dist_agree(ctx, comm, halo_device_side(ctx, a));
  if (status >= 0) /* every rank: they decide on NCCL together */
    status = csri_dist_agree(
        ctx, comm, csri_dist_nccl_create(ctx, comm, location == CSR_DEVICE, &a->halo.nccl));
  wants_free(&w);
  csri_free(from);
  if (status >= 0) {
    int64_t nnz = a->interior->nnz + a->boundary->nnz;
    int code = MPI_Allreduce(&nnz, &a->global_nnz, 1, MPI_INT64_T, MPI_SUM, comm);
    status = csri_dist_agree(ctx, comm,
                             code == MPI_SUCCESS ? CSR_SUCCESS
                                                 : csri_dist_mpi_error(ctx, code, "MPI_Allreduce"));
  }
  if (status < 0) {
    csr_dist_matrix_free(&a);
    return status;
  }
  *A = a;
  return CSR_SUCCESS;
}

void csr_dist_matrix_free(csr_dist_matrix **A) {
  if (A == NULL || *A == NULL)
    return;
  csr_dist_matrix *a = *A;
  *A = NULL;
  csri_dist_halo *h = &a->halo;
  csri_free(h->ghost_columns);
  csri_free(h->recv_rank);
  csri_free(h->recv_at);
  csri_free(h->send_rank);
  csri_free(h->send_at);
  csri_free(h->send_index);
  if (a->location == CSR_DEVICE) {
    csri_dist_pinned_free(h->send_buffer);
    csri_dist_pinned_free(h->recv_buffer);
  } else {
    csri_free(h->send_buffer);
  }
  csri_dist_nccl_free(&h->nccl);
  csr_matrix_free(&h->select);
  csri_array_free(h->send_device, CSR_DEVICE);
  csri_free(h->requests);
  csr_matrix_free(&a->interior);
  csr_matrix_free(&a->boundary);
  csri_dist_layout_release(&a->rows);
  csri_dist_layout_release(&a->cols);
  csri_free(a);
}
