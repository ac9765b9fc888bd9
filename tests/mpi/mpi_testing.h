/* SPDX-License-Identifier: BSD-3-Clause */
/* What the MPI tests share: every rank makes the same global matrices from the same seed (so each
 * can compute the single-process answer itself), takes a share of their triples, and checks its
 * own rows. Tests only. */
#ifndef CSR_MPI_TESTING_H
#define CSR_MPI_TESTING_H

#include "csr_mpi.h"
#include "testing.h"

/* This rank's share of A's triples: entry k goes to rank (k * 7919) mod P, so every rank holds
 * entries of rows it will not own (the constructor must move them). Arrays to free with free(). */
typedef struct mpit_triples {
  int64_t count;
  int64_t *row, *col;
  void *values;
} mpit_triples;
mpit_triples mpit_share(const csr_matrix *A, int rank, int P);
void mpit_triples_free(mpit_triples *t);

/* A distributed copy of the host matrix A (every rank of comm passes the same A), from each
 * rank's mpit_share of its triples; mpit_distribute on MPI_COMM_WORLD. */
csr_dist_matrix *mpit_distribute_on(csr_context *ctx, MPI_Comm comm, const csr_matrix *A,
                                    csr_location location);
csr_dist_matrix *mpit_distribute(csr_context *ctx, const csr_matrix *A, csr_location location);
/* The whole of v (n entries, as doubles) on every rank of comm (malloc'd). */
double *mpit_whole(csr_context *ctx, MPI_Comm comm, const csr_dist_vector *v, int64_t n);
/* A as csr_from_coo makes it from its triples in stored order (columns sorted, duplicates
 * summed): what a distributed matrix's rows hold. */
csr_matrix *mpit_merged(csr_context *ctx, const csr_matrix *A);
/* The entries [first, first + count) of a host vector as doubles (malloc'd). */
double *mpit_slice(const csr_vector *v, int64_t first, int64_t count);
/* 1 when a and b hold the same bits (NaNs of any payload equal). */
int mpit_same_bits(const double *a, const double *b, int64_t n);
/* Ends a test: the checks of every rank added up, printed by rank 0; the exit code for all. */
int mpit_finish(const char *name);

#endif
