/* SPDX-License-Identifier: BSD-3-Clause */
/* libcsr across processes: matrices and vectors distributed over the ranks of an MPI
 * communicator by 1D row blocks, with SpMV, reductions, CG / Jacobi-PCG / BiCGSTAB and PageRank.
 *
 * Conventions are csr.h's (context first, csr_status, no printing, no exit, no abort), and:
 *  - every call here is collective over the operands' communicator: all its ranks call it, in the
 *    same order, with the same scalar arguments;
 *  - whatever goes wrong on one rank (a bad file, an allocation, a device error) is agreed on by
 *    all: every rank returns the same status, and its context holds the same message, the failing
 *    rank's ("rank 2 of 4: web.mtx:17: expected a value, found the end of the line") when only
 *    some ranks failed. No call leaves a rank waiting for another that gave up;
 *  - sizes are 64-bit globally: rows, columns and nonzeros up to 2^63; a rank's own rows plus the
 *    ghost columns it reads at most CSR_MAX_DIM;
 *  - the objects keep a duplicate of the communicator (their messages never meet the caller's);
 *    freeing them is collective too, and must happen before MPI_Finalize.
 * Each rank holds a block of consecutive rows, chosen so that the blocks carry equal nonzeros +
 * rows (a power-law row lands where its weight falls), with the columns of its rows split in two
 * kinds: owned (the entries of x the rank holds) and ghost (held by another rank, received before
 * the rows that read them are multiplied). docs/algorithms.md describes the plan and the
 * reductions; docs/index.md shows the use. */
#ifndef CSR_MPI_H
#define CSR_MPI_H

#include <mpi.h>

#include "csr.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A matrix distributed by row blocks (opaque). */
typedef struct csr_dist_matrix csr_dist_matrix;
/** A vector distributed like a matrix's rows or columns (opaque). */
typedef struct csr_dist_vector csr_dist_vector;

/** How a matrix's halo travels between ranks (csr_dist_share.halo_path). */
typedef enum csr_dist_halo_path {
  CSR_DIST_HALO_HOST = 0,     /**< host matrices: MPI on host memory */
  CSR_DIST_HALO_STAGED = 1,   /**< GPU ranks: MPI through page-locked host buffers */
  CSR_DIST_HALO_CUDA_MPI = 2, /**< GPU ranks: MPI on device memory (a CUDA-aware MPI) */
  CSR_DIST_HALO_NCCL = 3      /**< GPU ranks, each on a GPU of its own: NCCL on device memory */
} csr_dist_halo_path;

/** One rank's share of a distributed matrix (csr_dist_matrix_share). */
typedef struct csr_dist_share {
  int rank, ranks;              /**< this rank, and the communicator's size */
  int64_t first_row, rows;      /**< the rows [first_row, first_row + rows) this rank holds */
  int64_t first_col, cols;      /**< the entries of x this rank holds (owned columns) */
  int64_t nnz;                  /**< the stored entries of its rows */
  int64_t ghosts;               /**< distinct columns its rows read from other ranks */
  int64_t interior_rows;        /**< rows that read no ghost (multiplied while the halo travels) */
  int neighbours;               /**< ranks it receives ghosts from */
  int send_neighbours;          /**< ranks it sends entries of x to */
  int64_t send_entries;         /**< entries of x it sends per SpMV */
  csr_dist_halo_path halo_path; /**< how the halo travels (the same on every rank) */
} csr_dist_share;

/** The path's name: "host", "staged", "cuda-mpi", "nccl". */
const char *csr_dist_halo_path_name(csr_dist_halo_path path);

/** Which side of a matrix a distributed vector is laid out like. */
typedef enum csr_dist_side {
  CSR_DIST_ROWS = 0, /**< like A's rows: y of y = A x, b of A x = b */
  CSR_DIST_COLS = 1  /**< like A's columns: x of y = A x */
} csr_dist_side;

/* --- matrices -------------------------------------------------------------------------------
 * Every constructor takes A's entries in some order and stores each row as csr_from_coo would on
 * one process (columns ascending, duplicates summed in the order given, explicit zeros kept), so
 * that a row's entries, and so its SpMV sum, are the same whatever the number of ranks. */

