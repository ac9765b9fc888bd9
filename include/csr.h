/* SPDX-License-Identifier: BSD-3-Clause */
/* libcsr: compressed sparse row matrices on the CPU and the GPU.
 *
 * The main public header (csr_primitives.h adds the array primitives, csr_mmio.h the NIST mmio.h
 * names). Conventions (docs/design.md):
 *  - every call returns a csr_status: 0 success, > 0 informational, < 0 error;
 *  - every call takes a context first; NULL means "default behaviour, no error detail";
 *  - csr_X_create(ctx, &obj, ...) pairs with csr_X_free(&obj), which accepts NULL and sets it NULL;
 *  - objects know where their arrays live (host or device); operands of one call share it;
 *  - sizes: nnz is 64-bit everywhere; rows and columns at most CSR_MAX_DIM (32-bit indices).
 */
#ifndef CSR_H
#define CSR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CSR_VERSION_MAJOR 0
#define CSR_VERSION_MINOR 1
#define CSR_VERSION_PATCH 0
#define CSR_VERSION_STRING "0.1.0"

/** Largest number of rows or columns: column indices are 32-bit signed. */
#define CSR_MAX_DIM INT64_C(2147483647)

/* ---------------------------------------------------------------------------------------------
 * Status
 * ------------------------------------------------------------------------------------------- */

/** Outcome of every call. Negative: error (nothing useful was produced). Positive: the call
 *  did what it could and says something about it. */
typedef enum csr_status {
  CSR_SUCCESS = 0,
  CSR_INFO_DECLINED = 1,      /**< a backend declined (too small, unsupported type); next ran */
  CSR_INFO_NOT_CONVERGED = 2, /**< an iterative method stopped at its iteration limit */
  CSR_ERR_NULL_POINTER = -1,  /**< a required pointer argument was NULL */
  CSR_ERR_INVALID_VALUE = -2, /**< an argument is out of its documented range */
  CSR_ERR_DIMENSION_MISMATCH = -3,  /**< operand shapes do not fit together */
  CSR_ERR_INDEX_OUT_OF_BOUNDS = -4, /**< an index lies outside the matrix */
  CSR_ERR_INVALID_MATRIX = -5,      /**< a matrix breaks the CSR invariants */
  CSR_ERR_PARSE = -6,               /**< input text is not what the format allows */
  CSR_ERR_IO = -7,                  /**< reading or writing a file failed */
  CSR_ERR_OVERFLOW = -8,            /**< a size exceeds what libcsr (or size_t) can hold */
  CSR_ERR_UNSUPPORTED = -9,         /**< valid request that libcsr does not support */
  CSR_ERR_OUT_OF_MEMORY = -10,      /**< host or device allocation failed */
  CSR_ERR_DEVICE = -11,             /**< the CUDA runtime reported an error */
  CSR_ERR_NOT_COMPILED = -12,       /**< the backend asked for was not built into this library */
  CSR_ERR_LOCATION_MISMATCH = -13,  /**< operands live in different places (host vs device) */
  CSR_ERR_TYPE_MISMATCH = -14       /**< operand value types do not fit together */
} csr_status;

/** Name of a status, e.g. "CSR_ERR_PARSE" (never NULL; "CSR_UNKNOWN_STATUS" if out of range). */
const char *csr_status_string(csr_status status);

/* ---------------------------------------------------------------------------------------------
 * Enumerations
 * ------------------------------------------------------------------------------------------- */

/** Where an object's arrays live. */
typedef enum csr_location { CSR_HOST = 0, CSR_DEVICE = 1 } csr_location;

/** Element type of values; CSR_PATTERN stores no values (every stored entry is 1). */
typedef enum csr_value_type { CSR_PATTERN = 0, CSR_F64 = 1, CSR_F32 = 2 } csr_value_type;

/** Which implementation runs a call. AUTO: CUDA for device operands, OpenMP (if built) for host
 *  operands, the reference as the last resort. */
typedef enum csr_backend {
  CSR_BACKEND_AUTO = 0,
  CSR_BACKEND_REF = 1,
  CSR_BACKEND_OMP = 2,
  CSR_BACKEND_CUDA = 3
} csr_backend;

/** SpMV kernel choice (meaningful for the CUDA backend; CPU backends ignore it). */
typedef enum csr_spmv_kernel {
  CSR_KERNEL_AUTO = 0,
  CSR_KERNEL_SCALAR = 1,    /**< one thread per row */
  CSR_KERNEL_VECTOR = 2,    /**< a warp or sub-warp per row */
  CSR_KERNEL_SEGMENTED = 3, /**< nonzeros and row ends split evenly over threads (merge path) */
  CSR_KERNEL_STREAM = 4 /**< whole rows packed into tiles staged in shared memory (CSR-stream) */
} csr_spmv_kernel;

/** Dense storage order. */
typedef enum csr_layout { CSR_ROW_MAJOR = 0, CSR_COL_MAJOR = 1 } csr_layout;

/** Which triangle a symmetric matrix stores. */
typedef enum csr_triangle { CSR_LOWER = 0, CSR_UPPER = 1 } csr_triangle;

/** How the missing triangle relates to the stored one. */
typedef enum csr_symmetry {
  CSR_SYMMETRIC = 0,     /**< a_ji = a_ij */
  CSR_SKEW_SYMMETRIC = 1 /**< a_ji = -a_ij (diagonal must be zero) */
} csr_symmetry;

/** Matrix property flags (bit set). */
enum {
  CSR_FLAG_SORTED = 1u,       /**< column indices ascend within each row */
  CSR_FLAG_NO_DUPLICATES = 2u /**< no (row, col) pair appears twice */
};

/* ---------------------------------------------------------------------------------------------
 * Context
 * ------------------------------------------------------------------------------------------- */

/** Opaque: backend choice, thread count, CUDA stream, cached workspaces, kernel override,
 *  debug-synchronise flag and the last error's detail. Not safe to share between threads that
 *  call libcsr at the same time; give each thread its own. */
typedef struct csr_context csr_context;

/** Creates a context with backend AUTO, threads 0 (OpenMP default), the default CUDA stream,
 *  kernel AUTO, debug-sync off. Returns CSR_ERR_NULL_POINTER, CSR_ERR_OUT_OF_MEMORY. */
csr_status csr_context_create(csr_context **ctx);
/** Frees the context and its cached workspaces; accepts NULL and *ctx == NULL; sets *ctx NULL. */
void csr_context_free(csr_context **ctx);

/** Sets the backend. CSR_ERR_NOT_COMPILED if that backend is not in this build
 *  (see csr_backend_available). */
csr_status csr_context_set_backend(csr_context *ctx, csr_backend backend);
/** Backend set on the context (AUTO on a NULL context). */
csr_backend csr_context_backend(const csr_context *ctx);
/** Backend that ran the last successful operation on this context (AUTO before any). */
csr_backend csr_context_last_backend(const csr_context *ctx);
/** OpenMP threads for the OpenMP backend; 0 means the OpenMP default. Negative: invalid value. */
csr_status csr_context_set_threads(csr_context *ctx, int threads);
/** The thread count set on the context (0: the OpenMP default). */
int csr_context_threads(const csr_context *ctx);
/** CUDA stream (a cudaStream_t passed as void*) for device work; NULL is the default stream. */
csr_status csr_context_set_stream(csr_context *ctx, void *stream);
/** The stream set on the context (NULL: the default stream). */
void *csr_context_stream(const csr_context *ctx);
/** Forces an SpMV kernel on the CUDA backend (for csr_spmv and csr_solve). AUTO: chosen per
 *  matrix from its row-length statistics (csr_spmv_choose); SEGMENTED: the work split by
 *  nonzeros, whatever the row lengths (CG and PCG then take a step of three passes instead of
 *  their fused one). */
csr_status csr_context_set_kernel(csr_context *ctx, csr_spmv_kernel kernel);
/** The kernel set on the context (AUTO on a NULL context). */
csr_spmv_kernel csr_context_kernel(const csr_context *ctx);
/** Name of an SpMV kernel: "auto", "scalar", "vector", "segmented", "stream"; "unknown" for a
 *  value that names none. */
const char *csr_spmv_kernel_name(csr_spmv_kernel kernel);
/** The kernel named `name` (a csr_spmv_kernel_name) into *kernel. CSR_ERR_INVALID_VALUE when no
 *  kernel has that name, CSR_ERR_NULL_POINTER for a NULL argument; nothing is recorded (no
 *  context). */
csr_status csr_spmv_kernel_from_name(const char *name, csr_spmv_kernel *kernel);
/** When on, the CUDA backend synchronises after every launch so errors surface at their call. */
csr_status csr_context_set_debug_sync(csr_context *ctx, int on);
/** The debug-synchronise flag (0 on a NULL context). */
int csr_context_debug_sync(const csr_context *ctx);
/** Sets the most host memory one allocation may take on this context, in bytes; 0 (the default)
 *  sets no limit of its own. Whatever the context's limit, a host allocation larger than the
 *  process's physical memory or its cgroup's memory limit is refused as well: the call fails with
 *  CSR_ERR_OUT_OF_MEMORY, its message naming the size and the limit ("allocating 16.0 GiB ...:
 *  more than the context's limit of 1.0 GiB"), before the memory is taken, instead of the kernel
 *  ending the process once the pages are touched. The limit applies to each allocation, not to
 *  their sum; device allocations are bounded by the device. Returns CSR_ERR_NULL_POINTER. */
csr_status csr_context_set_memory_limit(csr_context *ctx, size_t bytes);
/** The limit set on the context with csr_context_set_memory_limit (0: none of its own; 0 on a
 *  NULL context). */
size_t csr_context_memory_limit(const csr_context *ctx);
/** Status of the last call that failed on this context (CSR_SUCCESS if none since clear). */
csr_status csr_context_last_status(const csr_context *ctx);
/** Detail of the last error: "<source file>:<line>: <message>". Empty string if none; never NULL.
 *  Valid until the next call on this context. */
