/* SPDX-License-Identifier: BSD-3-Clause */
/* The five-minute tour of libcsr (docs/index.md) as one program that links the installed library:
 *
 *     cc example_tour.c $(pkg-config --cflags --libs csr) -o example_tour
 *     (or in CMake: find_package(csr) and target_link_libraries(... csr::csr))
 *
 *     ./example_tour               a 4 x 4 matrix built here from triples
 *     ./example_tour FILE.mtx      a Matrix Market file (.mtx.gz, edge lists .txt/.el too)
 *
 * It makes a context, gets a matrix, computes y = A*x for x = (1, 2, 3, 4, 1, 2, ...), checks y
 * against a loop over the CSR arrays, takes two reductions, runs the SpMV again on the serial
 * reference backend, shows how an error reads, tries the device when there is one, and frees
 * everything. The last line is "example_tour: ok" when every check passed (exit 0).
 * tests/install/run.sh builds it both ways against an installed libcsr and checks what it
 * prints. */
#include <csr.h>

#include <stdio.h>

static double absolute(double v) {
  return v < 0 ? -v : v;
}

/* Prints the library's message for a failed call; returns 1 (the exit status). */
static int failed(csr_context *ctx, const char *what, csr_status s) {
  fprintf(stderr, "example_tour: %s: %s (%s)\n", what, csr_status_string(s),
          csr_context_last_error(ctx));
  return 1;
}

/* The 4 x 4 matrix of the tour from triples in no particular order:
 *   [  4 -1  .  . ]
 *   [ -1  4 -1  . ]
 *   [  . -1  4 -1 ]
 *   [  .  . -1  3 ]  */
static csr_status build_matrix(csr_context *ctx, csr_matrix **A) {
  static const int32_t rows[] = {3, 0, 1, 2, 1, 0, 2, 3, 1, 2};
  static const int32_t cols[] = {3, 0, 1, 2, 0, 1, 1, 2, 2, 3};
  static const double vals[] = {3, 4, 4, 4, -1, -1, -1, -1, -1, -1};
  csr_coo *T = NULL;
  csr_status s = csr_coo_create(ctx, &T, 4, 4, 10, CSR_F64, CSR_HOST);
  if (s != CSR_SUCCESS)
    return s;
  double *v = T->values;
  for (int k = 0; k < 10; k++) {
    T->row_indices[k] = rows[k];
    T->col_indices[k] = cols[k];
    v[k] = vals[k];
  }
  s = csr_from_coo(ctx, T, 0, A); /* sorts by row, then column; sums duplicates */
  csr_coo_free(&T);
  return s;
}

/* Tries y = A*x on the GPU and compares with the host's y. Prints one line; returns 0 unless a
 * device result came back wrong or a call failed in a way the header does not foresee. */
static int device_tour(csr_context *ctx, const csr_matrix *A, const csr_vector *x,
                       const csr_vector *y) {
  if (!csr_cuda_device_present()) {
    printf("device: none here (no CUDA backend compiled in, or no GPU): host only\n");
    return 0;
  }
  csr_matrix *dA = NULL;
  csr_vector *dx = NULL, *dy = NULL, *back = NULL;
  int bad = 0;
  csr_status s = csr_matrix_copy(ctx, A, &dA, CSR_DEVICE); /* host -> device */
  if (s == CSR_SUCCESS)
    s = csr_vector_clone(ctx, x, &dx, CSR_DEVICE);
  if (s == CSR_SUCCESS)
    s = csr_vector_create(ctx, &dy, A->rows, CSR_F64, CSR_DEVICE);
  if (s != CSR_SUCCESS) {
    bad = failed(ctx, "device copies", s);
  } else if ((s = csr_spmv(ctx, 1.0, dA, dx, 0.0, dy)) == CSR_ERR_UNSUPPORTED) {
    printf("device: copies work; SpMV on device operands is not in this libcsr (%s)\n",
           csr_status_string(s));
  } else if (s < 0) {
    bad = failed(ctx, "device SpMV", s);
  } else if ((s = csr_vector_clone(ctx, dy, &back, CSR_HOST)) != CSR_SUCCESS) { /* -> host */
    bad = failed(ctx, "device to host", s);
  } else {
    /* The GPU may add a row's products in another order: equal up to rounding. */
    const double *h = y->data, *d = back->data;
    double worst = 0.0;
    for (int64_t i = 0; i < y->n; i++) {
      double e = absolute(h[i] - d[i]) / (absolute(h[i]) > 1.0 ? absolute(h[i]) : 1.0);
      worst = e > worst ? e : worst;
    }
    bad = !(worst <= 1e-12);
    printf("device: y = A*x on the GPU %s the host's y\n", bad ? "DIFFERS FROM" : "matches");
  }
  csr_vector_free(&back);
  csr_vector_free(&dy);
  csr_vector_free(&dx);
  csr_matrix_free(&dA); /* device arrays are freed the same way */
  return bad;
}

