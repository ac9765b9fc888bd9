/* SPDX-License-Identifier: BSD-3-Clause */
/* Test support: checks that count failures, a seeded RNG whose seed is printed, and the matrix
 * generators every backend is tested on (empty shapes, empty and dense rows, lengths at the
 * kernels' thresholds, random shapes, unsorted duplicates). Tests only; never in the library. */
#ifndef CSR_TESTING_H
#define CSR_TESTING_H

#include "core/backend.h"
#include "csr.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

extern long csrt_checks, csrt_failures;

/* Records a failed check with its location; keeps going so one run shows every failure. */
void csrt_fail(const char *file, int line, const char *what);
#define CHECK(cond)                                                                                \
  do {                                                                                             \
    csrt_checks++;                                                                                 \
    if (!(cond))                                                                                   \
      csrt_fail(__FILE__, __LINE__, #cond);                                                        \
  } while (0)
/* Checks a call's status; prints the context's error detail when it differs. */
#define CHECK_STATUS(ctx, expr, expected)                                                          \
  do {                                                                                             \
    csr_status csrt_s_ = (expr);                                                                   \
    csrt_checks++;                                                                                 \
    if (csrt_s_ != (expected)) {                                                                   \
      char csrt_msg_[768];                                                                         \
      snprintf(csrt_msg_, sizeof csrt_msg_, "%s returned %s, expected %s (%s)", #expr,             \
               csr_status_string(csrt_s_), csr_status_string(expected),                            \
               csr_context_last_error(ctx));                                                       \
      csrt_fail(__FILE__, __LINE__, csrt_msg_);                                                    \
    }                                                                                              \
  } while (0)
#define CHECK_OK(ctx, expr) CHECK_STATUS(ctx, expr, CSR_SUCCESS)
/* The case a test is running (it sets it before each case), printed in brackets with every failure
 * of csrt_fail_in_case and EXPECT: "[case] what". */
extern char csrt_case[200];
void csrt_fail_in_case(const char *file, int line, const char *what);
#define EXPECT(cond)                                                                               \
  do {                                                                                             \
    csrt_checks++;                                                                                 \
    if (!(cond))                                                                                   \
      csrt_fail_in_case(__FILE__, __LINE__, #cond);                                                \
  } while (0)
/* A check with a formatted message (what was checked, what was found). */
void csrt_checkf(int ok, const char *file, int line, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
#define CHECKF(cond, ...) csrt_checkf((cond) != 0, __FILE__, __LINE__, __VA_ARGS__)

/* Prints "<name>: N passed, M failed" and returns the process exit code: 0 when checks ran and
 * none failed; 1 when any failed, or when none ran at all (a test that checks nothing is a
 * defect, not a pass). */
int csrt_finish(const char *name);

/* The SpMV kernels a context can be set to: AUTO (k = 0), then each kernel of the registry
 * (src/kernels/spmv_registry.h), so that a test looping over them meets every kernel, a new one
 * included. k < csrt_spmv_kernel_count(). */
int csrt_spmv_kernel_count(void);
csr_spmv_kernel csrt_spmv_kernel(int k);
/* 1 when `kernel` sums tiles of nonzeros (segmented, stream) rather than whole rows. */
int csrt_spmv_kernel_tiled(csr_spmv_kernel kernel);

/* --- the machine ------------------------------------------------------------------------------ */
/* 1 in an AddressSanitizer build (the large tests skip there: shadow memory doubles their need). */
int csrt_under_asan(void);
/* MemAvailable of /proc/meminfo in GiB (0 when unknown). */
long long csrt_available_gib(void);

/* --- random numbers: splitmix64, reproducible from the printed seed ------------------------ */
typedef struct csrt_rng {
  uint64_t state;
} csrt_rng;
/* Seed from CSR_TEST_SEED if set, else a fixed default; printed so a failure can be replayed. */
uint64_t csrt_seed(const char *test_name);
uint64_t csrt_next(csrt_rng *rng);
/* Uniform in [0, n) (n > 0). */
uint64_t csrt_below(csrt_rng *rng, uint64_t n);
/* Uniform in [lo, hi). */
double csrt_uniform(csrt_rng *rng, double lo, double hi);

/* --- backends ------------------------------------------------------------------------------ */
/* Backend named by argv[1] ("ref", "omp", "cuda"); REF when absent. Exits 77 (ctest skip) when
 * it is not compiled in, or (cuda) when no CUDA device is present. */
csr_backend csrt_backend_from_args(int argc, char **argv);
/* Whether part `name` of a backend test runs: every part when the command line names none after
 * the backend, else the one it names (argv[2]), so that compute-sanitizer can run a long test
 * part by part, each within its time limit (bench/run_gpu.sh). A name no part has runs nothing,
 * and the test then fails for checking nothing. */
int csrt_part(int argc, char **argv, const char *name);
/* A context on that backend (exits on allocation failure: tests only). */
csr_context *csrt_context(csr_backend backend);

/* --- one test source for every backend --------------------------------------------------------
 * A backend test builds its inputs on the host, where the reference backend computes the
 * expected results; it places copies where the backend under test runs (the device for cuda, a
 * host copy for ref and omp), calls the public function on them, and brings the results back to
 * the host to compare. Every helper exits on failure (tests only). */

/* Where the operands of `backend` live: CSR_DEVICE for cuda, CSR_HOST otherwise. */
csr_location csrt_location(csr_backend backend);
/* Copies of host objects at `backend`'s location (csr_matrix_copy, csr_vector_clone). */
csr_matrix *csrt_place_matrix(csr_backend backend, const csr_matrix *A);
csr_vector *csrt_place_vector(csr_backend backend, const csr_vector *v);
/* A host copy of v, wherever v lives. */
csr_vector *csrt_host_vector(const csr_vector *v);
/* v = the host vector h (same size and type), wherever v lives. */
void csrt_set_vector(csr_vector *v, const csr_vector *h);
/* Raw arrays at `backend`'s location: a buffer of `bytes` (uninitialised; NULL for 0), a copy of
 * host bytes, bytes brought back to the host, and the free. */
void *csrt_alloc_at(csr_backend backend, size_t bytes);
void *csrt_place_bytes(csr_backend backend, const void *host, size_t bytes);
void csrt_fetch_bytes(csr_backend backend, void *host, const void *placed, size_t bytes);
void csrt_free_at(csr_backend backend, void *placed);
/* 1 when `backend`'s table implements `entry` (a member of csri_backend, src/core/backend.h, as
 * CSRT_IMPLEMENTS(backend, graph.pagerank_weights) writes it): the test of an operation the
 * backend lacks checks that device operands are refused (CSR_ERR_UNSUPPORTED) instead. */
int csrt_implements(csr_backend backend, size_t entry);
#define CSRT_IMPLEMENTS(backend, entry) csrt_implements((backend), offsetof(csri_backend, entry))
/* Under compute-sanitizer, whose instrumented kernels run ~100x slower, tests skip their
 * longest inputs: CSR_GPU_QUICK is set. */
int csrt_quick(void);

/* --- generators ---------------------------------------------------------------------------- */
/* Values: random in [-1, 1) avoiding 0, or the constant 1 (and 0.0 for explicit zeros). */
typedef enum csrt_values { CSRT_RANDOM = 0, CSRT_CONSTANT = 1 } csrt_values;

/* The shapes of the generated matrices. */
typedef enum csrt_shape {
  CSRT_EMPTY_0X0,
  CSRT_EMPTY_0XN,
  CSRT_EMPTY_NX0,
  CSRT_ONE_BY_ONE,
  CSRT_ALL_ROWS_EMPTY,
  CSRT_EMPTY_FIRST_LAST,  /* random rows, first and last empty */
  CSRT_DENSE_ROW,         /* one full row among rows of 0..3 */
  CSRT_THRESHOLD_LENGTHS, /* row lengths 2^k - 1, 2^k, 2^k + 1 for k up to 10 */
  CSRT_RANDOM_SQUARE,
  CSRT_RANDOM_WIDE,
  CSRT_RANDOM_TALL,
  CSRT_UNSORTED_DUPLICATES, /* shuffled columns, repeated (row, col), explicit zeros */
  CSRT_SHAPE_COUNT
} csrt_shape;
const char *csrt_shape_name(csrt_shape shape);

/* A host CSR of the given shape; values of value_type (pattern allowed). Sorted and
 * duplicate-free unless the shape says otherwise; flags set to what holds. */
csr_matrix *csrt_generate(csr_context *ctx, csrt_shape shape, csr_value_type value_type,
                          csrt_values values, csrt_rng *rng);
/* A host CSR with the given row lengths (columns random, sorted, distinct when length <= cols). */
csr_matrix *csrt_from_row_lengths(csr_context *ctx, int64_t rows, int64_t cols,
                                  const int64_t *lengths, csr_value_type value_type,
                                  csrt_values values, csrt_rng *rng);
/* The 2D 5-point Laplacian on an m x m grid with 4 + shift on the diagonal and -1 off it (F64,
 * host, sorted): SPD for shift >= 0. */
csr_matrix *csrt_poisson_2d(csr_context *ctx, int64_t m, double shift);
/* Upwind finite differences of -div grad u + peclet (1, 1[, 1]) . grad u on the unit square
 * (dims 2, m x m interior points, 5-point) or cube (dims 3, m^3, 7-point), zero Dirichlet
 * boundary, scaled by h^2 (h = 1 / (m + 1)): diagonal 2 dims + dims peclet h, -1 - peclet h
 * upstream, -1 downstream. Non-symmetric for peclet > 0, an M-matrix (F64, host, sorted). */
csr_matrix *csrt_convection_diffusion(csr_context *ctx, int dims, int64_t m, double peclet);
/* b = A * ones, host F64 (the right-hand side whose solution is all ones), and n host F64
 * zeros (an initial guess). */
csr_vector *csrt_times_ones(csr_context *ctx, const csr_matrix *A);
csr_vector *csrt_zeros(csr_context *ctx, int64_t n);
/* ||b - A x||_2 and ||v||_2 of host operands, summed in long double: an oracle for a solver's
 * reported residual. */
double csrt_residual_norm(const csr_matrix *A, const csr_vector *x, const csr_vector *b);
double csrt_norm2(const csr_vector *v);
/* A host vector with random entries in [-1, 1) avoiding 0. */
csr_vector *csrt_random_vector(csr_context *ctx, int64_t n, csr_value_type type, csrt_rng *rng);
/* A view (owning nothing) of entries [begin, end) of v, where v lives. */
csr_vector csrt_vector_piece(const csr_vector *v, int64_t begin, int64_t end);
/* 1 when two exact accumulators hold the same sum: both normalised, then their words compared. */
int csrt_exact_same(csri_exact_acc *a, csri_exact_acc *b);
/* csr_solve(ctx, A, b, x) with copies of the host A, b and x where `backend` runs; the x it
 * leaves is copied back into the host x. */
csr_status csrt_solve_placed(csr_backend backend, csr_context *ctx, const csr_matrix *A,
                             const csr_vector *b, csr_vector *x, const csr_solver_options *o,
                             csr_solver_info *info);
/* Value k of a matrix or vector array as double (1 for pattern). */
double csrt_value(const void *values, csr_value_type type, int64_t k);
/* Entry i of a host vector set to value, rounded to its type. */
void csrt_set_value(csr_vector *v, int64_t i, double value);
/* The CSR of a Matrix Market file, or NULL (after printing "PATH: absent, skipped") when the file
 * does not exist: tests of files in ../shared skip them where it is not checked out. */
csr_matrix *csrt_read_if_present(csr_context *ctx, const char *path);

#endif
