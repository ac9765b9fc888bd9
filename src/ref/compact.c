/* SPDX-License-Identifier: BSD-3-Clause */
/* out[0, kept) = (in[i] : keep(i)) in order, keep(i) = flags[i] != 0 or in[i] <pred> operand.
 * Serial, one sweep: the oracle of every compact test. */
#include "ref/ref.h"

#include <string.h>

/* Whether element i of `in` (of `type`) is kept: compared in the element's own type. */
static int keep(csr_data_type type, const void *in, int64_t i, const csri_select *s) {
  if (s->flags)
    return s->flags[i] != 0;
#define COMPARE(T, member)                                                                         \
  do {                                                                                             \
    T x = ((const T *)in)[i], op = s->operand.member;                                              \
    return s->predicate == CSR_KEEP_NOT_EQUAL ? x != op                                            \
           : s->predicate == CSR_KEEP_LESS    ? x < op                                             \
                                              : x >= op;                                              \
  } while (0)
  switch (type) {
  case CSR_DATA_I32: COMPARE(int32_t, i32);
  case CSR_DATA_I64: COMPARE(int64_t, i64);
  case CSR_DATA_U32: COMPARE(uint32_t, u32);
  case CSR_DATA_U64: COMPARE(uint64_t, u64);
  case CSR_DATA_U16: COMPARE(uint16_t, u16);
  case CSR_DATA_U8: COMPARE(uint8_t, u8);
  case CSR_DATA_F32: COMPARE(float, f32);
  default: COMPARE(double, f64);
  }
#undef COMPARE
}

size_t csri_ref_compact_bytes(const csr_context *ctx, csr_data_type type, int64_t n) {
  (void)ctx, (void)type, (void)n;
  return 0;
}

csr_status csri_ref_compact(csr_context *ctx, csr_data_type type, const void *in,
                            const csri_select *select, void *out, int64_t n, int64_t *kept,
                            void *workspace) {
  (void)ctx, (void)workspace;
  size_t size = csri_data_type_size(type);
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++)
    if (keep(type, in, i, select))
      memcpy((char *)out + (size_t)k++ * size, (const char *)in + (size_t)i * size, size);
  *kept = k;
  return CSR_SUCCESS;
}