int main(int argc, char **argv) {
  if (argc > 2) {
    fprintf(stderr, "usage: %s [FILE.mtx]\n", argv[0]);
    return 2;
  }
  int bad = 0;
  printf("example_tour: libcsr %s\n", CSR_VERSION_STRING);

  /* 1. A context: backend choice, threads, CUDA stream, and the last error's detail. */
  csr_context *ctx = NULL;
  csr_status s = csr_context_create(&ctx);
  if (s != CSR_SUCCESS)
    return failed(ctx, "context", s);

  /* 2. A matrix: read from a file, or built from triples. */
  csr_matrix *A = NULL;
  if (argc == 2) {
    csr_file_info info;
    s = csr_read_csr(ctx, argv[1], NULL, &A, &info); /* symmetric files come back expanded */
    if (s != CSR_SUCCESS)
      return failed(ctx, argv[1], s); /* e.g. "file.mtx:17: expected ..., found ..." */
    printf("matrix: %s, %lld x %lld, %lld nonzeros (%lld entries stored in the file)\n", argv[1],
           (long long)A->rows, (long long)A->cols, (long long)A->nnz,
           (long long)info.stored_entries);
  } else {
    if ((s = build_matrix(ctx, &A)) != CSR_SUCCESS)
      return failed(ctx, "matrix", s);
    printf("matrix: built in, %lld x %lld, %lld nonzeros\n", (long long)A->rows, (long long)A->cols,
           (long long)A->nnz);
  }
  if (A->value_type == CSR_PATTERN) {
    fprintf(stderr, "example_tour: %s is a pattern matrix; this tour wants values\n", argv[1]);
    csr_matrix_free(&A);
    csr_context_free(&ctx);
    return 2;
  }

  /* 3. Vectors on the host: x = (1, 2, 3, 4, 1, 2, ...), y for the result (created zeroed). */
  csr_vector *x = NULL, *y = NULL;
  if ((s = csr_vector_create(ctx, &x, A->cols, CSR_F64, CSR_HOST)) != CSR_SUCCESS ||
      (s = csr_vector_create(ctx, &y, A->rows, CSR_F64, CSR_HOST)) != CSR_SUCCESS)
    return failed(ctx, "vectors", s);
  double *xv = x->data;
  for (int64_t j = 0; j < x->n; j++)
    xv[j] = (double)(1 + j % 4);

  /* 4. SpMV: y = 1*A*x + 0*y, on the context's backend (AUTO: OpenMP when built in). */
  if ((s = csr_spmv(ctx, 1.0, A, x, 0.0, y)) != CSR_SUCCESS)
    return failed(ctx, "spmv", s);
  csr_backend ran = csr_context_last_backend(ctx);
  printf("spmv: ran on the %s backend\n", csr_backend_name(ran));
  const double *yv = y->data;
  if (y->n <= 8) {
    printf("spmv: y = A*x = [");
    for (int64_t i = 0; i < y->n; i++)
      printf(i ? ", %g" : "%g", yv[i]);
    printf("]\n");
  }

  /* The same product by hand, over the CSR arrays: row i's entries are col_indices[k] and
   * values[k] for k in [row_offsets[i], row_offsets[i+1]). */
  const double *a = A->values;
  double worst = 0.0;
  for (int64_t i = 0; i < A->rows; i++) {
    double sum = 0.0;
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++)
      sum += a[k] * xv[A->col_indices[k]];
    double e = absolute(sum - yv[i]);
    worst = e > worst ? e : worst;
  }
  printf("check: y %s the row-by-row sums over the CSR arrays\n",
         worst == 0.0 ? "equals" : "DIFFERS FROM");
  bad |= worst != 0.0;

  /* 5. Reductions (accumulated in double). */
  double dot = 0.0, norm = 0.0;
  if ((s = csr_dot(ctx, x, y, &dot)) != CSR_SUCCESS || (s = csr_nrm2(ctx, y, &norm)) != CSR_SUCCESS)
    return failed(ctx, "reductions", s);
  printf("reductions: x.y = %.6g, ||y||_2 = %.6g\n", dot, norm);

  /* 6. Backends: the serial reference backend gives the same y (each row is summed in stored
   *    order on both; the comparison allows for rounding all the same). */
  csr_vector *yref = NULL;
  if ((s = csr_context_set_backend(ctx, CSR_BACKEND_REF)) != CSR_SUCCESS ||
      (s = csr_vector_create(ctx, &yref, A->rows, CSR_F64, CSR_HOST)) != CSR_SUCCESS ||
      (s = csr_spmv(ctx, 1.0, A, x, 0.0, yref)) != CSR_SUCCESS ||
      (s = csr_axpy(ctx, -1.0, y, yref)) != CSR_SUCCESS) /* yref = yref - y */
    return failed(ctx, "ref backend", s);
  double diff = 0.0;
  if ((s = csr_nrminf(ctx, yref, &diff)) != CSR_SUCCESS)
    return failed(ctx, "nrminf", s);
  int agree = diff <= 1e-12 * (norm > 1.0 ? norm : 1.0);
  printf("backends: ref %s %s\n", agree ? "agrees with" : "DIFFERS FROM", csr_backend_name(ran));
  bad |= !agree;
  csr_context_set_backend(ctx, CSR_BACKEND_AUTO);

  /* 7. Errors: a status, and the detail on the context until its next call. Here x has one
   *    entry too many. */
  csr_vector *long_x = NULL;
  if ((s = csr_vector_create(ctx, &long_x, A->cols + 1, CSR_F64, CSR_HOST)) != CSR_SUCCESS)
    return failed(ctx, "long vector", s);
  s = csr_spmv(ctx, 1.0, A, long_x, 0.0, y);
  printf("error: %s (%s)\n", csr_status_string(s), csr_context_last_error(ctx));
  bad |= s != CSR_ERR_DIMENSION_MISMATCH || csr_context_last_status(ctx) != s ||
         csr_context_last_error(ctx)[0] == '\0';
  csr_context_clear_error(ctx);

  /* 8. The device, when there is one: the same objects with CSR_DEVICE arrays. */
  bad |= device_tour(ctx, A, x, y);

  /* 9. Free everything: each free accepts NULL and sets the pointer to NULL. */
  csr_vector_free(&long_x);
  csr_vector_free(&yref);
  csr_vector_free(&y);
  csr_vector_free(&x);
  csr_matrix_free(&A);
  csr_context_free(&ctx);
  printf("example_tour: %s\n", bad ? "FAILED" : "ok");
  return bad ? 1 : 0;
}