const char *csr_context_last_error(const csr_context *ctx);
/** The last error's message alone, without the source location: what an application shows its
 *  user ("web.mtx:17: expected a value, found the end of the line"). Empty string if none; never
 *  NULL. Valid until the next call on this context. */
const char *csr_context_last_message(const csr_context *ctx);
/** Forgets the last error. */
void csr_context_clear_error(csr_context *ctx);

/** 1 if the backend is compiled into this library (REF always; OMP with OpenMP; CUDA with nvcc). */
int csr_backend_available(csr_backend backend);
/** 1 if a CUDA device can be used now (compiled in, driver present, at least one device). */
int csr_cuda_device_present(void);
/** Name of a backend: "auto", "ref", "omp", "cuda". */
const char *csr_backend_name(csr_backend backend);

/* ---------------------------------------------------------------------------------------------
 * Objects. Fields are public to read; change them only through the calls below.
 * ------------------------------------------------------------------------------------------- */

/** CSR: row i's entries are col_indices[k], values[k] for k in [row_offsets[i], row_offsets[i+1]).
 */
typedef struct csr_matrix {
  int64_t rows, cols;   /**< 0 <= rows, cols <= CSR_MAX_DIM */
  int64_t nnz;          /**< stored entries, = row_offsets[rows] */
  int64_t *row_offsets; /**< rows + 1 entries, row_offsets[0] = 0, non-decreasing */
  int32_t *col_indices; /**< nnz entries in [0, cols) */
  void *values;         /**< nnz doubles or floats; NULL when value_type is CSR_PATTERN */
  csr_value_type value_type;
  csr_location location;
  unsigned flags;    /**< CSR_FLAG_SORTED, CSR_FLAG_NO_DUPLICATES when known to hold */
  uint64_t serial;   /**< unique in the process for matrices libcsr makes or wraps; 0 when made by
                          hand. With the arrays' addresses it keys the context's cache of SpMV
                          choices */
  unsigned borrowed; /**< CSR_BORROWED_* bits: the arrays that are the caller's (csr_matrix_wrap),
                          which csr_matrix_free leaves alone; 0 for matrices libcsr makes */
} csr_matrix;

/** Bits of csr_matrix.borrowed. */
enum {
  CSR_BORROWED_OFFSETS = 1u, /**< row_offsets */
  CSR_BORROWED_INDICES = 2u, /**< col_indices */
  CSR_BORROWED_VALUES = 4u   /**< values */
};

/** Width of the integers of caller-owned row offsets (csr_matrix_wrap). */
typedef enum csr_index_width { CSR_INDEX_32 = 32, CSR_INDEX_64 = 64 } csr_index_width;

/** Coordinate triples (row_indices[k], col_indices[k], values[k]), in any order. */
typedef struct csr_coo {
  int64_t rows, cols, nnz;
  int32_t *row_indices, *col_indices;
  void *values; /**< NULL for CSR_PATTERN */
  csr_value_type value_type;
  csr_location location;
  unsigned flags; /**< CSR_FLAG_SORTED: ordered by row, then column; NO_DUPLICATES as for CSR */
} csr_coo;

/** Dense matrix: element (i, j) at data[i*ld + j] (row-major) or data[i + j*ld] (column-major). */
typedef struct csr_dense {
  int64_t rows, cols;
  int64_t ld; /**< leading dimension: >= cols (row-major) or >= rows (column-major) */
  csr_layout layout;
  void *data; /**< doubles or floats (dense matrices always have values) */
  csr_value_type value_type;
  csr_location location;
  int owns_data; /**< 0 for a wrapped user array (not freed by csr_dense_free) */
} csr_dense;

/** Dense vector of n doubles or floats. */
typedef struct csr_vector {
  int64_t n;
  void *data;
  csr_value_type value_type;
  csr_location location;
  int owns_data; /**< 0 for a wrapped user array */
} csr_vector;

/* --- CSR ---------------------------------------------------------------------------------- */

/** Allocates a rows x cols CSR with room for nnz entries (row_offsets zeroed, the rest
 *  uninitialised) where `location` says. Errors: NULL_POINTER, INVALID_VALUE (negative size, bad
 *  enum), OVERFLOW (rows or cols > CSR_MAX_DIM, or bytes past SIZE_MAX), OUT_OF_MEMORY,
 *  NOT_COMPILED / DEVICE for device storage. *A is NULL on failure. */
csr_status csr_matrix_create(csr_context *ctx, csr_matrix **A, int64_t rows, int64_t cols,
                             int64_t nnz, csr_value_type value_type, csr_location location);
/** Frees A and the arrays it owns (host or device; never the caller's arrays of a wrapped
 *  matrix); accepts NULL and *A == NULL; sets *A NULL. */
void csr_matrix_free(csr_matrix **A);
/** A matrix over caller-owned CSR arrays (scipy's indptr, indices and data on the host, CuPy's
 *  on the device), without copying the nonzeros: col_indices and values are used where they lie,
 *  and so are row offsets of 64 bits. Row offsets of 32 bits (offset_width CSR_INDEX_32) are
 *  widened into rows + 1 int64 offsets that A owns, at `location`: the one copy, of the offsets
 *  only (4 bytes a row beside at least 12 a nonzero), made now, so later changes to the caller's
 *  offsets are not seen (wrap again). The caller keeps its arrays alive and unchanged in shape
 *  until csr_matrix_free(&A), which frees only what A owns; libcsr reads them and never writes
 *  them. values is NULL for CSR_PATTERN; flags: CSR_FLAG_SORTED and CSR_FLAG_NO_DUPLICATES where
 *  the caller knows them to hold. Checks the shape (CSR_ERR_INVALID_VALUE, CSR_ERR_OVERFLOW),
 *  the pointers (NULL allowed only for an array of no elements), the width
 *  (CSR_ERR_INVALID_VALUE; CSR_ERR_OVERFLOW for nnz past 2^31 - 1 with 32 bits) and the end
 *  offsets, row_offsets[0] == 0 and row_offsets[rows] == nnz (CSR_ERR_INVALID_MATRIX; on the
 *  device a read of two offsets); the other invariants are csr_matrix_validate's to check, and
 *  every operation trusts them, as it trusts a matrix libcsr made. */
csr_status csr_matrix_wrap(csr_context *ctx, csr_matrix **A, int64_t rows, int64_t cols,
                           int64_t nnz, const void *row_offsets, csr_index_width offset_width,
                           const int32_t *col_indices, const void *values,
                           csr_value_type value_type, csr_location location, unsigned flags);
/** Deep copy of src into a new matrix at `location` (host<->device transfers go through the CUDA
 *  backend). */
csr_status csr_matrix_copy(csr_context *ctx, const csr_matrix *src, csr_matrix **dst,
                           csr_location location);
/** Checks the CSR invariants: row_offsets[0] == 0, non-decreasing, row_offsets[rows] == nnz,
 *  0 <= col < cols, and CSR_FLAG_SORTED / NO_DUPLICATES if set. Returns CSR_ERR_INVALID_MATRIX
 *  (INDEX_OUT_OF_BOUNDS for a column out of range) with the first violation (row, entry) in the
 *  context's message. A device matrix is checked on the device (a pass over the offsets, one over
 *  the entries; a sort when an unsorted matrix is flagged without duplicates), with the same
 *  message as on the host. */
csr_status csr_matrix_validate(csr_context *ctx, const csr_matrix *A);
/** Exact equality: same shape, type, structure and bitwise-equal values; *equal = 1 or 0.
 *  Both must be on the host. Entries are compared row by row in stored order. */
csr_status csr_matrix_equal(csr_context *ctx, const csr_matrix *A, const csr_matrix *B, int *equal);
/** Near equality: same structure, |a - b| <= atol + rtol*max(|a|,|b|) for every value. */
csr_status csr_matrix_near(csr_context *ctx, const csr_matrix *A, const csr_matrix *B, double rtol,
                           double atol, int *equal);

/* --- COO ---------------------------------------------------------------------------------- */

/** Allocates a COO of nnz triples (uninitialised). Errors as csr_matrix_create. */
csr_status csr_coo_create(csr_context *ctx, csr_coo **T, int64_t rows, int64_t cols, int64_t nnz,
                          csr_value_type value_type, csr_location location);
/** Frees the COO and its arrays; accepts NULL and *T == NULL; sets *T NULL. */
void csr_coo_free(csr_coo **T);
/** Deep copy of src into a new COO at `location` (host<->device through the CUDA backend). */
csr_status csr_coo_copy(csr_context *ctx, const csr_coo *src, csr_coo **dst, csr_location location);

/* --- dense -------------------------------------------------------------------------------- */

/** Allocates a zeroed rows x cols dense matrix with the tightest leading dimension. value_type
 *  must be CSR_F64 or CSR_F32. */
csr_status csr_dense_create(csr_context *ctx, csr_dense **D, int64_t rows, int64_t cols,
                            csr_layout layout, csr_value_type value_type, csr_location location);
/** Wraps a user array without copying; csr_dense_free frees only the descriptor. */
csr_status csr_dense_wrap(csr_context *ctx, csr_dense **D, int64_t rows, int64_t cols, int64_t ld,
                          csr_layout layout, csr_value_type value_type, csr_location location,
                          void *data);
/** Frees the dense matrix (its data only when it owns it); accepts NULL; sets *D NULL. */
void csr_dense_free(csr_dense **D);
/** Deep copy of src into a new dense matrix at `location` (the same leading dimension). */
csr_status csr_dense_copy(csr_context *ctx, const csr_dense *src, csr_dense **dst,
                          csr_location location);

/* --- vectors ------------------------------------------------------------------------------ */

/** Allocates a zeroed vector of n elements (CSR_F64 or CSR_F32). */
csr_status csr_vector_create(csr_context *ctx, csr_vector **v, int64_t n, csr_value_type value_type,
                             csr_location location);
