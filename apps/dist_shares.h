/* SPDX-License-Identifier: BSD-3-Clause */
/* The "ranks" section of a distributed app's report: each rank's share of the matrix (rows,
 * nonzeros, ghosts, neighbours, interior rows) and its seconds of communication, gathered on
 * rank 0, printed as text or JSON. */
#ifndef CSR_APPS_DIST_SHARES_H
#define CSR_APPS_DIST_SHARES_H

#include "common.h"
#include "dist.h"

typedef struct dist_shares {
  int ranks;
  csr_dist_share *share; /* ranks entries, on rank 0 (NULL on the others) */
  double *comm_seconds;  /* csr_dist_matrix_comm_seconds of each rank, on rank 0 */
} dist_shares;

/* Collective: gathers every rank's share of A and its communication time on rank 0 (MPI_Gather).
 * APP_OK, or APP_RUNTIME on every rank when rank 0 cannot allocate them (reported). */
int dist_shares_gather(const dist_run *run, const csr_dist_matrix *A, dist_shares *shares);
void dist_shares_free(dist_shares *shares);

/* The largest nonzeros of a rank over the mean (1: even; 0 for an empty matrix). */
double dist_shares_imbalance(const dist_shares *shares);

/* Text: "ranks" and its figures, the label padded to `width` columns like the app's other
 * labels, then a row per rank. */
void dist_shares_print(const dist_shares *shares, int width);
/* JSON members "ranks": P, "nnz_imbalance": max/mean, "shares": [{rank, first_row, rows, nnz,
 * ghosts, neighbours, interior_rows, comm_seconds}...]. */
void dist_shares_json(app_json *j, const dist_shares *shares);

#endif /* CSR_APPS_DIST_SHARES_H */
