/* SPDX-License-Identifier: BSD-3-Clause */
#include "mpi_testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

mpit_triples mpit_share(const csr_matrix *A, int rank, int P) {
  mpit_triples t = {0};
  size_t vb = A->value_type == CSR_F64 ? 8 : A->value_type == CSR_F32 ? 4 : 0;
  t.row = malloc((size_t)A->nnz * sizeof *t.row + 8);
  t.col = malloc((size_t)A->nnz * sizeof *t.col + 8);
  t.values = vb ? malloc((size_t)A->nnz * vb + 8) : NULL;
  for (int64_t i = 0; i < A->rows; i++)
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++) {
      if ((int)((uint64_t)k * 7919u % (uint64_t)P) != rank)
        continue;
      t.row[t.count] = i;
      t.col[t.count] = A->col_indices[k];
      if (vb)
        memcpy((char *)t.values + (size_t)t.count * vb, (char *)A->values + (size_t)k * vb, vb);
      t.count++;
    }
  return t;
}

void mpit_triples_free(mpit_triples *t) {
  free(t->row);
  free(t->col);
  free(t->values);
  memset(t, 0, sizeof *t);
}

csr_dist_matrix *mpit_distribute_on(csr_context *ctx, MPI_Comm comm, const csr_matrix *A,
                                    csr_location location) {
  int rank = 0, P = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &P);
  mpit_triples t = mpit_share(A, rank, P);
  csr_dist_matrix *D = NULL;
  CHECK_OK(ctx, csr_dist_matrix_from_triples(ctx, comm, A->rows, A->cols, t.count, t.row, t.col,
                                             t.values, A->value_type, location, &D));
  mpit_triples_free(&t);
  return D;
}

csr_dist_matrix *mpit_distribute(csr_context *ctx, const csr_matrix *A, csr_location location) {
  return mpit_distribute_on(ctx, MPI_COMM_WORLD, A, location);
}

double *mpit_whole(csr_context *ctx, MPI_Comm comm, const csr_dist_vector *v, int64_t n) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  csr_vector *all = NULL;
  CHECK_OK(ctx, csr_vector_create(ctx, &all, n, CSR_F64, CSR_HOST));
  CHECK_OK(ctx, csr_dist_vector_gather(ctx, v, 0, rank == 0 ? all : NULL));
  MPI_Bcast(all->data, (int)n, MPI_DOUBLE, 0, comm);
  double *out = malloc((size_t)n * sizeof *out + 8);
  memcpy(out, all->data, (size_t)n * sizeof *out);
  csr_vector_free(&all);
  return out;
}

csr_matrix *mpit_merged(csr_context *ctx, const csr_matrix *A) {
  csr_coo *T = NULL;
  csr_matrix *M = NULL;
  /* On a context set to CUDA these host conversions run on the CPU and say so (declined). */
  csr_status s = csr_to_coo(ctx, A, &T);
  CHECKF(s >= 0, "csr_to_coo: %s", csr_status_string(s));
  s = csr_from_coo(ctx, T, 0, &M);
  CHECKF(s >= 0, "csr_from_coo: %s", csr_status_string(s));
  csr_coo_free(&T);
  return M;
}

double *mpit_slice(const csr_vector *v, int64_t first, int64_t count) {
  double *s = malloc((size_t)count * sizeof *s + 8);
  for (int64_t i = 0; i < count; i++)
    s[i] = v->value_type == CSR_F64 ? ((const double *)v->data)[first + i]
                                    : ((const float *)v->data)[first + i];
  return s;
}

int mpit_same_bits(const double *a, const double *b, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    if (memcmp(&a[i], &b[i], sizeof a[i]) != 0 && !(isnan(a[i]) && isnan(b[i])))
      return 0;
  return 1;
}

int mpit_finish(const char *name) {
  int rank = 0, P = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  long mine[2] = {csrt_checks, csrt_failures}, all[2] = {0, 0};
  MPI_Allreduce(mine, all, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%s on %d ranks: %ld passed, %ld failed\n", name, P, all[0] - all[1], all[1]);
  int code = all[1] > 0 || all[0] == 0;
  MPI_Finalize();
  return code;
}
