/* SPDX-License-Identifier: BSD-3-Clause */
/* The ways in and out of a distributed matrix: triples held anywhere, rows in place, a matrix
 * scattered from one rank; gathered back, each must be the matrix csr_from_coo makes of the same
 * triples. The split: by weight, never more than one row's weight above the mean. The errors: a
 * bad entry or an allocation failure on one rank only gives the same status and message on every
 * rank, with nothing leaked and nobody left waiting. */
#include "mpi_testing.h"

#include <stdlib.h>
#include <string.h>

static int rank, ranks;

/* The gathered D equals M (on rank 0); every rank learns the verdict. */
static void check_gathered(csr_context *ctx, const csr_dist_matrix *D, const csr_matrix *M,
                           const char *what) {
  csr_matrix *G = NULL;
  CHECK_OK(ctx, csr_dist_matrix_gather(ctx, D, 0, &G));
  int equal = 0;
  if (rank == 0 && G != NULL)
    CHECK_OK(ctx, csr_matrix_equal(ctx, G, M, &equal));
  MPI_Bcast(&equal, 1, MPI_INT, 0, MPI_COMM_WORLD);
  CHECKF(equal, "%s: the gathered matrix differs from csr_from_coo's (%lld x %lld, %lld entries)",
         what, (long long)M->rows, (long long)M->cols, (long long)M->nnz);
  CHECK((rank == 0) == (G != NULL));
  csr_matrix_free(&G);
}

