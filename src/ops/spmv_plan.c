/* SPDX-License-Identifier: BSD-3-Clause */
/* csr_spmv_analyze: the inspector of a planned SpMV. It packs A's column indices in 16 bits
 * (src/kernels/packed_layout.h) where A lives, in three steps: each chunk's smallest column and
 * whether it fits (the backend's sparse.pack_ranges), the escaped chunks numbered by a scan, then
 * every entry's halves (sparse.pack_fill). AUTO packs only for a kernel measured to read the
 * packed index at a gain (a row kernel on the GPU), and keeps it when the bytes a product
 * streams fall by CSR_SPMV_PACK_SAVING or more. */
#include "csr_primitives.h"
#include "kernels/packed_layout.h"
#include "kernels/spmv_registry.h"
#include "ops/ops.h"

#include <stdio.h>
#include <string.h>

/* Bytes a product streams, index_bytes a nonzero for the columns: values and columns once, the
 * row offsets, x and y once each (x as F64 for a pattern matrix). */
static double streamed(const csr_matrix *A, double index_bytes) {
  const double value = A->value_type == CSR_F64 ? 8.0 : A->value_type == CSR_F32 ? 4.0 : 0.0;
  const double vector = A->value_type == CSR_F32 ? 4.0 : 8.0;
  return (double)A->nnz * (value + index_bytes) + 8.0 * (double)(A->rows + 1) +
         vector * (double)(A->rows + A->cols);
}

static void free_packed(csri_packed *p, csr_location location) {
  csri_array_free(p->heads, location);
  csri_array_free(p->lo, location);
  csri_array_free(p->hi, location);
  memset(p, 0, sizeof *p);
}

/* The escaped chunks' count: the scan's last entry plus the last chunk's flag. */
static csr_status escaped_count(csr_context *ctx, const csr_matrix *A, const int32_t *escapes,
                                const int32_t *index, int64_t chunks, int64_t *count) {
  int32_t last[2];
  CSRI_TRY(
      csri_array_copy(ctx, &last[0], CSR_HOST, index + chunks - 1, A->location, sizeof(int32_t)));
  CSRI_TRY(
      csri_array_copy(ctx, &last[1], CSR_HOST, escapes + chunks - 1, A->location, sizeof(int32_t)));
  *count = (int64_t)last[0] + last[1];
  return CSR_SUCCESS;
}

/* Packs A's columns into p on backend b; p->heads set means done. */
static csr_status pack(csr_context *ctx, const csri_backend *b, const csr_matrix *A,
                       csri_packed *p) {
  const csr_location at = A->location;
  int32_t *escapes = NULL, *index = NULL;
  p->nnz = A->nnz;
  p->chunks = csri_pack_chunks(A->nnz);
  csr_status s = csri_array_alloc(ctx, (void **)&p->heads, p->chunks, sizeof(int32_t), at, 0);
  if (s >= 0)
    s = csri_array_alloc(ctx, (void **)&escapes, p->chunks, sizeof(int32_t), at, 0);
  if (s >= 0)
    s = csri_array_alloc(ctx, (void **)&index, p->chunks, sizeof(int32_t), at, 0);
  if (s >= 0)
    s = b->sparse.pack_ranges(ctx, A, p->heads, escapes);
  if (s >= 0)
    s = csr_scan(ctx, at, CSR_DATA_I32, CSR_SCAN_EXCLUSIVE, escapes, index, p->chunks, NULL, NULL);
  if (s >= 0)
    s = escaped_count(ctx, A, escapes, index, p->chunks, &p->escaped);
  if (s >= 0)
    s = csri_array_alloc(ctx, (void **)&p->lo, A->nnz, sizeof(uint16_t), at, 0);
  if (s >= 0)
    s = csri_array_alloc(ctx, (void **)&p->hi, p->escaped * CSRI_PACK_CHUNK, sizeof(uint16_t), at,
                         0);
  if (s >= 0)
    s = b->sparse.pack_fill(ctx, A, escapes, index, p);
  if (s >= 0 && at == CSR_DEVICE) { /* waits for the fill, so that the set-up time counts it */
    int32_t head;
    s = csri_array_copy(ctx, &head, CSR_HOST, p->heads, at, sizeof head);
  }
  csri_array_free(escapes, at);
  csri_array_free(index, at);
  if (s < 0)
    free_packed(p, at);
  return s;
}

/* Whether the kernel that will run A reads the packed index at a gain: the row kernels on the
 * GPU (*kernel says which). The tiled kernels (stream, segmented) and the CPU's rows ran slower
 * or no faster on it (docs/benchmarks.md, "Packed column indices"). */
static csr_status gains(csr_context *ctx, const csr_matrix *A, int *gain, csr_spmv_kernel *kernel) {
  *gain = 0;
  *kernel = CSR_KERNEL_AUTO;
  if (A->location != CSR_DEVICE)
    return CSR_SUCCESS;
  csr_spmv_choice choice;
  CSRI_TRY(csr_spmv_choose(ctx, A, &choice));
  const csri_spmv_kernel_info *k = csri_spmv_kernel_of(choice.kernel);
  *kernel = choice.kernel;
  *gain = k != NULL && k->row_kernel;
  return CSR_SUCCESS;
}

/* Fills the plan's info from its packing (or its absence) and the choice made; `gain` and
 * `kernel` from gains(). */
