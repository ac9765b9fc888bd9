/* SPDX-License-Identifier: BSD-3-Clause */
/* The ways a distributed matrix is made (triples anywhere, rows in place, a matrix on one rank)
 * and what it tells about itself. Each ends in csri_dist_assemble. */
#include "dist/dist.h"
#include "kernels/dist_plan.h"

#include <string.h>

/* Checks the arguments every rank passes alike, and this rank's pointers. */
static csr_status check_args(csr_context *ctx, int64_t rows, int64_t cols, int64_t count,
                             const void *ri, const void *ci, const void *values,
                             csr_value_type type, csr_location location) {
  if (rows < 0 || cols < 0 || count < 0)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "a %lld x %lld matrix of %lld entries: sizes must not be negative",
                     (long long)rows, (long long)cols, (long long)count);
  CSRI_TRY(csri_check_value_type(ctx, type, 1));
  CSRI_TRY(csri_check_location(ctx, location));
  if (count > 0 && (ri == NULL || ci == NULL || (type != CSR_PATTERN && values == NULL)))
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "the entries' arrays must not be NULL");
  if (location == CSR_DEVICE && !csr_backend_available(CSR_BACKEND_CUDA))
    return CSRI_FAIL(ctx, CSR_ERR_NOT_COMPILED,
                     "device matrices need the CUDA backend, which this build lacks");
  return CSR_SUCCESS;
}

/* Blocks of n over P ranks, as equal as can be. */
static void even_starts(int64_t n, int P, int64_t *starts) {
  for (int r = 0; r <= P; r++)
    starts[r] = csri_dist_target(n, r, P);
}

/* The layouts of a rows x cols matrix whose row blocks are `starts`: one shared layout when the
 * matrix is square (columns split like rows), else the columns split evenly. */
static csr_status make_layouts(csr_context *ctx, MPI_Comm comm, int64_t rows, int64_t cols,
                               const int64_t *starts, csri_dist_layout **R, csri_dist_layout **C) {
  *R = *C = NULL;
  MPI_Comm dup = MPI_COMM_NULL;
  int *refs = NULL;
  CSRI_TRY(csri_dist_comm_dup(ctx, comm, &dup, &refs));
  int P = 1;
  MPI_Comm_size(comm, &P);
  csr_status status = csri_dist_layout_create(ctx, dup, refs, rows, starts, R);
  if (status >= 0 && rows == cols) {
    *C = *R;
    csri_dist_layout_retain(*C);
  } else if (status >= 0) {
    int64_t *even = csri_malloc(((size_t)P + 1) * sizeof *even);
    if (even == NULL)
      status = CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating a layout failed");
    else {
      even_starts(cols, P, even);
      status = csri_dist_layout_create(ctx, dup, refs, cols, even, C);
    }
    csri_free(even);
  }
  csri_dist_comm_release(&dup, &refs); /* the layouts hold it now */
  if (status < 0) {
    csri_dist_layout_release(R);
    csri_dist_layout_release(C);
  }
  return status;
}

/* The first triple outside rows x cols, named; CSR_SUCCESS when all are inside. */
static csr_status check_entries(csr_context *ctx, int64_t rows, int64_t cols,
                                const csri_dist_triples *t) {
  for (int64_t k = 0; k < t->count; k++)
    if (t->row[k] < 0 || t->row[k] >= rows || t->col[k] < 0 || t->col[k] >= cols)
      return CSRI_FAIL(ctx, CSR_ERR_INDEX_OUT_OF_BOUNDS,
                       "entry %lld of this rank, (%lld, %lld), lies outside the %lld x %lld "
                       "matrix (0-based)",
                       (long long)k, (long long)t->row[k], (long long)t->col[k], (long long)rows,
                       (long long)cols);
  return CSR_SUCCESS;
}

/* Triples held anywhere -> an even row split (to count each row's entries) -> the weighted
 * split -> assembly. Takes t. Each local step is agreed on before the next collective. */
