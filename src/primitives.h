/* Backend entry points of the primitives (include/csr_primitives.h): scan, compact, radix sort,
 * histogram, each on the reference (src/ref), OpenMP (src/omp) and CUDA (cuda/) backends with the
 * same signature. Internal.
 *
 * The front ends (src/scan.c, src/compact.c, src/radix_sort.c, src/histogram.c) have checked every
 * argument and resolved the workspace before a backend runs: `workspace` holds at least the bytes
 * the matching *_bytes function asked for, at the call's location, and is suitably aligned (16).
 * They return early for n == 0 except for the histogram, whose backends zero the counts. Host
 * backends cannot fail; the CUDA backend reports launch and runtime errors (CSR_ERR_DEVICE). */
#ifndef CSR_PRIMITIVES_IMPL_H
#define CSR_PRIMITIVES_IMPL_H

#include "csr_primitives.h"
#include "internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which elements compact keeps: flags[i] != 0 when flags is set, else `predicate` against the
 * operand (stored as the element type). */
typedef struct csri_select {
  const uint8_t *flags;
  csr_predicate predicate;
  union {
    int32_t i32;
    int64_t i64;
    uint32_t u32;
    uint64_t u64;
    uint16_t u16;
    uint8_t u8;
    float f32;
    double f64;
  } operand;
} csri_select;

/* The histogram's bins, checked: 1 <= bins <= CSRI_MAX_BINS; for CSR_BINS_EVEN lower < upper,
 * both finite, and scale = bins / (upper - lower). The bin of a sample is csri_bin_of_*
 * (src/bins.h), shared by every backend so that all count alike. */
#define CSRI_MAX_BINS (1 << 24)
typedef struct csri_bins {
  csr_bin_rule rule;
  int bins;
  double lower, upper, scale;
  int64_t offset; /* CSR_BINS_INTEGER: b = x - offset (0 as asked; see src/histogram.c) */
} csri_bins;

/* --- reference (src/ref) --------------------------------------------------------------------- */
size_t csri_ref_scan_bytes(const csr_context *ctx, csr_data_type type, int64_t n);
/* heads NULL: the plain scan; else the segmented one. out may equal in. */
csr_status csri_ref_scan(csr_context *ctx, csr_data_type type, csr_scan_kind kind, const void *in,
                         const uint8_t *heads, void *out, int64_t n, void *workspace);
size_t csri_ref_compact_bytes(const csr_context *ctx, csr_data_type type, int64_t n);
csr_status csri_ref_compact(csr_context *ctx, csr_data_type type, const void *in,
                            const csri_select *select, void *out, int64_t n, int64_t *kept,
                            void *workspace);
/* key_size 4 or 8; value_size 0 (no values), 4 or 8. */
size_t csri_ref_radix_sort_bytes(const csr_context *ctx, size_t key_size, size_t value_size,
                                 int64_t n);
csr_status csri_ref_radix_sort(csr_context *ctx, size_t key_size, void *keys, size_t value_size,
                               void *values, int64_t n, int begin_bit, int end_bit,
                               void *workspace);
size_t csri_ref_histogram_bytes(const csr_context *ctx, const csri_bins *bins,
                                csr_data_type count_type, int64_t n);
csr_status csri_ref_histogram(csr_context *ctx, csr_data_type sample_type, const void *samples,
                              int64_t n, const csri_bins *bins, csr_data_type count_type,
                              void *counts, void *workspace);

/* --- OpenMP (src/omp) ------------------------------------------------------------------------ */
size_t csri_omp_scan_bytes(const csr_context *ctx, csr_data_type type, int64_t n);
csr_status csri_omp_scan(csr_context *ctx, csr_data_type type, csr_scan_kind kind, const void *in,
                         const uint8_t *heads, void *out, int64_t n, void *workspace);
size_t csri_omp_compact_bytes(const csr_context *ctx, csr_data_type type, int64_t n);
csr_status csri_omp_compact(csr_context *ctx, csr_data_type type, const void *in,
                            const csri_select *select, void *out, int64_t n, int64_t *kept,
                            void *workspace);
size_t csri_omp_radix_sort_bytes(const csr_context *ctx, size_t key_size, size_t value_size,
                                 int64_t n);
csr_status csri_omp_radix_sort(csr_context *ctx, size_t key_size, void *keys, size_t value_size,
                               void *values, int64_t n, int begin_bit, int end_bit,
                               void *workspace);
size_t csri_omp_histogram_bytes(const csr_context *ctx, const csri_bins *bins,
                                csr_data_type count_type, int64_t n);
csr_status csri_omp_histogram(csr_context *ctx, csr_data_type sample_type, const void *samples,
                              int64_t n, const csri_bins *bins, csr_data_type count_type,
                              void *counts, void *workspace);

/* --- CUDA (cuda/, or src/cuda_stub.c) -------------------------------------------------------- */
size_t csri_cuda_scan_bytes(const csr_context *ctx, csr_data_type type, int64_t n, int segmented);
csr_status csri_cuda_scan(csr_context *ctx, csr_data_type type, csr_scan_kind kind, const void *in,
                          const uint8_t *heads, void *out, int64_t n, void *workspace);
size_t csri_cuda_compact_bytes(const csr_context *ctx, csr_data_type type, int64_t n);
/* *kept is a host value: synchronises the stream. */
csr_status csri_cuda_compact(csr_context *ctx, csr_data_type type, const void *in,
                             const csri_select *select, void *out, int64_t n, int64_t *kept,
                             void *workspace);
size_t csri_cuda_radix_sort_bytes(const csr_context *ctx, size_t key_size, size_t value_size,
                                  int64_t n);
csr_status csri_cuda_radix_sort(csr_context *ctx, size_t key_size, void *keys, size_t value_size,
                                void *values, int64_t n, int begin_bit, int end_bit,
                                void *workspace);
size_t csri_cuda_histogram_bytes(const csr_context *ctx, const csri_bins *bins,
                                 csr_data_type count_type, int64_t n);
csr_status csri_cuda_histogram(csr_context *ctx, csr_data_type sample_type, const void *samples,
                               int64_t n, const csri_bins *bins, csr_data_type count_type,
                               void *counts, void *workspace);

/* --- front-end helpers (src/primitives_common.c) --------------------------------------------- */
/* Checks location and n >= 0, and that `what` is non-NULL when n > 0. */
csr_status csri_check_array(csr_context *ctx, const void *p, int64_t n, const char *what);
/* The workspace protocol of csr_primitives.h. need: the backend's bytes. Returns with
 * *run = 0 after a size query (workspace NULL: *workspace_bytes = need), or *run = 1 and *use
 * pointing at a workspace of at least `need` bytes (the caller's, or the context's cache).
 * CSR_ERR_INVALID_VALUE for a caller's workspace smaller than need. */
csr_status csri_primitive_workspace(csr_context *ctx, csr_location location, size_t need,
                                    void *workspace, size_t *workspace_bytes, int *run, void **use);
/* Releases what csri_primitive_workspace took when the context is NULL (no cache to keep). */
void csri_primitive_workspace_done(csr_context *ctx, csr_location location, void *use,
                                   void *workspace, size_t *workspace_bytes);

#ifdef __cplusplus
}
#endif
#endif
