/* SPDX-License-Identifier: BSD-3-Clause */
/* Which backend runs a call: the context's request, where the operands live and which backends
 * implement the operation, with the fallback order cuda -> omp -> ref written once. */
#include "core/backend.h"

#include <string.h>

/* Tried in this order; a backend that is not built has no table. */
static const csr_backend fallback_order[] = {CSR_BACKEND_CUDA, CSR_BACKEND_OMP, CSR_BACKEND_REF};
enum { BACKENDS = sizeof fallback_order / sizeof fallback_order[0] };

const csri_backend *csri_backend_of(csr_backend id) {
  switch (id) {
  case CSR_BACKEND_REF: return &csri_ref_backend;
#if CSR_HAVE_OPENMP
  case CSR_BACKEND_OMP: return &csri_omp_backend;
#endif
#if CSR_HAVE_CUDA
  case CSR_BACKEND_CUDA: return &csri_cuda_backend;
#endif
  default: return NULL;
  }
}

csr_status csri_not_compiled(csr_context *ctx) {
  return CSRI_FAIL(ctx, CSR_ERR_NOT_COMPILED,
                   "device storage needs the CUDA backend, which is not compiled into this libcsr "
                   "(configure with nvcc present and CSR_WITH_CUDA=ON)");
}

/* Whether the entry at byte `entry` of b's table is set. Every entry is a function pointer, all
 * of one size; memcpy reads it without pretending it has some other type. */
static int implements(const csri_backend *b, size_t entry) {
  void (*fn)(void) = NULL;
  memcpy(&fn, (const char *)b + entry, sizeof fn);
  return fn != NULL;
}

/* Why no backend took a call on device operands: the CUDA backend lacks the operation, or the
 * context insists on a CPU backend, or CUDA is not built. */
static csr_status refuse(csr_context *ctx, csr_backend asked, size_t entry, const char *operation) {
  const csri_backend *cuda = csri_backend_of(CSR_BACKEND_CUDA);
  if (cuda != NULL && !implements(cuda, entry))
    return CSRI_FAIL(ctx, CSR_ERR_UNSUPPORTED,
                     "%s is not in the CUDA backend: copy the operands to the host "
                     "(csr_matrix_copy, csr_vector_clone) and call it there",
                     operation);
  if (asked == CSR_BACKEND_REF || asked == CSR_BACKEND_OMP)
    return CSRI_FAIL(ctx, CSR_ERR_LOCATION_MISMATCH,
                     "%s: device operands need the CUDA backend; the context asks for %s",
                     operation, csr_backend_name(asked));
  return csri_not_compiled(ctx);
}

csr_status csri_dispatch(csr_context *ctx, csr_location location, size_t entry,
                         const char *operation, const csri_backend **chosen) {
  *chosen = NULL;
  CSRI_TRY(csri_check_location(ctx, location));
  csr_backend asked = csr_context_backend(ctx);
  int first = 0;
  while (asked != CSR_BACKEND_AUTO && first < BACKENDS && fallback_order[first] != asked)
    first++;
  for (int i = first; i < BACKENDS; i++) {
    const csri_backend *b = csri_backend_of(fallback_order[i]);
    if (b == NULL || b->location != location || !implements(b, entry))
      continue;
    *chosen = b;
    return asked == CSR_BACKEND_AUTO || asked == b->id ? CSR_SUCCESS : CSR_INFO_DECLINED;
  }
  if (location == CSR_DEVICE)
    return refuse(ctx, asked, entry, operation);
  /* The reference backend implements every operation on host operands. */
  return CSRI_FAIL(ctx, CSR_ERR_UNSUPPORTED, "%s: no backend takes host operands", operation);
}

csr_status csri_ran(csr_context *ctx, const csri_backend *b, csr_status dispatched,
                    csr_status ran) {
  if (ran < 0)
    return ran;
  if (ctx)
    ctx->last_backend = b->id;
  return dispatched;
}
