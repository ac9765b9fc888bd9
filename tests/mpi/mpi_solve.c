/* SPDX-License-Identifier: BSD-3-Clause */
/* Distributed CG, Jacobi-PCG, BiCGSTAB and GMRES: the same run on any number of ranks (each solve
 * is repeated on sub-communicators of every size that divides the world's, and on MPI_COMM_SELF:
 * iteration counts, residual histories and x bitwise equal), and against csr_solve on one process
 * (converged to the same tolerance, iteration counts within a few); GMRES with block Jacobi
 * converged on every communicator. Errors agreed on every rank. */
#include "mpi_testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int rank, ranks;

typedef struct outcome {
  csr_status status;
  csr_solver_info info;
  double history[4096];
  double *x; /* the whole solution, on every rank */
} outcome;

/* Solves on comm; every rank of the world ends with the whole x (gathered to the comm's rank 0,
 * then broadcast within comm). */
static void solve_on(csr_context *ctx, MPI_Comm comm, const csr_matrix *A, const csr_vector *b,
                     csr_solver_method method, csr_solver_preconditioner pc, outcome *out) {
  int me = 0;
  MPI_Comm_rank(comm, &me);
  csr_dist_matrix *D = mpit_distribute_on(ctx, comm, A, CSR_HOST);
  csr_dist_vector *db = NULL, *dx = NULL;
  CHECK_OK(ctx, csr_dist_vector_create(ctx, D, CSR_DIST_ROWS, CSR_F64, CSR_HOST, &db));
  CHECK_OK(ctx, csr_dist_vector_create(ctx, D, CSR_DIST_ROWS, CSR_F64, CSR_HOST, &dx));
  CHECK_OK(ctx, csr_dist_vector_scatter(ctx, db, 0, me == 0 ? b : NULL));
  csr_solver_options o;
  csr_solver_options_init(&o);
  o.method = method;
  o.preconditioner = pc;
  o.rtol = 1e-10;
  o.history = out->history;
  o.history_capacity = 4096;
  out->status = csr_dist_solve(ctx, D, db, dx, &o, &out->info);
  out->x = mpit_whole(ctx, comm, dx, A->rows);
  csr_dist_vector_free(&db);
  csr_dist_vector_free(&dx);
  csr_dist_matrix_free(&D);
}

/* Solves A x = A * ones with `method` and `pc` on every communicator and with csr_solve on one
 * process. Without a factorization every communicator gives the bits of one rank, in about
 * csr_solve's iterations. Block Jacobi's factorizations (GMRES with ILU0, ILUT, IC0) change with
 * the ranks: every communicator converges, and one rank, whose block is A, takes csr_solve's
 * iterations give or take the orthogonalisation's rounding (classical Gram-Schmidt across ranks,
 * modified on one process). */
static void check_system(csr_context *ctx, const csr_matrix *A, csr_solver_method method,
                         csr_solver_preconditioner pc, const char *what) {
  csr_vector *b = csrt_times_ones(ctx, A), *x1 = csrt_zeros(ctx, A->rows);
  int blocks = pc > CSR_PRECOND_JACOBI; /* the iterates depend on the ranks */
  csr_solver_options o;
  csr_solver_options_init(&o);
  o.method = method;
  o.preconditioner = pc;
  o.rtol = 1e-10;
  csr_solver_info one;
  csr_status s1 = csr_solve(ctx, A, b, x1, &o, &one);
  if (blocks) /* the factorization preconditions well enough to converge on one process */
    CHECK(s1 == CSR_SUCCESS);

  outcome world = {0}, self = {0};
  solve_on(ctx, MPI_COMM_WORLD, A, b, method, pc, &world);
  solve_on(ctx, MPI_COMM_SELF, A, b, method, pc, &self);
  CHECKF(world.status == s1 && self.status == s1,
         "%s: %s on %d ranks, %s on one, %s by csr_solve (%s)", what,
         csr_status_string(world.status), ranks, csr_status_string(self.status),
         csr_status_string(s1), csr_context_last_error(ctx));
  if (!blocks)
    CHECKF(world.info.iterations == self.info.iterations &&
               world.info.history_length == self.info.history_length &&
               mpit_same_bits(world.history, self.history, world.info.history_length) &&
               mpit_same_bits(world.x, self.x, A->rows),
           "%s: %d ranks and 1 rank differ (%lld and %lld iterations)", what, ranks,
           (long long)world.info.iterations, (long long)self.info.iterations);
  int64_t gap = self.info.iterations - one.iterations;
  CHECKF(llabs(gap) <= 2 + one.iterations / (blocks ? 20 : 50),
         "%s: %lld iterations on one rank, %lld by csr_solve", what,
         (long long)self.info.iterations, (long long)one.iterations);
  if (s1 == CSR_SUCCESS)
    CHECKF(world.info.relative_residual <= 1e-10 * 1.0001 &&
               self.info.relative_residual <= 1e-10 * 1.0001,
           "%s: relative residual %g on %d ranks, %g on one", what, world.info.relative_residual,
           ranks, self.info.relative_residual);
  if (blocks && rank == 0)
    printf("  %-34s %lld iterations on %d ranks, %lld on 1, csr_solve %lld\n", what,
           (long long)world.info.iterations, ranks, (long long)self.info.iterations,
           (long long)one.iterations);
  /* A sub-communicator of every size that divides the world's: the same run again. */
  for (int size = 2; size < ranks && !blocks; size++) {
    if (ranks % size != 0)
      continue;
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, rank / size, rank, &sub);
    outcome part = {0};
    solve_on(ctx, sub, A, b, method, pc, &part);
    CHECKF(part.info.iterations == self.info.iterations && mpit_same_bits(part.x, self.x, A->rows),
           "%s: %d ranks and 1 rank differ", what, size);
    free(part.x);
    MPI_Comm_free(&sub);
  }
  free(world.x);
  free(self.x);
  csr_vector_free(&b);
  csr_vector_free(&x1);
}