/** Wraps a user array without copying. */
csr_status csr_vector_wrap(csr_context *ctx, csr_vector **v, int64_t n, csr_value_type value_type,
                           csr_location location, void *data);
/** Frees the vector (its data only when it owns it); accepts NULL; sets *v NULL. */
void csr_vector_free(csr_vector **v);
/** New vector at `location` holding a copy of src. */
csr_status csr_vector_clone(csr_context *ctx, const csr_vector *src, csr_vector **dst,
                            csr_location location);

/* ---------------------------------------------------------------------------------------------
 * Converters (host: ref and omp backends; device: cuda backend)
 * ------------------------------------------------------------------------------------------- */

/** Options of COO -> CSR. */
enum {
  CSR_CONVERT_DROP_ZEROS = 1u /**< drop entries whose (summed) value is exactly zero */
};

/* Every converter runs where its input lives: on the host (ref or omp backend) or on the device
 * (cuda backend: the result is made on the device). With host operands, a context that asks for
 * CUDA gets the work done on the CPU and CSR_INFO_DECLINED (> 0: the result is valid); in a build
 * without the CUDA backend, device operands give CSR_ERR_NOT_COMPILED (or
 * CSR_ERR_LOCATION_MISMATCH with a context set to ref or omp), as for every call. Inputs are
 * checked as they are used: row offsets that do not start at 0, decrease or miss nnz give
 * CSR_ERR_INVALID_MATRIX; an index out of range gives CSR_ERR_INDEX_OUT_OF_BOUNDS naming the first
 * bad entry, with the same message on every backend. Results are bitwise identical on every
 * backend (csr_to_dense of a device matrix flagged CSR_FLAG_NO_DUPLICATES trusts the flag), but
 * for the NaNs that sums make: the GPU gives its canonical NaN where the CPU's may carry another
 * sign or payload. */

/** A = T as CSR: entries ordered by row then column, duplicates summed in T's order in the value
 *  type's arithmetic (pattern: merged), explicit zeros kept unless CSR_CONVERT_DROP_ZEROS.
 *  Result flags: SORTED | NO_DUPLICATES. T->flags is not trusted (CSR_FLAG_SORTED on a COO means
 *  ordered by row, then column). */
csr_status csr_from_coo(csr_context *ctx, const csr_coo *T, unsigned options, csr_matrix **A);
/** T = A as triples in A's stored order; T->flags = A->flags. */
csr_status csr_to_coo(csr_context *ctx, const csr_matrix *A, csr_coo **T);
/** A = the nonzeros of D (exact zeros skipped), columns sorted. */
csr_status csr_from_dense(csr_context *ctx, const csr_dense *D, csr_matrix **A);
/** D = A as a dense matrix in `layout`, duplicates summed in stored order. A pattern matrix gives
 *  an F64 matrix with 1 for each stored entry. */
csr_status csr_to_dense(csr_context *ctx, const csr_matrix *A, csr_layout layout, csr_dense **D);
/** AT = A^T (equivalently: the CSC arrays of A). Columns of AT come out sorted whatever A's order;
 *  duplicates keep their relative order; NO_DUPLICATES carries over from A. */
csr_status csr_transpose(csr_context *ctx, const csr_matrix *A, csr_matrix **AT);
/** Full = the matrix whose stored triangle A holds: every off-diagonal entry (i, j) also appears
 *  as (j, i), the diagonal once. Entries found in the other triangle are mirrored too (Matrix
 *  Market readers accept them), so `stored` documents the caller's layout and is only checked
 *  for a valid value. Skew: mirrored entries change sign, a nonzero diagonal entry is
 *  CSR_ERR_INVALID_MATRIX, and a pattern matrix is CSR_ERR_INVALID_VALUE (no sign to store).
 *  A must be square (else CSR_ERR_DIMENSION_MISMATCH). If both (i, j) and (j, i) are stored, both
 *  and both mirrors are kept as duplicates (csr_from_coo semantics sum them later). Result columns
 *  sorted; NO_DUPLICATES set only when a scan of the result finds none. */
csr_status csr_symmetric_expand(csr_context *ctx, const csr_matrix *A, csr_triangle stored,
                                csr_symmetry symmetry, csr_matrix **full);

/* ---------------------------------------------------------------------------------------------
 * SpMV and vector operations
 * ------------------------------------------------------------------------------------------- */

/** y = alpha*A*x + beta*y. A is F64 (x, y F64), F32 (x, y F32) or PATTERN (x, y both F64 or both
 *  F32; stored entries count as 1). Each row is summed in double (on the OpenMP backend F32 rows
 *  in float, within float rounding of the others). beta == 0 overwrites y (NaN in y does not
 *  propagate). A, x, y all on the host (ref / OpenMP backend) or all on the device
 *  (CUDA backend, asynchronous on the context's stream; the kernel from csr_context_set_kernel:
 *  AUTO picks one per matrix from its row statistics, csr_spmv_choose, computed on the first call
 *  and cached; SEGMENTED splits the nonzeros evenly, using about 40 bytes of the context's device
 *  workspace per 1792 rows + nonzeros; every kernel gives the same bits every run).
 *  Errors: NULL_POINTER, DIMENSION_MISMATCH (x->n != cols, y->n != rows), TYPE_MISMATCH,
 *  LOCATION_MISMATCH (operands in two places, or device operands with a context set to ref or
 *  omp), OUT_OF_MEMORY (the segmented kernel's workspace), INVALID_MATRIX (AUTO's statistics
 *  find decreasing offsets), UNSUPPORTED (inside a CUDA graph capture: AUTO's first call on a
 *  matrix, or a call whose workspace would have to grow; csr_spmv_choose before the capture
 *  readies both), DEVICE. */
csr_status csr_spmv(csr_context *ctx, double alpha, const csr_matrix *A, const csr_vector *x,
                    double beta, csr_vector *y);

/** Whether csr_spmv_analyze packs A's column indices (docs/algorithms.md, "Packed column
 *  indices"). AUTO packs where it was measured to pay: a device matrix whose kernel
 *  (csr_spmv_choose) is a row kernel (scalar, vector), when the bytes an SpMV streams fall by
 *  CSR_SPMV_PACK_SAVING or more; the tiled kernels and the CPU read it no faster. */
typedef enum csr_compress {
  CSR_COMPRESS_AUTO = 0,
  CSR_COMPRESS_OFF = 1, /**< plain CSR: the plan runs what csr_spmv runs */
  CSR_COMPRESS_ON = 2   /**< packed whatever it saves */
} csr_compress;
/** The least share of an SpMV's streamed bytes (values, indices, row offsets) that packing must
 *  save for CSR_COMPRESS_AUTO to take it: below it the decoding is not worth its set-up. */
#define CSR_SPMV_PACK_SAVING 0.05

/** Opaque: what csr_spmv_analyze prepared for repeated products with one matrix. */
typedef struct csr_spmv_plan csr_spmv_plan;

/** What a plan holds, and why (csr_spmv_plan_describe). */
typedef struct csr_spmv_plan_info {
  int packed;             /**< 1: the column indices are read from the 16-bit packed index */
  int64_t chunks;         /**< chunks of 128 nonzeros (0 when packing was not tried) */
  int64_t escaped_chunks; /**< chunks whose columns span 2^16 or more: stored in 32 bits */
  double index_bytes;     /**< bytes an SpMV reads for the column indices: 4 nnz plain */
  double streamed_bytes;  /**< values + indices + row offsets, as the plan reads them */
  double plain_bytes;     /**< the same for plain CSR */
  double setup_seconds;   /**< what csr_spmv_analyze took (the packing included) */
  char reason[200];       /**< one sentence: why packed or not */
} csr_spmv_plan_info;

/** Prepares y = alpha*A*x + beta*y for many products with A (inspector-executor): with
 *  `compress` ON (or AUTO where it pays), A's column indices are packed in 16 bits, where A
 *  lives (chunks of 128 nonzeros stored as offsets from their smallest column; a chunk that spans
 *  2^16 or more kept whole in 32 bits), so a product reads 2 bytes a column index instead of 4.
 *  The plan keeps a pointer to A, which must outlive it unchanged (its values may change: they
 *  are read in place). For a device A, AUTO computes the kernel choice (csr_spmv_choose) now.
 *  Errors: NULL_POINTER, INVALID_VALUE (compress out of range), OUT_OF_MEMORY (with ON, the
 *  packed index: about 2 bytes a nonzero; AUTO then stays plain and its reason says so),
 *  NOT_COMPILED / DEVICE as csr_spmv. */
csr_status csr_spmv_analyze(csr_context *ctx, const csr_matrix *A, csr_compress compress,
                            csr_spmv_plan **plan);
/** y = alpha*A*x + beta*y for the plan's A, as csr_spmv computes it: the same kernel choice and
 *  the same bits, the columns read from the packed index when the plan holds one. Errors as
 *  csr_spmv. */
csr_status csr_spmv_run(csr_context *ctx, const csr_spmv_plan *plan, double alpha,
                        const csr_vector *x, double beta, csr_vector *y);
/** What the plan holds, and why (NULL_POINTER for NULL arguments). */
csr_status csr_spmv_plan_describe(const csr_spmv_plan *plan, csr_spmv_plan_info *info);
/** Frees the plan (not A) and sets *plan to NULL; NULL and a NULL *plan are fine. */
void csr_spmv_plan_free(csr_spmv_plan **plan);

/* The vector operations take host or device vectors (all operands of a call in one place,
 * else CSR_ERR_LOCATION_MISMATCH; device vectors with a context set to ref or omp likewise).
 * Element-wise results are computed in double and rounded once to the vector's type, with the same
 * bits on every backend; reductions are accumulated in double, in an order fixed by n (and, on the
 * device, the GPU model), so repeated calls give the same bits. A device reduction waits for the
 * stream and returns its result to the host. Host operands with a context set to CUDA run on the
 * CPU and return CSR_INFO_DECLINED (> 0). */

