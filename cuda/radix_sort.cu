/* keys (and values) reordered so that keys ascend by bits [begin, end), stably, in place: the
 * backend's entry points to libcsr's LSD radix sort (cuda/radix_sort.cuh). */
#include "radix_sort.cuh"

namespace {

template <typename K, typename V>
csr_status sort_in_place(csr_context *ctx, void *keys, void *values, int64_t n, int begin_bit,
                         int end_bit, void *workspace) {
  return csri_radix::sort<K, V>(ctx, csri_radix::key_array<K>{(const K *)keys}, (const V *)values,
                                true, (K *)keys, (V *)values, n, begin_bit, end_bit, workspace);
}

template <typename K>
csr_status sort_values(csr_context *ctx, void *keys, size_t value_size, void *values, int64_t n,
                       int begin_bit, int end_bit, void *workspace) {
  if (value_size == 4)
    return sort_in_place<K, uint32_t>(ctx, keys, values, n, begin_bit, end_bit, workspace);
  if (value_size == 8)
    return sort_in_place<K, uint64_t>(ctx, keys, values, n, begin_bit, end_bit, workspace);
  return sort_in_place<K, csri_radix::none>(ctx, keys, values, n, begin_bit, end_bit, workspace);
}

} // namespace

extern "C" size_t csri_cuda_radix_sort_bytes(const csr_context *ctx, size_t key_size,
                                             size_t value_size, int64_t n) {
  (void)ctx;
  return csri_radix::make_layout(key_size, value_size, n).total;
}

extern "C" csr_status csri_cuda_radix_sort(csr_context *ctx, size_t key_size, void *keys,
                                           size_t value_size, void *values, int64_t n,
                                           int begin_bit, int end_bit, void *workspace) {
  if (key_size == 4)
    return sort_values<uint32_t>(ctx, keys, value_size, values, n, begin_bit, end_bit, workspace);
  return sort_values<uint64_t>(ctx, keys, value_size, values, n, begin_bit, end_bit, workspace);
}
