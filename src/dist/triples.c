/* SPDX-License-Identifier: BSD-3-Clause */
/* Moving triples to the ranks that own their rows, and choosing those ranks' row blocks:
 *   starts[r] = the first row i with W(i) >= floor(r * W(rows) / P),  W(i) = nnz before row i + i
 * (src/kernels/dist_plan.h), found from row counts that are themselves spread over the ranks. */
#include "dist/dist.h"
#include "kernels/dist_plan.h"

#include <limits.h>
#include <string.h>

void csri_dist_triples_free(csri_dist_triples *t) {
  csri_free(t->row);
  csri_free(t->col);
  csri_free(t->seq);
  csri_free(t->values);
  memset(t, 0, sizeof *t);
}

csr_status csri_dist_triples_make(csr_context *ctx, csri_dist_triples *t, int64_t count,
                                  csr_value_type type) {
  size_t n = (size_t)(count > 0 ? count : 1), value_bytes = csri_value_size(type);
  t->count = count;
  t->value_type = type;
  t->row = csri_malloc(n * sizeof *t->row);
  t->col = csri_malloc(n * sizeof *t->col);
  t->seq = csri_malloc(n * sizeof *t->seq);
  t->values = type == CSR_PATTERN ? NULL : csri_malloc(n * value_bytes);
  if (t->row == NULL || t->col == NULL || t->seq == NULL ||
      (type != CSR_PATTERN && t->values == NULL)) {
    csri_dist_triples_free(t);
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating %lld triples failed",
                     (long long)count);
  }
  return CSR_SUCCESS;
}

/* MPI_Alltoallv of 64-bit or value arrays, counts in elements. */
static csr_status exchange(csr_context *ctx, MPI_Comm comm, const void *send, const int *scount,
                           const int *sdispl, void *recv, const int *rcount, const int *rdispl,
                           MPI_Datatype type) {
  CSRI_MPI(ctx, MPI_Alltoallv(send, scount, sdispl, type, recv, rcount, rdispl, type, comm));
  return CSR_SUCCESS;
}

typedef struct plan {
  int *scount, *sdispl, *rcount, *rdispl;
  int64_t *dest; /* destination of each triple, then its place in the send arrays */
} plan;

static void plan_free(plan *p) {
  csri_free(p->scount);
  csri_free(p->sdispl);
  csri_free(p->rcount);
  csri_free(p->rdispl);
  csri_free(p->dest);
}

/* Counts per destination and their displacements (local). Fails when a count does not fit an int
 * (MPI-3's Alltoallv). */
static csr_status count_routes(csr_context *ctx, const csri_dist_layout *rows,
                               const csri_dist_triples *in, plan *p) {
  int P = rows->size;
  p->scount = csri_calloc((size_t)P, sizeof(int));
  p->sdispl = csri_calloc((size_t)P, sizeof(int));
  p->rcount = csri_calloc((size_t)P, sizeof(int));
  p->rdispl = csri_calloc((size_t)P, sizeof(int));
  p->dest = csri_malloc((size_t)(in->count > 0 ? in->count : 1) * sizeof(int64_t));
  int64_t *counts = csri_calloc((size_t)P, sizeof(int64_t));
  if (!p->scount || !p->sdispl || !p->rcount || !p->rdispl || !p->dest || !counts) {
    csri_free(counts);
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating the triples' routes failed");
  }
  for (int64_t k = 0; k < in->count; k++) {
    int q = csri_dist_owner(rows->starts, P, in->row[k]);
    p->dest[k] = q;
    counts[q]++;
  }
  int64_t at = 0;
  csr_status status = CSR_SUCCESS;
  for (int q = 0; q < P && status >= 0; q++) {
    if (counts[q] > INT_MAX || at > INT_MAX)
      status = CSRI_FAIL(ctx, CSR_ERR_OVERFLOW,
                         "%lld triples from one rank to another: more than one MPI message "
                         "holds; use more ranks",
                         (long long)counts[q]);
    p->scount[q] = (int)counts[q];
    p->sdispl[q] = (int)at;
    at += counts[q];
  }
  csri_free(counts);
  return status;
}

/* The receive side's counts (MPI_Alltoall, after every rank counted its routes). */
static csr_status receive_counts(csr_context *ctx, const csri_dist_layout *rows, plan *p,
                                 int64_t *received) {
  CSRI_MPI(ctx, MPI_Alltoall(p->scount, 1, MPI_INT, p->rcount, 1, MPI_INT, rows->comm));
  int64_t at = 0;
  for (int q = 0; q < rows->size; q++) {
    if (at > INT_MAX)
      return CSRI_FAIL(ctx, CSR_ERR_OVERFLOW,
                       "more triples for one rank than one MPI message "
                       "holds; use more ranks");
    p->rdispl[q] = (int)at;
    at += p->rcount[q];
  }
  *received = at;
  return CSR_SUCCESS;
}

