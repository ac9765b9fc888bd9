/* SPDX-License-Identifier: BSD-3-Clause */
/* README's first example: read a matrix, compute y = A*x for x of ones, print ||y||_2.
 *     cc example_first.c $(pkg-config --cflags --libs csr) -o example_first
 *     ./example_first matrices/1138_bus.mtx        prints: ||A*ones||_2 = 1460.03
 * Every call returns CSR_SUCCESS (0) when it worked, so || stops at the first failure. */
#include <csr.h>
#include <stdio.h>

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "matrices/1138_bus.mtx";
  csr_context *ctx = NULL;
  csr_matrix *A = NULL;
  csr_vector *x = NULL, *y = NULL;
  double norm = 0.0;
  int failed = csr_context_create(&ctx) || csr_read_csr(ctx, path, NULL, &A, NULL) ||
               csr_vector_create(ctx, &x, A->cols, CSR_F64, CSR_HOST) ||
               csr_vector_create(ctx, &y, A->rows, CSR_F64, CSR_HOST) ||
               csr_fill(ctx, 1.0, x) ||            /* x = ones */
               csr_spmv(ctx, 1.0, A, x, 0.0, y) || /* y = 1 * A x + 0 * y */
               csr_nrm2(ctx, y, &norm);
  if (failed) /* e.g. "bus.mtx:4: expected a value, found the end of the line" */
    fprintf(stderr, "%s\n", csr_context_last_message(ctx));
  else
    printf("||A*ones||_2 = %g\n", norm);
  csr_vector_free(&y);
  csr_vector_free(&x);
  csr_matrix_free(&A);
  csr_context_free(&ctx);
  return failed;
}
