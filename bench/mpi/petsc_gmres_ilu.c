/* SPDX-License-Identifier: BSD-3-Clause */
/* PETSc's time to solution with GMRES(m) + ILU(0) on a Matrix Market file: the CPU anchor of
 * libcsr's `cg FILE --method gmres --precond ilu0` (bench/solve_cpu.py runs both). One process.
 * The file is read by libcsr (csr_read_csr: symmetric files expanded, duplicates summed), so both
 * solve the same matrix; it becomes a SeqAIJ matrix, b = A * ones, x0 = 0. The solver is set to
 * libcsr's algorithm: KSPGMRES with restart m, modified Gram-Schmidt, the preconditioner on the
 * right so the norm tested is the true residual's (PETSc's default is left preconditioning and
 * the preconditioned norm), ||r|| <= rtol ||b|| (atol 0), PCILU with 0 levels in natural order.
 * PETSc's options database is read after these (e.g. -pc_factor_shift_type nonzero for a
 * matrix with zero pivots; defaults: no shift, so such a matrix fails as with cuSPARSE).
 * Timed: KSPSetUp (the ILU factorization) and KSPSolve with a fresh KSP each run, the median of
 * --reps runs after one warm-up, and each part's median.
 *   petsc_gmres_ilu FILE [--rtol T] [--restart M] [--max-iter N] [--reps R] [--csv OUT]
 *                   [PETSc options]
 * Prints a line of key=value pairs; --csv appends a row (header when the file is new):
 * file,n,nnz,rtol,restart,iterations,reason,relative_residual,setup_seconds,solve_seconds,
 * seconds,petsc_version. Exit status 1 when the solve did not converge. Built by CMake when
 * PETSC_DIR names an installed PETSc (bench/CMakeLists.txt). */
#include "bench_clock.h"
#include "csr.h"

#include <petscksp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if PETSC_VERSION_LT(3, 19, 0) /* PETSC_SUCCESS came with 3.19; before it, 0 */
#define PETSC_SUCCESS 0
#endif

/* The file as a SeqAIJ matrix (NULL and a message when libcsr cannot read it, or it is not a
 * square real matrix). */
static Mat read_matrix(const char *path) {
  csr_context *ctx = NULL;
  csr_matrix *M = NULL;
  if (csr_context_create(&ctx) < 0)
    return NULL;
  if (csr_read_csr(ctx, path, NULL, &M, NULL) < 0) {
    fprintf(stderr, "petsc_gmres_ilu: %s\n", csr_context_last_error(ctx));
    csr_context_free(&ctx);
    return NULL;
  }
  csr_context_free(&ctx);
  if (M->rows != M->cols || M->value_type != CSR_F64) {
    fprintf(stderr, "petsc_gmres_ilu: %s is not a square real matrix\n", path);
    csr_matrix_free(&M);
    return NULL;
  }
  /* PetscInt may be 32 or 64 bits: copy the indices into PETSc's type. */
  PetscInt n = (PetscInt)M->rows, *off = NULL, *col = NULL;
  Mat A = NULL;
  if (PetscMalloc2(n + 1, &off, M->nnz + 1, &col) == PETSC_SUCCESS) {
    for (PetscInt i = 0; i <= n; i++)
      off[i] = (PetscInt)M->row_offsets[i];
    for (int64_t k = 0; k < M->nnz; k++)
      col[k] = (PetscInt)M->col_indices[k];
    if (MatCreate(PETSC_COMM_SELF, &A) != PETSC_SUCCESS ||
        MatSetSizes(A, n, n, n, n) != PETSC_SUCCESS || MatSetType(A, MATSEQAIJ) != PETSC_SUCCESS ||
        MatSeqAIJSetPreallocationCSR(A, off, col, (const PetscScalar *)M->values) != PETSC_SUCCESS)
      MatDestroy(&A);
    PetscFree2(off, col);
  }
  csr_matrix_free(&M);
  return A;
}

typedef struct run_result {
  PetscInt iterations;
  KSPConvergedReason reason;
  double relative_residual, setup_seconds, solve_seconds;
} run_result;

/* One solve from x = 0 with a fresh KSP, as a user who solves once sees it. */
static PetscErrorCode solve_once(Mat A, Vec b, Vec x, double rtol, PetscInt restart,
                                 PetscInt max_iter, run_result *r) {
  KSP ksp;
  PC pc;
  PetscCall(VecSet(x, 0.0));
  const double began = bench_now();
  PetscCall(KSPCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPGMRES));
  PetscCall(KSPGMRESSetRestart(ksp, restart));
  PetscCall(KSPGMRESSetOrthogonalization(ksp, KSPGMRESModifiedGramSchmidtOrthogonalization));
  PetscCall(KSPSetPCSide(ksp, PC_RIGHT));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
  PetscCall(KSPSetTolerances(ksp, rtol, 0.0, PETSC_DEFAULT, max_iter));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCILU));
  PetscCall(PCFactorSetLevels(pc, 0));
  PetscCall(PCFactorSetMatOrderingType(pc, MATORDERINGNATURAL));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSetUp(ksp));
  const double set_up = bench_now();
  PetscCall(KSPSolve(ksp, b, x));
  const double solved = bench_now();
  PetscCall(KSPGetIterationNumber(ksp, &r->iterations));
  PetscCall(KSPGetConvergedReason(ksp, &r->reason));
  r->setup_seconds = set_up - began;
  r->solve_seconds = solved - set_up;
  PetscCall(KSPDestroy(&ksp));
  /* The true relative residual of x, recomputed (outside the timing). */
  Vec res;
  PetscReal rn, bn;
  PetscCall(VecDuplicate(b, &res));
  PetscCall(MatMult(A, x, res));
  PetscCall(VecAYPX(res, -1.0, b));
  PetscCall(VecNorm(res, NORM_2, &rn));
  PetscCall(VecNorm(b, NORM_2, &bn));
  PetscCall(VecDestroy(&res));
  r->relative_residual = bn > 0 ? (double)(rn / bn) : 0.0;
  return PETSC_SUCCESS;
}

