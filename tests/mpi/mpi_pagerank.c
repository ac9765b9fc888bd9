/* SPDX-License-Identifier: BSD-3-Clause */
/* Distributed PageRank against csr_pagerank on one process (L1 distance below 1e-12 in F64, the
 * same iteration count), the same bits on sub-communicators of every size, on graphs with
 * dangling pages, explicit zeros, weights, a personalization, and a real graph. */
#include "mpi_testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int rank, ranks;

/* The ranks of A on comm, whole on every rank of comm. */
static double *ranks_on(csr_context *ctx, MPI_Comm comm, const csr_matrix *A,
                        const csr_pagerank_options *o, csr_pagerank_info *info,
                        csr_status *status) {
  csr_dist_matrix *D = mpit_distribute_on(ctx, comm, A, CSR_HOST);
  csr_dist_vector *r = NULL;
  CHECK_OK(ctx, csr_dist_vector_create(ctx, D, CSR_DIST_ROWS, CSR_F64, CSR_HOST, &r));
  *status = csr_dist_pagerank(ctx, D, o, r, info);
  double *out = mpit_whole(ctx, comm, r, A->rows);
  csr_dist_vector_free(&r);
  csr_dist_matrix_free(&D);
  return out;
}

static void check_graph(csr_context *ctx, const csr_matrix *A, int weighted, int personal,
                        const char *what) {
  csr_pagerank_options o;
  csr_pagerank_options_init(&o);
  o.tol = 1e-13;
  o.weighted = weighted;
  csr_vector *p = NULL;
  if (personal) {
    CHECK_OK(ctx, csr_vector_create(ctx, &p, A->rows, CSR_F64, CSR_HOST));
    for (int64_t i = 0; i < A->rows; i++)
      ((double *)p->data)[i] = (double)(i % 7);
    o.personalization = p;
  }
  csr_vector *one = NULL;
  csr_pagerank_info i1, iw, is;
  CHECK_OK(ctx, csr_vector_create(ctx, &one, A->rows, CSR_F64, CSR_HOST));
  csr_status s1 = csr_pagerank(ctx, A, &o, one, &i1), sw, ss;
  double *world = ranks_on(ctx, MPI_COMM_WORLD, A, &o, &iw, &sw);
  double *self = ranks_on(ctx, MPI_COMM_SELF, A, &o, &is, &ss);
  double l1 = 0.0;
  for (int64_t i = 0; i < A->rows; i++)
    l1 += fabs(world[i] - ((double *)one->data)[i]);
  CHECKF(sw == s1 && l1 < 1e-12 && labs(iw.iterations - i1.iterations) <= 1 &&
             iw.dangling == i1.dangling,
         "%s: %d ranks: %s, %lld iterations, L1 distance %g from csr_pagerank (%s, %lld)", what,
         ranks, csr_status_string(sw), (long long)iw.iterations, l1, csr_status_string(s1),
         (long long)i1.iterations);
  CHECKF(iw.iterations == is.iterations && mpit_same_bits(world, self, A->rows),
         "%s: %d ranks and 1 rank differ", what, ranks);
  for (int size = 2; size < ranks; size++) {
    if (ranks % size != 0)
      continue;
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, rank / size, rank, &sub);
    csr_pagerank_info ip;
    csr_status sp;
    double *part = ranks_on(ctx, sub, A, &o, &ip, &sp);
    CHECKF(mpit_same_bits(part, self, A->rows), "%s: %d ranks and 1 rank differ", what, size);
    free(part);
    MPI_Comm_free(&sub);
  }
  free(world);
  free(self);
  csr_vector_free(&one);
  csr_vector_free(&p);
}

/* A random graph with power-law out-degrees, some pages without links, explicit zeros (not
 * links) and positive weights. */
static csr_matrix *graph(csr_context *ctx, int64_t n, int zeros, csrt_rng *rng) {
  int64_t *len = malloc((size_t)n * sizeof *len);
  for (int64_t i = 0; i < n; i++)
    len[i] =
        i % 9 == 0 ? 0 : (int64_t)((double)n / 4 / (1.0 + (double)csrt_below(rng, (uint64_t)n)));
  csr_matrix *A = csrt_from_row_lengths(ctx, n, n, len, CSR_F64, CSRT_RANDOM, rng);
  double *v = A->values;
  for (int64_t k = 0; k < A->nnz; k++)
    v[k] = zeros && k % 11 == 0 ? 0.0 : fabs(v[k]) + 0.1;
  free(len);
  return A;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  csrt_rng rng = {csrt_seed("mpi_pagerank")};
  csr_context *ctx = csrt_context(CSR_BACKEND_OMP);
  csr_context_set_threads(ctx, 1);
  csr_matrix *A = graph(ctx, 3000, 0, &rng);
  check_graph(ctx, A, 0, 0, "power-law links");
  check_graph(ctx, A, 1, 0, "power-law weighted");
  check_graph(ctx, A, 0, 1, "power-law personalized");
  csr_matrix_free(&A);
  A = graph(ctx, 1000, 1, &rng);
  check_graph(ctx, A, 0, 0, "explicit zeros");
  csr_matrix_free(&A);
  A = graph(ctx, 3, 0, &rng); /* fewer pages than ranks */
  check_graph(ctx, A, 0, 0, "three pages");
  csr_matrix_free(&A);
  A = csrt_read_if_present(ctx, "../shared/matrices/karate.mtx");
  if (A != NULL) {
    check_graph(ctx, A, 0, 0, "karate");
    csr_matrix_free(&A);
  }
  csr_context_free(&ctx);
  return mpit_finish("mpi_pagerank");
}