/** *result = x . y (accumulated in double). */
csr_status csr_dot(csr_context *ctx, const csr_vector *x, const csr_vector *y, double *result);
/** y = alpha*x + y. */
csr_status csr_axpy(csr_context *ctx, double alpha, const csr_vector *x, csr_vector *y);
/** y = alpha*x + beta*y. */
csr_status csr_axpby(csr_context *ctx, double alpha, const csr_vector *x, double beta,
                     csr_vector *y);
/** x = alpha*x. */
csr_status csr_scale(csr_context *ctx, double alpha, csr_vector *x);
/** y = x (same n and type; locations may differ: this is also the host<->device transfer). */
csr_status csr_copy(csr_context *ctx, const csr_vector *x, csr_vector *y);
/** x[i] = alpha for all i. */
csr_status csr_fill(csr_context *ctx, double alpha, csr_vector *x);
/** *result = sqrt(sum x_i^2), computed without overflow for large entries. */
csr_status csr_nrm2(csr_context *ctx, const csr_vector *x, double *result);
/** *result = sum |x_i|. */
csr_status csr_nrm1(csr_context *ctx, const csr_vector *x, double *result);
/** *result = max |x_i| (0 for n == 0; NaN if any x_i is NaN). */
csr_status csr_nrminf(csr_context *ctx, const csr_vector *x, double *result);

/* ---------------------------------------------------------------------------------------------
 * Row statistics (the input of SpMV kernel choice)
 * ------------------------------------------------------------------------------------------- */

/** Number of log2 bins: bin 0 holds empty rows, bin b >= 1 rows of length in [2^(b-1), 2^b). */
#define CSR_HIST_BINS 48

/** Row-length statistics of a CSR (csr_row_stats), the input of the SpMV kernel choice. */
typedef struct csr_row_stats {
  int64_t histogram[CSR_HIST_BINS];
  int64_t rows, nnz;
  int64_t longest; /**< longest row length (0 for an empty matrix) */
  int64_t empty_rows;
  double mean;     /**< nnz / rows (0 when rows == 0) */
  double variance; /**< population variance of row length */
} csr_row_stats;

/** Row-length statistics of A: on the GPU for a device matrix (its offsets stay there), else on
 *  the host. CSR_ERR_INVALID_MATRIX when the offsets decrease. */
csr_status csr_row_stats_compute(csr_context *ctx, const csr_matrix *A, csr_row_stats *stats);

/** The SpMV kernel the CUDA backend runs for a matrix, and why (csr_spmv_choose). */
typedef struct csr_spmv_choice {
  csr_spmv_kernel kernel; /**< SCALAR, VECTOR, SEGMENTED or STREAM (never AUTO) */
  int lanes;  /**< lanes per row: 1 (scalar), 2 to 32 (vector), 0 (segmented; stream, per tile) */
  int forced; /**< 1 when csr_context_set_kernel decided, not the statistics */
  int cached; /**< 1 when the statistics came from the context's cache */
  double analysis_seconds; /**< what the statistics and the choice cost when they were computed */
  csr_row_stats stats;     /**< the statistics the choice was made from */
  /** For regular rows short enough for the scalar kernel: the 128-byte lines of x a step of its
   *  warps touches per lane, sampled on 64 warps of A (about 0.1 on a stencil, near 1 on random
   *  columns; above 0.25 the scalar kernel is not chosen). -1 when the rule did not need it. */
  double gather_lines;
  char reason[320]; /**< one sentence naming the figures that decided */
} csr_spmv_choice;

/** The kernel csr_spmv (and csr_solve, csr_pagerank) runs for A on the GPU, and the reason: the
 *  context's override if set, else a rule over A's row-length statistics (log2 histogram, empty
 *  rows, longest row; docs/algorithms.md states it). The statistics are computed once per matrix
 *  and kept in the context (8 matrices, the least recently used dropped first); csr_spmv with
 *  CSR_KERNEL_AUTO uses the same cache, so only its first call on a matrix pays for them (and
 *  synchronises the stream: make it before capturing a CUDA graph, which refuses it with
 *  CSR_ERR_UNSUPPORTED). A tiled kernel (segmented, stream) also keeps where its tiles start, on
 *  the device, with the statistics. For a device matrix this call readies the kernel it names:
 *  the tile starts for A's value type (F64 for a pattern matrix) are found and kept, and the
 *  context's workspace grown to what a call that cannot keep them needs, so that csr_spmv
 *  captured into a CUDA graph afterwards neither allocates nor synchronises (with F32 x on a
 *  pattern matrix it searches the starts in that workspace on every replay). A host matrix gets
 *  the choice the GPU would make. A NULL context keeps nothing. */
csr_status csr_spmv_choose(csr_context *ctx, const csr_matrix *A, csr_spmv_choice *choice);
/** Drops what the context keeps about A (its SpMV choice and tile starts); NULL drops everything
 *  (the context's end does too). Needed only when a matrix's row offsets are changed in place, or
 *  for a matrix made by hand (serial 0) whose arrays are freed and others allocated at the same
 *  addresses. */
void csr_context_forget_matrix(csr_context *ctx, const csr_matrix *A);
/** Bin of a row of `length` entries: 0 for 0, else floor(log2(length)) + 1. */
int csr_row_length_bin(int64_t length);

/* ---------------------------------------------------------------------------------------------
 * Files: Matrix Market (.mtx, .mtx.gz) and SNAP edge lists (.txt, .el, .edges, also .gz)
 * ------------------------------------------------------------------------------------------- */

/** File format. AUTO tells it by content, then by name: a first line that is the Matrix Market
 *  banner ("%%MatrixMarket ...", after blank lines, any case) means Matrix Market whatever the
 *  name; otherwise .txt, .el and .edges (also .gz) are edge lists, .mtx and .mm must hold the
 *  banner (CSR_ERR_PARSE), and any other name, standard input ("-") and unnamed buffers
 *  included, is an edge list (blank input is refused as an empty file). Asking for EDGE_LIST of
 *  input that starts with the banner is refused (CSR_ERR_PARSE: read so, its size line would
 *  become an edge). */
typedef enum csr_file_format {
  CSR_FORMAT_AUTO = 0,
  CSR_FORMAT_MATRIX_MARKET = 1,
  CSR_FORMAT_EDGE_LIST = 2
} csr_file_format;

/** Matrix Market field. Complex files are refused (CSR_ERR_UNSUPPORTED). */
typedef enum csr_mm_field {
  CSR_MM_REAL = 0, /**< "real" or "double" */
  CSR_MM_INTEGER = 1,
  CSR_MM_PATTERN = 2,
  CSR_MM_COMPLEX = 3
} csr_mm_field;

/** Matrix Market symmetry. Real hermitian is read as symmetric. */
typedef enum csr_mm_symmetry {
  CSR_MM_GENERAL = 0,
  CSR_MM_SYMMETRIC = 1,
  CSR_MM_SKEW_SYMMETRIC = 2,
  CSR_MM_HERMITIAN = 3
} csr_mm_symmetry;

/** What a file holds, filled by the readers. */
typedef struct csr_file_info {
  csr_file_format format;
  int is_array;       /**< Matrix Market "array" (dense, column-major) format */
  int is_vector;      /**< Matrix Market "vector" object, read as n x 1 */
  int gzip;           /**< input was gzip-compressed */
  csr_mm_field field; /**< edge lists: PATTERN, or REAL with a weight column */
  csr_mm_symmetry symmetry;
  int64_t rows, cols;
  int64_t stored_entries; /**< entries in the file (the size line's count for coordinate) */
  int64_t entries;        /**< entries returned: after expansion unless symmetry was kept */
  int64_t bytes;          /**< bytes of text parsed (after decompression) */
} csr_file_info;

/** Reader options; csr_read_options_init gives the defaults noted. */
typedef struct csr_read_options {
  csr_file_format format;    /**< AUTO */
  int keep_symmetry;         /**< 0: expand symmetric/skew/hermitian to general; 1: as stored */
  csr_value_type value_type; /**< values of real/integer files: CSR_F64 (default) or CSR_F32;
                                  pattern files always give CSR_PATTERN */
  size_t block_bytes;        /**< read/inflate block size; 0 = default (tests use tiny blocks) */
} csr_read_options;
/** Sets the reader's defaults (noted at each field); accepts NULL. */
void csr_read_options_init(csr_read_options *options);

/** Reads a file ("-" is standard input; gzip is recognised by its magic bytes) into COO triples
 *  in file order, 0-based, symmetric files expanded (mirrored entries appended after the stored
 *  ones) unless options->keep_symmetry. options and info may be NULL. Errors: CSR_ERR_IO (cannot
 *  open/read), CSR_ERR_PARSE (the message gives "path:line: expected ..., found ..."),
 *  CSR_ERR_OVERFLOW (dimensions past CSR_MAX_DIM, values past double or int64 range),
 *  CSR_ERR_UNSUPPORTED (complex field, bzip2 input), CSR_ERR_OUT_OF_MEMORY. Parsing runs in
 *  parallel on the OpenMP backend. */
csr_status csr_read_coo(csr_context *ctx, const char *path, const csr_read_options *options,
                        csr_coo **T, csr_file_info *info);
/** The same from a buffer in memory; `name` stands for the path in messages. */
csr_status csr_read_coo_buffer(csr_context *ctx, const char *data, size_t size, const char *name,
                               const csr_read_options *options, csr_coo **T, csr_file_info *info);
/** csr_read_coo, then csr_from_coo (duplicates summed, columns sorted). */
csr_status csr_read_csr(csr_context *ctx, const char *path, const csr_read_options *options,
                        csr_matrix **A, csr_file_info *info);

