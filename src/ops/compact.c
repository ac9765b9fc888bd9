/* SPDX-License-Identifier: BSD-3-Clause */
/* out = the in[i] that are kept (flags[i] != 0, or a predicate against an operand), in order;
 * *kept = how many: checks, the workspace protocol, dispatch to ref / omp / cuda. */
#include "ops/ops.h"

#include <string.h>

static csr_status compact(csr_context *ctx, csr_location location, csr_data_type type,
                          const void *in, const csri_select *select, void *out, int64_t n,
                          int64_t *kept, void *workspace, size_t *workspace_bytes) {
  size_t size = csr_data_type_size(type);
  if (size == 0)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "compact of type %d: a csr_data_type expected",
                     (int)type);
  CSRI_TRY(csri_check_array(ctx, in, n, "in"));
  CSRI_TRY(csri_check_array(ctx, out, n, "out"));
  if (select->flags == NULL && select->predicate != CSR_KEEP_NOT_EQUAL &&
      select->predicate != CSR_KEEP_LESS && select->predicate != CSR_KEEP_GREATER_EQUAL)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "predicate %d: a csr_predicate expected",
                     (int)select->predicate);
  if (n > 0 && (const char *)in < (const char *)out + (size_t)n * size &&
      (const char *)out < (const char *)in + (size_t)n * size)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "in and out overlap");
  int query = workspace_bytes != NULL && workspace == NULL;
  if (!query)
    CSRI_CHECK_NULL(ctx, kept); /* before a workspace is taken: nothing to release on return */
  const csri_backend *b;
  csr_status status = CSRI_DISPATCH(ctx, location, primitive.compact, "compact", &b);
  CSRI_TRY(status);
  size_t need = n == 0 ? 0 : b->primitive.compact_bytes(ctx, type, n);
  int run;
  void *use;
  CSRI_TRY(csri_primitive_workspace(ctx, location, need, workspace, workspace_bytes, &run, &use));
  if (!run)
    return CSR_SUCCESS;
  *kept = 0;
  if (n == 0)
    return CSR_SUCCESS;
  csr_status s = b->primitive.compact(ctx, type, in, select, out, n, kept, use);
  csri_primitive_workspace_done(ctx, location, use, workspace, workspace_bytes);
  return csri_ran(ctx, b, status, s);
}

csr_status csr_compact(csr_context *ctx, csr_location location, csr_data_type type, const void *in,
                       const uint8_t *flags, void *out, int64_t n, int64_t *kept, void *workspace,
                       size_t *workspace_bytes) {
  CSRI_TRY(csri_check_array(ctx, flags, n, "flags"));
  csri_select select;
  memset(&select, 0, sizeof select);
  select.flags = flags;
  if (n == 0) /* flags may be NULL: keep the predicate path from reading it */
    select.predicate = CSR_KEEP_NOT_EQUAL;
  return compact(ctx, location, type, in, &select, out, n, kept, workspace, workspace_bytes);
}

csr_status csr_compact_if(csr_context *ctx, csr_location location, csr_data_type type,
                          const void *in, csr_predicate predicate, const void *operand, void *out,
                          int64_t n, int64_t *kept, void *workspace, size_t *workspace_bytes) {
  CSRI_CHECK_NULL(ctx, operand);
  size_t size = csr_data_type_size(type);
  csri_select select;
  memset(&select, 0, sizeof select);
  select.predicate = predicate;
  if (size > 0)
    memcpy(&select.operand, operand, size);
  return compact(ctx, location, type, in, &select, out, n, kept, workspace, workspace_bytes);
}
