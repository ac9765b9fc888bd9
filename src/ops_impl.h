/* Backend entry points of SpMV, the vector operations and row statistics (ref and omp). */
#ifndef CSR_OPS_IMPL_H
#define CSR_OPS_IMPL_H

#include "internal.h"

/* The front ends (src/spmv.c, src/vector_*.c, src/row_stats.c) have checked every operand:
 * non-NULL, host, matching shapes and types. The kernels therefore cannot fail. */

/* --- front-end helpers (src/vector_ops.c) ---------------------------------------------------- */

/* Picks the CPU backend for host operands. *status becomes CSR_INFO_DECLINED when the context
 * asked for CUDA (host operands run on the CPU; the caller sees that), else CSR_SUCCESS. */
csr_backend csri_ops_backend(csr_context *ctx, csr_status *status);
/* NULL, value type (F64 / F32), data present when n > 0. `name` is for the message. */
csr_status csri_check_vector(csr_context *ctx, const csr_vector *v, const char *name);
/* Both vectors valid, same n, same type, same location; device operands are UNSUPPORTED until
 * the CUDA vector operations exist. */
csr_status csri_check_vector_pair(csr_context *ctx, const csr_vector *x, const csr_vector *y);
/* 1 when the arrays of x and y share any byte (both non-empty). */
int csri_vectors_overlap(const csr_vector *x, const csr_vector *y);
/* Device operands of an operation the CUDA backend does not yet offer. */
csr_status csri_check_host(csr_context *ctx, csr_location location, const char *what);

/* --- deterministic reductions ---------------------------------------------------------------- */

/* [0, n) is cut into csri_reduce_chunks(n) contiguous chunks whose bounds depend on n only. Each
 * chunk is reduced in index order, the chunk partials in chunk order, so an OpenMP reduction
 * gives the same bits for every thread count and every run. */
#define CSRI_REDUCE_MAX_CHUNKS 256
#define CSRI_REDUCE_MIN_CHUNK 4096

static inline int64_t csri_reduce_chunks(int64_t n) {
  int64_t c = n / CSRI_REDUCE_MIN_CHUNK;
  return c < 1 ? 1 : (c > CSRI_REDUCE_MAX_CHUNKS ? CSRI_REDUCE_MAX_CHUNKS : c);
}

/* First index of chunk c of `chunks` over [0, n): floor(c*n/chunks) without overflow. */
static inline int64_t csri_chunk_begin(int64_t n, int64_t chunks, int64_t c) {
  return n / chunks * c + n % chunks * c / chunks;
}

/* --- nrm2 in one pass (Blue's scaled sums, as LAPACK 3.10 dnrm2) ----------------------------- */

/* Squares of |x| above 2^486 are summed scaled by 2^-538 (big), below 2^-511 scaled by 2^537
 * (small), the rest unscaled (medium): no sum overflows or underflows before the final sqrt. */
typedef struct csri_nrm2_acc {
  double big, medium, small;
} csri_nrm2_acc;

static inline void csri_nrm2_add(csri_nrm2_acc *acc, double v) {
  double a = v < 0 ? -v : v;
  if (a > 0x1p486)
    acc->big += (a * 0x1p-538) * (a * 0x1p-538);
  else if (a < 0x1p-511)
    acc->small += (a * 0x1p537) * (a * 0x1p537);
  else
    acc->medium += a * a; /* NaN lands here and propagates */
}

/* sqrt of the accumulated sum of squares, combining the three scales (src/vector_reduce.c). */
double csri_nrm2_finish(csri_nrm2_acc acc);

/* --- SpMV: y = alpha*A*x + beta*y, alpha != 0 and nnz > 0 (front end handles the rest) ------- */

void csri_ref_spmv(double alpha, const csr_matrix *A, const csr_vector *x, double beta,
                   csr_vector *y);
void csri_omp_spmv(const csr_context *ctx, double alpha, const csr_matrix *A, const csr_vector *x,
                   double beta, csr_vector *y);

/* --- vector operations ----------------------------------------------------------------------- */

/* y = alpha*x + beta*y; beta == 0 overwrites y. F32 is computed in double, rounded once. */
void csri_ref_axpby(double alpha, const csr_vector *x, double beta, csr_vector *y);
void csri_omp_axpby(const csr_context *ctx, double alpha, const csr_vector *x, double beta,
                    csr_vector *y);
/* x = alpha*x; alpha == 0 overwrites x with zeros. */
void csri_ref_scale(double alpha, csr_vector *x);
void csri_omp_scale(const csr_context *ctx, double alpha, csr_vector *x);
/* x[i] = alpha. */
void csri_ref_fill(double alpha, csr_vector *x);
void csri_omp_fill(const csr_context *ctx, double alpha, csr_vector *x);
/* y = x (host to host). */
void csri_ref_copy(const csr_vector *x, csr_vector *y);
void csri_omp_copy(const csr_context *ctx, const csr_vector *x, csr_vector *y);

/* Reductions, accumulated in double. */
double csri_ref_dot(const csr_vector *x, const csr_vector *y);
double csri_omp_dot(const csr_context *ctx, const csr_vector *x, const csr_vector *y);
double csri_ref_nrm2(const csr_vector *x);
double csri_omp_nrm2(const csr_context *ctx, const csr_vector *x);
double csri_ref_nrm1(const csr_vector *x);
double csri_omp_nrm1(const csr_context *ctx, const csr_vector *x);
double csri_ref_nrminf(const csr_vector *x);
double csri_omp_nrminf(const csr_context *ctx, const csr_vector *x);

/* --- row statistics -------------------------------------------------------------------------- */

/* Statistics from host row offsets (rows + 1 entries). Returns 0, or -1 when a row length is
 * negative (offsets decrease): the front end reports CSR_ERR_INVALID_MATRIX. */
int csri_ref_row_stats(const int64_t *row_offsets, int64_t rows, csr_row_stats *stats);
int csri_omp_row_stats(const csr_context *ctx, const int64_t *row_offsets, int64_t rows,
                       csr_row_stats *stats);

/* --- PageRank's fused vector passes (src/ref/pagerank.c, src/omp/pagerank.c) --------------- */

/* x_j = r_j * inv_w[j] (scale) or r_j (not scale); returns the sum of r_j over dangling pages
 * (inv_w[j] == 0). x and r share a value type. */
double csri_ref_pagerank_spread(const csr_vector *r, const double *inv_w, int scale, csr_vector *x);
double csri_omp_pagerank_spread(const csr_context *ctx, const csr_vector *r, const double *inv_w,
                                int scale, csr_vector *x);
/* r_i <- d * (y_i + base) + (1 - d) * p_i (p NULL: 1/n), and in the same pass the next
 * iteration's spread: x_i from the new r_i as above, *dangling = the new ranks' dangling sum.
 * Returns sum_i |r_i(new) - r_i(old)|. */
double csri_ref_pagerank_update(csr_vector *r, const csr_vector *y, const double *p, double d,
                                double base, const double *inv_w, int scale, csr_vector *x,
                                double *dangling);
double csri_omp_pagerank_update(const csr_context *ctx, csr_vector *r, const csr_vector *y,
                                const double *p, double d, double base, const double *inv_w,
                                int scale, csr_vector *x, double *dangling);

#endif /* CSR_OPS_IMPL_H */
