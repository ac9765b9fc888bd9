/* SPDX-License-Identifier: BSD-3-Clause */
/* A libcsr user built against the installed package (tests/install/run.sh): creates a context
 * and the 2x2 matrix
 *
 *   [ 1 . ]
 *   [ . 2 ]
 *
 * validates it, multiplies it by a vector of ones and takes the norm of the product, breaks a
 * column index and validates again. Prints one line per step; run.sh
 * compares them with what the public header documents. Exit 0 iff every step went as expected. */
#include <csr.h>

#include <stdio.h>

int main(void) {
  csr_context *ctx = NULL;
  csr_matrix *A = NULL;
  int failures = 0;

  printf("libcsr %s\n", CSR_VERSION_STRING);
  csr_status s = csr_context_create(&ctx);
  printf("context: %s\n", csr_status_string(s));
  failures += s != CSR_SUCCESS;

  s = csr_matrix_create(ctx, &A, 2, 2, 2, CSR_F64, CSR_HOST);
  printf("create: %s\n", csr_status_string(s));
  if (s == CSR_SUCCESS) {
    double *values = A->values;
    A->row_offsets[0] = 0;
    A->row_offsets[1] = 1;
    A->row_offsets[2] = 2;
    A->col_indices[0] = 0;
    A->col_indices[1] = 1;
    values[0] = 1.0;
    values[1] = 2.0;
    s = csr_matrix_validate(ctx, A);
    printf("validate: %s\n", csr_status_string(s));
    failures += s != CSR_SUCCESS;

    /* y = A x with x = (1, 1): (1, 2), and ||y||_2 = sqrt(5). The SpMV and the norm link the
     * backends' tables, the CUDA backend's too when it is built: a static link of a CUDA build
     * must not need the C++ runtime. */
    csr_vector *x = NULL, *y = NULL;
    double norm = 0.0;
    s = csr_vector_create(ctx, &x, 2, CSR_F64, CSR_HOST);
    if (s == CSR_SUCCESS)
      s = csr_vector_create(ctx, &y, 2, CSR_F64, CSR_HOST);
    if (s == CSR_SUCCESS)
      s = csr_fill(ctx, 1.0, x);
    if (s == CSR_SUCCESS)
      s = csr_spmv(ctx, 1.0, A, x, 0.0, y);
    if (s == CSR_SUCCESS)
      s = csr_nrm2(ctx, y, &norm);
    printf("spmv and nrm2: %s, %.6f\n", csr_status_string(s), norm);
    failures += s != CSR_SUCCESS || norm < 2.236067 || norm > 2.236068;
    csr_vector_free(&x);
    csr_vector_free(&y);

    A->col_indices[1] = 7; /* outside [0, 2) */
    s = csr_matrix_validate(ctx, A);
    printf("validate bad column: %s\n", csr_status_string(s));
    failures += s != CSR_ERR_INDEX_OUT_OF_BOUNDS;
  } else {
    failures++;
  }

  csr_matrix_free(&A);
  failures += A != NULL;
  csr_context_free(&ctx);
  failures += ctx != NULL;
  printf("%s\n", failures == 0 ? "hello: ok" : "hello: FAILED");
  return failures == 0 ? 0 : 1;
}