/** Writer options; csr_write_options_init gives the defaults noted. */
typedef struct csr_write_options {
  int symmetric;  /**< 1: write the lower triangle with "symmetric" (CSR_ERR_INVALID_MATRIX when
                       the matrix is not symmetric); default 0, general */
  int pattern;    /**< 1: write "pattern" (no values); default 0 */
  int integer;    /**< 1: write "integer" (values must be integral); default 0, "real" */
  int gzip;       /**< -1 (default): by the path's ".gz" extension; 0 no; 1 yes */
  int gzip_level; /**< 1..9, default 6 */
  const char *comment; /**< optional comment text written after the banner ("% " prefixed) */
} csr_write_options;
/** Sets the writer's defaults (noted at each field); accepts NULL. */
void csr_write_options_init(csr_write_options *options);

/** Writes A (host) as Matrix Market coordinate; values in the shortest decimal form that reads
 *  back to the same double (or float) bit for bit; "-" is standard output. */
csr_status csr_write_mm(csr_context *ctx, const char *path, const csr_matrix *A,
                        const csr_write_options *options);
/** Writes triples as Matrix Market coordinate, in their order. */
csr_status csr_write_coo_mm(csr_context *ctx, const char *path, const csr_coo *T,
                            const csr_write_options *options);
/** Writes an edge list ("from to [weight]", 0-based) of A's entries. */
csr_status csr_write_edge_list(csr_context *ctx, const char *path, const csr_matrix *A,
                               const csr_write_options *options);

/* ---------------------------------------------------------------------------------------------
 * Reordering: permutations that bring the entries a product reads together
 * ------------------------------------------------------------------------------------------- */

/** A permutation of [0, n): position k of the new order holds old index old_of_new[k], and
 *  new_of_old is its inverse (new_of_old[old_of_new[k]] == k). Both arrays live at `location`. */
typedef struct csr_permutation {
  int64_t n;           /**< 0 <= n <= CSR_MAX_DIM */
  int32_t *old_of_new; /**< n entries */
  int32_t *new_of_old; /**< n entries */
  csr_location location;
} csr_permutation;

/** *P = the permutation whose new order is the host array order[0, n) (copied: position k holds
 *  old index order[k], as scipy's reverse_cuthill_mckee returns it), with its inverse, placed at
 *  `location`. An order that is not a permutation of [0, n) is CSR_ERR_INVALID_VALUE, the message
 *  naming the first position whose index is out of range or repeats an earlier one. Other errors:
 *  NULL_POINTER (order with n > 0), INVALID_VALUE / OVERFLOW (n), OUT_OF_MEMORY, NOT_COMPILED.
 *  *P is NULL on failure. */
csr_status csr_permutation_create(csr_context *ctx, csr_permutation **P, int64_t n,
                                  const int32_t *order, csr_location location);
/** Frees P and its arrays; accepts NULL and *P == NULL; sets *P NULL. */
void csr_permutation_free(csr_permutation **P);
/** Deep copy of src at `location`. */
csr_status csr_permutation_copy(csr_context *ctx, const csr_permutation *src, csr_permutation **dst,
                                csr_location location);

/** How csr_reorder numbers the rows and columns of a square matrix. */
typedef enum csr_reorder_method {
  CSR_REORDER_NONE = 0,      /**< the identity */
  CSR_REORDER_AUTO = 1,      /**< one of the below, chosen from the matrix (csr_reorder) */
  CSR_REORDER_RCM = 2,       /**< reverse Cuthill-McKee of the pattern of A + A' */
  CSR_REORDER_DEGREE = 3,    /**< by decreasing column count, ties in index order */
  CSR_REORDER_HUB = 4,       /**< hub sort: columns of more than the mean count first, by
                                  decreasing count; the others after them, in index order */
  CSR_REORDER_APPEARANCE = 5 /**< by first appearance as a column, entries read in stored order */
} csr_reorder_method;
/** Name of a method: "none", "auto", "rcm", "degree", "hub", "appearance"; "unknown" for a value
 *  that names none. */
const char *csr_reorder_method_name(csr_reorder_method method);
/** The method named `name` into *method; CSR_ERR_INVALID_VALUE when none has that name,
 *  CSR_ERR_NULL_POINTER for a NULL argument (nothing recorded: no context). */
csr_status csr_reorder_method_from_name(const char *name, csr_reorder_method *method);

/** *P = a numbering of the n rows (and columns) of the square matrix A by `method`, at A's
 *  location, for csr_permute(A, P, P): B = P A P' holds a_{old_of_new[i], old_of_new[j]} at
 *  (i, j), so that a product with B reads x from fewer, nearer places than one with A.
 *  - RCM numbers each connected part of the graph of A + A' breadth first from a
 *    pseudo-peripheral vertex, neighbours by increasing degree, then reverses the order: banded
 *    (solver) matrices get a narrow band. Computed on the host (a device A's pattern is copied
 *    there), one thread, 8 bytes per entry of A and 32 per row.
 *  - DEGREE and HUB sort by the column counts (how often x_j is read: a pull graph's
 *    out-degrees); APPEARANCE numbers the columns in the order the entries first name them, so
 *    the columns a row reads get consecutive numbers where no earlier row read them (the idea of
 *    Drescher et al.'s BOBA). Each is a count or a minimum over the entries and one stable radix
 *    sort, on the backend where A lives (CUDA for a device A). Columns never read come last, in
 *    index order.
 *  - AUTO: RCM (NONE below 2 rows): measured, it gives the most locality of these on graphs
 *    and meshes alike; the counting orders cost about a sixth of its time for less.
 *  Values are not read. The same permutation on every backend and every run. Errors:
 *  NULL_POINTER, DIMENSION_MISMATCH (A not square), INVALID_VALUE (method), INVALID_MATRIX /
 *  INDEX_OUT_OF_BOUNDS (A's offsets or columns, as csr_matrix_validate words them),
 *  OUT_OF_MEMORY. *P is NULL on failure. */
csr_status csr_reorder(csr_context *ctx, const csr_matrix *A, csr_reorder_method method,
                       csr_permutation **P);

/** *B = P_r A P_c': row i of B is row rows->old_of_new[i] of A, and an entry of A in column j
 *  sits in column cols->new_of_old[j] of B (b_ij = a_{rows->old_of_new[i], cols->old_of_new[j]}).
 *  rows or cols NULL: that side is not permuted; rows == cols for a symmetric permutation
 *  (csr_reorder's). With cols given, each row of B holds its entries by increasing column, and
 *  repeated entries in A's stored order, so B is SORTED; without, rows keep A's stored order and
 *  A's flags. NO_DUPLICATES carries over. Values are copied, never summed: the same bits on every
 *  backend. Runs where A is (the permutations there too): the rows are gathered, then with cols
 *  given sorted by two stable transposes (counting sorts). rows must have A->rows entries, cols
 *  A->cols. Errors: NULL_POINTER, DIMENSION_MISMATCH (a permutation's size), LOCATION_MISMATCH,
 *  INVALID_MATRIX / INDEX_OUT_OF_BOUNDS (A), OUT_OF_MEMORY. *B is NULL on failure. */
csr_status csr_permute(csr_context *ctx, const csr_matrix *A, const csr_permutation *rows,
                       const csr_permutation *cols, csr_matrix **B);

/** Which way csr_permute_vector moves entries. */
typedef enum csr_permute_direction {
  CSR_PERMUTE_FORWARD = 0, /**< into the new order: y[k] = x[old_of_new[k]] (x' = P x) */
  CSR_PERMUTE_BACKWARD = 1 /**< back to the old order: y[old_of_new[k]] = x[k] (x = P' x') */
} csr_permute_direction;
/** y = P x (FORWARD) or P' x (BACKWARD): x and y of P's n entries, one value type, where P is,
 *  not overlapping. So y = A x is computed in a new order as y = P' ((P A P') (P x)). Errors:
 *  NULL_POINTER, DIMENSION_MISMATCH, TYPE_MISMATCH, LOCATION_MISMATCH, INVALID_VALUE (direction,
 *  overlap). */
csr_status csr_permute_vector(csr_context *ctx, const csr_permutation *P,
                              csr_permute_direction direction, const csr_vector *x, csr_vector *y);

/* ---------------------------------------------------------------------------------------------
 * Graphs: PageRank
 * ------------------------------------------------------------------------------------------- */

/** PageRank options; csr_pagerank_options_init sets the defaults. */
typedef struct csr_pagerank_options {
  double damping;   /**< d, 0 <= d < 1; default 0.85 */
  double tol;       /**< stop when sum_i |r_i - r_i(previous)| < tol; default 1e-6 (> 0) */
  int64_t max_iter; /**< at most this many iterations (>= 1); default 1000 */
  int weighted;     /**< 1: a page's rank flows along its out-links in proportion to their values
                         (nonnegative; A must have values); 0 (default): equally, values ignored */
  const csr_vector *personalization; /**< teleport distribution p: n nonnegative entries, not
                                          all zero, scaled to sum 1; NULL (default): uniform */
  /** Called after each iteration with its number (from 1) and L1 change, when not NULL (the
   *  default): a progress report for apps; the library itself never prints. */
  void (*progress)(void *user, int64_t iteration, double l1_change);
  void *progress_user; /**< passed to progress */
  /** Whether the pull graph's column indices are packed in 16 bits for the iterations
   *  (csr_spmv_analyze): AUTO (default) where it saves CSR_SPMV_PACK_SAVING of the bytes a
   *  product streams. The ranks have the same bits either way. */
  csr_compress compress;
  /** A renumbering of the pages for the iterations (csr_reorder; ranks still come back in A's
   *  numbering, and within the tolerance of the run without it): AUTO (default) takes RCM on
   *  the host when most links lie far from the diagonal and the iterations expected repay twice
   *  its measured cost (csr_pagerank_info.reorder_reason says why or why not); NONE; or a
   *  method to apply whatever it costs. */
  csr_reorder_method reorder;
} csr_pagerank_options;
/** Sets PageRank's defaults (noted at each field); accepts NULL. */
void csr_pagerank_options_init(csr_pagerank_options *options);