/* The blocks' weights: none more than the largest row's weight above the mean. */
static void check_balance(const csr_dist_matrix *D, const csr_matrix *M, const char *what) {
  csr_dist_share s;
  CHECK(csr_dist_matrix_share(D, &s) == CSR_SUCCESS);
  int64_t longest = 0;
  for (int64_t i = 0; i < M->rows; i++) {
    int64_t w = M->row_offsets[i + 1] - M->row_offsets[i] + 1;
    longest = w > longest ? w : longest;
  }
  double mean = (double)(M->nnz + M->rows) / ranks;
  CHECKF((double)(s.nnz + s.rows) <= mean + (double)longest + 1e-9,
         "%s: rank %d holds weight %lld, mean %.1f, longest row %lld", what, rank,
         (long long)(s.nnz + s.rows), mean, (long long)longest);
  int64_t total = 0;
  MPI_Allreduce(&s.nnz, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  CHECK(total == M->nnz);
}

static void check_ways_in(csr_context *ctx, const csr_matrix *A, const char *what) {
  /* Triples held anywhere sum their duplicates in (rank, entry) order, which is not A's:
   * those of the merged matrix have none. */
  csr_matrix *M = mpit_merged(ctx, A);
  csr_dist_matrix *D = mpit_distribute(ctx, M, CSR_HOST);
  check_gathered(ctx, D, M, what);
  check_balance(D, M, what);
  csr_dist_matrix_free(&D);
  /* Scattered from the last rank: its duplicates summed in stored order, as csr_from_coo does. */
  CHECK_OK(ctx, csr_dist_matrix_scatter(ctx, MPI_COMM_WORLD, ranks - 1,
                                        rank == ranks - 1 ? A : NULL, CSR_HOST, &D));
  check_gathered(ctx, D, M, what);
  csr_dist_matrix_free(&D);
  /* Rows in place: rank r takes rows [r n / P, (r + 1) n / P) of M. */
  int64_t first = M->rows * rank / ranks, end = M->rows * (rank + 1) / ranks;
  int64_t *off = malloc((size_t)(end - first + 1) * sizeof *off);
  int64_t base = M->row_offsets[first], nnz = M->row_offsets[end] - base;
  int64_t *col = malloc((size_t)nnz * sizeof *col + 8);
  for (int64_t i = first; i <= end; i++)
    off[i - first] = M->row_offsets[i] - base;
  for (int64_t k = 0; k < nnz; k++)
    col[k] = M->col_indices[base + k];
  size_t vb = M->value_type == CSR_F64 ? 8 : M->value_type == CSR_F32 ? 4 : 0;
  CHECK_OK(ctx, csr_dist_matrix_from_rows(ctx, MPI_COMM_WORLD, M->cols, end - first, off, col,
                                          vb ? (char *)M->values + base * vb : NULL, M->value_type,
                                          CSR_HOST, &D));
  check_gathered(ctx, D, M, what);
  csr_dist_share s;
  csr_dist_matrix_share(D, &s);
  CHECK(s.first_row == first && s.rows == end - first);
  csr_dist_matrix_free(&D);
  free(off);
  free(col);
  csr_matrix_free(&M);
}

/* Rank `bad` holds a triple outside the matrix: every rank gets its status and message. */
static void check_bad_entry(csr_context *ctx) {
  int bad = ranks - 1;
  int64_t row[2] = {0, 3}, col[2] = {1, rank == bad ? 99 : 2};
  double val[2] = {1.0, 2.0};
  csr_dist_matrix *D = NULL;
  CHECK_STATUS(ctx,
               csr_dist_matrix_from_triples(ctx, MPI_COMM_WORLD, 10, 10, 2, row, col, val, CSR_F64,
                                            CSR_HOST, &D),
               CSR_ERR_INDEX_OUT_OF_BOUNDS);
  CHECK(D == NULL);
  const char *m = csr_context_last_message(ctx);
  char want[64];
  snprintf(want, sizeof want, "rank %d of %d: entry 1", bad, ranks);
  CHECKF(ranks == 1 ? strstr(m, "(3, 99)") != NULL
                    : strstr(m, want) != NULL && strstr(m, "(3, 99)"),
         "the message: %s", m);
}

/* The n-th allocation fails on rank `victim` only, for every n until the call succeeds. */
static void check_allocation_failures(csr_context *ctx, const csr_matrix *A) {
  csr_matrix *M = mpit_merged(ctx, A);
  mpit_triples t = mpit_share(M, rank, ranks);
  int victim = ranks / 2, done = 0, tries = 0;
  for (int64_t n = 1; !done && n < 400; n++, tries++) {
    if (rank == victim)
      csr_debug_fail_allocation_after(n);
    csr_dist_matrix *D = NULL;
    csr_dist_vector *x = NULL, *y = NULL;
    csr_status s =
        csr_dist_matrix_from_triples(ctx, MPI_COMM_WORLD, M->rows, M->cols, t.count, t.row, t.col,
                                     t.values, M->value_type, CSR_HOST, &D);
    if (s >= 0)
      s = csr_dist_vector_create(ctx, D, CSR_DIST_COLS, CSR_F64, CSR_HOST, &x);
    if (s >= 0)
      s = csr_dist_vector_create(ctx, D, CSR_DIST_ROWS, CSR_F64, CSR_HOST, &y);
    if (s >= 0)
      s = csr_dist_spmv(ctx, 1.0, D, x, 0.0, y);
    csr_debug_fail_allocation_after(0);
    int mine[2] = {s, -s}, all[2];
    MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    CHECKF(all[0] == -all[1], "allocation %lld on rank %d: the ranks disagree (%d and %d)",
           (long long)n, victim, all[0], -all[1]);
    CHECKF(s == CSR_SUCCESS || s == CSR_ERR_OUT_OF_MEMORY, "allocation %lld: %s (%s)", (long long)n,
           csr_status_string(s), csr_context_last_message(ctx));
    done = s == CSR_SUCCESS;
    csr_dist_vector_free(&x);
    csr_dist_vector_free(&y);
    csr_dist_matrix_free(&D);
  }
  CHECKF(done && tries > 5, "every allocation failure tried (%d)", tries);
  mpit_triples_free(&t);
  csr_matrix_free(&M);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  csrt_rng rng = {csrt_seed("mpi_matrix")};
  csr_context *ctx = csrt_context(CSR_BACKEND_OMP);
  csr_context_set_threads(ctx, 1);
  for (int s = 0; s < CSRT_SHAPE_COUNT; s++)
    for (int t = 0; t < 3; t++) {
      csr_value_type type = t == 0 ? CSR_F64 : t == 1 ? CSR_F32 : CSR_PATTERN;
      csr_matrix *A = csrt_generate(ctx, (csrt_shape)s, type, CSRT_RANDOM, &rng);
      check_ways_in(ctx, A, csrt_shape_name((csrt_shape)s));
      csr_matrix_free(&A);
    }
  check_bad_entry(ctx);
  csr_matrix *A = csrt_poisson_2d(ctx, 10, 0.0);
  check_allocation_failures(ctx, A);
  csr_matrix_free(&A);
  csr_context_free(&ctx);
  return mpit_finish("mpi_matrix");
}