/* The triples in destination order, each destination's in k order (local). */
static csr_status pack(csr_context *ctx, const csri_dist_layout *rows, const csri_dist_triples *in,
                       const plan *p, csri_dist_triples *packed) {
  CSRI_TRY(csri_dist_triples_make(ctx, packed, in->count, in->value_type));
  int64_t *next = csri_malloc((size_t)rows->size * sizeof *next);
  if (next == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating the triples' routes failed");
  for (int q = 0; q < rows->size; q++)
    next[q] = p->sdispl[q];
  size_t vb = csri_value_size(in->value_type);
  for (int64_t k = 0; k < in->count; k++) {
    int64_t at = next[p->dest[k]]++;
    packed->row[at] = in->row[k];
    packed->col[at] = in->col[k];
    packed->seq[at] = in->seq[k];
    if (vb > 0)
      memcpy((char *)packed->values + (size_t)at * vb, (const char *)in->values + (size_t)k * vb,
             vb);
  }
  csri_free(next);
  return CSR_SUCCESS;
}

/* The four arrays' MPI_Alltoallv (every rank reaches it, after agreeing). */
static csr_status send_all(csr_context *ctx, const csri_dist_layout *rows,
                           const csri_dist_triples *packed, const plan *p, csri_dist_triples *out) {
  MPI_Comm comm = rows->comm;
  CSRI_TRY(exchange(ctx, comm, packed->row, p->scount, p->sdispl, out->row, p->rcount, p->rdispl,
                    MPI_INT64_T));
  CSRI_TRY(exchange(ctx, comm, packed->col, p->scount, p->sdispl, out->col, p->rcount, p->rdispl,
                    MPI_INT64_T));
  CSRI_TRY(exchange(ctx, comm, packed->seq, p->scount, p->sdispl, out->seq, p->rcount, p->rdispl,
                    MPI_INT64_T));
  if (packed->value_type != CSR_PATTERN)
    CSRI_TRY(exchange(ctx, comm, packed->values, p->scount, p->sdispl, out->values, p->rcount,
                      p->rdispl, packed->value_type == CSR_F64 ? MPI_DOUBLE : MPI_FLOAT));
  return CSR_SUCCESS;
}

csr_status csri_dist_send_triples(csr_context *ctx, const csri_dist_layout *rows,
                                  const csri_dist_triples *in, csri_dist_triples *out) {
  memset(out, 0, sizeof *out);
  plan p = {0};
  int64_t received = 0;
  /* Each step's outcome is agreed before the next collective, so no rank waits for one that
   * gave up. */
  csr_status status = csri_dist_agree(ctx, rows->comm, count_routes(ctx, rows, in, &p));
  if (status >= 0)
    status = csri_dist_agree(ctx, rows->comm, receive_counts(ctx, rows, &p, &received));
  if (status >= 0)
    status = csri_dist_agree(ctx, rows->comm,
                             csri_dist_triples_make(ctx, out, received, in->value_type));
  csri_dist_triples packed = {0};
  if (status >= 0)
    status = csri_dist_agree(ctx, rows->comm, pack(ctx, rows, in, &p, &packed));
  if (status >= 0)
    status = csri_dist_agree(ctx, rows->comm, send_all(ctx, rows, &packed, &p, out));
  csri_dist_triples_free(&packed);
  plan_free(&p);
  if (status < 0)
    csri_dist_triples_free(out);
  return status;
}

csr_status csri_dist_split_rows(csr_context *ctx, MPI_Comm comm, int64_t rows, int64_t first,
                                int64_t count, const int64_t *counts, int64_t *starts) {
  int P = 1, rank = 0;
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &rank);
  int64_t *proposal = csri_malloc(((size_t)P + 1) * sizeof *proposal);
  csr_status status = csri_dist_agree(
      ctx, comm,
      proposal ? CSR_SUCCESS
               : CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating the row split failed"));
  if (status < 0) {
    csri_free(proposal);
    return status;
  }
  int64_t local = count, before = 0, total = 0; /* weights: entries + rows */
  for (int64_t i = 0; i < count; i++)
    local += counts[i];
  int code = MPI_Exscan(&local, &before, 1, MPI_INT64_T, MPI_SUM, comm);
  if (code == MPI_SUCCESS)
    code = MPI_Allreduce(&local, &total, 1, MPI_INT64_T, MPI_SUM, comm);
  if (rank == 0)
    before = 0; /* MPI_Exscan leaves rank 0's result undefined */
  /* Each rank proposes, for each target, the first of its rows [first, first + count] (the end
   * included) whose weight before it reaches the target; the smallest proposal wins. */
  int64_t i = 0, weight = before; /* weight before row first + i */
  for (int r = 0; r <= P; r++) {
    int64_t target = r == P ? total : csri_dist_target(total, r, P);
    while (i < count && weight < target) {
      weight += counts[i] + 1;
      i++;
    }
    proposal[r] = weight >= target ? first + i : INT64_MAX;
  }
  if (code == MPI_SUCCESS)
    code = MPI_Allreduce(proposal, starts, P + 1, MPI_INT64_T, MPI_MIN, comm);
  csri_free(proposal);
  if (code != MPI_SUCCESS)
    return csri_dist_mpi_error(ctx, code, "the row split's reductions");
  starts[0] = 0;
  starts[P] = rows;
  for (int r = 1; r < P; r++) /* never past the end; never before the previous */
    starts[r] = starts[r] > rows ? rows : starts[r] < starts[r - 1] ? starts[r - 1] : starts[r];
  return CSR_SUCCESS;
}
