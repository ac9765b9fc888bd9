/* SPDX-License-Identifier: BSD-3-Clause */
/* The whole matrix on one rank: each rank turns its rows back to global order and global
 * columns, and rank root receives them in rank order (MPI_Gatherv), which is row order. */
#include "dist/dist.h"

#include <limits.h>
#include <string.h>

/* This rank's rows in global order: lengths, global columns, values (host copies). */
typedef struct own_rows {
  int64_t rows, nnz;
  int64_t *length, *col;
  void *values;
} own_rows;

static void own_free(own_rows *o) {
  csri_free(o->length);
  csri_free(o->col);
  csri_free(o->values);
}

static csr_status own_rows_of(csr_context *ctx, const csr_dist_matrix *A, own_rows *o) {
  const csri_dist_layout *R = A->rows, *C = A->cols;
  csr_matrix *part[2] = {A->interior, A->boundary}, *host[2] = {NULL, NULL};
  csr_status status = CSR_SUCCESS;
  for (int h = 0; h < 2 && status >= 0; h++) {
    if (A->location == CSR_DEVICE)
      status = csr_matrix_copy(ctx, part[h], &host[h], CSR_HOST);
    else
      host[h] = part[h];
  }
  size_t vb = csri_value_size(A->value_type);
  o->rows = R->count;
  o->nnz = A->interior->nnz + A->boundary->nnz;
  o->length = csri_malloc(((size_t)o->rows + 1) * sizeof *o->length);
  o->col = csri_malloc(((size_t)o->nnz + 1) * sizeof *o->col);
  o->values = vb ? csri_malloc((size_t)o->nnz * vb + 1) : NULL;
  int64_t *begin = csri_malloc(((size_t)o->rows + 1) * sizeof *begin);
  if (status >= 0 && (!o->length || !o->col || (vb && !o->values) || !begin))
    status = CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating a copy of the rows failed");
  if (status >= 0) {
    /* Local position p holds global row first + order[p]: lengths in global order first. */
    for (int64_t p = 0; p < o->rows; p++) {
      const csr_matrix *m = p < host[0]->rows ? host[0] : host[1];
      int64_t i = p < host[0]->rows ? p : p - host[0]->rows;
      o->length[R->order[p]] = m->row_offsets[i + 1] - m->row_offsets[i];
    }
    int64_t at = 0;
    for (int64_t g = 0; g < o->rows; g++) {
      begin[g] = at;
      at += o->length[g];
    }
    for (int64_t p = 0; p < o->rows; p++) {
      const csr_matrix *m = p < host[0]->rows ? host[0] : host[1];
      int64_t i = p < host[0]->rows ? p : p - host[0]->rows, to = begin[R->order[p]];
      for (int64_t k = m->row_offsets[i]; k < m->row_offsets[i + 1]; k++, to++) {
        int64_t c = m->col_indices[k];
        o->col[to] = c >= C->count ? A->halo.ghost_columns[c - C->count]
                     : C->order    ? C->first + C->order[c]
                                   : C->first + c;
        if (vb)
          memcpy((char *)o->values + (size_t)to * vb, (const char *)m->values + (size_t)k * vb, vb);
      }
    }
  }
  csri_free(begin);
  for (int h = 0; h < 2; h++)
    if (host[h] != part[h])
      csr_matrix_free(&host[h]);
  return status;
}

