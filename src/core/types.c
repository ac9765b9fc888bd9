/* SPDX-License-Identifier: BSD-3-Clause */
/* Sizes of the element types (csr_data_type), for front ends and backends alike. */
#include "core/internal.h"

size_t csri_data_type_size(csr_data_type type) {
  switch (type) {
  case CSR_DATA_I32:
  case CSR_DATA_U32:
  case CSR_DATA_F32: return 4;
  case CSR_DATA_I64:
  case CSR_DATA_U64:
  case CSR_DATA_F64: return 8;
  case CSR_DATA_U16: return 2;
  case CSR_DATA_U8: return 1;
  default: return 0;
  }
}

size_t csr_data_type_size(csr_data_type type) {
  return csri_data_type_size(type);
}
