/* SPDX-License-Identifier: BSD-3-Clause */
/* csr_status -> its name; error recording with file:line detail in the context. */
#include "core/internal.h"

#include <stdio.h>
#include <string.h>

const char *csr_status_string(csr_status status) {
  switch (status) {
  case CSR_SUCCESS: return "CSR_SUCCESS";
  case CSR_INFO_DECLINED: return "CSR_INFO_DECLINED";
  case CSR_INFO_NOT_CONVERGED: return "CSR_INFO_NOT_CONVERGED";
  case CSR_ERR_NULL_POINTER: return "CSR_ERR_NULL_POINTER";
  case CSR_ERR_INVALID_VALUE: return "CSR_ERR_INVALID_VALUE";
  case CSR_ERR_DIMENSION_MISMATCH: return "CSR_ERR_DIMENSION_MISMATCH";
  case CSR_ERR_INDEX_OUT_OF_BOUNDS: return "CSR_ERR_INDEX_OUT_OF_BOUNDS";
  case CSR_ERR_INVALID_MATRIX: return "CSR_ERR_INVALID_MATRIX";
  case CSR_ERR_PARSE: return "CSR_ERR_PARSE";
  case CSR_ERR_IO: return "CSR_ERR_IO";
  case CSR_ERR_OVERFLOW: return "CSR_ERR_OVERFLOW";
  case CSR_ERR_UNSUPPORTED: return "CSR_ERR_UNSUPPORTED";
  case CSR_ERR_OUT_OF_MEMORY: return "CSR_ERR_OUT_OF_MEMORY";
  case CSR_ERR_DEVICE: return "CSR_ERR_DEVICE";
  case CSR_ERR_NOT_COMPILED: return "CSR_ERR_NOT_COMPILED";
  case CSR_ERR_LOCATION_MISMATCH: return "CSR_ERR_LOCATION_MISMATCH";
  case CSR_ERR_TYPE_MISMATCH: return "CSR_ERR_TYPE_MISMATCH";
  }
  return "CSR_UNKNOWN_STATUS";
}

/* The source path from the repository root ("src/ops/spmv.c", not just "spmv.c": several files
 * share a name). The build strips the checkout's prefix from __FILE__ (-fmacro-prefix-map); an
 * absolute path from a build without it keeps what follows its last "/src/" or "/cuda/". */
static const char *repository_path(const char *path) {
  if (path[0] != '/')
    return path;
  const char *from = path;
  for (const char *p = strchr(path, '/'); p != NULL; p = strchr(p + 1, '/'))
    if (strncmp(p, "/src/", 5) == 0 || strncmp(p, "/cuda/", 6) == 0)
      from = p + 1;
  return from;
}

csr_status csri_error(csr_context *ctx, csr_status status, const char *file, int line,
                      const char *format, ...) {
  if (ctx == NULL)
    return status;
  ctx->last_status = status;
  int used =
      snprintf(ctx->last_error, sizeof ctx->last_error, "%s:%d: ", repository_path(file), line);
  if (used < 0 || (size_t)used >= sizeof ctx->last_error) {
    ctx->last_message_at = 0;
    return status;
  }
  ctx->last_message_at = used;
  va_list args;
  va_start(args, format);
  vsnprintf(ctx->last_error + used, sizeof ctx->last_error - (size_t)used, format, args);
  va_end(args);
  return status;
}

const char *csri_last_message(const csr_context *ctx) {
  return ctx ? ctx->last_error + ctx->last_message_at : "";
}
