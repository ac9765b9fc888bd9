/* SPDX-License-Identifier: BSD-3-Clause */
/* out[i] = in[s] + ... + in[i-1] (exclusive) or + in[i] (inclusive), s = 0 or the start of i's
 * segment: checks, the workspace protocol, dispatch to ref / omp / cuda. */
#include "ops/ops.h"

static csr_status scan(csr_context *ctx, csr_location location, csr_data_type type,
                       csr_scan_kind kind, const void *in, const uint8_t *heads, int segmented,
                       void *out, int64_t n, void *workspace, size_t *workspace_bytes) {
  if (type != CSR_DATA_I32 && type != CSR_DATA_I64 && type != CSR_DATA_U32 && type != CSR_DATA_U64)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "scan of type %d: CSR_DATA_I32, I64, U32 or U64 expected", (int)type);
  if (kind != CSR_SCAN_EXCLUSIVE && kind != CSR_SCAN_INCLUSIVE)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "scan kind %d: exclusive or inclusive expected",
                     (int)kind);
  CSRI_TRY(csri_check_array(ctx, in, n, "in"));
  CSRI_TRY(csri_check_array(ctx, out, n, "out"));
  if (segmented)
    CSRI_TRY(csri_check_array(ctx, heads, n, "heads"));
  size_t bytes = (size_t)n * csr_data_type_size(type);
  const char *from = (const char *)in, *to = (const char *)out;
  if (n > 0 && from != to && from < to + bytes && to < from + bytes)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "in and out overlap without being equal");
  const csri_backend *b;
  csr_status status = CSRI_DISPATCH(ctx, location, primitive.scan, "scan", &b);
  CSRI_TRY(status);
  size_t need = n == 0 ? 0 : b->primitive.scan_bytes(ctx, type, n, segmented);
  int run;
  void *use;
  CSRI_TRY(csri_primitive_workspace(ctx, location, need, workspace, workspace_bytes, &run, &use));
  if (!run || n == 0)
    return CSR_SUCCESS;
  csr_status s = b->primitive.scan(ctx, type, kind, in, heads, out, n, use);
  csri_primitive_workspace_done(ctx, location, use, workspace, workspace_bytes);
  return csri_ran(ctx, b, status, s);
}

csr_status csr_scan(csr_context *ctx, csr_location location, csr_data_type type, csr_scan_kind kind,
                    const void *in, void *out, int64_t n, void *workspace,
                    size_t *workspace_bytes) {
  return scan(ctx, location, type, kind, in, NULL, 0, out, n, workspace, workspace_bytes);
}

csr_status csr_segmented_scan(csr_context *ctx, csr_location location, csr_data_type type,
                              csr_scan_kind kind, const void *in, const uint8_t *heads, void *out,
                              int64_t n, void *workspace, size_t *workspace_bytes) {
  return scan(ctx, location, type, kind, in, heads, 1, out, n, workspace, workspace_bytes);
}
