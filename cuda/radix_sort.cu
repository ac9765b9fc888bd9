/* SPDX-License-Identifier: BSD-3-Clause */
/* keys (and values) reordered so that keys ascend by bits [begin, end), stably, in place: the
 * backend's entry points to libcsr's LSD radix sort (cuda/radix_sort.cuh). */
#include "radix_sort.cuh"

extern "C" size_t csri_cuda_radix_sort_bytes(const csr_context *ctx, size_t key_size,
                                             size_t value_size, int64_t n, int begin_bit,
                                             int end_bit) {
  (void)ctx;
  return csri_radix::in_place_bytes(key_size, value_size, n, begin_bit, end_bit);
}

extern "C" csr_status csri_cuda_radix_sort(csr_context *ctx, size_t key_size, void *keys,
                                           size_t value_size, void *values, int64_t n,
                                           int begin_bit, int end_bit, void *workspace) {
  using csri_radix::key_array;
  if (key_size == 4)
    return csri_radix::sort_by_value_size<uint32_t>(
        ctx, key_array<uint32_t>{(const uint32_t *)keys}, values, true, (uint32_t *)keys,
        value_size, values, n, begin_bit, end_bit, workspace);
  return csri_radix::sort_by_value_size<uint64_t>(ctx, key_array<uint64_t>{(const uint64_t *)keys},
                                                  values, true, (uint64_t *)keys, value_size,
                                                  values, n, begin_bit, end_bit, workspace);
}