/** A = the rows x cols matrix whose triples (row_indices[k], col_indices[k], values[k]),
 *  k < count, the ranks hold between them, in any distribution: each triple is sent to the rank
 *  that owns its row (MPI_Alltoallv), the blocks chosen by weight. Duplicates are summed in the
 *  order of (rank that held the triple, k). values: count doubles (CSR_F64) or floats (CSR_F32),
 *  NULL for CSR_PATTERN. location: where the matrix and its halo buffers live (CSR_DEVICE: each
 *  rank takes a GPU of its node, csr_dist_select_device). Errors: NULL_POINTER, INVALID_VALUE
 *  (negative sizes or count, bad enums), OVERFLOW (a rank's own + ghost columns past
 *  CSR_MAX_DIM), INDEX_OUT_OF_BOUNDS (a triple outside the matrix, named), OUT_OF_MEMORY,
 *  NOT_COMPILED / DEVICE. */
csr_status csr_dist_matrix_from_triples(csr_context *ctx, MPI_Comm comm, int64_t rows, int64_t cols,
                                        int64_t count, const int64_t *row_indices,
                                        const int64_t *col_indices, const void *values,
                                        csr_value_type value_type, csr_location location,
                                        csr_dist_matrix **A);
/** A from the rows each rank already holds: rank r's local_rows rows follow rank r-1's (rank 0's
 *  start at row 0), row i's entries at [row_offsets[i], row_offsets[i + 1]) of col_indices
 *  (global, 0 <= j < cols) and values; the ranks keep this split (no rebalancing). The columns
 *  are split like the rows when cols equals the total row count, else evenly. Errors as
 *  csr_dist_matrix_from_triples, and INVALID_MATRIX (offsets not from 0 or decreasing). */
csr_status csr_dist_matrix_from_rows(csr_context *ctx, MPI_Comm comm, int64_t cols,
                                     int64_t local_rows, const int64_t *row_offsets,
                                     const int64_t *col_indices, const void *values,
                                     csr_value_type value_type, csr_location location,
                                     csr_dist_matrix **A);
/** A = the host matrix `global` of rank `root` (ignored, may be NULL, on the others), its rows
 *  sent to their owners. Errors as csr_dist_matrix_from_triples, and INVALID_MATRIX for a global
 *  matrix that breaks the CSR invariants. */
csr_status csr_dist_matrix_scatter(csr_context *ctx, MPI_Comm comm, int root,
                                   const csr_matrix *global, csr_location location,
                                   csr_dist_matrix **A);
/** A = the matrix in a Matrix Market file or an edge list (as csr_read_csr reads it; every rank
 *  names the same file). An uncompressed file is parsed in parallel: each rank takes its share of
 *  the bytes, from the first line that begins in it; a gzip file is inflated and parsed by rank 0
 *  and its triples spread over the ranks. A syntax error anywhere is reported with its line
 *  number on every rank. info (may be NULL) as csr_read_coo's, the same on every rank. */
csr_status csr_dist_matrix_read(csr_context *ctx, MPI_Comm comm, const char *path,
                                const csr_read_options *options, csr_location location,
                                csr_dist_matrix **A, csr_file_info *info);
/** Frees A (collective); accepts NULL and *A == NULL; sets *A NULL. */
void csr_dist_matrix_free(csr_dist_matrix **A);
/** The whole matrix on rank root (*global; NULL on the others), on the host, each row as stored.
 *  Fails with OVERFLOW when it does not fit a csr_matrix (rows, cols past CSR_MAX_DIM). */
csr_status csr_dist_matrix_gather(csr_context *ctx, const csr_dist_matrix *A, int root,
                                  csr_matrix **global);
/** Writes A as Matrix Market to path, through rank 0 (csr_write_mm's options). */
csr_status csr_dist_matrix_write_mm(csr_context *ctx, const csr_dist_matrix *A, const char *path,
                                    const csr_write_options *options);
/** Global shape: rows, columns and stored entries (any pointer may be NULL). */
void csr_dist_matrix_size(const csr_dist_matrix *A, int64_t *rows, int64_t *cols, int64_t *nnz);
/** This rank's share (rows, nonzeros, ghosts, neighbours). */
csr_status csr_dist_matrix_share(const csr_dist_matrix *A, csr_dist_share *share);

