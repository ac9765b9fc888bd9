/* SPDX-License-Identifier: BSD-3-Clause */
/* Distributed SpMV against csr_spmv on one process: every entry of y bitwise equal, on the ref
 * and OpenMP backends, for every generated shape (empty matrices, empty rows, a dense row that
 * crosses every rank, rectangular, duplicates), a banded and a power-law matrix, in F64, F32 and
 * pattern, whatever the number of ranks (more ranks than rows included). */
#include "mpi_testing.h"

#include <stdlib.h>

static int rank, ranks;

/* y = 1.5 A x - 0.5 y on one process and distributed; compares this rank's rows. */
static void check_product(csr_context *ctx, const csr_matrix *given, csr_value_type xtype,
                          csrt_rng *rng, const char *what) {
  csr_matrix *A = mpit_merged(ctx, given);
  csr_vector *x = csrt_random_vector(ctx, A->cols, xtype, rng);
  csr_vector *y = csrt_random_vector(ctx, A->rows, xtype, rng);
  csr_vector *y0 = NULL;
  CHECK_OK(ctx, csr_vector_clone(ctx, y, &y0, CSR_HOST));
  CHECK_OK(ctx, csr_spmv(ctx, 1.5, A, x, -0.5, y));

  csr_dist_matrix *D = mpit_distribute(ctx, A, CSR_HOST);
  csr_dist_vector *dx = NULL, *dy = NULL;
  CHECK_OK(ctx, csr_dist_vector_create(ctx, D, CSR_DIST_COLS, xtype, CSR_HOST, &dx));
  CHECK_OK(ctx, csr_dist_vector_create(ctx, D, CSR_DIST_ROWS, xtype, CSR_HOST, &dy));
  int64_t xf = 0, xn = 0, yf = 0, yn = 0;
  csr_dist_vector_size(dx, NULL, &xf, &xn);
  csr_dist_vector_size(dy, NULL, &yf, &yn);
  double *xs = mpit_slice(x, xf, xn), *ys = mpit_slice(y0, yf, yn), *got = malloc(yn * 8 + 8);
  CHECK_OK(ctx, csr_dist_vector_set_local(ctx, dx, xs));
  CHECK_OK(ctx, csr_dist_vector_set_local(ctx, dy, ys));
  CHECK_OK(ctx, csr_dist_spmv(ctx, 1.5, D, dx, -0.5, dy));
  CHECK_OK(ctx, csr_dist_vector_get_local(ctx, dy, got));
  double *want = mpit_slice(y, yf, yn);
  CHECKF(mpit_same_bits(got, want, yn), "%s (%lld x %lld, %s x): rank %d's rows differ", what,
         (long long)A->rows, (long long)A->cols, xtype == CSR_F64 ? "F64" : "F32", rank);
  free(xs);
  free(ys);
  free(got);
  free(want);
  csr_dist_vector_free(&dx);
  csr_dist_vector_free(&dy);
  csr_dist_matrix_free(&D);
  csr_vector_free(&x);
  csr_vector_free(&y);
  csr_vector_free(&y0);
  csr_matrix_free(&A);
}

/* A banded matrix (half-width w) and a power-law one (row lengths ~ 1/rank^1.2). */
static csr_matrix *banded(csr_context *ctx, int64_t n, int64_t w, csrt_rng *rng) {
  int64_t *len = malloc((size_t)n * sizeof *len);
  for (int64_t i = 0; i < n; i++)
    len[i] = 0;
  csr_matrix *A = NULL;
  int64_t nnz = 0;
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = i - w; j <= i + w; j++)
      nnz += j >= 0 && j < n;
  CHECK_OK(ctx, csr_matrix_create(ctx, &A, n, n, nnz, CSR_F64, CSR_HOST));
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++) {
    for (int64_t j = i - w; j <= i + w; j++)
      if (j >= 0 && j < n) {
        A->col_indices[k] = (int32_t)j;
        ((double *)A->values)[k++] = csrt_uniform(rng, -1.0, 1.0);
      }
    A->row_offsets[i + 1] = k;
  }
  free(len);
  return A;
}

static csr_matrix *power_law(csr_context *ctx, int64_t n, csrt_rng *rng) {
  int64_t *len = malloc((size_t)n * sizeof *len);
  for (int64_t i = 0; i < n; i++) {
    double l = (double)n / (1.0 + (double)csrt_below(rng, (uint64_t)n));
    len[i] = (int64_t)l > n ? n : (int64_t)l;
  }
  csr_matrix *A = csrt_from_row_lengths(ctx, n, n, len, CSR_F64, CSRT_RANDOM, rng);
  free(len);
  return A;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  csrt_rng rng = {csrt_seed("mpi_spmv")};
  csr_backend backends[2] = {CSR_BACKEND_REF, CSR_BACKEND_OMP};
  for (int b = 0; b < 2; b++) {
    if (!csr_backend_available(backends[b]))
      continue;
    csr_context *ctx = csrt_context(backends[b]);
    csr_context_set_threads(ctx, 2);
    for (int s = 0; s < CSRT_SHAPE_COUNT; s++)
      for (int t = 0; t < 3; t++) {
        csr_value_type type = t == 0 ? CSR_F64 : t == 1 ? CSR_F32 : CSR_PATTERN;
        csr_matrix *A = csrt_generate(ctx, (csrt_shape)s, type, CSRT_RANDOM, &rng);
        for (int xt = 0; xt < (type == CSR_PATTERN ? 2 : 1); xt++)
          check_product(ctx, A, type == CSR_F32 || xt == 1 ? CSR_F32 : CSR_F64, &rng,
                        csrt_shape_name((csrt_shape)s));
        csr_matrix_free(&A);
      }
    csr_matrix *A = banded(ctx, 1000, 3, &rng);
    check_product(ctx, A, CSR_F64, &rng, "banded");
    csr_matrix_free(&A);
    A = power_law(ctx, 2000, &rng);
    check_product(ctx, A, CSR_F64, &rng, "power law");
    csr_matrix_free(&A);
    A = csrt_poisson_2d(ctx, 40, 0.0);
    check_product(ctx, A, CSR_F64, &rng, "poisson 2d");
    csr_matrix_free(&A);
    csr_context_free(&ctx);
  }
  return mpit_finish("mpi_spmv");
}
