/* SPDX-License-Identifier: BSD-3-Clause */
/* The apps under mpiexec: whether this process was started by an MPI launcher with more than one
 * rank (read from the launcher's environment, so that a plain run never initialises MPI), MPI's
 * start and end, agreeing on an exit code across the ranks, the context of a rank, and wall
 * times between barriers. Compiled into the apps when libcsr_mpi is built (CSR_APP_HAVE_MPI). */
#ifndef CSR_APPS_DIST_H
#define CSR_APPS_DIST_H

#include "common.h"
#include "csr_mpi.h"

/* The world size an MPI launcher announces in the environment: OMPI_COMM_WORLD_SIZE (Open MPI's
 * mpiexec), else PMI_SIZE (MPICH's and Intel MPI's Hydra, Slurm's srun --mpi=pmi2); 1 when
 * neither holds a whole number. */
int dist_launcher_size(void);

/* The run's ranks, after dist_begin. */
typedef struct dist_run {
  int rank, ranks;
} dist_run;

/* MPI_Init on MPI_COMM_WORLD; the failure reports of ranks other than 0 are silenced
 * (app_report_quiet), rank 0 speaks for all. APP_OK or APP_RUNTIME (MPI_Init failed). */
int dist_begin(dist_run *run);
/* MPI_Finalize; returns rc. Every distributed object must be freed before. */
int dist_end(int rc);

/* An app's distributed run: its options (the app's own struct) and a context of its own. */
typedef int dist_body_fn(const dist_run *run, csr_context *ctx, const void *options);
/* MPI started, a context made, body run, both ended: the same exit code on every rank. */
int dist_run_app(dist_body_fn *body, const void *options);

/* Collective: the exit code of the lowest rank whose rc is not APP_OK, on every rank (APP_OK
 * when none). When that rank is not 0, rank 0 reports its message ("rank 1 of 4: ..."). For
 * the app's own steps on some ranks (a file only rank 0 reads, a local allocation); the
 * library's calls agree by themselves. */
int dist_agree(const dist_run *run, int rc);

/* The context of a rank: --backend as given (AUTO: the library's host choice), threads per rank
 * (0: one), and for CUDA the rank's GPU (csr_dist_select_device). *location: where the rank's
 * matrix and vectors live. APP_OK, or the exit code after reporting (the same on every rank). */
int dist_context(csr_context *ctx, csr_backend backend, long long threads, csr_location *location);

/* Threads a rank's OpenMP backend runs with: the requested count, 1 when none was given. */
int dist_threads(long long requested);

/* The wall clock after an MPI_Barrier (so an interval between two of these covers the slowest
 * rank). */
double dist_barrier_now(void);
/* The largest of each rank's value, on every rank. */
double dist_max(double value);

#endif /* CSR_APPS_DIST_H */
