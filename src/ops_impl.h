/* Backend entry points of SpMV, the vector operations and row statistics (ref and omp). */
#ifndef CSR_OPS_IMPL_H
#define CSR_OPS_IMPL_H

#include "internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The front ends (src/spmv.c, src/vector_*.c, src/row_stats.c, src/cg_step.c) have checked every
 * operand: non-NULL, one location, matching shapes and types. The CPU kernels therefore cannot
 * fail; the CUDA ones return a status for launch and device errors only. */

/* --- front-end helpers (src/vector_ops.c) ---------------------------------------------------- */

/* NULL, value type (F64 / F32), data present when n > 0. `name` is for the message. */
csr_status csri_check_vector(csr_context *ctx, const csr_vector *v, const char *name);
/* Both vectors valid, same n, same type, same location (host or device). */
csr_status csri_check_vector_pair(csr_context *ctx, const csr_vector *x, const csr_vector *y);
/* 1 when the arrays of x and y share any byte (both non-empty). */
int csri_vectors_overlap(const csr_vector *x, const csr_vector *y);
/* Device operands of an operation the CUDA backend does not offer (PageRank). */
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

/* The reductions, by name (csri_cuda_reduce; the CPU front end switches on it too). */
typedef enum csri_reduction { CSRI_DOT, CSRI_NRM2, CSRI_NRM1, CSRI_NRMINF } csri_reduction;

/* --- the CUDA backend of the above (cuda/spmv.cu, cuda/vector_ops.cu; src/cuda_stub.c) -------- */

/* y = alpha*A*x + beta*y on device operands, alpha != 0 and nnz > 0, with the kernel the context
 * asks for (AUTO: from the mean row length). CSR_ERR_UNSUPPORTED for the segmented kernel. */
csr_status csri_cuda_spmv(csr_context *ctx, double alpha, const csr_matrix *A, const csr_vector *x,
                          double beta, csr_vector *y);
csr_status csri_cuda_axpby(csr_context *ctx, double alpha, const csr_vector *x, double beta,
                           csr_vector *y);
csr_status csri_cuda_scale(csr_context *ctx, double alpha, csr_vector *x);
csr_status csri_cuda_fill(csr_context *ctx, double alpha, csr_vector *x);
/* *result = the reduction of x (and y for CSRI_DOT), accumulated in double; the order is fixed
 * by n alone, so a run gives the same bits every time. Synchronises the context's stream. */
csr_status csri_cuda_reduce(csr_context *ctx, csri_reduction which, const csr_vector *x,
                            const csr_vector *y, double *result);

/* --- CG's fused step (src/cg_step.c; src/ref/cg_step.c, src/omp/cg_step.c, cuda/cg_step.cu) --- */

/* One CG iteration in one pass over the vectors and one reduction (the single-reduction form of
 * src/cg.c), on vectors of one type T (F64 / F32) and location; all arithmetic in double, each
 * stored value rounded to T once:
 *   r' = r - alpha q,  x += alpha p,  z' = d .* r' (d NULL: z' = r'),  p' = z' + beta p,
 *   q' = A p',
 * where a zero alpha drops the q and p terms and a zero beta the p term (stale or NaN contents
 * of q and p are then never read into the result). r', p', q' go to separate vectors (the
 * device computes p'_j wherever row i needs it while other rows still read r, p, q).
 * sums: [0] r'.r'  [1] r'.z'  [2] p'.q'  [3] z'.q'  [4] sum_i d_i q'_i^2 (d NULL: q'.q'). */
typedef struct csri_cg_vectors {
  csr_vector *x;
  const csr_vector *r, *p, *q; /* this iterate */
  csr_vector *r_next, *p_next, *q_next;
  const csr_vector *d; /* Jacobi: 1 / diag(A), or NULL */
} csri_cg_vectors;
enum { CSRI_CG_SUMS = 5 };

void csri_ref_cg_step(const csr_matrix *A, double alpha, double beta, const csri_cg_vectors *v,
                      double *sums);
/* The step's two halves over rows [begin, end), which the OpenMP backend runs in chunks: the
 * element-wise r', x, p' (all rows first), then q' = A p' and the rows' terms added to sums in
 * row order. */
void csri_cg_update_rows(double alpha, double beta, const csri_cg_vectors *v, int64_t begin,
                         int64_t end);
void csri_cg_product_rows(const csr_matrix *A, const csri_cg_vectors *v, int64_t begin, int64_t end,
                          double *sums);
void csri_omp_cg_step(const csr_context *ctx, const csr_matrix *A, double alpha, double beta,
                      const csri_cg_vectors *v, double *sums);
csr_status csri_cuda_cg_step(csr_context *ctx, const csr_matrix *A, double alpha, double beta,
                             const csri_cg_vectors *v, double *sums);

/* d_i = 1 / a_ii (duplicates on the diagonal summed), into d of d's type. Returns -1 when every
 * a_ii is positive and finite, else the first bad row, with *why 0 (no diagonal entry), 1
 * (non-finite a_ii) or 2 (a_ii <= 0) and *value = a_ii. The CUDA one returns -2 (and records
 * the error) when the device fails. */
int64_t csri_ref_jacobi(const csr_matrix *A, csr_vector *d, int *why, double *value);
int64_t csri_cuda_jacobi(csr_context *ctx, const csr_matrix *A, csr_vector *d, int *why,
                         double *value);

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
/* The two passes over entries [b, e) (src/ref/pagerank.c), for the OpenMP chunks. */
double csri_pagerank_spread_rows(const csr_vector *r, const double *inv_w, int scale, csr_vector *x,
                                 int64_t b, int64_t e);
double csri_pagerank_update_rows(csr_vector *r, const csr_vector *y, const double *p, double d,
                                 double base, const double *inv_w, int scale, csr_vector *x,
                                 int64_t b, int64_t e, double *dangling);
double csri_omp_pagerank_update(const csr_context *ctx, csr_vector *r, const csr_vector *y,
                                const double *p, double d, double base, const double *inv_w,
                                int scale, csr_vector *x, double *dangling);

#ifdef __cplusplus
}
#endif
#endif /* CSR_OPS_IMPL_H */