csr_status csri_dist_from_triples(csr_context *ctx, MPI_Comm comm, int64_t rows, int64_t cols,
                                  csri_dist_triples *t, csr_location location,
                                  csr_dist_matrix **A) {
  int P = 1;
  MPI_Comm_size(comm, &P);
  csri_dist_layout *even = NULL, *R = NULL, *C = NULL;
  csri_dist_triples at_even = {0}, owned = {0};
  int64_t *counts = NULL, *starts = csri_malloc(((size_t)P + 1) * sizeof *starts);
  csr_status status = starts ? check_entries(ctx, rows, cols, t)
                             : CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating the split failed");
  status = csri_dist_agree(ctx, comm, status);
  if (status >= 0) {
    even_starts(rows, P, starts);
    status = csri_dist_agree(ctx, comm, make_layouts(ctx, comm, rows, rows, starts, &even, &C));
    csri_dist_layout_release(&C); /* the even split's columns: not needed */
  }
  if (status >= 0)
    status = csri_dist_send_triples(ctx, even, t, &at_even);
  csri_dist_triples_free(t);
  /* Duplicates merged where they meet (in seq order, as they would be later): the rows'
   * counts, and so the split, are then those of the matrix stored. */
  if (status >= 0)
    status = csri_dist_agree(ctx, comm,
                             csri_dist_triples_merge(ctx, even->first, even->count, &at_even));
  if (status >= 0) {
    counts = csri_calloc((size_t)(even->count > 0 ? even->count : 1), sizeof *counts);
    for (int64_t k = 0; counts && k < at_even.count; k++)
      counts[at_even.row[k] - even->first]++;
    status = csri_dist_agree(
        ctx, comm,
        counts ? CSR_SUCCESS
               : CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating row counts failed"));
  }
  if (status >= 0)
    status = csri_dist_split_rows(ctx, comm, rows, even->first, even->count, counts, starts);
  if (status >= 0)
    status = csri_dist_agree(ctx, comm, make_layouts(ctx, comm, rows, cols, starts, &R, &C));
  if (status >= 0)
    status = csri_dist_send_triples(ctx, R, &at_even, &owned);
  csri_dist_triples_free(&at_even);
  csri_dist_layout_release(&even);
  csri_free(starts);
  csri_free(counts);
  if (status < 0) {
    csri_dist_layout_release(&R);
    csri_dist_layout_release(&C);
    csri_dist_triples_free(&owned);
    return status;
  }
  return csri_dist_assemble(ctx, R, C, cols, &owned, location, A);
}

csr_status csr_dist_matrix_from_triples(csr_context *ctx, MPI_Comm comm, int64_t rows, int64_t cols,
                                        int64_t count, const int64_t *row_indices,
                                        const int64_t *col_indices, const void *values,
                                        csr_value_type value_type, csr_location location,
                                        csr_dist_matrix **A) {
  if (A != NULL)
    *A = NULL;
  csr_status status = A == NULL ? CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "A must not be NULL")
                                : check_args(ctx, rows, cols, count, row_indices, col_indices,
                                             values, value_type, location);
  CSRI_TRY(csri_dist_agree(ctx, comm, status));
  int64_t before = 0;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  CSRI_TRY(csri_dist_agree(ctx, comm,
                           MPI_Exscan(&count, &before, 1, MPI_INT64_T, MPI_SUM, comm) == MPI_SUCCESS
                               ? CSR_SUCCESS
                               : CSRI_FAIL(ctx, CSR_ERR_IO, "MPI_Exscan failed")));
  if (rank == 0)
    before = 0; /* MPI_Exscan leaves rank 0's undefined */
  csri_dist_triples t = {0};
  status = csri_dist_triples_make(ctx, &t, count, value_type);
  if (status >= 0) {
    memcpy(t.row, row_indices, (size_t)count * sizeof *t.row);
    memcpy(t.col, col_indices, (size_t)count * sizeof *t.col);
    for (int64_t k = 0; k < count; k++) /* duplicates are summed in (rank, k) order */
      t.seq[k] = before + k;
    if (value_type != CSR_PATTERN)
      memcpy(t.values, values, (size_t)count * csri_value_size(value_type));
  }
  status = csri_dist_agree(ctx, comm, status);
  if (status < 0) {
    csri_dist_triples_free(&t);
    return status;
  }
  return csri_dist_from_triples(ctx, comm, rows, cols, &t, location, A);
}

