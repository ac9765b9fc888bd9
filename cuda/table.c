/* The CUDA backend's table: the operations it runs on device operands, and device memory. A NULL
 * entry (PageRank's passes, the copy, which the front end makes a transfer) answers device
 * operands with CSR_ERR_UNSUPPORTED (src/core/dispatch.c). */
#include "entries.h"

const csri_backend csri_cuda_backend = {
    .id = CSR_BACKEND_CUDA,
    .location = CSR_DEVICE,
    .vector.axpby = csri_cuda_axpby,
    .vector.scale = csri_cuda_scale,
    .vector.fill = csri_cuda_fill,
    .vector.reduce = csri_cuda_reduce,
    .sparse.spmv = csri_cuda_spmv,
    .sparse.row_stats = csri_cuda_row_stats,
    .sparse.check_csr = csri_cuda_check_csr,
    .convert.from_coo = csri_cuda_from_coo,
    .convert.to_coo = csri_cuda_to_coo,
    .convert.from_dense = csri_cuda_from_dense,
    .convert.to_dense = csri_cuda_to_dense,
    .convert.transpose = csri_cuda_transpose,
    .convert.symmetric_expand = csri_cuda_symmetric_expand,
    .solve.cg_step = csri_cuda_cg_step,
    .solve.jacobi = csri_cuda_jacobi,
    .primitive.scan_bytes = csri_cuda_scan_bytes,
    .primitive.scan = csri_cuda_scan,
    .primitive.compact_bytes = csri_cuda_compact_bytes,
    .primitive.compact = csri_cuda_compact,
    .primitive.radix_sort_bytes = csri_cuda_radix_sort_bytes,
    .primitive.radix_sort = csri_cuda_radix_sort,
    .primitive.histogram_bytes = csri_cuda_histogram_bytes,
    .primitive.histogram = csri_cuda_histogram,
    .device.alloc = csri_cuda_malloc,
    .device.free = csri_cuda_free,
    .device.zero = csri_cuda_memset_zero,
    .device.copy = csri_cuda_memcpy,
    .device.count = csri_cuda_device_count,
    .device.context_release = csri_cuda_context_release,
};