/* Counts and displacements of `mine` per rank (MPI_Allgather), or OVERFLOW past an int. */
static csr_status counts_of(csr_context *ctx, MPI_Comm comm, int64_t mine, int *count, int *displ) {
  int P = 1;
  MPI_Comm_size(comm, &P);
  int64_t *all = csri_malloc((size_t)P * sizeof *all);
  if (all == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating counts failed");
  int code = MPI_Allgather(&mine, 1, MPI_INT64_T, all, 1, MPI_INT64_T, comm);
  int64_t at = 0;
  csr_status status =
      code == MPI_SUCCESS ? CSR_SUCCESS : csri_dist_mpi_error(ctx, code, "MPI_Allgather");
  for (int r = 0; r < P && status >= 0; r++) {
    if (all[r] > INT_MAX || at > INT_MAX)
      status = CSRI_FAIL(ctx, CSR_ERR_OVERFLOW,
                         "gathering %lld entries: more than one MPI "
                         "message holds",
                         (long long)(at + all[r]));
    else {
      count[r] = (int)all[r];
      displ[r] = (int)at;
      at += all[r];
    }
  }
  csri_free(all);
  return status;
}

csr_status csr_dist_matrix_gather(csr_context *ctx, const csr_dist_matrix *A, int root,
                                  csr_matrix **global) {
  MPI_Comm comm = A ? A->rows->comm : MPI_COMM_SELF;
  int rank = 0, P = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &P);
  csr_status status = A == NULL || global == NULL
                          ? CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "A and global must not be NULL")
                      : root < 0 || root >= P ? CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                                                          "root %d: not a rank of %d", root, P)
                                              : CSR_SUCCESS;
  if (global)
    *global = NULL;
  CSRI_TRY(csri_dist_agree(ctx, comm, status));
  own_rows o = {0};
  csr_matrix *M = NULL;
  int *rc = csri_calloc((size_t)P, sizeof(int)), *rd = csri_calloc((size_t)P, sizeof(int));
  int *ec = csri_calloc((size_t)P, sizeof(int)), *ed = csri_calloc((size_t)P, sizeof(int));
  status = rc && rd && ec && ed ? own_rows_of(ctx, A, &o)
                                : CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating counts failed");
  if (status >= 0 && rank == root)
    status = csri_matrix_create(ctx, &M, A->global_rows, A->global_cols, A->global_nnz,
                                A->value_type, CSR_HOST);
  int64_t *lengths = NULL, *cols = NULL;
  if (status >= 0 && rank == root) {
    lengths = csri_malloc(((size_t)A->global_rows + 1) * sizeof *lengths);
    cols = csri_malloc(((size_t)A->global_nnz + 1) * sizeof *cols);
    if (!lengths || !cols)
      status = CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating the gathered rows failed");
  }
  status = csri_dist_agree(ctx, comm, status);
  if (status >= 0)
    status = csri_dist_agree(ctx, comm, counts_of(ctx, comm, o.rows, rc, rd));
  if (status >= 0)
    status = csri_dist_agree(ctx, comm, counts_of(ctx, comm, o.nnz, ec, ed));
  if (status >= 0) {
    int code =
        MPI_Gatherv(o.length, (int)o.rows, MPI_INT64_T, lengths, rc, rd, MPI_INT64_T, root, comm);
    if (code == MPI_SUCCESS)
      code = MPI_Gatherv(o.col, (int)o.nnz, MPI_INT64_T, cols, ec, ed, MPI_INT64_T, root, comm);
    if (code == MPI_SUCCESS && A->value_type != CSR_PATTERN) {
      MPI_Datatype t = A->value_type == CSR_F64 ? MPI_DOUBLE : MPI_FLOAT;
      code = MPI_Gatherv(o.values, (int)o.nnz, t, M ? M->values : NULL, ec, ed, t, root, comm);
    }
    status = code == MPI_SUCCESS ? CSR_SUCCESS : csri_dist_mpi_error(ctx, code, "MPI_Gatherv");
  }
  if (status >= 0 && rank == root) {
    for (int64_t i = 0; i < A->global_rows; i++)
      M->row_offsets[i + 1] = M->row_offsets[i] + lengths[i];
    for (int64_t k = 0; k < A->global_nnz; k++)
      M->col_indices[k] = (int32_t)cols[k];
    M->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  }
  status = csri_dist_agree(ctx, comm, status);
  own_free(&o);
  csri_free(lengths);
  csri_free(cols);
  csri_free(rc);
  csri_free(rd);
  csri_free(ec);
  csri_free(ed);
  if (status < 0) {
    csri_matrix_free(&M);
    return status;
  }
  *global = M;
  return CSR_SUCCESS;
}

csr_status csr_dist_matrix_write_mm(csr_context *ctx, const csr_dist_matrix *A, const char *path,
                                    const csr_write_options *options) {
  csr_matrix *M = NULL;
  CSRI_TRY(csr_dist_matrix_gather(ctx, A, 0, &M));
  csr_status status = M ? csr_write_mm(ctx, path, M, options) : CSR_SUCCESS;
  csr_matrix_free(&M);
  return csri_dist_agree(ctx, A->rows->comm, status);
}