csr_status csr_dist_matrix_from_rows(csr_context *ctx, MPI_Comm comm, int64_t cols,
                                     int64_t local_rows, const int64_t *row_offsets,
                                     const int64_t *col_indices, const void *values,
                                     csr_value_type value_type, csr_location location,
                                     csr_dist_matrix **A) {
  if (A != NULL)
    *A = NULL;
  int P = 1, rank = 0;
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &rank);
  int64_t nnz = local_rows > 0 && row_offsets ? row_offsets[local_rows] : 0;
  csr_status status = A == NULL ? CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "A must not be NULL")
                      : local_rows > 0 && row_offsets == NULL
                          ? CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "row_offsets must not be NULL")
                          : check_args(ctx, local_rows, cols, nnz, row_offsets, col_indices, values,
                                       value_type, location);
  for (int64_t i = 0; status >= 0 && i < local_rows; i++)
    if (row_offsets[0] != 0 || row_offsets[i + 1] < row_offsets[i])
      status = CSRI_FAIL(ctx, CSR_ERR_INVALID_MATRIX,
                         "row_offsets must start at 0 and not decrease: offsets[%lld] = %lld, "
                         "offsets[%lld] = %lld",
                         (long long)i, (long long)row_offsets[i], (long long)i + 1,
                         (long long)row_offsets[i + 1]);
  CSRI_TRY(csri_dist_agree(ctx, comm, status));
  /* The blocks as the ranks hold them: starts from every rank's count. */
  int64_t *starts = csri_malloc(((size_t)P + 1) * sizeof *starts);
  CSRI_TRY(csri_dist_agree(
      ctx, comm,
      starts ? CSR_SUCCESS : CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating the split failed")));
  starts[0] = 0;
  int code = MPI_Allgather(&local_rows, 1, MPI_INT64_T, starts + 1, 1, MPI_INT64_T, comm);
  for (int r = 0; r < P; r++)
    starts[r + 1] += starts[r];
  csri_dist_layout *R = NULL, *C = NULL;
  csri_dist_triples t = {0};
  status = csri_dist_agree(ctx, comm,
                           code == MPI_SUCCESS ? CSR_SUCCESS
                                               : csri_dist_mpi_error(ctx, code, "MPI_Allgather"));
  if (status >= 0)
    status = csri_dist_agree(ctx, comm, make_layouts(ctx, comm, starts[P], cols, starts, &R, &C));
  if (status >= 0) {
    status = csri_dist_triples_make(ctx, &t, nnz, value_type);
    for (int64_t i = 0; status >= 0 && i < local_rows; i++)
      for (int64_t k = row_offsets[i]; k < row_offsets[i + 1]; k++) {
        t.row[k] = starts[rank] + i;
        t.col[k] = col_indices[k];
        t.seq[k] = k;
      }
    if (status >= 0 && value_type != CSR_PATTERN)
      memcpy(t.values, values, (size_t)nnz * csri_value_size(value_type));
    if (status >= 0)
      status = check_entries(ctx, starts[P], cols, &t);
    status = csri_dist_agree(ctx, comm, status);
  }
  csri_free(starts);
  if (status < 0) {
    csri_dist_triples_free(&t);
    csri_dist_layout_release(&R);
    csri_dist_layout_release(&C);
    return status;
  }
  return csri_dist_assemble(ctx, R, C, cols, &t, location, A);
}

csr_status csr_dist_matrix_scatter(csr_context *ctx, MPI_Comm comm, int root,
                                   const csr_matrix *global, csr_location location,
                                   csr_dist_matrix **A) {
  int rank = 0, P = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &P);
  csr_status status = root < 0 || root >= P ? CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                                                        "root %d: not a rank of %d", root, P)
                                            : CSR_SUCCESS;
  if (status >= 0 && rank == root)
    status = global == NULL ? CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "the global matrix is NULL")
             : global->location != CSR_HOST ? CSRI_FAIL(ctx, CSR_ERR_LOCATION_MISMATCH,
                                                        "the global matrix must be on the host")
                                            : csr_matrix_validate(ctx, global);
  /* The shape and type, from the root. */
  int64_t shape[3] = {0, 0, 0};
  if (status >= 0 && rank == root)
    shape[0] = global->rows, shape[1] = global->cols, shape[2] = global->value_type;
  CSRI_TRY(csri_dist_agree(ctx, comm, status));
  CSRI_MPI(ctx, MPI_Bcast(shape, 3, MPI_INT64_T, root, comm));
  /* The root's triples, in stored order (duplicates, if any, summed in it). */
  csri_dist_triples t = {0};
  status =
      csri_dist_triples_make(ctx, &t, rank == root ? global->nnz : 0, (csr_value_type)shape[2]);
  for (int64_t i = 0; status >= 0 && rank == root && i < global->rows; i++)
    for (int64_t k = global->row_offsets[i]; k < global->row_offsets[i + 1]; k++) {
      t.row[k] = i;
      t.col[k] = global->col_indices[k];
      t.seq[k] = k;
    }
  if (status >= 0 && rank == root && shape[2] != CSR_PATTERN)
    memcpy(t.values, global->values, (size_t)global->nnz * csri_value_size(global->value_type));
  status = csri_dist_agree(ctx, comm, status);
  if (status < 0) {
    csri_dist_triples_free(&t);
    return status;
  }
  return csri_dist_from_triples(ctx, comm, shape[0], shape[1], &t, location, A);
}