/** What a PageRank run did. */
typedef struct csr_pagerank_info {
  int64_t iterations;     /**< iterations run */
  double l1_change;       /**< sum_i |r_i - r_i(previous)| of the last iteration */
  int64_t dangling;       /**< pages without out-links (out-weight 0) */
  double setup_seconds;   /**< the out-weights, the pull graph and the first x = r / w */
  double iterate_seconds; /**< the iterations (each waits for its sums) */
  int packed;             /**< 1: the iterations read the pull graph's packed column indices */
  csr_reorder_method reordered; /**< the renumbering the iterations ran in (NONE: A's own) */
  double reorder_seconds;       /**< its cost: the order, the permuted graph and vectors */
  char reorder_reason[160];     /**< why that renumbering (AUTO's figures, or "as asked") */
} csr_pagerank_info;

/** ranks = the PageRank of the graph whose adjacency matrix is A: A(i,j) != 0 is a link i -> j
 *  (square; duplicate entries and self-loops count as given, explicit zeros are not links). With
 * out-weights w_i (out-degree, or the row sum when weighted), each iteration computes r_i <- d * (
 * sum_{j -> i} r_j a_ji / w_j  +  (sum of r_j over w_j = 0) / n )  +  (1 - d) p_i from r = 1/n:
 * dangling pages spread their rank uniformly (as networkx with uniform personalization, igraph and
 * cuGraph do); the ranks sum to 1. It pulls along the transposed graph, built once where A lives
 * (a pattern matrix unless weighted). With A and ranks on the host it runs on the context's CPU
 * backend: an SpMV and an update pass per iteration. On the device (CUDA backend) an iteration
 * runs the SpMV kernel csr_spmv_choose names for the pull graph, with the update (the next
 * iteration's x_j = r_j / w_j, the dangling sum and the L1 change) done where each row's sum is
 * finished when the graph has fewer than 8 links a page on average, else in one pass over the
 * pages after the SpMV; the host waits for the two sums once per iteration. Every sum is taken in
 * an order fixed by the graph: the same bits on every run. ranks: n entries, F64 or F32 (the
 * precision of the iteration's vectors; sums are accumulated in double), where A is. The
 * personalization may be on the host or the device (it is read once, on the host).
 * Returns CSR_SUCCESS when the L1 change fell below tol, CSR_INFO_NOT_CONVERGED after max_iter
 * (ranks hold the last iterate), CSR_ERR_DIMENSION_MISMATCH (A not square, vector sizes),
 * CSR_ERR_LOCATION_MISMATCH (A and ranks in different places), CSR_ERR_INVALID_VALUE (options,
 * negative weights, a row of weights whose sum or its reciprocal overflows, a bad
 * personalization), CSR_ERR_OUT_OF_MEMORY (the pull graph and four vectors of n entries).
 * info may be NULL.
 */
csr_status csr_pagerank(csr_context *ctx, const csr_matrix *A, const csr_pagerank_options *options,
                        csr_vector *ranks, csr_pagerank_info *info);

/* ---------------------------------------------------------------------------------------------
 * Sparse triangular solve
 * ------------------------------------------------------------------------------------------- */

/** Whether csr_spsv divides by the stored diagonal of its triangle or takes it as 1. */
typedef enum csr_diagonal {
  CSR_DIAGONAL_STORED = 0, /**< a_ii as stored (duplicates summed): present, finite, nonzero */
  CSR_DIAGONAL_UNIT = 1    /**< 1 for every row; stored diagonal entries are ignored */
} csr_diagonal;

/** Opaque: the analysis of one triangle of one matrix, made by csr_spsv_analyze for csr_spsv. */
typedef struct csr_spsv_plan csr_spsv_plan;

/** Analyses the triangle T of A for csr_spsv: T is the lower (CSR_LOWER: entries j <= i) or upper
 *  (CSR_UPPER: j >= i) triangle of the square matrix A, whose entries in the other triangle
 *  are ignored, so a general matrix gives its triangle and a triangular matrix itself. Duplicate
 *  entries count as csr_spmv counts them: each off-diagonal duplicate is a term of its own, and
 *  duplicates on the diagonal are summed in stored order. A is F64, F32 or PATTERN (stored
 *  entries count as 1). The analysis sorts the rows into levels: a row that depends on no other
 *  row of T is at level 0, any other row i one level past the highest row j it reads (a_ij != 0
 *  stored, j != i); the rows of a level can be solved at once. With CSR_DIAGONAL_STORED each row
 *  must store its diagonal, and the sum must be finite and nonzero: the first row in row order
 *  that fails is refused with CSR_ERR_INVALID_MATRIX, its message naming the row (0-based) and
 *  why ("row 3 has no diagonal entry", "row 3's diagonal entry is zero: A(3,3) = 0", "... is not
 *  finite: A(3,3) = nan"). Off-diagonal values are not checked (a NaN in them reaches the entries
 *  of x that depend on it). The plan holds its own copy of T (its off-diagonal entries as doubles
 *  in A's stored order, about 12 bytes each, the diagonal and the levels, about 20 bytes a row and
 * 16 a level): A may be freed or changed once this returns, and a change to A reaches a solve only
 * through a new analysis. One pass over A in row order and one over its triangle; no OpenMP. *plan
 * is NULL on failure. Errors: NULL_POINTER (A, plan, A's arrays), INVALID_VALUE (triangle or
 *  diagonal not one of the enums), DIMENSION_MISMATCH (A not square), INVALID_MATRIX (the
 *  diagonal as above; row offsets that do not start at 0, decrease or miss nnz),
 *  INDEX_OUT_OF_BOUNDS (a column outside [0, n), the first in stored order named),
 *  OUT_OF_MEMORY. A device matrix is analysed on a host copy and the plan mirrored to the
 *  device (the levels, the rows in level order, T's entries), where csr_spsv then solves; without
 *  the CUDA backend that is NOT_COMPILED, with a context set to ref or omp LOCATION_MISMATCH. */
csr_status csr_spsv_analyze(csr_context *ctx, const csr_matrix *A, csr_triangle triangle,
                            csr_diagonal diagonal, csr_spsv_plan **plan);
/** x = alpha * T^-1 b: solves T x = alpha b for the triangle T that `plan` analysed, by forward
 *  (lower) or backward (upper) substitution. b and x: the plan's n entries, both F64 or both F32
 *  (F64 for an F64 A, F32 for an F32 A, either for a pattern A), not overlapping, where the plan
 *  is.
 *  Row i computes s = the sum of a_ij x_j over its stored off-diagonal entries, in A's stored
 *  order, in double, then x_i = (alpha b_i - s) / a_ii (unit diagonal: alpha b_i - s), rounded
 *  to x's type once; a later row reads that rounded x_i. Since every row is computed so whoever
 *  runs it, the result has the same bits on every run, for every thread count and on ref and
 *  omp and cuda. The reference backend substitutes row after row; the OpenMP backend solves the
 *  rows of a level in parallel with a barrier between levels, and runs consecutive levels of
 *  little work (fewer than 4096 rows + entries each) on one thread without barriers between them,
 *  so a chain of dependent rows costs what the serial substitution costs. The CUDA backend gives
 *  each row a group of lanes and either launches a kernel per level (when the levels are wide:
 *  n >= 1000 x levels) or, in one launch, hands rows out in level order, each waiting for the
 *  rows it reads to be published (synchronization-free). alpha == 0 writes zeros (b is not
 *  read); otherwise NaN and infinity in b (or in alpha, or off the diagonal) propagate as the
 *  arithmetic carries them, unchecked. Errors: NULL_POINTER (plan, b, x, their data),
 *  DIMENSION_MISMATCH (b or x not of n entries), TYPE_MISMATCH, INVALID_VALUE (b and x overlap),
 *  LOCATION_MISMATCH (b and x in two places, or not where the plan is), and for device
 *  vectors NOT_COMPILED / LOCATION_MISMATCH as csr_spsv_analyze. */
csr_status csr_spsv(csr_context *ctx, const csr_spsv_plan *plan, double alpha, const csr_vector *b,
                    csr_vector *x);
/** The number of levels the analysis found: 0 for an empty matrix, 1 for a diagonal one, n for a
 *  chain where each row depends on the one before; 0 for a NULL plan. */
int64_t csr_spsv_levels(const csr_spsv_plan *plan);
/** Frees the plan; accepts NULL and *plan == NULL; sets *plan NULL. */
void csr_spsv_plan_free(csr_spsv_plan **plan);

/* ---------------------------------------------------------------------------------------------
 * Incomplete factorizations
 * ------------------------------------------------------------------------------------------- */

/** Which incomplete factorization csr_factor_compute makes. */
typedef enum csr_factor_kind {
  CSR_FACTOR_ILU0 = 0, /**< B ~ L U on B's own pattern (no fill): L unit lower, U upper */
  CSR_FACTOR_IC0 = 1,  /**< B ~ L L' on the pattern of B's lower triangle: B symmetric positive
                            definite (its lower triangle is read, the upper ignored) */
  CSR_FACTOR_ILUT = 2  /**< threshold ILU with pivoting (Saad's ILUTP): fill allowed, entries
                            below drop_tolerance times their row's 2-norm dropped, the largest
                            kept within a fill allowance of fill_factor * nnz(B) pooled over the
                            rows, columns swapped when a pivot is small (on the host) */
} csr_factor_kind;

/** Row order of the factored matrix B = P Dr A Dc (then renumbered: csr_factor_reordering). */
typedef enum csr_factor_ordering {
  CSR_FACTOR_ORDER_AUTO = 0,    /**< ILU0: MATCHING when A's diagonal has a missing or zero
                                     entry, else NATURAL; ILUT: MATCHING (its drop rule needs rows
                                     and columns scaled alike); IC0: NATURAL */
  CSR_FACTOR_ORDER_NATURAL = 1, /**< B = A */
  CSR_FACTOR_ORDER_MATCHING = 2 /**< rows permuted by a maximum-product weighted matching, rows
                                     and columns scaled by its duals: B's diagonal entries are
                                     +-1 and every other |b_ij| <= 1 (Duff and Koster's MC64) */
} csr_factor_ordering;

