/* SPDX-License-Identifier: BSD-3-Clause */
/* PETSc's side of the distributed scaling benchmark (mpi_scaling.c is libcsr's): the same
 * matrices as an MPIAIJ matrix, MatMult and KSPCG (no preconditioner) iteration times. Built by
 * bench/mpi/run_scaling.sh against a PETSc of your choice (PETSC_DIR), not by CMake.
 *   mpiexec -n P petsc_scaling (--stencil M [--weak] | --file F --copies K) [--reps R]
 *                              [--iters N]
 * One CSV line on rank 0, the columns of mpi_scaling's (copy_gbs left empty). */
#include "cases.h"

#include <math.h>
#include <petscksp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, ranks;

/* The file's matrix on every rank (rank 0 reads the Matrix Market file: coordinate real or
 * pattern, general or symmetric, expanded; duplicates kept, MatSetValues with ADD_VALUES sums
 * them). */
typedef struct small {
  int64_t n, nnz;
  int64_t *off;
  int32_t *col;
  double *val;
} small;

static int read_file(const char *path, small *s) {
  int64_t shape[2] = {0, 0};
  int64_t *ri = NULL, *ci = NULL;
  double *v = NULL;
  if (rank == 0) {
    FILE *f = fopen(path, "r");
    char line[1024];
    int symmetric = 0, pattern = 0;
    if (f == NULL || fgets(line, sizeof line, f) == NULL)
      return 1;
    symmetric = strstr(line, "symmetric") != NULL;
    pattern = strstr(line, "pattern") != NULL;
    while (fgets(line, sizeof line, f) && line[0] == '%')
      ;
    long long rows, cols, entries;
    if (sscanf(line, "%lld %lld %lld", &rows, &cols, &entries) != 3)
      return 1;
    ri = malloc(2 * (size_t)entries * sizeof *ri);
    ci = malloc(2 * (size_t)entries * sizeof *ci);
    v = malloc(2 * (size_t)entries * sizeof *v);
    int64_t k = 0;
    for (long long e = 0; e < entries; e++) {
      long long i, j;
      double a = 1.0;
      if (fscanf(f, "%lld %lld", &i, &j) != 2 || (!pattern && fscanf(f, "%lf", &a) != 1))
        return 1;
      ri[k] = i - 1, ci[k] = j - 1, v[k++] = a;
      if (symmetric && i != j)
        ri[k] = j - 1, ci[k] = i - 1, v[k++] = a;
    }
    fclose(f);
    shape[0] = rows, shape[1] = k;
  }
  MPI_Bcast(shape, 2, MPI_INT64_T, 0, PETSC_COMM_WORLD);
  s->n = shape[0];
  s->nnz = shape[1];
  s->off = calloc((size_t)s->n + 1, sizeof *s->off);
  s->col = malloc((size_t)s->nnz * sizeof *s->col + 4);
  s->val = malloc((size_t)s->nnz * sizeof *s->val + 8);
  if (rank == 0) { /* CSR by a counting sort (order within a row: the file's) */
    for (int64_t k = 0; k < s->nnz; k++)
      s->off[ri[k] + 1]++;
    for (int64_t i = 0; i < s->n; i++)
      s->off[i + 1] += s->off[i];
    int64_t *next = malloc((size_t)s->n * sizeof *next + 8);
    memcpy(next, s->off, (size_t)s->n * sizeof *next);
    for (int64_t k = 0; k < s->nnz; k++) {
      int64_t at = next[ri[k]]++;
      s->col[at] = (int32_t)ci[k];
      s->val[at] = v[k];
    }
    free(next);
  }
  free(ri);
  free(ci);
  free(v);
  MPI_Bcast(s->off, (int)s->n + 1, MPI_INT64_T, 0, PETSC_COMM_WORLD);
  MPI_Bcast(s->col, (int)s->nnz, MPI_INT32_T, 0, PETSC_COMM_WORLD);
  MPI_Bcast(s->val, (int)s->nnz, MPI_DOUBLE, 0, PETSC_COMM_WORLD);
  return 0;
}

