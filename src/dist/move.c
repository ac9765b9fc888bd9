/* SPDX-License-Identifier: BSD-3-Clause */
/* Moving a vector between two splits of the same indices: rank r's block of the first split
 * meets rank q's block of the second in a range of consecutive indices, which r sends to q in
 * index order (one MPI_Alltoallv). */
#include "dist/dist.h"

#include <limits.h>

static int64_t overlap(const csri_dist_layout *a, int r, const csri_dist_layout *b, int q,
                       int64_t *from) {
  int64_t lo = a->starts[r] > b->starts[q] ? a->starts[r] : b->starts[q];
  int64_t hi = a->starts[r + 1] < b->starts[q + 1] ? a->starts[r + 1] : b->starts[q + 1];
  *from = lo;
  return hi > lo ? hi - lo : 0;
}

csr_status csri_dist_move(csr_context *ctx, const csri_dist_layout *F, const double *from,
                          const csri_dist_layout *T, double *to) {
  int P = F->size, me = F->rank;
  int *sc = csri_calloc((size_t)P, sizeof(int)), *sd = csri_calloc((size_t)P, sizeof(int));
  int *rc = csri_calloc((size_t)P, sizeof(int)), *rd = csri_calloc((size_t)P, sizeof(int));
  double *send = csri_malloc(((size_t)F->count + 1) * sizeof *send);
  double *recv = csri_malloc(((size_t)T->count + 1) * sizeof *recv);
  csr_status status = sc && sd && rc && rd && send && recv
                          ? CSR_SUCCESS
                          : CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating a move failed");
  status = csri_dist_agree(ctx, F->comm, status);
  if (status >= 0) {
    for (int64_t i = 0; i < F->count; i++) /* global order */
      send[i] = from[F->position ? F->position[i] : i];
    int64_t at = 0, lo;
    for (int q = 0; q < P; q++) {
      sc[q] = (int)overlap(F, me, T, q, &lo); /* a block's part: below 2^31 (CSR_MAX_DIM) */
      sd[q] = (int)at;
      at += sc[q];
    }
    at = 0;
    for (int r = 0; r < P; r++) {
      rc[r] = (int)overlap(F, r, T, me, &lo);
      rd[r] = (int)at;
      at += rc[r];
    }
    int code = MPI_Alltoallv(send, sc, sd, MPI_DOUBLE, recv, rc, rd, MPI_DOUBLE, F->comm);
    status = code == MPI_SUCCESS ? CSR_SUCCESS : csri_dist_mpi_error(ctx, code, "MPI_Alltoallv");
    for (int64_t i = 0; status >= 0 && i < T->count; i++)
      to[T->position ? T->position[i] : i] = recv[i];
  }
  csri_free(sc);
  csri_free(sd);
  csri_free(rc);
  csri_free(rd);
  csri_free(send);
  csri_free(recv);
  return status;
}