void csr_dist_matrix_size(const csr_dist_matrix *A, int64_t *rows, int64_t *cols, int64_t *nnz) {
  if (rows)
    *rows = A ? A->global_rows : 0;
  if (cols)
    *cols = A ? A->global_cols : 0;
  if (nnz)
    *nnz = A ? A->global_nnz : 0;
}

csr_status csr_dist_matrix_share(const csr_dist_matrix *A, csr_dist_share *share) {
  if (A == NULL || share == NULL)
    return CSR_ERR_NULL_POINTER;
  memset(share, 0, sizeof *share);
  share->rank = A->rows->rank;
  share->ranks = A->rows->size;
  share->first_row = A->rows->first;
  share->rows = A->rows->count;
  share->first_col = A->cols->first;
  share->cols = A->cols->count;
  share->nnz = A->interior->nnz + A->boundary->nnz;
  share->ghosts = A->halo.ghosts;
  share->interior_rows = A->interior->rows;
  share->neighbours = A->halo.recv_ranks;
  share->send_neighbours = A->halo.send_ranks;
  share->send_entries = A->halo.send_at ? A->halo.send_at[A->halo.send_ranks] : 0;
  share->halo_path = A->location == CSR_HOST ? CSR_DIST_HALO_HOST
                     : A->halo.nccl != NULL  ? CSR_DIST_HALO_NCCL
                     : A->halo.device_direct ? CSR_DIST_HALO_CUDA_MPI
                                             : CSR_DIST_HALO_STAGED;
  return CSR_SUCCESS;
}

const char *csr_dist_halo_path_name(csr_dist_halo_path path) {
  switch (path) {
  case CSR_DIST_HALO_HOST: return "host";
  case CSR_DIST_HALO_STAGED: return "staged";
  case CSR_DIST_HALO_CUDA_MPI: return "cuda-mpi";
  case CSR_DIST_HALO_NCCL: return "nccl";
  default: return "unknown";
  }
}

double csr_dist_matrix_comm_seconds(const csr_dist_matrix *A) {
  return A ? A->comm_seconds : 0.0;
}