int main(int argc, char **argv) {
  int petsc_argc = 1; /* PETSc sees no options: the benchmark's own are below */
  char **petsc_argv = argv;
  PetscCall(PetscInitialize(&petsc_argc, &petsc_argv, NULL, NULL));
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &ranks);
  case_options o;
  case_parse(argc, argv, ranks, &o);
  int reps = o.reps, iters = o.iters;
  small s = {0};
  int64_t n = o.side * o.side * o.side;
  if (o.file != NULL) {
    if (read_file(o.file, &s) != 0) {
      fprintf(stderr, "petsc_scaling: cannot read %s\n", o.file);
      MPI_Abort(PETSC_COMM_WORLD, 1);
    }
    n = s.n * o.copies;
  }
  /* The same rows per rank as mpi_scaling's even split: rows [n r / P, n (r + 1) / P). */
  PetscInt first = (PetscInt)(n * rank / ranks), count = (PetscInt)(n * (rank + 1) / ranks) - first;
  /* Room for each row's entries in the diagonal and off-diagonal blocks, counted exactly for a
   * file's rows (27 covers a stencil row): without it PETSc grows the rows as values arrive, and
   * an assembly of millions of entries takes hours. */
  PetscInt *d_nnz = NULL, *o_nnz = NULL;
  if (o.file != NULL) {
    PetscCall(PetscMalloc2(count + 1, &d_nnz, count + 1, &o_nnz));
    for (PetscInt i = first; i < first + count; i++) {
      int64_t g = i % s.n, c = i / s.n;
      d_nnz[i - first] = o_nnz[i - first] = 0;
      for (int64_t k = s.off[g]; k < s.off[g + 1]; k++) {
        int64_t j = c * s.n + s.col[k];
        if (j >= first && j < first + count)
          d_nnz[i - first]++;
        else
          o_nnz[i - first]++;
      }
    }
  }
  Mat A;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, count, count, (PetscInt)n, (PetscInt)n, 27, d_nnz, 27,
                         o_nnz, &A));
  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscInt cols[27];
  double vals[27];
  int64_t cols64[27];
  for (PetscInt i = first; i < first + count; i++) {
    int len;
    if (o.file == NULL) {
      len = case_stencil_row(o.side, i, cols64, vals);
      for (int k = 0; k < len; k++)
        cols[k] = (PetscInt)cols64[k];
      PetscCall(MatSetValues(A, 1, &i, len, cols, vals, ADD_VALUES));
    } else {
      int64_t g = i % s.n, c = i / s.n;
      for (int64_t k = s.off[g]; k < s.off[g + 1]; k++) {
        PetscInt j = (PetscInt)(c * s.n + s.col[k]);
        PetscCall(MatSetValues(A, 1, &i, 1, &j, &s.val[k], ADD_VALUES));
      }
    }
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  if (d_nnz != NULL)
    PetscCall(PetscFree2(d_nnz, o_nnz));
  Vec x, y, b;
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecDuplicate(y, &b));
  PetscCall(VecSet(x, 1.0));
  MatInfo info;
  PetscCall(MatGetInfo(A, MAT_GLOBAL_SUM, &info));
  int64_t nnz = (int64_t)info.nz_used;
  double t[64], sec;
  for (int k = 0; k <= reps; k++) {
    CASE_TIMED(sec, MatMult(A, x, y));
    if (k > 0)
      t[k - 1] = sec;
  }
  double spmv = bench_median(t, reps);
  double bytes = 12.0 * (double)nnz + 8.0 * (double)(n + 1) + 16.0 * (double)n;
  PetscCall(MatMult(A, x, b));
  KSP ksp;
  PC pc;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCNONE));
  PetscCall(KSPSetTolerances(ksp, 1e-300, 1e-300, PETSC_DEFAULT, iters));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_NATURAL));
  PetscCall(KSPSetUp(ksp));
  /* An iteration's cost: the difference of runs of 2N and N iterations, over N. */
  int cg_reps = reps / 4 > 0 ? reps / 4 : 1;
  for (int k = 0; k <= cg_reps; k++) {
    double once, twice;
    PetscCall(KSPSetTolerances(ksp, 1e-300, 1e-300, PETSC_DEFAULT, iters));
    PetscCall(VecSet(x, 0.0));
    CASE_TIMED(once, KSPSolve(ksp, b, x));
    PetscCall(KSPSetTolerances(ksp, 1e-300, 1e-300, PETSC_DEFAULT, 2 * iters));
    PetscCall(VecSet(x, 0.0));
    CASE_TIMED(twice, KSPSolve(ksp, b, x));
    if (k > 0)
      t[k - 1] = (twice - once) / iters;
  }
  double cg = bench_median(t, cg_reps);
  if (rank == 0)
    printf("petsc,%s,%d,%lld,%lld,%.6e,%.2f,%.6e,\n", o.name, ranks, (long long)n, (long long)nnz,
           spmv, bytes / spmv / 1e9, cg);
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
