/* SPDX-License-Identifier: BSD-3-Clause */
/* Internal declarations shared by every layer: the context's fields, error recording, sizes,
 * host and device allocation, workspaces. Nothing here is part of the public API; names carry
 * the csri_ prefix. The backends' interface is src/core/backend.h. */
#ifndef CSR_INTERNAL_H
#define CSR_INTERNAL_H

#include "csr.h"
#include "csr_primitives.h"

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CSRI_ERROR_CAPACITY 512

/* What the context keeps for a matrix's SpMV plans (src/core/spmv_cache.c), keyed by what tells
 * matrices apart: the serial (unique for matrices libcsr makes), the arrays' addresses and the
 * shape. */
typedef struct csri_spmv_cache_entry {
  uint64_t serial;
  const void *offsets, *columns;
  int64_t rows, cols, nnz;
  csr_location location;
  uint64_t last_use; /* the entry used longest ago is replaced first */
  double seconds;    /* what computing the statistics (and gather_lines) cost */
  csr_row_stats stats;
  double gather_lines; /* csri_gather_lines of the matrix; < 0 until measured */
  /* Where the tiles of a tiled SpMV kernel start in this matrix (device memory, NULL until a
   * kernel keeps them: csri_spmv_tiles_for), and which kernel and tile size they are for (which,
   * with the matrix, fix their size). */
  void *tiles;
  uint64_t tiles_key;
} csri_spmv_cache_entry;
enum { CSRI_SPMV_CACHE_ENTRIES = 8 };
typedef struct csri_spmv_cache {
  csri_spmv_cache_entry entries[CSRI_SPMV_CACHE_ENTRIES];
  int filled;
  uint64_t clock;
} csri_spmv_cache;

struct csr_context {
  csr_backend backend;      /* what the caller asked for */
  csr_backend last_backend; /* what ran the last successful call */
  int threads;              /* OpenMP threads, 0 = default */
  void *stream;             /* cudaStream_t */
  csr_spmv_kernel kernel;   /* SpMV kernel override */
  int debug_sync;
  size_t memory_limit; /* the most bytes one host allocation may take; 0: no limit of its own */
  csr_status last_status;
  char last_error[CSRI_ERROR_CAPACITY]; /* "<source file>:<line>: <message>" */
  int last_message_at;                  /* where <message> starts in last_error */
  /* Cached workspaces, grown on demand and freed with the context (CUB's two-phase storage). */
  void *host_workspace;
  size_t host_workspace_bytes;
  void *device_workspace;
  size_t device_workspace_bytes;
  /* The CUDA reductions' fixed slots (cuda/reduce.cu): a ticket counter on the device, zeroed
   * once and re-armed by each reduction, and results in pinned host memory the device writes. */
  void *reduce_ticket;
  void *reduce_results, *reduce_results_device; /* the same memory, as host and device see it */
  /* The row statistics of recent matrices, behind their SpMV choice (src/ops/spmv_choice.c). */
  csri_spmv_cache spmv_cache;
};

/* --- errors --------------------------------------------------------------------------------- */

