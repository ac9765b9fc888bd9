/* SPDX-License-Identifier: BSD-3-Clause */
/* keys (and values) reordered so that keys ascend by bits [begin_bit, end_bit), stably: checks,
 * the workspace protocol, dispatch to ref / omp / cuda. */
#include "ops/ops.h"

csr_status csr_radix_sort(csr_context *ctx, csr_location location, csr_data_type key_type,
                          void *keys, csr_data_type value_type, void *values, int64_t n,
                          int begin_bit, int end_bit, void *workspace, size_t *workspace_bytes) {
  if (key_type != CSR_DATA_U32 && key_type != CSR_DATA_U64)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "radix sort keys of type %d: CSR_DATA_U32 or U64 expected", (int)key_type);
  size_t key_size = csr_data_type_size(key_type);
  size_t value_size = values ? csr_data_type_size(value_type) : 0;
  if (values && value_size != 4 && value_size != 8)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "radix sort values of type %d: a type of 4 or 8 bytes expected",
                     (int)value_type);
  int key_bits = (int)key_size * 8;
  if (begin_bit < 0 || end_bit > key_bits || begin_bit > end_bit)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "bit range [%d, %d): 0 <= begin <= end <= %d expected", begin_bit, end_bit,
                     key_bits);
  CSRI_TRY(csri_check_array(ctx, keys, n, "keys"));
  if (values)
    CSRI_TRY(csri_check_array(ctx, values, n, "values"));
  const char *k = (const char *)keys, *v = (const char *)values;
  if (values && n > 0 && k < v + (size_t)n * value_size && v < k + (size_t)n * key_size)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "keys and values overlap");
  const csri_backend *b;
  csr_status status = CSRI_DISPATCH(ctx, location, primitive.radix_sort, "radix sort", &b);
  CSRI_TRY(status);
  int trivial = n <= 1 || begin_bit == end_bit;
  size_t need =
      trivial ? 0 : b->primitive.radix_sort_bytes(ctx, key_size, value_size, n, begin_bit, end_bit);
  int run;
  void *use;
  CSRI_TRY(csri_primitive_workspace(ctx, location, need, workspace, workspace_bytes, &run, &use));
  if (!run || trivial)
    return CSR_SUCCESS;
  csr_status s =
      b->primitive.radix_sort(ctx, key_size, keys, value_size, values, n, begin_bit, end_bit, use);
  csri_primitive_workspace_done(ctx, location, use, workspace, workspace_bytes);
  return csri_ran(ctx, b, status, s);
}
