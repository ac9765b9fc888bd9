/* SPDX-License-Identifier: BSD-3-Clause */
/* The matrices and the timing of the distributed scaling benchmark, made row by row so that each
 * rank builds only its own rows, identically for libcsr (mpi_scaling.c) and PETSc
 * (petsc_scaling.c):
 *  - stencil: the 27-point stencil on an m x m x m grid, off-diagonal values random in
 *    [-1, -0.1) and symmetric (a hash of the unordered pair), the diagonal their absolute sum + 1:
 *    symmetric positive definite;
 *  - replicas: k copies of a matrix down the diagonal (a real matrix made larger than the caches
 *    without changing its structure). */
#ifndef CSR_BENCH_MPI_CASES_H
#define CSR_BENCH_MPI_CASES_H

#include "../bench_clock.h"
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The command line both programs take (mpi_scaling.c describes it), resolved for `ranks`:
 * --weak's side grown to hold ranks times the points, --copies defaulting to one a rank, and
 * the case's name for the CSV. */
typedef struct case_options {
  int64_t side, copies; /* --stencil M (after --weak), --copies K */
  int weak, reps, iters;
  const char *file;
  char name[256];
} case_options;

static inline void case_parse(int argc, char **argv, int ranks, case_options *o) {
  memset(o, 0, sizeof *o);
  o->reps = 20;
  o->iters = 50;
  for (int k = 1; k < argc; k++) {
    if (!strcmp(argv[k], "--stencil") && k + 1 < argc)
      o->side = atoll(argv[++k]);
    else if (!strcmp(argv[k], "--weak"))
      o->weak = 1;
    else if (!strcmp(argv[k], "--file") && k + 1 < argc)
      o->file = argv[++k];
    else if (!strcmp(argv[k], "--copies") && k + 1 < argc)
      o->copies = atoll(argv[++k]);
    else if (!strcmp(argv[k], "--reps") && k + 1 < argc)
      o->reps = atoi(argv[++k]);
    else if (!strcmp(argv[k], "--iters") && k + 1 < argc)
      o->iters = atoi(argv[++k]);
  }
  o->reps = o->reps < 1 ? 1 : o->reps > 64 ? 64 : o->reps;
  if (o->file != NULL) {
    o->copies = o->copies > 0 ? o->copies : ranks;
    const char *base = strrchr(o->file, '/');
    snprintf(o->name, sizeof o->name, "%s x%lld", base ? base + 1 : o->file, (long long)o->copies);
  } else {
    if (o->weak)
      o->side = (int64_t)llround(cbrt((double)ranks * (double)(o->side * o->side * o->side)));
    snprintf(o->name, sizeof o->name, "stencil27 %lld^3%s", (long long)o->side,
             o->weak ? " weak" : "");
  }
}

/* seconds = the slowest rank's time of `call`, the ranks started together. */
#define CASE_TIMED(seconds, call)                                                                  \
  do {                                                                                             \
    MPI_Barrier(MPI_COMM_WORLD);                                                                   \
    double t0_ = MPI_Wtime();                                                                      \
    call;                                                                                          \
    double mine_ = MPI_Wtime() - t0_;                                                              \
    MPI_Allreduce(&mine_, &(seconds), 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);                     \
  } while (0)

static inline double case_hash_value(int64_t i, int64_t j) {
  uint64_t a = (uint64_t)(i < j ? i : j), b = (uint64_t)(i < j ? j : i);
  uint64_t z = a * 0x9E3779B97F4A7C15ull ^ (b + 0xBF58476D1CE4E5B9ull + (a << 6) + (a >> 2));
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return -0.1 - 0.9 * (double)(z >> 11) * 0x1p-53; /* in (-1, -0.1] */
}

/* Row i of the stencil on an m^3 grid: its columns ascending and values; returns the count. */
static inline int case_stencil_row(int64_t m, int64_t i, int64_t *cols, double *vals) {
  int64_t x = i % m, y = (i / m) % m, z = i / (m * m);
  int n = 0, diag = 0;
  double sum = 0.0;
  for (int dz = -1; dz <= 1; dz++)
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        int64_t X = x + dx, Y = y + dy, Z = z + dz;
        if (X < 0 || Y < 0 || Z < 0 || X >= m || Y >= m || Z >= m)
          continue;
        int64_t j = (Z * m + Y) * m + X;
        cols[n] = j;
        if (j == i) {
          diag = n;
          vals[n++] = 0.0;
        } else {
          vals[n] = case_hash_value(i, j);
          sum -= vals[n++];
        }
      }
  vals[diag] = sum + 1.0;
  return n;
}

#endif
