/* SPDX-License-Identifier: BSD-3-Clause */
/* GPU ranks (sharing the machine's GPUs: csr_dist_select_device): the matrix and vectors on the
 * device, the halo through page-locked host buffers, or device memory when the MPI library takes
 * it, or NCCL when each rank has a GPU of its own. SpMV against the host's single-process product
 * (the GPU's kernel for each rank's row sets may sum in another order: relative error below 1e-13),
 * the solvers against the host's distributed run (iteration counts within 2, converged), PageRank
 * against csr_pagerank (L1 below 1e-12). Skipped (77) without a CUDA device. */
#include "mpi_testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int rank, ranks;

static csr_dist_matrix *on_device(csr_context *ctx, const csr_matrix *A) {
  return mpit_distribute(ctx, A, CSR_DEVICE);
}

/* A device matrix's halo travels by a device path, the same on every rank; CSR_TEST_HALO_PATH
 * (staged, cuda-mpi, nccl) names the one this machine must take (nccl: ranks on GPUs of their
 * own, with libcsr built with NCCL). */
static void check_halo_path(const csr_dist_matrix *D, const char *what) {
  csr_dist_share share;
  CHECK(csr_dist_matrix_share(D, &share) == CSR_SUCCESS);
  int path = (int)share.halo_path, low = 0, high = 0;
  MPI_Allreduce(&path, &low, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&path, &high, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  CHECKF(low == high && path != CSR_DIST_HALO_HOST, "%s: halo paths %d..%d", what, low, high);
  const char *want = getenv("CSR_TEST_HALO_PATH");
  if (want != NULL && ranks > 1)
    CHECKF(strcmp(want, csr_dist_halo_path_name(share.halo_path)) == 0,
           "%s: the halo takes the %s path, not %s", what, csr_dist_halo_path_name(share.halo_path),
           want);
}

static void check_spmv(csr_context *ctx, const csr_matrix *given, const char *what) {
  csrt_rng rng = {7};
  csr_matrix *A = mpit_merged(ctx, given);
  csr_vector *x = csrt_random_vector(ctx, A->cols, CSR_F64, &rng);
  csr_vector *y = NULL;
  CHECK_OK(ctx, csr_vector_create(ctx, &y, A->rows, CSR_F64, CSR_HOST));
  csr_context *host = csrt_context(CSR_BACKEND_OMP);
  CHECK_OK(host, csr_spmv(host, 1.0, A, x, 0.0, y));
  csr_context_free(&host);
  csr_dist_matrix *D = on_device(ctx, A);
  check_halo_path(D, what);
  csr_dist_vector *dx = NULL, *dy = NULL;
  CHECK_OK(ctx, csr_dist_vector_create(ctx, D, CSR_DIST_COLS, CSR_F64, CSR_DEVICE, &dx));
  CHECK_OK(ctx, csr_dist_vector_create(ctx, D, CSR_DIST_ROWS, CSR_F64, CSR_DEVICE, &dy));
  int64_t xf, xn, yf, yn;
  csr_dist_vector_size(dx, NULL, &xf, &xn);
  csr_dist_vector_size(dy, NULL, &yf, &yn);
  double *xs = mpit_slice(x, xf, xn), *got = malloc((size_t)yn * 8 + 8);
  CHECK_OK(ctx, csr_dist_vector_set_local(ctx, dx, xs));
  for (int rep = 0; rep < 3; rep++) /* repeated: the halo buffers are reused */
    CHECK_OK(ctx, csr_dist_spmv(ctx, 1.0, D, dx, 0.0, dy));
  CHECK_OK(ctx, csr_dist_vector_get_local(ctx, dy, got));
  double worst = 0.0;
  for (int64_t i = 0; i < yn; i++) {
    double want = ((double *)y->data)[yf + i], scale = 0.0;
    for (int64_t k = A->row_offsets[yf + i]; k < A->row_offsets[yf + i + 1]; k++)
      scale +=
          fabs(csrt_value(A->values, A->value_type, k) * ((double *)x->data)[A->col_indices[k]]);
    double e = fabs(got[i] - want) / (scale > 0.0 ? scale : 1.0);
    worst = e > worst ? e : worst;
  }
  CHECKF(worst < 1e-13, "%s: rank %d's rows differ by %g (relative to sum |a x|)", what, rank,
         worst);
  free(xs);
  free(got);
  csr_dist_vector_free(&dx);
  csr_dist_vector_free(&dy);
  csr_dist_matrix_free(&D);
  csr_vector_free(&x);
  csr_vector_free(&y);
  csr_matrix_free(&A);
}

static void check_solve(csr_context *ctx, const csr_matrix *A, csr_solver_method method,
                        csr_solver_preconditioner pc, const char *what) {
  csr_solver_info info[2];
  csr_status status[2];
  for (int where = 0; where < 2; where++) {
    csr_location at = where ? CSR_DEVICE : CSR_HOST;
    csr_context *c = where ? ctx : csrt_context(CSR_BACKEND_OMP);
    csr_dist_matrix *D = mpit_distribute(c, A, at);
    csr_dist_vector *b = NULL, *x = NULL, *ones = NULL;
    CHECK_OK(c, csr_dist_vector_create(c, D, CSR_DIST_ROWS, CSR_F64, at, &b));
    CHECK_OK(c, csr_dist_vector_create(c, D, CSR_DIST_ROWS, CSR_F64, at, &x));
    CHECK_OK(c, csr_dist_vector_create(c, D, CSR_DIST_COLS, CSR_F64, at, &ones));
    CHECK_OK(c, csr_dist_fill(c, 1.0, ones));
    CHECK_OK(c, csr_dist_spmv(c, 1.0, D, ones, 0.0, b));
    csr_solver_options o;
    csr_solver_options_init(&o);
    o.method = method;
    o.preconditioner = pc;
    o.rtol = 1e-10;
    status[where] = csr_dist_solve(c, D, b, x, &o, &info[where]);
    csr_dist_vector_free(&b);
    csr_dist_vector_free(&x);
    csr_dist_vector_free(&ones);
    csr_dist_matrix_free(&D);
    if (!where)
      csr_context_free(&c);
  }
  CHECKF(status[1] == CSR_SUCCESS && status[0] == CSR_SUCCESS &&
             labs(info[1].iterations - info[0].iterations) <= 2 &&
             info[1].relative_residual <= 1.0001e-10,
         "%s: device %s in %lld iterations (relative residual %g), host %lld", what,
         csr_status_string(status[1]), (long long)info[1].iterations, info[1].relative_residual,
         (long long)info[0].iterations);
}

static void check_pagerank(csr_context *ctx, const csr_matrix *A) {
  csr_vector *one = NULL, *all = NULL;
  CHECK_OK(ctx, csr_vector_create(ctx, &one, A->rows, CSR_F64, CSR_HOST));
  CHECK_OK(ctx, csr_vector_create(ctx, &all, A->rows, CSR_F64, CSR_HOST));
  csr_pagerank_options o;
  csr_pagerank_options_init(&o);
  o.tol = 1e-13;
  csr_context *host = csrt_context(CSR_BACKEND_OMP);
  CHECK_OK(host, csr_pagerank(host, A, &o, one, NULL));
  csr_context_free(&host);
  csr_dist_matrix *D = on_device(ctx, A);
  csr_dist_vector *r = NULL;
  CHECK_OK(ctx, csr_dist_vector_create(ctx, D, CSR_DIST_ROWS, CSR_F64, CSR_DEVICE, &r));
  CHECK_OK(ctx, csr_dist_pagerank(ctx, D, &o, r, NULL));
  CHECK_OK(ctx, csr_dist_vector_gather(ctx, r, 0, rank == 0 ? all : NULL));
  double l1 = 0.0;
  for (int64_t i = 0; rank == 0 && i < A->rows; i++)
    l1 += fabs(((double *)all->data)[i] - ((double *)one->data)[i]);
  CHECKF(l1 < 1e-12, "PageRank on the device: L1 distance %g from csr_pagerank", l1);
  csr_dist_vector_free(&r);
  csr_dist_matrix_free(&D);
  csr_vector_free(&one);
  csr_vector_free(&all);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int present = csr_cuda_device_present(), everywhere = 0;
  MPI_Allreduce(&present, &everywhere, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!everywhere) {
    if (rank == 0)
      printf("mpi_gpu: no CUDA device (or no CUDA backend): skipped\n");
    MPI_Finalize();
    return 77;
  }
  csr_context *ctx = csrt_context(CSR_BACKEND_CUDA);
  int device = -1;
  CHECK_OK(ctx, csr_dist_select_device(ctx, MPI_COMM_WORLD, &device));
  csrt_rng rng = {csrt_seed("mpi_gpu")};
  for (int s = 0; s < CSRT_SHAPE_COUNT; s++) {
    csr_matrix *A = csrt_generate(ctx, (csrt_shape)s, CSR_F64, CSRT_RANDOM, &rng);
    check_spmv(ctx, A, csrt_shape_name((csrt_shape)s));
    csr_matrix_free(&A);
  }
  csr_matrix *A = csrt_poisson_2d(ctx, 40, 0.0);
  check_spmv(ctx, A, "poisson 2d");
  check_solve(ctx, A, CSR_SOLVER_CG, CSR_PRECOND_NONE, "CG");
  check_solve(ctx, A, CSR_SOLVER_PCG_JACOBI, CSR_PRECOND_NONE, "PCG");
  check_solve(ctx, A, CSR_SOLVER_BICGSTAB, CSR_PRECOND_NONE, "BiCGSTAB");
  check_solve(ctx, A, CSR_SOLVER_GMRES, CSR_PRECOND_NONE, "GMRES");
  check_solve(ctx, A, CSR_SOLVER_GMRES, CSR_PRECOND_ILU0, "GMRES + block ILU(0)");
  check_solve(ctx, A, CSR_SOLVER_GMRES, CSR_PRECOND_ILUT, "GMRES + block ILUT");
  check_pagerank(ctx, A);
  csr_matrix_free(&A);
  csr_context_free(&ctx);
  return mpit_finish("mpi_gpu");
}