/** A symmetric renumbering Q' B Q of the factored matrix, applied after the row ordering. */
typedef enum csr_factor_reordering {
  CSR_FACTOR_REORDER_AUTO = 0, /**< RCM for ILUT, NONE for ILU0 and IC0 */
  CSR_FACTOR_REORDER_NONE = 1,
  CSR_FACTOR_REORDER_RCM = 2 /**< reverse Cuthill-McKee of B + B': a narrow profile, so a
                                  threshold ILU drops less of the fill a full LU would make */
} csr_factor_reordering;

/** The factorization tries a shift when a pivot fails (CSR_FACTOR_SHIFT_AUTO, the default). */
#define CSR_FACTOR_SHIFT_AUTO (-1.0)

/** Options of csr_factor_compute; csr_factor_options_init sets the defaults noted. */
typedef struct csr_factor_options {
  csr_factor_kind kind;             /**< CSR_FACTOR_ILU0 */
  csr_factor_ordering ordering;     /**< CSR_FACTOR_ORDER_AUTO */
  csr_factor_reordering reordering; /**< CSR_FACTOR_REORDER_AUTO */
  double drop_tolerance;            /**< ILUT: tau >= 0; default 1e-4 (scipy's spilu) */
  double fill_factor;               /**< ILUT: >= 1; default 10 (scipy's spilu) */
  /** ILUT: threshold column pivoting (ILUTP), 0 to 1: row i swaps its diagonal for the largest
   *  entry right of it when |u_ii| < pivot_threshold max_j |u_ij|; 0: none. Default 0.1 (the
   *  threshold of scipy's spilu) */
  double pivot_threshold;
  /** The diagonal shift alpha: B's diagonal b_ii becomes b_ii + alpha * s_i max_j |b_ij| before
   *  the factorization (s_i the sign of b_ii, + for a zero, and + always for IC0), alpha >= 0.
   *  CSR_FACTOR_SHIFT_AUTO (default): alpha = 0, and when a pivot fails the factorization starts
   *  again with alpha = 1e-3, doubled at each failure up to 1 (Manteuffel's shift, as PETSc's
   *  positive-definite shift); 0: no shift, a failed pivot is an error. */
  double shift;
} csr_factor_options;
/** Sets the defaults noted at each field; accepts NULL. */
void csr_factor_options_init(csr_factor_options *options);

/** Opaque: an incomplete factorization M = (P Dr)^-1 L U (Dc Q)^-1 of A, made by
 *  csr_factor_compute: B = P Dr A Dc Q ~ L U, P and Q permutations, Dr and Dc diagonal. */
typedef struct csr_factor csr_factor;

/** What a factorization holds. The pointers are the factor's own, valid until it is freed. */
typedef struct csr_factor_info {
  csr_factor_kind kind;
  int64_t n;
  const csr_matrix *L; /**< lower triangle: unit diagonal not stored (ILU0, ILUT); IC0: L with
                            its diagonal. Where the factor lives (A's location) */
  const csr_matrix *U; /**< upper triangle with its diagonal (IC0: L') */
  int64_t levels_L, levels_U; /**< the triangular solves' levels (csr_spsv_levels) */
  const int32_t *row_order;   /**< host, n: row t of B is row row_order[t] of A; NULL: natural */
  const int32_t *col_order;   /**< host, n: column s of B is column col_order[s] of A; NULL:
                                   natural */
  const double *row_scale;    /**< host, n: Dr, indexed by A's rows; NULL: unscaled */
  const double *col_scale;    /**< host, n: Dc; NULL: unscaled */
  double shift;               /**< the alpha the factorization that succeeded used */
  int64_t attempts;           /**< factorizations run (1 + the shifted restarts) */
} csr_factor_info;

/** Factors the square A (F64 or F32; values read in double) incompletely: B = P Dr A Dc Q (see
 *  csr_factor_options.ordering and reordering; ILUT's pivots add to Q) is made on the host,
 *  duplicates summed, a missing diagonal entry taken as 0, then B ~ L U (ILU0, ILUT) or L L'
 *  (IC0). ILU0 and IC0 eliminate where A is: serially on the reference backend, a level of rows
 *  at a time on OpenMP, a warp per row on the GPU, each row waiting for the rows it reads; every
 *  backend computes each entry with the same operations in the same order, so they give the same
 *  bits. ILUT runs on the host (a device A is copied there) and its factors are copied back. Two
 *  triangular-solve plans (csr_spsv_analyze) are made of L and U, so csr_factor_apply needs
 *  nothing more. A pivot fails when it is not finite or |u_ii| <= 1e-14 max_j |b_ij| (over row
 *  i's stored entries; IC0: l_ii^2 must be above that, so positive); see options->shift for what
 *  then happens. *F is NULL on failure. Errors: NULL_POINTER, INVALID_VALUE (options out of
 *  range; a non-finite value in A, named), DIMENSION_MISMATCH (A not square), TYPE_MISMATCH (a
 *  pattern A), INVALID_MATRIX (a failed pivot: "csr_factor_compute: ILU(0) failed at row 3
 *  (0-based, of the ordered matrix): its pivot is zero after diagonal shifts up to 1.024: ...";
 *  a matching on a structurally singular A: "A is structurally singular: column 7 (0-based)
 *  cannot be matched ..."), INDEX_OUT_OF_BOUNDS, OUT_OF_MEMORY (also for ILUT's factors past the
 *  context's memory limit), NOT_COMPILED / LOCATION_MISMATCH for device matrices as every
 *  operation. */
csr_status csr_factor_compute(csr_context *ctx, const csr_matrix *A,
                              const csr_factor_options *options, csr_factor **F);
/** z = M^-1 r = Dc Q U^-1 L^-1 P Dr r (IC0: U = L'): two triangular solves
 *  (csr_spsv) and the permutation and scalings, where the factor lives. r and z: n entries, both
 *  F64 or both F32, distinct, where the factor is. Errors as csr_spsv. */
csr_status csr_factor_apply(csr_context *ctx, const csr_factor *F, const csr_vector *r,
                            csr_vector *z);
/** Fills *info (see csr_factor_info); CSR_ERR_NULL_POINTER when F or info is NULL. */
csr_status csr_factor_get_info(const csr_factor *F, csr_factor_info *info);
/** Frees the factor; accepts NULL and *F == NULL; sets *F NULL. */
void csr_factor_free(csr_factor **F);

/* ---------------------------------------------------------------------------------------------
 * Iterative solvers
 * ------------------------------------------------------------------------------------------- */

/** Krylov method of csr_solve. */
typedef enum csr_solver_method {
  CSR_SOLVER_CG = 0,         /**< conjugate gradients: A symmetric positive definite */
  CSR_SOLVER_PCG_JACOBI = 1, /**< CG preconditioned by diag(A)^-1: A SPD, diagonal > 0 */
  CSR_SOLVER_BICGSTAB = 2,   /**< BiCGSTAB (van der Vorst): any nonsingular square A */
  CSR_SOLVER_GMRES = 3       /**< restarted GMRES(m) (Saad-Schultz), right-preconditioned:
                                  any nonsingular square A; minimises ||b - A x|| over each
                                  cycle of `restart` steps */
} csr_solver_method;

/** Preconditioner M of csr_solve, applied as M^-1 (right preconditioning for GMRES, so the
 *  residual it minimises and tests is the true b - A x). A field of its own rather than a method
 *  per pair: the methods and the preconditioners combine (docs/design.md). The factorizations
 *  are made by csr_factor_compute with options->factor_options (their kind set by this field)
 *  before the first iteration, where A is. */
typedef enum csr_solver_preconditioner {
  CSR_PRECOND_NONE = 0,   /**< M = I (CSR_SOLVER_PCG_JACOBI is Jacobi whatever this says) */
  CSR_PRECOND_JACOBI = 1, /**< M = diag(A): CG (then the same as CSR_SOLVER_PCG_JACOBI; a_ii > 0)
                               and GMRES (a_ii != 0, of either sign) */
  CSR_PRECOND_ILU0 = 2,   /**< M = ILU(0) of A: GMRES (CG too, though M is then not symmetric) */
  CSR_PRECOND_ILUT = 3,   /**< M = ILUT of A (threshold, fill): GMRES */
  CSR_PRECOND_IC0 = 4,    /**< M = IC(0) of A, L L': CG (A symmetric positive definite), GMRES */
  CSR_PRECOND_FACTOR = 5  /**< M = options->factor, the caller's csr_factor of A (made once,
                               reused over solves): CG, GMRES */
} csr_solver_preconditioner;

/** Solver options; csr_solver_options_init sets the defaults noted. The iteration stops when
 *  ||r|| <= max(rtol * ||b||, atol), r = b - A x (2-norms; for PCG the unpreconditioned r). */