static void describe(csr_spmv_plan *plan, csr_compress compress, int gain, csr_spmv_kernel kernel) {
  const csr_matrix *A = plan->A;
  csr_spmv_plan_info *info = &plan->info;
  const csri_packed *p = &plan->packed;
  const double packed_index = p->nnz > 0 ? (double)csri_pack_bytes(p->nnz, p->escaped) : 0.0;
  info->plain_bytes = streamed(A, 4.0);
  const double saving =
      p->nnz > 0 ? 1.0 - streamed(A, packed_index / (double)p->nnz) / info->plain_bytes : 0.0;
  const int enough = saving >= CSR_SPMV_PACK_SAVING;
  char *why = info->reason;
  const size_t size = sizeof info->reason;
  if (A->nnz == 0)
    snprintf(why, size, "no nonzeros: nothing to pack");
  else if (compress == CSR_COMPRESS_OFF)
    snprintf(why, size, "packing not asked for: plain CSR");
  else if (compress == CSR_COMPRESS_ON)
    snprintf(why, size,
             "packing asked for: %lld of %lld chunks escaped, %.0f%% of the streamed bytes saved",
             (long long)p->escaped, (long long)p->chunks, 100.0 * saving);
  else if (!gain)
    snprintf(why, size, "the %s reads packed column indices no faster than plain ones: plain CSR",
             A->location != CSR_DEVICE     ? "CPU"
             : kernel == CSR_KERNEL_STREAM ? "stream kernel"
                                           : "segmented kernel");
  else if (!enough)
    snprintf(why, size,
             "%lld of %lld chunks escaped: packing would save %.0f%% of the streamed bytes, "
             "less than %.0f%%: plain CSR",
             (long long)p->escaped, (long long)p->chunks, 100.0 * saving,
             100.0 * CSR_SPMV_PACK_SAVING);
  else
    snprintf(why, size,
             "%lld of %lld chunks escaped: packing saves %.0f%% of the streamed bytes, at least "
             "%.0f%%, and the %s kernel reads it",
             (long long)p->escaped, (long long)p->chunks, 100.0 * saving,
             100.0 * CSR_SPMV_PACK_SAVING, csr_spmv_kernel_name(kernel));
  info->chunks = p->chunks;
  info->escaped_chunks = p->escaped;
  info->packed = compress != CSR_COMPRESS_OFF && A->nnz > 0 &&
                 (compress == CSR_COMPRESS_ON || (enough && gain));
  info->index_bytes = info->packed ? packed_index : 4.0 * (double)A->nnz;
  info->streamed_bytes = streamed(A, A->nnz > 0 ? info->index_bytes / (double)A->nnz : 4.0);
}

csr_status csr_spmv_analyze(csr_context *ctx, const csr_matrix *A, csr_compress compress,
                            csr_spmv_plan **plan) {
  CSRI_CHECK_NULL(ctx, plan);
  *plan = NULL;
  CSRI_CHECK_NULL(ctx, A);
  if (compress != CSR_COMPRESS_AUTO && compress != CSR_COMPRESS_OFF && compress != CSR_COMPRESS_ON)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "compress %d: expected CSR_COMPRESS_AUTO, OFF or ON", (int)compress);
  if (A->nnz > 0 && A->col_indices == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "A has nonzeros but no column indices");
  const double start = csri_seconds_now();
  const csri_backend *b = NULL;
  csr_status status = CSR_SUCCESS;
  if (compress != CSR_COMPRESS_OFF && A->nnz > 0)
    CSRI_TRY(status = CSRI_DISPATCH(ctx, A->location, sparse.pack_ranges, "SpMV packing", &b));
  csr_spmv_plan *made = csri_calloc(1, sizeof *made);
  if (made == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "the SpMV plan");
  made->A = A;
  made->location = A->location;
  int gain = 0;
  csr_spmv_kernel kernel = CSR_KERNEL_AUTO;
  csr_status packed =
      compress == CSR_COMPRESS_AUTO && A->nnz > 0 ? gains(ctx, A, &gain, &kernel) : CSR_SUCCESS;
  int no_room = 0; /* AUTO: the packed index did not fit, so the plan stays plain */
  if (packed >= 0 && b != NULL && (compress == CSR_COMPRESS_ON || gain))
    packed = pack(ctx, b, A, &made->packed);
  if (packed == CSR_ERR_OUT_OF_MEMORY && compress == CSR_COMPRESS_AUTO) {
    no_room = 1;
    gain = 0;
    packed = CSR_SUCCESS;
    csr_context_clear_error(ctx); /* recovered: the plan stays plain */
  }
  if (packed < 0) {
    csri_free(made);
    return packed;
  }
  describe(made, compress, gain, kernel);
  if (no_room)
    snprintf(made->info.reason, sizeof made->info.reason,
             "the packed index (about 2 bytes a nonzero) did not fit in memory: plain CSR");
  if (!made->info.packed)
    free_packed(&made->packed, A->location);
  made->info.setup_seconds = csri_seconds_now() - start;
  *plan = made;
  return b != NULL ? csri_ran(ctx, b, status, CSR_SUCCESS) : CSR_SUCCESS;
}

csr_status csr_spmv_plan_describe(const csr_spmv_plan *plan, csr_spmv_plan_info *info) {
  if (plan == NULL || info == NULL)
    return CSR_ERR_NULL_POINTER;
  *info = plan->info;
  return CSR_SUCCESS;
}

void csr_spmv_plan_free(csr_spmv_plan **plan) {
  if (plan == NULL || *plan == NULL)
    return;
  free_packed(&(*plan)->packed, (*plan)->location);
  csri_free(*plan);
  *plan = NULL;
}
