/* SPDX-License-Identifier: BSD-3-Clause */
/* The distributed guide's program (docs/index.md, "Across processes"): reads a matrix across
 * the ranks of MPI_COMM_WORLD, solves A x = b (b = A * ones) by Jacobi-preconditioned CG, and
 * prints, from rank 0, the rank's share and what the solve did. Run it as
 *   mpiexec -n 4 build/tests/docs_example_mpi matrices/1138_bus.mtx
 * On any number of ranks it prints the same iterations and residual, to the last digit. */
#include <csr_mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char *path = argc > 1 ? argv[1] : "matrices/1138_bus.mtx";
  csr_context *ctx = NULL;
  csr_dist_matrix *A = NULL;
  csr_dist_vector *ones = NULL, *b = NULL, *x = NULL;
  csr_status s = csr_context_create(&ctx);
  if (s >= 0) /* every rank names the file; each error is every rank's */
    s = csr_dist_matrix_read(ctx, MPI_COMM_WORLD, path, NULL, CSR_HOST, &A, NULL);
  if (s >= 0)
    s = csr_dist_vector_create(ctx, A, CSR_DIST_COLS, CSR_F64, CSR_HOST, &ones);
  if (s >= 0)
    s = csr_dist_vector_create(ctx, A, CSR_DIST_ROWS, CSR_F64, CSR_HOST, &b);
  if (s >= 0)
    s = csr_dist_vector_create(ctx, A, CSR_DIST_ROWS, CSR_F64, CSR_HOST, &x);
  if (s >= 0)
    s = csr_dist_fill(ctx, 1.0, ones);
  if (s >= 0) /* b = A * ones: the halo exchange overlapped with the interior rows */
    s = csr_dist_spmv(ctx, 1.0, A, ones, 0.0, b);
  csr_solver_options o;
  csr_solver_options_init(&o);
  o.method = CSR_SOLVER_PCG_JACOBI;
  o.rtol = 1e-10;
  csr_solver_info info;
  if (s >= 0)
    s = csr_dist_solve(ctx, A, b, x, &o, &info);
  double error = 0.0; /* ||x - 1||_inf */
  if (s >= 0)
    s = csr_dist_axpby(ctx, -1.0, ones, 1.0, x);
  if (s >= 0)
    s = csr_dist_nrminf(ctx, x, &error);
  csr_dist_share share;
  if (s >= 0 && csr_dist_matrix_share(A, &share) == CSR_SUCCESS && rank == 0) {
    printf("rank 0 of %d holds rows %lld..%lld (%lld nonzeros, %lld ghost entries)\n", share.ranks,
           (long long)share.first_row, (long long)(share.first_row + share.rows - 1),
           (long long)share.nnz, (long long)share.ghosts);
    printf("PCG: %lld iterations, relative residual %.17g, max |x - 1| = %.3g\n",
           (long long)info.iterations, info.relative_residual, error);
  }
  if (s < 0 && rank == 0)
    fprintf(stderr, "example_mpi: %s\n", csr_context_last_message(ctx));
  csr_dist_vector_free(&x); /* collective, like every call of csr_mpi.h */
  csr_dist_vector_free(&b);
  csr_dist_vector_free(&ones);
  csr_dist_matrix_free(&A);
  csr_context_free(&ctx);
  MPI_Finalize();
  return s < 0;
}