typedef struct csr_solver_options {
  csr_solver_method method; /**< CSR_SOLVER_CG */
  double rtol;              /**< relative tolerance on ||r|| / ||b||, >= 0; default 1e-8 */
  double atol;              /**< absolute tolerance on ||r||, >= 0; default 0 (not both 0) */
  int64_t max_iter;         /**< iteration limit, >= 0; 0 (default): max(10n, 1000) */
  double *history;          /**< NULL (default), or caller's array receiving ||r_k|| for
                                 k = 0 (the initial guess), 1, 2, ...: iterations + 1 values
                                 when history_capacity allows, the first ones otherwise (GMRES:
                                 the estimate |g_k| within a cycle, the recomputed ||b - A x||
                                 at each cycle's last step) */
  int64_t history_capacity; /**< entries history can take, >= 0; default 0 */
  /** Called after each iteration with its number (from 1) and the residual norm ||r_k|| the
   *  method tracks (what history receives), when not NULL (the default): a progress report for
   *  apps; the library itself never prints. */
  void (*progress)(void *user, int64_t iteration, double residual_norm);
  void *progress_user;                      /**< passed to progress */
  csr_solver_preconditioner preconditioner; /**< CSR_PRECOND_NONE */
  int64_t restart; /**< GMRES: Krylov steps per cycle, m >= 0; 0 (default): 30. An m above n is
                        taken as n. The cycle keeps m + 1 vectors of n entries where A is */
  /** ILU0, ILUT, IC0: the factorization's options (its kind is the preconditioner's);
   *  csr_factor_options_init's defaults */
  csr_factor_options factor_options;
  const csr_factor *factor; /**< CSR_PRECOND_FACTOR: the factor; NULL (default) */
  /** Whether the products with A read its column indices packed in 16 bits (csr_spmv_analyze,
   *  at the start of the solve): AUTO (default) where that saves CSR_SPMV_PACK_SAVING of the
   *  bytes a product streams. The iterates have the same bits either way. */
  csr_compress compress;
  /** A renumbering of A's rows and columns for the solve (csr_reorder): the system P A P' (P x)
   *  = P b is solved and x comes back in A's numbering. NONE or AUTO (default) keep A's
   *  numbering: how many iterations a solve will take is not known before it runs, so its cost
   *  (up to about 105 products for RCM on the CPU) cannot be weighed. RCM and the counting
   *  methods renumber whatever it costs; CG's iterates are then those of the same method in the
   *  other numbering (iterations within rounding), while ILU / IC factor the renumbered A.
   *  Refused with CSR_PRECOND_FACTOR (the factor is of A as numbered). */
  csr_reorder_method reorder;
} csr_solver_options;
/** Sets the solver's defaults (noted at each field); accepts NULL. */
void csr_solver_options_init(csr_solver_options *options);

/** Why csr_solve stopped. */
typedef enum csr_solver_stop {
  CSR_SOLVER_CONVERGED = 0, /**< ||b - A x|| met the tolerance (status CSR_SUCCESS) */
  CSR_SOLVER_MAX_ITER = 1,  /**< the iteration limit came first (CSR_INFO_NOT_CONVERGED) */
  CSR_SOLVER_BREAKDOWN = 2, /**< the method cannot go on (CSR_ERR_INVALID_MATRIX) */
  CSR_SOLVER_FAILED = 3     /**< another error (A, b or x refused before any iteration, a bad
                                 Jacobi diagonal, out of memory, overflow) */
} csr_solver_stop;

/** What a csr_solve run did. */
typedef struct csr_solver_info {
  int64_t iterations;       /**< iterations run (a BiCGSTAB half step that converges counts 1;
                                 GMRES: its Arnoldi steps, over all cycles) */
  double residual_norm;     /**< ||b - A x|| of the returned x, recomputed (not the recurrence) */
  double relative_residual; /**< residual_norm / ||b|| (0 when b = 0) */
  int64_t history_length;   /**< entries written to options->history: min(iterations + 1,
                                 history_capacity), 0 without a history array */
  csr_solver_stop stop;     /**< why it stopped */
  int packed; /**< 1: the products with A read its packed column indices (options->compress) */
  csr_reorder_method reordered; /**< the numbering the method ran in (NONE: A's own) */
  double reorder_seconds;       /**< its cost: the order and the permuted A, b and x */
} csr_solver_info;

/** Solves A x = b by the method in options (NULL: the defaults, CG). A: square, F64, F32 or
 *  PATTERN; b and x: A->rows entries, both F64 or both F32 (F64 with an F64 matrix, F32 with F32),
 *  not overlapping; all on the host (the context's CPU backend) or all on the device (CUDA).
 *  x: the initial guess on entry (zeros are fine), the solution on return. CG and PCG run in the
 *  single-reduction form: each iteration is one fused step (r and x updated, the next direction
 *  and its product with A formed, every inner product summed) with one synchronisation; beta
 *  comes from the recurrence r'z' = rz - 2 alpha zq + alpha^2 qDq (docs/algorithms.md).
 *  BiCGSTAB is made of the public operations (csr_spmv, csr_dot, csr_axpby, ...). When the
 *  recurrence residual meets the tolerance the true residual b - A x is recomputed; if it does not
 *  meet it, the method restarts from it.
 *  GMRES(m) (m = options->restart) is made of the public operations too, its m + 1 Krylov vectors
 *  where A is (checked first against the context's memory limit on the host): Arnoldi with
 *  modified Gram-Schmidt, orthogonalising once more when a pass leaves less than 1/sqrt(2) of the
 *  vector's norm; Givens rotations give the residual estimate |g_k| after every step, checked
 *  against the tolerance; ||b - A x|| is recomputed at the end of every cycle (each restart) and
 *  decides. The (m + 1) x m Hessenberg matrix lives on the host, in double. The Jacobi
 *  preconditioner (options->preconditioner) is applied on the right, so the residual GMRES
 *  minimises is b - A x itself. h_{k+1,k} = 0 (the solution lies in the Krylov space: A = I, b an
 *  eigenvector) ends the cycle and converges. GMRES(m) with m < n may stagnate (the residual stops
 *  decreasing across restarts): it ends at max_iter with CSR_INFO_NOT_CONVERGED.
 *  Before any iteration A's values are checked, then b, then (when b != 0) x: a NaN or infinity is
 *  refused, the first one named ("A holds a non-finite value: A(i,j) = nan", in row order; "b
 *  holds ...: b(i) = inf"), and so is a provably singular A, one with a row or a column without a
 *  nonzero value ("A is singular: row i ... has no nonzero entry"; a row or column of stored zeros
 *  counts). A is checked first, so b = A * ones holding A's NaN blames A, and a singular A is
 *  refused whatever b (b = 0 too). On the host this is one pass over A (about one SpMV's reads);
 *  on the device, public reductions find non-finite values and rows that store nothing (the
 *  operand is then copied to the host to name the entry), while a row or column whose stored
 *  values are all zero is found (on a copy of A) only once the method has broken down: at the
 *  iteration limit the solve says CSR_INFO_NOT_CONVERGED, and a consistent b can converge, with
 *  the entries of x that A does not determine left as they were.
 *  Other singular matrices are not looked for: a consistent system (b in A's range) may converge.
 *  b = 0 gives x = 0 at once (the guess is not read). Returns:
 *   - CSR_SUCCESS: converged;
 *   - CSR_INFO_NOT_CONVERGED: max_iter iterations ran; x holds the last iterate;
 *   - CSR_ERR_INVALID_MATRIX: A singular as above, x untouched (on the device, when found after
 *     the method failed, x holds its last iterate); or a breakdown (info->stop is then
 *     CSR_SOLVER_BREAKDOWN). CG/PCG: p'Ap <= 0 (A is not symmetric positive definite; when
 *     A p = 0 for the direction p != 0 the message says "A is singular"); PCG: a diagonal entry
 *     missing, zero or negative (the message names the row); BiCGSTAB: rho = rhat'r = 0,
 *     rhat'v = 0 or omega = 0 (the message says which), or A u = 0 for a u != 0 ("A is
 *     singular"); GMRES: the Krylov space stopped growing with A (M^-1) singular on it and
 *     ||b - A x|| above the tolerance ("A is singular": b is not in A's range; x holds the
 *     least-squares solution over that space); GMRES with Jacobi: a diagonal entry missing or
 *     zero (the message names the row; info->stop CSR_SOLVER_FAILED, x untouched); an
 *     incomplete factorization that fails (csr_factor_compute's errors, a failed pivot named by
 *     row: info->stop CSR_SOLVER_FAILED, 0 iterations, x untouched); PCG with a factorization:
 *     r'M^-1 r <= 0 (M not positive definite: ILU of a non-symmetric A) or p'Ap <= 0. After a
 *     breakdown x holds the last finite iterate;
 *   - CSR_ERR_INVALID_VALUE: A, b or x non-finite as above (x untouched); bad method, negative or
 *     NaN tolerances, both 0, negative max_iter, history_capacity or restart, an unknown
 *     preconditioner, history NULL with a capacity, b and x overlapping; ||b|| or a residual
 *     overflowing during the iteration (x may then hold non-finite values);
 *   - CSR_ERR_NULL_POINTER (A, b, x), CSR_ERR_DIMENSION_MISMATCH (A not square, b or x not of
 *     A's size), CSR_ERR_TYPE_MISMATCH, CSR_ERR_INDEX_OUT_OF_BOUNDS (a host A with a column index
 *     outside [0, n)), CSR_ERR_LOCATION_MISMATCH (A, b, x in two places, or device operands with
 *     a context set to ref or omp), CSR_ERR_UNSUPPORTED (the segmented kernel forced on the
 *     device for CG or PCG; BiCGSTAB with a preconditioner), CSR_ERR_OUT_OF_MEMORY (GMRES: also
 *     when its m + 1 host vectors together exceed what the context allows), CSR_ERR_DEVICE.
 *  info (may be NULL) is filled on every return after the arguments were accepted, including
 *  breakdowns and the refusals above (0 iterations, stop CSR_SOLVER_FAILED); it is left untouched
 *  on argument errors. */
csr_status csr_solve(csr_context *ctx, const csr_matrix *A, const csr_vector *b, csr_vector *x,
                     const csr_solver_options *options, csr_solver_info *info);

/* ---------------------------------------------------------------------------------------------
 * Testing hook
 * ------------------------------------------------------------------------------------------- */

/** Makes the n-th host or device allocation from now fail (n >= 1); n <= 0 turns this off.
 *  For allocation-failure tests; process-wide, not for use while other threads call libcsr. */
void csr_debug_fail_allocation_after(int64_t n);
/** Allocations made since the last csr_debug_fail_allocation_after call. */
int64_t csr_debug_allocation_count(void);
/** on != 0: every device array libcsr allocates without zeroing it (a matrix's columns and values,
 *  temporaries, and the row offsets of converters that write every one) comes filled with 0xff
 *  bytes (-1 as an index, NaN as a value), so that a test sees any element left unwritten;
 *  0 turns this off. Process-wide, like csr_debug_fail_allocation_after. */
void csr_debug_poison_device_allocations(int on);

#ifdef __cplusplus
}
#endif
#endif /* CSR_H */