/* -Laplacian + a convection term (non-symmetric) on an m x m grid. */
static csr_matrix *convection(csr_context *ctx, int64_t m) {
  csr_matrix *A = csrt_poisson_2d(ctx, m, 0.0);
  double *v = A->values;
  for (int64_t i = 0; i < A->rows; i++)
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++)
      if (A->col_indices[k] == i + 1)
        v[k] -= 0.4;
      else if (A->col_indices[k] == i - 1)
        v[k] += 0.4;
  return A;
}

/* A breakdown, a singular row and a bad Jacobi diagonal are refused with the same status and
 * message on every rank. */
static void check_refusals(csr_context *ctx) {
  csr_matrix *A = csrt_poisson_2d(ctx, 12, 0.0);
  int64_t row = A->rows - 3; /* on the last rank */
  for (int64_t k = A->row_offsets[row]; k < A->row_offsets[row + 1]; k++)
    ((double *)A->values)[k] = 0.0;
  csr_vector *b = NULL;
  CHECK_OK(ctx, csr_vector_create(ctx, &b, A->rows, CSR_F64, CSR_HOST));
  CHECK_OK(ctx, csr_fill(ctx, 1.0, b));
  outcome o = {0};
  solve_on(ctx, MPI_COMM_WORLD, A, b, CSR_SOLVER_CG, CSR_PRECOND_NONE, &o);
  CHECKF(o.status == CSR_ERR_INVALID_MATRIX &&
             strstr(csr_context_last_message(ctx), "row 141 has no nonzero entry") != NULL,
         "a zero row: %s (%s)", csr_status_string(o.status), csr_context_last_message(ctx));
  free(o.x);
  /* A negative diagonal entry: Jacobi refuses it, naming the row, on every rank. */
  csr_matrix_free(&A);
  A = csrt_poisson_2d(ctx, 12, 0.0);
  for (int64_t k = A->row_offsets[5]; k < A->row_offsets[6]; k++)
    if (A->col_indices[k] == 5)
      ((double *)A->values)[k] = -4.0;
  outcome q = {0};
  solve_on(ctx, MPI_COMM_WORLD, A, b, CSR_SOLVER_PCG_JACOBI, CSR_PRECOND_NONE, &q);
  CHECKF(q.status == CSR_ERR_INVALID_MATRIX &&
             strstr(csr_context_last_message(ctx), "row 5 is -4") != NULL,
         "a negative diagonal: %s (%s)", csr_status_string(q.status),
         csr_context_last_message(ctx));
  free(q.x);
  csr_vector_free(&b);
  csr_matrix_free(&A);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  csr_context *ctx = csrt_context(CSR_BACKEND_OMP);
  csr_context_set_threads(ctx, 1);
  csr_matrix *A = csrt_poisson_2d(ctx, 30, 0.0);
  check_system(ctx, A, CSR_SOLVER_CG, CSR_PRECOND_NONE, "CG, poisson 30x30");
  check_system(ctx, A, CSR_SOLVER_PCG_JACOBI, CSR_PRECOND_NONE, "PCG, poisson 30x30");
  check_system(ctx, A, CSR_SOLVER_BICGSTAB, CSR_PRECOND_NONE, "BiCGSTAB, poisson 30x30");
  csr_matrix_free(&A);
  A = convection(ctx, 25);
  check_system(ctx, A, CSR_SOLVER_BICGSTAB, CSR_PRECOND_NONE, "BiCGSTAB, convection 25x25");
  check_system(ctx, A, CSR_SOLVER_GMRES, CSR_PRECOND_NONE, "GMRES, convection 25x25");
  check_system(ctx, A, CSR_SOLVER_GMRES, CSR_PRECOND_JACOBI, "GMRES + Jacobi, convection 25x25");
  check_system(ctx, A, CSR_SOLVER_GMRES, CSR_PRECOND_ILU0,
               "GMRES + block ILU(0), convection 25x25");
  check_system(ctx, A, CSR_SOLVER_GMRES, CSR_PRECOND_ILUT, "GMRES + block ILUT, convection 25x25");
  csr_matrix_free(&A);
  const char *files[] = {"../shared/matrices/1138_bus.mtx", "../shared/matrices/bcsstk13.mtx"};
  for (int f = 0; f < 2; f++) {
    A = csrt_read_if_present(ctx, files[f]);
    if (A == NULL)
      continue;
    check_system(ctx, A, CSR_SOLVER_PCG_JACOBI, CSR_PRECOND_NONE, files[f]);
    csr_matrix_free(&A);
  }
  check_refusals(ctx);
  csr_context_free(&ctx);
  return mpit_finish("mpi_solve");
}