/* --- vectors -------------------------------------------------------------------------------- */

/** A zeroed vector laid out like A's rows or columns, of value_type F64 or F32, at `location`
 *  (host, or device for device matrices). Vectors of one side of one matrix are operands of the
 *  same calls; so are a square matrix's two sides when its rows and columns are split alike. */
csr_status csr_dist_vector_create(csr_context *ctx, const csr_dist_matrix *A, csr_dist_side side,
                                  csr_value_type value_type, csr_location location,
                                  csr_dist_vector **v);
/** Frees v (collective); accepts NULL; sets *v NULL. */
void csr_dist_vector_free(csr_dist_vector **v);
/** Global length, and the entries [*first, *first + *count) this rank holds (NULLs allowed). */
void csr_dist_vector_size(const csr_dist_vector *v, int64_t *n, int64_t *first, int64_t *count);
/** Copies this rank's entries into values (count doubles, in global order). Local: no
 *  communication, no agreement. */
csr_status csr_dist_vector_get_local(csr_context *ctx, const csr_dist_vector *v, double *values);
/** Sets this rank's entries from values (count doubles, in global order), rounded to v's type.
 *  Local, as csr_dist_vector_get_local. */
csr_status csr_dist_vector_set_local(csr_context *ctx, csr_dist_vector *v, const double *values);
/** v = the host vector `global` of rank root (ignored on the others; n entries, any type). */
csr_status csr_dist_vector_scatter(csr_context *ctx, csr_dist_vector *v, int root,
                                   const csr_vector *global);
/** The host vector `global` of rank root (n entries, F64 or F32; ignored on the others) = v. */
csr_status csr_dist_vector_gather(csr_context *ctx, const csr_dist_vector *v, int root,
                                  csr_vector *global);

/* Vector operations: operands laid out alike (else CSR_ERR_DIMENSION_MISMATCH), of one type
 * (CSR_ERR_TYPE_MISMATCH) and location. Element-wise results are csr.h's, entry by entry.
 * Reductions are sums without rounding: each rank forms its terms (x_i y_i rounded to double,
 * x_i^2, |x_i|) and sums them exactly, a block at a time, into a long fixed-point accumulator;
 * the accumulators are summed across ranks as integers, and the total is rounded once. So a dot
 * or a norm has the same bits for any number of ranks, any split and any run, and is the
 * correctly rounded sum of its terms. */
/** *result = x . y: the sum of the products x_i y_i (each rounded to double), rounded once. */
csr_status csr_dist_dot(csr_context *ctx, const csr_dist_vector *x, const csr_dist_vector *y,
                        double *result);
/** *result = sqrt(sum x_i^2), correctly rounded from the exact sum of the squares (each rounded
 *  to double; squares of entries beyond 2^+-480, which could overflow or underflow, are kept
 *  exactly), without overflow. */
csr_status csr_dist_nrm2(csr_context *ctx, const csr_dist_vector *x, double *result);
/** *result = sum |x_i|, exact and rounded once. */
csr_status csr_dist_nrm1(csr_context *ctx, const csr_dist_vector *x, double *result);
/** *result = max |x_i| (NaN if any x_i is NaN). */
csr_status csr_dist_nrminf(csr_context *ctx, const csr_dist_vector *x, double *result);
/** y = alpha*x + beta*y on every rank's entries. */
csr_status csr_dist_axpby(csr_context *ctx, double alpha, const csr_dist_vector *x, double beta,
                          csr_dist_vector *y);
/** y = x. */
csr_status csr_dist_copy(csr_context *ctx, const csr_dist_vector *x, csr_dist_vector *y);
/** x_i = alpha for every i. */
csr_status csr_dist_fill(csr_context *ctx, double alpha, csr_dist_vector *x);

/* --- SpMV, solvers, PageRank ---------------------------------------------------------------- */