int main(int argc, char **argv) {
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  const char *path = NULL, *csv = NULL;
  double rtol = 1e-8;
  PetscInt restart = 30, max_iter = 10000;
  int reps = 5;
  for (int i = 1; i < argc; i++) { /* ours; the rest (-pc_..., -ksp_...) are PETSc's */
    if (!strcmp(argv[i], "--rtol") && i + 1 < argc)
      rtol = atof(argv[++i]);
    else if (!strcmp(argv[i], "--restart") && i + 1 < argc)
      restart = (PetscInt)atol(argv[++i]);
    else if (!strcmp(argv[i], "--max-iter") && i + 1 < argc)
      max_iter = (PetscInt)atol(argv[++i]);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
      reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--csv") && i + 1 < argc)
      csv = argv[++i];
    else if (argv[i][0] != '-' && path == NULL)
      path = argv[i];
  }
  PetscMPIInt size;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (path == NULL || !(rtol > 0) || restart < 1 || max_iter < 1 || reps < 1 || reps > 64 ||
      size != 1) {
    fprintf(stderr, "usage: petsc_gmres_ilu FILE [--rtol T>0] [--restart M>=1] [--max-iter N>=1] "
                    "[--reps 1..64] [--csv OUT] [PETSc options]   (one process)\n");
    PetscCall(PetscFinalize());
    return 2;
  }
  Mat A = read_matrix(path);
  if (A == NULL) {
    PetscCall(PetscFinalize());
    return 2;
  }
  PetscInt n;
  MatInfo info;
  PetscCall(MatGetSize(A, &n, NULL));
  PetscCall(MatGetInfo(A, MAT_LOCAL, &info));
  Vec ones, b, x;
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &ones));
  PetscCall(VecSet(ones, 1.0));
  PetscCall(MatMult(A, ones, b));
  /* A failed factorization (a zero pivot) is a result to report, not a crash: PETSc's errors are
   * returned, not printed with a traceback, and the run says why. */
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  double total[64], setup[64], solve[64];
  run_result r = {0, KSP_CONVERGED_ITERATING, 0.0, 0.0, 0.0};
  PetscErrorCode failed = PETSC_SUCCESS;
  for (int k = 0; k <= reps && failed == PETSC_SUCCESS; k++) { /* k = 0 warms up */
    failed = solve_once(A, b, x, rtol, restart, max_iter, &r);
    if (k > 0) {
      setup[k - 1] = r.setup_seconds;
      solve[k - 1] = r.solve_seconds;
      total[k - 1] = r.setup_seconds + r.solve_seconds;
    }
  }
  PetscCall(PetscPopErrorHandler());
  char version[128];
  PetscCall(PetscGetVersion(version, sizeof version));
  for (char *c = version; *c; c++) /* a CSV field */
    if (*c == ',')
      *c = ' ';
  for (size_t k = strlen(version); k > 0 && version[k - 1] == ' '; k--)
    version[k - 1] = '\0';
  if (failed != PETSC_SUCCESS) {
    const char *text = NULL;
    PetscErrorMessage(failed, &text, NULL);
    printf("file=%s n=%lld failed=\"%s\" (PETSc error %d: ILU(0) needs every diagonal entry "
           "stored and nonzero pivots; see -pc_factor_nonzeros_along_diagonal and "
           "-pc_factor_shift_type nonzero)\n",
           path, (long long)n, text ? text : "?", (int)failed);
  } else {
    const double t = bench_median(total, reps), ts = bench_median(setup, reps),
                 tv = bench_median(solve, reps);
    printf("file=%s n=%lld nnz=%.0f rtol=%g restart=%lld iterations=%lld reason=%s "
           "relative_residual=%.3e setup_seconds=%.6f solve_seconds=%.6f seconds=%.6f "
           "median_of=%d petsc=\"%s\"\n",
           path, (long long)n, info.nz_used, rtol, (long long)restart, (long long)r.iterations,
           KSPConvergedReasons[r.reason], r.relative_residual, ts, tv, t, reps, version);
    if (csv != NULL) {
      FILE *f = fopen(csv, "a");
      if (f == NULL) {
        fprintf(stderr, "petsc_gmres_ilu: cannot append to %s\n", csv);
      } else {
        if (ftell(f) == 0)
          fprintf(f, "file,n,nnz,rtol,restart,iterations,reason,relative_residual,"
                     "setup_seconds,solve_seconds,seconds,petsc_version\n");
        fprintf(f, "%s,%lld,%.0f,%g,%lld,%lld,%s,%.3e,%.6f,%.6f,%.6f,%s\n", path, (long long)n,
                info.nz_used, rtol, (long long)restart, (long long)r.iterations,
                KSPConvergedReasons[r.reason], r.relative_residual, ts, tv, t, version);
        fclose(f);
      }
    }
  }
  PetscCall(VecDestroy(&ones));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return failed != PETSC_SUCCESS ? 2 : r.reason > 0 ? 0 : 1;
}
