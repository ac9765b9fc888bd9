/* SPDX-License-Identifier: BSD-3-Clause */
/* The ranks' shares of a distributed matrix, gathered on rank 0 and printed (see
 * dist_shares.h). */
#include "dist_shares.h"

#include <stdlib.h>
#include <string.h>

int dist_shares_gather(const dist_run *run, const csr_dist_matrix *A, dist_shares *shares) {
  memset(shares, 0, sizeof *shares);
  shares->ranks = run->ranks;
  int rc = APP_OK;
  if (run->rank == 0) {
    shares->share = malloc((size_t)run->ranks * sizeof *shares->share);
    shares->comm_seconds = malloc((size_t)run->ranks * sizeof *shares->comm_seconds);
    if (shares->share == NULL || shares->comm_seconds == NULL)
      rc = app_fail(APP_RUNTIME, "cannot allocate the shares of %d ranks", run->ranks);
  }
  if ((rc = dist_agree(run, rc)) != APP_OK) {
    dist_shares_free(shares);
    return rc;
  }
  csr_dist_share mine;
  memset(&mine, 0, sizeof mine);
  csr_dist_matrix_share(A, &mine); /* fails only for a NULL argument */
  double seconds = csr_dist_matrix_comm_seconds(A);
  /* Every rank runs the same build, so the structure's bytes mean the same on each. */
  MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, shares->share, (int)sizeof mine, MPI_BYTE, 0,
             MPI_COMM_WORLD);
  MPI_Gather(&seconds, 1, MPI_DOUBLE, shares->comm_seconds, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return APP_OK;
}

void dist_shares_free(dist_shares *shares) {
  free(shares->share);
  free(shares->comm_seconds);
  shares->share = NULL;
  shares->comm_seconds = NULL;
}

double dist_shares_imbalance(const dist_shares *shares) {
  int64_t max = 0, total = 0;
  for (int r = 0; r < shares->ranks; r++) {
    total += shares->share[r].nnz;
    max = shares->share[r].nnz > max ? shares->share[r].nnz : max;
  }
  return total > 0 ? (double)max * shares->ranks / (double)total : 0.0;
}

void dist_shares_print(const dist_shares *shares, int width) {
  printf("%-*s%d (processes under MPI), nonzeros max/mean %.3f, halo %s\n", width, "ranks",
         shares->ranks, dist_shares_imbalance(shares),
         csr_dist_halo_path_name(shares->share[0].halo_path));
  printf("%*s%6s %12s %12s %14s %10s %10s %14s %10s\n", width, "", "rank", "first row", "rows",
         "nonzeros", "ghosts", "neighbours", "interior rows", "comm s");
  for (int r = 0; r < shares->ranks; r++) {
    const csr_dist_share *s = &shares->share[r];
    printf("%*s%6d %12lld %12lld %14lld %10lld %10d %14lld %10.6f\n", width, "", r,
           (long long)s->first_row, (long long)s->rows, (long long)s->nnz, (long long)s->ghosts,
           s->neighbours, (long long)s->interior_rows, shares->comm_seconds[r]);
  }
}

void dist_shares_json(app_json *j, const dist_shares *shares) {
  app_json_int(j, "ranks", shares->ranks);
  app_json_double(j, "nnz_imbalance", dist_shares_imbalance(shares));
  app_json_string(j, "halo_path", csr_dist_halo_path_name(shares->share[0].halo_path));
  app_json_open(j, "shares", '[');
  for (int r = 0; r < shares->ranks; r++) {
    const csr_dist_share *s = &shares->share[r];
    app_json_open(j, NULL, '{');
    app_json_int(j, "rank", r);
    app_json_int(j, "first_row", (long long)s->first_row);
    app_json_int(j, "rows", (long long)s->rows);
    app_json_int(j, "nnz", (long long)s->nnz);
    app_json_int(j, "ghosts", (long long)s->ghosts);
    app_json_int(j, "neighbours", s->neighbours);
    app_json_int(j, "interior_rows", (long long)s->interior_rows);
    app_json_double(j, "comm_seconds", shares->comm_seconds[r]);
    app_json_close(j, '}');
  }
  app_json_close(j, ']');
}