/** y = alpha*A*x + beta*y, x laid out like A's columns, y like its rows. The halo is exchanged
 *  while the rows that read no ghost are multiplied (receives posted, owned entries packed and
 *  sent, interior rows multiplied, wait, the other rows multiplied). GPU ranks send through
 *  page-locked host buffers, or device memory when the MPI library reports CUDA support, or NCCL
 *  when libcsr has it and every rank has a GPU of its own (csr_dist_share.halo_path says which;
 *  CSR_NCCL=0 in the environment keeps NCCL out). Each row is summed by the
 *  single-process kernel of the context's backend, in its stored order, so on the CPU backends
 *  every entry of y has the bits csr_spmv gives on one process, whatever the number of ranks. On
 *  the GPU each rank's two row sets get the kernel csr_spmv_choose picks for them, which may sum a
 *  row in another order than the kernel picked for the whole matrix. Errors as csr_spmv, and
 *  DIMENSION_MISMATCH for vectors laid out otherwise. */
csr_status csr_dist_spmv(csr_context *ctx, double alpha, const csr_dist_matrix *A,
                         const csr_dist_vector *x, double beta, csr_dist_vector *y);

/** Solves A x = b as csr_solve does (options and info as there), b and x laid out like A's rows
 *  (A square, its rows and columns split alike). CG and PCG take one reduction per iteration (the
 *  five sums of the single-reduction form, exact); BiCGSTAB its dots. Since every sum is exact,
 *  the iterates, the iteration count and info are the same bits on any number of ranks. Before
 *  any iteration: a host A with a non-finite value or a row without a nonzero value is refused
 *  (naming the row), and so are non-finite b and x; a column of zeros shows as a breakdown.
 *  GPU ranks run the same iteration on the device (the step's update in one kernel, the sums'
 *  exact terms summed there): the host sees only the sums' accumulators each iteration. CG with
 *  options->preconditioner CSR_PRECOND_JACOBI is PCG. GMRES(m) orthogonalises by classical
 *  Gram-Schmidt, repeated when a pass cancels (its k + 1 dots in ceil((k + 1) / 5) exact
 *  reductions); its preconditioner is block Jacobi, PETSc's parallel default: each rank's
 *  diagonal block (its rows, its own columns) taken alone, by Jacobi or factored by
 *  options->preconditioner CSR_PRECOND_ILU0, ILUT or IC0 (csr_factor_compute with
 *  options->factor_options), so the factorization's iterates depend on the number of ranks; a
 *  block that cannot be factored is refused on every rank, naming its rows. CSR_ERR_UNSUPPORTED:
 *  the factorizations with CG or BiCGSTAB, and CSR_PRECOND_FACTOR. */
csr_status csr_dist_solve(csr_context *ctx, const csr_dist_matrix *A, const csr_dist_vector *b,
                          csr_dist_vector *x, const csr_solver_options *options,
                          csr_solver_info *info);

/** ranks = the PageRank of the graph whose adjacency matrix is A, as csr_pagerank computes it
 *  (the same iteration, dangling pages, weights and personalization; options->personalization is
 *  a host vector of n entries, read on rank 0: the other ranks' pointer is ignored). The pull graph
 * A^T is distributed once, split by its own weights (a page's in-links); the dangling sum and the
 * L1 change of each iteration are exact sums across ranks, so the ranks are the same bits on any
 * number of ranks. ranks: laid out like A's rows, where A lives. On GPU ranks the product and the
 * per-page update (with its two sums' terms) run on the device, where the ranks stay until they
 * are copied to ranks at the end: the host sees only the sums' accumulators each iteration. */
csr_status csr_dist_pagerank(csr_context *ctx, const csr_dist_matrix *A,
                             const csr_pagerank_options *options, csr_dist_vector *ranks,
                             csr_pagerank_info *info);

/* --- devices -------------------------------------------------------------------------------- */

/** Selects the GPU of this rank: its rank among the ranks of its node (MPI_COMM_TYPE_SHARED),
 *  modulo the node's GPUs (several ranks may share one). *device gets the index (may be NULL).
 *  Collective over comm. CSR_ERR_NOT_COMPILED without the CUDA backend, CSR_ERR_DEVICE without a
 *  GPU. */
csr_status csr_dist_select_device(csr_context *ctx, MPI_Comm comm, int *device);

/** Seconds this rank spent posting and waiting for A's halo exchanges since A was made (with
 *  csr_dist_pagerank on A, its pull graph's too); for reports. */
double csr_dist_matrix_comm_seconds(const csr_dist_matrix *A);

#ifdef __cplusplus
}
#endif
#endif /* CSR_MPI_H */
