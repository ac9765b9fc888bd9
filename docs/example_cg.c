/* SPDX-License-Identifier: BSD-3-Clause */
/* Solving A x = b with libcsr, as a program that links the installed library would:
 *
 *     cc example_cg.c $(pkg-config --cflags --libs csr) -o example_cg
 *     (or in CMake: find_package(csr) and target_link_libraries(... csr::csr))
 *
 * It assembles the 2D Poisson matrix of an m x m grid from triples, takes b = A * ones, solves
 * with Jacobi-preconditioned CG, and checks the answer. tests/install/run.sh builds and runs it
 * against an installed libcsr both ways. */
#include <csr.h>

#include <stdio.h>

/* Prints the library's message for a failed call and returns 1. */
static int failed(csr_context *ctx, const char *what, csr_status s) {
  fprintf(stderr, "example_cg: %s: %s (%s)\n", what, csr_status_string(s),
          csr_context_last_error(ctx));
  return 1;
}

int main(void) {
  const int64_t m = 50, n = m * m;
  csr_context *ctx = NULL;
  csr_coo *T = NULL;
  csr_matrix *A = NULL;
  csr_vector *ones = NULL, *b = NULL, *x = NULL;
  csr_status s = csr_context_create(&ctx);
  if (s != CSR_SUCCESS)
    return failed(ctx, "context", s);

  /* 4 on the diagonal, -1 to each grid neighbour: at most 5 triples per row. */
  if ((s = csr_coo_create(ctx, &T, n, n, 5 * n, CSR_F64, CSR_HOST)) != CSR_SUCCESS)
    return failed(ctx, "triples", s);
  int64_t k = 0;
  double *v = T->values;
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < m; j++) {
      int64_t row = i * m + j;
      const int64_t di[5] = {0, -1, 1, 0, 0}, dj[5] = {0, 0, 0, -1, 1};
      for (int t = 0; t < 5; t++) {
        int64_t ni = i + di[t], nj = j + dj[t];
        if (ni < 0 || ni >= m || nj < 0 || nj >= m)
          continue;
        T->row_indices[k] = (int32_t)row;
        T->col_indices[k] = (int32_t)(ni * m + nj);
        v[k++] = t == 0 ? 4.0 : -1.0;
      }
    }
  T->nnz = k;
  if ((s = csr_from_coo(ctx, T, 0, &A)) != CSR_SUCCESS)
    return failed(ctx, "COO to CSR", s);

  if ((s = csr_vector_create(ctx, &ones, n, CSR_F64, CSR_HOST)) != CSR_SUCCESS ||
      (s = csr_vector_create(ctx, &b, n, CSR_F64, CSR_HOST)) != CSR_SUCCESS ||
      (s = csr_vector_create(ctx, &x, n, CSR_F64, CSR_HOST)) != CSR_SUCCESS ||
      (s = csr_fill(ctx, 1.0, ones)) != CSR_SUCCESS ||
      (s = csr_spmv(ctx, 1.0, A, ones, 0.0, b)) != CSR_SUCCESS) /* b = A * ones */
    return failed(ctx, "vectors", s);

  csr_solver_options options;
  csr_solver_options_init(&options);
  options.method = CSR_SOLVER_PCG_JACOBI;
  options.rtol = 1e-10;
  csr_solver_info info;
  s = csr_solve(ctx, A, b, x, &options, &info); /* x = 0 in, the solution out */
  if (s != CSR_SUCCESS)
    return failed(ctx, "solve", s);

  double error = 0.0; /* the exact solution is ones */
  for (int64_t i = 0; i < n; i++) {
    double e = ((const double *)x->data)[i] - 1.0;
    error = e < 0 ? (-e > error ? -e : error) : (e > error ? e : error);
  }
  printf("example_cg: %lld unknowns, %lld iterations, relative residual %.1e, max error %.1e\n",
         (long long)n, (long long)info.iterations, info.relative_residual, error);
  int ok = info.relative_residual <= 1e-10 && error <= 1e-7;
  printf("example_cg: %s\n", ok ? "ok" : "WRONG ANSWER");
  csr_vector_free(&ones);
  csr_vector_free(&b);
  csr_vector_free(&x);
  csr_matrix_free(&A);
  csr_coo_free(&T);
  csr_context_free(&ctx);
  return ok ? 0 : 1;
}