/* Records "<file>:<line>: <message>" and the status in ctx (if not NULL); returns status. */
csr_status csri_error(csr_context *ctx, csr_status status, const char *file, int line,
                      const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
#define CSRI_FAIL(ctx, status, ...) csri_error((ctx), (status), __FILE__, __LINE__, __VA_ARGS__)
/* The last error's message without its source location ("" for none or a NULL context): what
 * csr_context_last_message returns, for the layers below the public API (src/core/status.c). */
const char *csri_last_message(const csr_context *ctx);
/* Returns early with the status of `expr` when it is an error (< 0). */
#define CSRI_TRY(expr)                                                                             \
  do {                                                                                             \
    csr_status csri_try_status_ = (expr);                                                          \
    if (csri_try_status_ < 0)                                                                      \
      return csri_try_status_;                                                                     \
  } while (0)
#define CSRI_CHECK_NULL(ctx, p)                                                                    \
  do {                                                                                             \
    if ((p) == NULL)                                                                               \
      return CSRI_FAIL((ctx), CSR_ERR_NULL_POINTER, "argument '%s' is NULL", #p);                  \
  } while (0)

/* --- sizes and allocation ------------------------------------------------------------------- */

/* *out = a * b; returns 0, or 1 if the product does not fit in size_t. */
int csri_mul_overflows(size_t a, size_t b, size_t *out);
/* Bytes of one value (0 for CSR_PATTERN). */
size_t csri_value_size(csr_value_type type);
/* Bytes of one element of a primitive's array (0 for an unknown type; src/core/types.c). */
size_t csri_data_type_size(csr_data_type type);
/* CSR_SUCCESS if type is one of the enum values (pattern allowed only when allow_pattern). */
csr_status csri_check_value_type(csr_context *ctx, csr_value_type type, int allow_pattern);
csr_status csri_check_location(csr_context *ctx, csr_location location);
/* Checks 0 <= rows, cols <= CSR_MAX_DIM and nnz >= 0 (OVERFLOW / INVALID_VALUE). */
csr_status csri_check_shape(csr_context *ctx, int64_t rows, int64_t cols, int64_t nnz);

/* CSR_ERR_OUT_OF_MEMORY, naming the size and the limit, when a host allocation of `bytes` is
 * more than the process can have: its physical memory, its cgroup's memory limit or the
 * context's limit (csr_context_set_memory_limit), whichever is least (src/core/memory_limit.c).
 * `what` (or NULL) follows the size in the message: "of row offsets". */
csr_status csri_check_host_bytes(csr_context *ctx, size_t bytes, const char *what);
/* 1 when csri_check_host_bytes would let `bytes` through (records nothing). */
int csri_host_bytes_fit(const csr_context *ctx, size_t bytes);

/* Host allocation through the counted, failure-injectable allocator. Size 0 gives a valid
 * pointer. NULL on failure (the caller reports CSR_ERR_OUT_OF_MEMORY). */
void *csri_malloc(size_t bytes);
void *csri_calloc(size_t count, size_t size);
/* Resizes a csri_malloc'd block (counted like an allocation); NULL on failure, p untouched. */
void *csri_realloc(void *p, size_t bytes);
void csri_free(void *p);
/* Returns 1 when the injected failure fires for this allocation (also counts it). */
int csri_alloc_should_fail(void);

/* csri_array_alloc's flags: the array zeroed; on the device, taken in the order of the context's
 * stream without waiting (csri_device_alloc_fn's `ordered`: for arrays that only work on that
 * stream touches). */
#define CSRI_ARRAY_ZERO 1
#define CSRI_ARRAY_ORDERED 2
/* *p = an array of `count` elements of `elem_size` bytes at `location`, as `flags` say (0, or
 * CSRI_ARRAY_ZERO and CSRI_ARRAY_ORDERED combined). Checks count >= 0 and the byte count for
 * overflow; records the error. count 0 gives a freeable non-NULL host pointer or a NULL device
 * pointer. */
csr_status csri_array_alloc(csr_context *ctx, void **p, int64_t count, size_t elem_size,
                            csr_location location, int flags);
void csri_array_free(void *p, csr_location location);
/* csr_matrix_create with the row offsets left unset, for a converter that writes every one of
 * them: zeroing rows + 1 offsets first costs a pass over them and, on the device, a wait. Device
 * arrays are taken in the order of the context's stream (CSRI_ARRAY_ORDERED): the converter's
 * work on that stream is what fills them. */
/* csr_matrix_create and csr_matrix_free, for the layers below the public API (src/core/matrix.c).
 */
csr_status csri_matrix_create(csr_context *ctx, csr_matrix **A, int64_t rows, int64_t cols,
                              int64_t nnz, csr_value_type value_type, csr_location location);
void csri_matrix_free(csr_matrix **A);
/* A serial no other matrix of the process has had (csr_matrix.serial). */
uint64_t csri_matrix_serial(void);
csr_status csri_matrix_create_unset(csr_context *ctx, csr_matrix **A, int64_t rows, int64_t cols,
                                    int64_t nnz, csr_value_type value_type, csr_location location);
/* A permutation of n with both arrays allocated at `location` and not set (src/core/
 * permutation.c), for the front ends that compute one. */
csr_status csri_permutation_make(csr_context *ctx, csr_permutation **P, int64_t n,
                                 csr_location location);
/* Copies bytes between locations (host<->host is memcpy; device involved: CUDA backend). */
csr_status csri_array_copy(csr_context *ctx, void *dst, csr_location dst_location, const void *src,
                           csr_location src_location, size_t bytes);
/* Raw device memory through the CUDA backend's table (CSR_ERR_NOT_COMPILED without it), not
 * counted by the failure injection as csri_array_alloc is. */
csr_status csri_device_alloc(csr_context *ctx, void **p, size_t bytes);
void csri_device_free(void *p);
/* Number of CUDA devices present (0 without the CUDA backend). */
int csri_device_count(void);
/* Whether the context's stream is being captured into a CUDA graph (0 without the CUDA
 * backend). */
int csri_device_capturing(const csr_context *ctx);

/* Seconds on a monotonic clock (src/core/clock.c). */
double csri_seconds_now(void);

/* --- workspaces (src/core/workspace.c) -------------------------------------------------------- */

/* Host scratch space cached in the context (or a fresh allocation with a NULL context, which the
 * caller frees with csri_workspace_release). */
csr_status csri_host_workspace(csr_context *ctx, size_t bytes, void **p);
void csri_workspace_release(csr_context *ctx, void *p);

/* The context's cached device workspace, grown to `bytes` (freed with the context; growing it
 * frees the old one, so one piece of work at a time uses it; CSR_ERR_UNSUPPORTED when it must grow
 * while the stream is captured into a CUDA graph). A NULL context gets a fresh allocation, which
 * csri_device_scratch_done frees. */
csr_status csri_device_scratch(csr_context *ctx, size_t bytes, void **p);
void csri_device_scratch_done(csr_context *ctx, void *p);

/* --- what the context keeps for SpMV plans (src/core/spmv_cache.c) ------------------------- */

/* A's row statistics and what computing them cost, when the context keeps them: 1, else 0. */
int csri_spmv_cache_find(csr_context *ctx, const csr_matrix *A, csr_row_stats *stats,
                         double *seconds);
/* Keeps A's statistics (a NULL context keeps nothing); a full cache drops the entry used longest
 * ago, with its tile starts. */
void csri_spmv_cache_keep(csr_context *ctx, const csr_matrix *A, const csr_row_stats *stats,
                          double seconds);
/* The sampled gather lines (src/ops/gather_lines.c) kept with A's statistics: 1 and *lines when
 * measured, else 0. keep_lines records them, adding their cost to the statistics'. */
int csri_spmv_cache_lines(csr_context *ctx, const csr_matrix *A, double *lines);
void csri_spmv_cache_keep_lines(csr_context *ctx, const csr_matrix *A, double lines,
                                double seconds);
/* Drops A's entry (A NULL: every entry) and frees its tile starts. */
void csri_spmv_cache_forget(csr_context *ctx, const csr_matrix *A);
/* A device buffer of `bytes` kept with A's statistics in the context, for the tile starts of a
 * tiled SpMV kernel (`key`: the kernel and its tile size): *fresh = 1 when it was just made and
 * the caller must fill it, 0 when it holds what an earlier call with the same key filled in.
 * *tiles = NULL (and CSR_SUCCESS) when there is nothing to keep it with (no context, A not among
 * the cached matrices, as when a kernel is forced), no memory for it, or none kept for `key` while
 * `may_allocate` is 0 (a stream being captured into a CUDA graph, which cannot allocate or
 * synchronise): the caller computes the starts in its scratch. Dropped with A's statistics. */
csr_status csri_spmv_tiles_for(csr_context *ctx, const csr_matrix *A, uint64_t key, size_t bytes,
                               int may_allocate, void **tiles, int *fresh);

/* --- backend choice (the rest is src/core/backend.h) ----------------------------------------- */

/* The CPU backend the context asks for, for host work that is not split into backends (the
 * readers, the writers, the converters' checks): REF when asked, else OMP when built, else REF. */
csr_backend csri_host_backend(const csr_context *ctx);
/* Records the backend that ran the context's last successful call. */
void csri_set_last_backend(csr_context *ctx, csr_backend backend);
/* Threads for an OpenMP region: the context's count or the OpenMP default. */
int csri_omp_threads(const csr_context *ctx);
/* Threads for host work that is not split into ref/omp backends (the readers, the writers):
 * csri_omp_threads when the host backend is OpenMP, else 1. */
int csri_host_threads(const csr_context *ctx);

/* --- reports of bad entries (src/core/bad_entry.c), shared by front ends and backends -------- */

/* CSR_ERR_INDEX_OUT_OF_BOUNDS: entry k of host matrix A has a column outside [0, cols). */
csr_status csri_column_error(csr_context *ctx, const csr_matrix *A, int64_t k);
/* The same for an entry whose column the caller has read (from the device). */
csr_status csri_column_error_at(csr_context *ctx, const csr_matrix *A, int64_t k, int32_t col);
/* CSR_ERR_INVALID_MATRIX: entry k of a matrix given as skew-symmetric is a nonzero a_jj. */
csr_status csri_skew_diagonal_error(csr_context *ctx, int64_t k, int32_t j);
/* CSR_ERR_INDEX_OUT_OF_BOUNDS: triple k of host COO T lies outside the matrix. */
csr_status csri_coo_index_error(csr_context *ctx, const csr_coo *T, int64_t k);
/* The same for a triple whose row and column the caller has read (from the device). */
csr_status csri_coo_index_error_at(csr_context *ctx, const csr_coo *T, int64_t k, int32_t row,
                                   int32_t col);
/* CSR_ERR_INVALID_MATRIX: row offsets that decrease (a negative row length). */
csr_status csri_offsets_error(csr_context *ctx);

#ifdef __cplusplus
}
#endif
#endif /* CSR_INTERNAL_H */
