/* SPDX-License-Identifier: BSD-3-Clause */
/* The sort keys of csr_reorder's counting orders, the same for C and CUDA: a column's key from
 * how often the entries name it (count) and where they first name it (first, the position in
 * stored order; nnz when never), so that one stable ascending sort of the keys gives the order.
 * Internal. */
#ifndef CSR_KERNELS_ORDER_KEYS_H
#define CSR_KERNELS_ORDER_KEYS_H

#include "kernels/host_device.h"

#include <stdint.h>

/* The orders made from a key per column (csr_reorder_method's DEGREE, HUB, APPEARANCE). */
typedef enum csri_order {
  CSRI_ORDER_DEGREE = 0,    /* decreasing count */
  CSRI_ORDER_HUB = 1,       /* counts above the mean first, decreasing; the rest as they were */
  CSRI_ORDER_APPEARANCE = 2 /* increasing first appearance; columns never named last */
} csri_order;

/* A hub is read more often than the mean column: count * cols > nnz, which for integers is
 * count > floor(nnz / cols) (cols >= 1), with no product to overflow. */
CSRI_HD int csri_order_is_hub(int64_t count, int64_t nnz, int64_t cols) {
  return count > nnz / cols;
}

/* Column j's key; max_count is the largest count of all columns. Ties keep index order (the
 * sort is stable), so non-hubs under HUB keep theirs: they all get max_count, above every hub's
 * max_count - count (a hub's count is at least 1). */
CSRI_HD uint64_t csri_column_order_key(csri_order which, int64_t count, int64_t first,
                                       int64_t max_count, int64_t nnz, int64_t cols) {
  switch (which) {
  case CSRI_ORDER_DEGREE: return (uint64_t)(max_count - count);
  case CSRI_ORDER_HUB:
    return (uint64_t)(csri_order_is_hub(count, nnz, cols) ? max_count - count : max_count);
  default: return (uint64_t)first;
  }
}

/* The bits the largest key needs (the radix sort's end bit). */
CSRI_HD int csri_column_order_key_bits(csri_order which, int64_t max_count, int64_t nnz) {
  uint64_t top = (uint64_t)(which == CSRI_ORDER_APPEARANCE ? nnz : max_count);
  int bits = 0;
  while (top >> bits)
    bits++;
  return bits;
}

#endif /* CSR_KERNELS_ORDER_KEYS_H */
