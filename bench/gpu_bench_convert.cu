/* SPDX-License-Identifier: BSD-3-Clause */
/* Building matrices on the device, fp64 values, ours against cuSPARSE (and CUB) in the same run.
 *
 * COO to CSR (csr_from_coo) against two routes on the same triples:
 *  - cuSPARSE's: cusparseXcoosortByRow (rows and columns copied first: it sorts in place), the
 *    values gathered through its permutation (cusparseGather), cusparseXcoo2csr (32-bit offsets;
 *    duplicates are left as they are);
 *  - a CUB pipeline: DeviceRadixSort::SortPairs of (row << column bits | column) keys over the bits
 *    that vary with the values, DeviceReduce::ReduceByKey summing duplicates, the rows' lengths
 *    (DeviceRunLengthEncode::Encode of the sorted rows, each run's length put at its row) and
 *    DeviceScan::ExclusiveSum for the offsets. Not DeviceHistogram::HistogramEven with one bin
 *    per row: with millions of bins its sweep kernel wrote far outside its buffers (CUB 3.0 on an
 *    H100, compute-sanitizer memcheck; NVIDIA/cccl#9559 reports the same on sm_100), and a later
 *    cudaFree reported the fault.
 * Every route allocates its outputs and temporaries inside the timing (cudaMalloc / cudaFree), as
 * a call to csr_from_coo does. Inputs: 2^26 random triples over 2^22 x 2^22 (--small: 2^22 over
 * 2^18), shuffled, and the same triples sorted by (row, column) (sorted once with CUB, outside the
 * timing). Median of --reps after a warm-up. Ours is checked against CUB's result (offsets and
 * columns exact, values to 1e-12: CUB's sums may add duplicates in another order). Floor: a copy
 * of the bytes the conversion must move (read rows, columns and values, write columns, values and
 * offsets) at the device-to-device copy bandwidth measured in the same run.
 *
 * Transpose (csr_transpose) of the CSR built from those triples against cusparseCsr2cscEx2
 * (CUSPARSE_CSR2CSC_ALG1, values too), and dense to CSR (csr_from_dense) of a row-major 2^14 x 2^14
 * matrix (--small: 2^12) with one element in 16 nonzero against cusparseDenseToSparse (analysis
 * then convert; its rows come unsorted, and are sorted on the host for the comparison). Each
 * route allocates its outputs and buffers inside the timing; results must match exactly (no sums
 * are involved).
 *
 * Then COO to CSR again on the real matrices of the SpMV benchmark (bench/spmv_cases.h: every file
 * of --matrices DIR with at least 200 000 nonzeros, repeated block-diagonally to at least 2^25
 * nonzeros; --small: 2^21), their triples in (row, column) order and then shuffled (a random
 * permutation, outside the timing).
 *   usage: gpu_bench_convert [--reps N] [--small] [--csv FILE] [--matrices DIR] [--cases LIST]
 *   (--matrices: default ../shared/matrices, else shared/matrices; --cases: only the cases whose
 *   name contains one of the comma-separated parts, "generated" naming the 2^26 triples, the
 *   transpose and dense; all by default) */
#include "csr.h"

#include "gpu_bench_common.cuh"
#include "spmv_cases.h"

#include <cub/cub.cuh>
#include <cusparse.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

static int reps = 20;
static double copy_gbs = 0;

template <typename T> static T *dev(size_t count) {
  void *p = nullptr;
  CHECK_CUDA(cudaMalloc(&p, count * sizeof(T) > 0 ? count * sizeof(T) : 1));
  return (T *)p;
}

/* cudaFree of each array. */
template <typename... P> static void dev_free(P *...arrays) {
  for (void *p : {(void *)arrays...})
    CHECK_CUDA(cudaFree(p));
}

template <typename F> static double time_ms(F f) {
  return bench_median_ms(reps, f);
}

/* Random triples over a 2^bits square, values in [0.5, 1.5). */
__global__ void fill_triples(int32_t *row, int32_t *col, double *val, int64_t n, int bits,
                             uint64_t seed) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    uint64_t h = mix(seed ^ (uint64_t)i);
    uint32_t mask = (1u << bits) - 1;
    row[i] = (int32_t)(h & mask);
    col[i] = (int32_t)((h >> 24) & mask);
    val[i] = 0.5 + (double)(h >> 44) * 0x1p-20;
  }
}

__global__ void make_keys(const int32_t *row, const int32_t *col, int64_t n, int col_bits,
                          uint64_t *keys) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    keys[i] = (uint64_t)row[i] << col_bits | (uint32_t)col[i];
}
__global__ void split_keys(const uint64_t *keys, const int *count, int col_bits, int32_t *row,
                           int32_t *col) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < *count;
       i += (int64_t)gridDim.x * blockDim.x) {
    row[i] = (int32_t)(keys[i] >> col_bits);
    col[i] = (int32_t)(keys[i] & ((1ull << col_bits) - 1));
  }
}

/* counts[row[i]] = length[i] for the *runs runs of the sorted rows (counts zeroed). */
__global__ void put_run_lengths(const int32_t *row, const int *length, const int *runs,
                                int *counts) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < *runs; i += gridDim.x * blockDim.x)
    counts[row[i]] = length[i];
}

__global__ void identity(int32_t *p, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    p[i] = i;
}

struct triples {
  int64_t n, rows, cols;
  int32_t *row, *col;
  double *val;
};

/* Random 64-bit keys, one per triple: sorting them with the positions gives a permutation. */
__global__ void random_keys(uint64_t *keys, int32_t *position, int64_t n, uint64_t seed) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    keys[i] = mix(seed ^ (uint64_t)i);
    position[i] = (int32_t)i;
  }
}
__global__ void permute(const int32_t *perm, const int32_t *row, const int32_t *col,
                        const double *val, int64_t n, int32_t *row_out, int32_t *col_out,
                        double *val_out) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    row_out[i] = row[perm[i]], col_out[i] = col[perm[i]], val_out[i] = val[perm[i]];
  }
}

/* The CUB pipeline; returns nnz, and copies the result's offsets, columns and values to the host
 * arrays when given. */
static int cub_route(const triples &t, int bits, int *offsets_out, int32_t *cols_out,
                     double *vals_out) {
  const int64_t n = t.n;
  uint64_t *keys = dev<uint64_t>(n), *keys_sorted = dev<uint64_t>(n), *unique = dev<uint64_t>(n);
  double *vals_sorted = dev<double>(n), *sums = dev<double>(n);
  int32_t *rows = dev<int32_t>(n), *cols = dev<int32_t>(n);
  int *runs = dev<int>(1), *counts = dev<int>(t.rows + 1), *offsets = dev<int>(t.rows + 1);
  int32_t *run_rows = dev<int32_t>(n);
  int *run_lengths = dev<int>(n), *row_runs = dev<int>(1);
  make_keys<<<1024, 256>>>(t.row, t.col, n, bits, keys);
  size_t sort_bytes = 0, reduce_bytes = 0, encode_bytes = 0, scan_bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, keys, keys_sorted, t.val, vals_sorted, n, 0,
                                  2 * bits);
  cub::DeviceReduce::ReduceByKey(nullptr, reduce_bytes, keys_sorted, unique, vals_sorted, sums,
                                 runs, cuda::std::plus<double>(), n);
  cub::DeviceRunLengthEncode::Encode(nullptr, encode_bytes, rows, run_rows, run_lengths, row_runs,
                                     n);
  cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, counts, offsets, t.rows + 1);
  size_t bytes = std::max(std::max(sort_bytes, reduce_bytes), std::max(encode_bytes, scan_bytes));
  void *temp = dev<char>(bytes);
  cub::DeviceRadixSort::SortPairs(temp, sort_bytes, keys, keys_sorted, t.val, vals_sorted, n, 0,
                                  2 * bits);
  cub::DeviceReduce::ReduceByKey(temp, reduce_bytes, keys_sorted, unique, vals_sorted, sums, runs,
                                 cuda::std::plus<double>(), n);
  split_keys<<<1024, 256>>>(unique, runs, bits, rows, cols);
  int nnz = 0;
  CHECK_CUDA(cudaMemcpy(&nnz, runs, sizeof nnz, cudaMemcpyDeviceToHost));
  cub::DeviceRunLengthEncode::Encode(temp, encode_bytes, rows, run_rows, run_lengths, row_runs,
                                     nnz);
  CHECK_CUDA(cudaMemset(counts, 0, (t.rows + 1) * sizeof(int)));
  put_run_lengths<<<1024, 256>>>(run_rows, run_lengths, row_runs, counts);
  cub::DeviceScan::ExclusiveSum(temp, scan_bytes, counts, offsets, t.rows + 1);
  if (offsets_out) {
    CHECK_CUDA(
        cudaMemcpy(offsets_out, offsets, (t.rows + 1) * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(cols_out, cols, nnz * sizeof(int32_t), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(vals_out, sums, nnz * sizeof(double), cudaMemcpyDeviceToHost));
  }
  dev_free(keys, keys_sorted, unique, vals_sorted, sums, rows, cols, runs, counts, offsets, temp,
           run_rows, run_lengths, row_runs);
  return nnz;
}

/* cuSPARSE's route: sort by row in place (on copies), gather the values, offsets. */
static void cusparse_route(cusparseHandle_t h, const triples &t) {
  const int n = (int)t.n, m = (int)t.rows;
  int32_t *row = dev<int32_t>(n), *col = dev<int32_t>(n), *perm = dev<int32_t>(n);
  int *offsets = dev<int>(m + 1);
  double *val = dev<double>(n);
  CHECK_CUDA(cudaMemcpyAsync(row, t.row, n * sizeof(int32_t), cudaMemcpyDeviceToDevice));
  CHECK_CUDA(cudaMemcpyAsync(col, t.col, n * sizeof(int32_t), cudaMemcpyDeviceToDevice));
  size_t bytes = 0;
  CHECK_SPARSE(cusparseXcoosort_bufferSizeExt(h, m, (int)t.cols, n, row, col, &bytes));
  void *buffer = dev<char>(bytes);
  identity<<<1024, 256>>>(perm, n); /* cusparseCreateIdentityPermutation, deprecated */
  CHECK_SPARSE(cusparseXcoosortByRow(h, m, (int)t.cols, n, row, col, perm, buffer));
  cusparseSpVecDescr_t gathered;
  cusparseDnVecDescr_t source;
  CHECK_SPARSE(cusparseCreateSpVec(&gathered, n, n, perm, val, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  CHECK_SPARSE(cusparseCreateDnVec(&source, n, t.val, CUDA_R_64F));
  CHECK_SPARSE(cusparseGather(h, source, gathered));
  CHECK_SPARSE(cusparseXcoo2csr(h, row, n, m, offsets, CUSPARSE_INDEX_BASE_ZERO));
  CHECK_SPARSE(cusparseDestroySpVec(gathered));
  CHECK_SPARSE(cusparseDestroyDnVec(source));
  dev_free(row, col, perm, offsets, val, buffer);
}

/* One CSV row (the columns of bench/results). */
static void csv_row(FILE *csv, const char *name, const char *variant, double ours_ms,
                    const char *anchor, double anchor_ms, double bytes, double floor_ms,
                    const char *extra, const char *device, const char *date) {
  if (csv)
    fprintf(csv,
            "gpu_convert,%s,%s,%.6g,%s,%.6g,%.4f,1.0,%.0f,%.1f,%.1f,%.4f,,%s,%s,%s,"
            "bash bench/run_gpu.sh bench\n",
            name, variant, ours_ms * 1e-3, anchor, anchor_ms * 1e-3, anchor_ms / ours_ms, bytes,
            bytes / (ours_ms * 1e-3) / 1e9, copy_gbs, floor_ms / ours_ms, extra, device, date);
}

/* A CSR of cuSPARSE's (32-bit offsets and indices, f64 values), copied to the host. */
struct host_csr32 {
  std::vector<int> off, idx;
  std::vector<double> val;
};
static host_csr32 fetch_csr32(const int *off, const int *idx, const double *val, int64_t rows,
                              int64_t nnz) {
  host_csr32 h{std::vector<int>(rows + 1), std::vector<int>(nnz), std::vector<double>(nnz)};
  CHECK_CUDA(cudaMemcpy(h.off.data(), off, (rows + 1) * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(h.idx.data(), idx, nnz * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(h.val.data(), val, nnz * sizeof(double), cudaMemcpyDeviceToHost));
  return h;
}

/* Our device matrix A equals ref exactly (offsets, columns, value bits); prints the first
 * difference. */
static bool same_csr(csr_context *ctx, const csr_matrix *A, const host_csr32 &ref) {
  csr_matrix *H = NULL;
  const int64_t rows = (int64_t)ref.off.size() - 1, nnz = (int64_t)ref.idx.size();
  bool match = csr_matrix_copy(ctx, A, &H, CSR_HOST) >= 0 && H->rows == rows && H->nnz == nnz;
  if (H && !match)
    printf("  shape differs: ours %lld rows, %lld entries; anchor %lld, %lld\n", (long long)H->rows,
           (long long)H->nnz, (long long)rows, (long long)nnz);
  for (int64_t i = 0; match && i <= rows; i++)
    if (!(match = H->row_offsets[i] == ref.off[i]))
      printf("  offsets differ at row %lld: ours %lld, anchor %d\n", (long long)i,
             (long long)H->row_offsets[i], ref.off[i]);
  for (int64_t k = 0; match && k < nnz; k++)
    if (!(match = H->col_indices[k] == ref.idx[k] && ((double *)H->values)[k] == ref.val[k]))
      printf("  entry %lld differs: ours (%d, %.17g), anchor (%d, %.17g)\n", (long long)k,
             H->col_indices[k], ((double *)H->values)[k], ref.idx[k], ref.val[k]);
  csr_matrix_free(&H);
  return match;
}

/* A^T: ours against cusparseCsr2cscEx2, A's offsets narrowed to 32 bits for cuSPARSE. */
static void run_transpose(const char *name, csr_context *ctx, cusparseHandle_t h,
                          const csr_matrix *A, FILE *csv, const char *device, const char *date) {
  const int m = (int)A->rows, n = (int)A->cols, nnz = (int)A->nnz;
  std::vector<int64_t> off64(m + 1);
  CHECK_CUDA(
      cudaMemcpy(off64.data(), A->row_offsets, (m + 1) * sizeof(int64_t), cudaMemcpyDeviceToHost));
  std::vector<int> off32(off64.begin(), off64.end());
  int *offsets = dev<int>(m + 1);
  CHECK_CUDA(cudaMemcpy(offsets, off32.data(), (m + 1) * sizeof(int), cudaMemcpyHostToDevice));
  csr_matrix *AT = NULL;
  double ours_ms = time_ms([&] {
    csr_matrix_free(&AT);
    if (csr_transpose(ctx, A, &AT) < 0) {
      fprintf(stderr, "csr_transpose: %s\n", csr_context_last_error(ctx));
      exit(3);
    }
  });
  int *csc_off = nullptr, *csc_row = nullptr;
  double *csc_val = nullptr;
  auto sparse = [&](bool keep) {
    csc_off = dev<int>(n + 1), csc_row = dev<int>(nnz), csc_val = dev<double>(nnz);
    size_t bytes = 0;
    CHECK_SPARSE(cusparseCsr2cscEx2_bufferSize(
        h, m, n, nnz, A->values, offsets, A->col_indices, csc_val, csc_off, csc_row, CUDA_R_64F,
        CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, &bytes));
    void *buffer = dev<char>(bytes);
    CHECK_SPARSE(cusparseCsr2cscEx2(h, m, n, nnz, A->values, offsets, A->col_indices, csc_val,
                                    csc_off, csc_row, CUDA_R_64F, CUSPARSE_ACTION_NUMERIC,
                                    CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, buffer));
    CHECK_CUDA(cudaFree(buffer));
    if (!keep)
      dev_free(csc_off, csc_row, csc_val);
  };
  double sparse_ms = time_ms([&] { sparse(false); });
  sparse(true);
  const bool match = same_csr(ctx, AT, fetch_csr32(csc_off, csc_row, csc_val, n, nnz));
  double bytes = (double)nnz * 2 * (4 + 8) + (double)(m + 1) * 8 + (double)(n + 1) * 8;
  double floor_ms = bytes / (copy_gbs * 1e9) * 1e3;
  printf("%-24s nnz=%d | ours %8.3f ms | cuSPARSE csr2csc %8.3f ms (cuSPARSE / ours %.2f) | "
         "%3.0f%% of floor | %s\n",
         name, nnz, ours_ms, sparse_ms, sparse_ms / ours_ms, 100 * floor_ms / ours_ms,
         match ? "match" : "MISMATCH");
  char extra[200];
  snprintf(extra, sizeof extra, "nnz=%d;rows=%d;cols=%d;match=%d", nnz, m, n, match ? 1 : 0);
  csv_row(csv, name, "transpose_f64", ours_ms, "cuSPARSE csr2csc", sparse_ms, bytes, floor_ms,
          extra, device, date);
  dev_free(csc_off, csc_row, csc_val, offsets);
  csr_matrix_free(&AT);
}

/* A row-major rows x cols matrix with one element in 16 nonzero, in [0.5, 1.5). */
__global__ void fill_dense(double *d, int64_t count, uint64_t seed) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < count;
       i += (int64_t)gridDim.x * blockDim.x) {
    uint64_t x = mix(seed ^ (uint64_t)i);
    d[i] = (x & 15) == 0 ? 0.5 + (double)(x >> 44) * 0x1p-20 : 0.0;
  }
}

/* Dense to CSR: ours against cusparseDenseToSparse. */
static void run_dense(const char *name, csr_context *ctx, cusparseHandle_t h, int64_t side,
                      FILE *csv, const char *device, const char *date) {
  double *data = dev<double>(side * side);
  fill_dense<<<1024, 256>>>(data, side * side, 777);
  CHECK_CUDA(cudaDeviceSynchronize());
  csr_dense D;
  memset(&D, 0, sizeof D);
  D.rows = D.cols = D.ld = side, D.layout = CSR_ROW_MAJOR, D.data = data;
  D.value_type = CSR_F64, D.location = CSR_DEVICE;
  csr_matrix *A = NULL;
  double ours_ms = time_ms([&] {
    csr_matrix_free(&A);
    if (csr_from_dense(ctx, &D, &A) < 0) {
      fprintf(stderr, "csr_from_dense: %s\n", csr_context_last_error(ctx));
      exit(3);
    }
  });
  int *s_off = nullptr, *s_col = nullptr;
  double *s_val = nullptr;
  int64_t s_nnz = 0;
  auto sparse = [&](bool keep) {
    cusparseDnMatDescr_t dense;
    cusparseSpMatDescr_t csr;
    s_off = dev<int>(side + 1);
    CHECK_SPARSE(
        cusparseCreateDnMat(&dense, side, side, side, data, CUDA_R_64F, CUSPARSE_ORDER_ROW));
    CHECK_SPARSE(cusparseCreateCsr(&csr, side, side, 0, s_off, nullptr, nullptr, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    size_t bytes = 0;
    CHECK_SPARSE(cusparseDenseToSparse_bufferSize(h, dense, csr, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT,
                                                  &bytes));
    void *buffer = dev<char>(bytes);
    CHECK_SPARSE(
        cusparseDenseToSparse_analysis(h, dense, csr, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, buffer));
    int64_t r = 0, c = 0;
    CHECK_SPARSE(cusparseSpMatGetSize(csr, &r, &c, &s_nnz));
    s_col = dev<int>(s_nnz), s_val = dev<double>(s_nnz);
    CHECK_SPARSE(cusparseCsrSetPointers(csr, s_off, s_col, s_val));
    CHECK_SPARSE(
        cusparseDenseToSparse_convert(h, dense, csr, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, buffer));
    CHECK_SPARSE(cusparseDestroyDnMat(dense));
    CHECK_SPARSE(cusparseDestroySpMat(csr));
    CHECK_CUDA(cudaFree(buffer));
    if (!keep)
      dev_free(s_off, s_col, s_val);
  };
  double sparse_ms = time_ms([&] { sparse(false); });
  sparse(true);
  host_csr32 ref = fetch_csr32(s_off, s_col, s_val, side, s_nnz);
  /* cuSPARSE leaves a row's columns in no particular order: sort each row before comparing. */
  std::vector<std::pair<int, double>> row_entries;
  for (int64_t i = 0; i < side; i++) {
    row_entries.clear();
    for (int k = ref.off[i]; k < ref.off[i + 1]; k++)
      row_entries.push_back({ref.idx[k], ref.val[k]});
    std::sort(row_entries.begin(), row_entries.end());
    for (int k = ref.off[i]; k < ref.off[i + 1]; k++)
      ref.idx[k] = row_entries[k - ref.off[i]].first,
      ref.val[k] = row_entries[k - ref.off[i]].second;
  }
  const bool match = same_csr(ctx, A, ref);
  double bytes = (double)side * side * 8 + (double)s_nnz * 12 + (double)(side + 1) * 8;
  double floor_ms = bytes / (copy_gbs * 1e9) * 1e3;
  printf("%-24s %lldx%lld nnz=%lld | ours %8.3f ms | cuSPARSE DenseToSparse %8.3f ms "
         "(cuSPARSE / ours %.2f) | %3.0f%% of floor | %s\n",
         name, (long long)side, (long long)side, (long long)s_nnz, ours_ms, sparse_ms,
         sparse_ms / ours_ms, 100 * floor_ms / ours_ms, match ? "match" : "MISMATCH");
  char extra[200];
  snprintf(extra, sizeof extra, "side=%lld;nnz=%lld;match=%d", (long long)side, (long long)s_nnz,
           match ? 1 : 0);
  csv_row(csv, name, "dense_to_csr_f64", ours_ms, "cuSPARSE DenseToSparse", sparse_ms, bytes,
          floor_ms, extra, device, date);
  dev_free(s_off, s_col, s_val, data);
  csr_matrix_free(&A);
}

static void run_case(const char *name, csr_context *ctx, cusparseHandle_t h, const triples &t,
                     int bits, FILE *csv, const char *device, const char *date, csr_matrix **keep) {
  csr_coo T;
  memset(&T, 0, sizeof T);
  T.rows = t.rows, T.cols = t.cols, T.nnz = t.n;
  T.row_indices = t.row, T.col_indices = t.col, T.values = t.val;
  T.value_type = CSR_F64, T.location = CSR_DEVICE;
  csr_matrix *A = NULL;
  auto ours = [&] {
    csr_matrix_free(&A);
    if (csr_from_coo(ctx, &T, 0, &A) < 0) {
      fprintf(stderr, "csr_from_coo: %s\n", csr_context_last_error(ctx));
      exit(3);
    }
  };
  double ours_ms = time_ms(ours);
  double cub_ms = time_ms([&] { cub_route(t, bits, nullptr, nullptr, nullptr); });
  double sparse_ms = time_ms([&] { cusparse_route(h, t); });
  /* ours against CUB's result */
  std::vector<int> offsets(t.rows + 1);
  std::vector<int32_t> cols(t.n);
  std::vector<double> vals(t.n);
  int nnz = cub_route(t, bits, offsets.data(), cols.data(), vals.data());
  csr_matrix *H = NULL;
  bool match = csr_matrix_copy(ctx, A, &H, CSR_HOST) >= 0 && H->nnz == nnz;
  for (int64_t r = 0; match && r <= t.rows; r++)
    match = H->row_offsets[r] == offsets[r];
  for (int64_t k = 0; match && k < nnz; k++)
    match = H->col_indices[k] == cols[k] &&
            fabs(((double *)H->values)[k] - vals[k]) <= 1e-12 * fabs(vals[k]);
  double bytes = (double)t.n * (4 + 4 + 8) + (double)nnz * (4 + 8) + (double)(t.rows + 1) * 8;
  double floor_ms = bytes / (copy_gbs * 1e9) * 1e3;
  printf("%-24s n=%lld rows=%lld nnz=%d | ours %8.3f ms | CUB %8.3f ms (CUB / ours %.2f) | "
         "cuSPARSE %8.3f ms (cuSPARSE / ours %.2f) | %3.0f%% of floor | %s\n",
         name, (long long)t.n, (long long)t.rows, nnz, ours_ms, cub_ms, cub_ms / ours_ms, sparse_ms,
         sparse_ms / ours_ms, 100 * floor_ms / ours_ms, match ? "match" : "MISMATCH");
  if (csv)
    fprintf(csv,
            "gpu_convert,%s,coo_to_csr_f64,%.6g,CUB pipeline,%.6g,%.4f,1.0,%.0f,%.1f,%.1f,%.4f,,"
            "cusparse_ms=%.4f;cusparse_ratio=%.4f;n=%lld;rows=%lld;nnz=%d;match=%d,%s,%s,"
            "bash bench/run_gpu.sh bench\n",
            name, ours_ms * 1e-3, cub_ms * 1e-3, cub_ms / ours_ms, bytes,
            bytes / (ours_ms * 1e-3) / 1e9, copy_gbs, floor_ms / ours_ms, sparse_ms,
            sparse_ms / ours_ms, (long long)t.n, (long long)t.rows, nnz, match ? 1 : 0, device,
            date);
  csr_matrix_free(&H);
  if (keep)
    *keep = A;
  else
    csr_matrix_free(&A);
}

/* COO to CSR of a real matrix's triples in (row, column) order, then shuffled. */
static void run_real(const spmv_case &c, csr_context *ctx, cusparseHandle_t h, FILE *csv,
                     const char *device, const char *date) {
  host_csr A = c.make();
  const int64_t n = (int64_t)A.col.size();
  std::vector<int32_t> rows(n);
  for (int64_t i = 0; i < A.rows; i++)
    for (int64_t k = A.off[i]; k < A.off[i + 1]; k++)
      rows[k] = (int32_t)i;
  triples t = {n, A.rows, A.cols, dev<int32_t>(n), dev<int32_t>(n), dev<double>(n)};
  CHECK_CUDA(cudaMemcpy(t.row, rows.data(), n * sizeof(int32_t), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(t.col, A.col.data(), n * sizeof(int32_t), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(t.val, A.val.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  int bits = 1;
  while (((int64_t)1 << bits) < std::max(A.rows, A.cols))
    bits++;
  run_case((c.name + " sorted").c_str(), ctx, h, t, bits, csv, device, date, nullptr);
  uint64_t *keys = dev<uint64_t>(n), *keys_sorted = dev<uint64_t>(n);
  int32_t *position = dev<int32_t>(n), *perm = dev<int32_t>(n);
  random_keys<<<1024, 256>>>(keys, position, n, 777);
  size_t bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, keys_sorted, position, perm, n);
  void *temp = dev<char>(bytes);
  cub::DeviceRadixSort::SortPairs(temp, bytes, keys, keys_sorted, position, perm, n);
  triples s = {n, A.rows, A.cols, dev<int32_t>(n), dev<int32_t>(n), dev<double>(n)};
  permute<<<1024, 256>>>(perm, t.row, t.col, t.val, n, s.row, s.col, s.val);
  CHECK_CUDA(cudaDeviceSynchronize());
  dev_free(keys, keys_sorted, position, perm, temp, t.row, t.col, t.val);
  run_case((c.name + " shuffled").c_str(), ctx, h, s, bits, csv, device, date, nullptr);
  dev_free(s.row, s.col, s.val);
}

/* The generated cases: 2^26 random triples (2^22 with --small) shuffled, then sorted; the
 * transpose of their matrix; dense to CSR. */
static void run_generated(csr_context *ctx, cusparseHandle_t h, bool small, FILE *csv,
                          const char *device, const char *date) {
  const int bits = small ? 18 : 22;
  triples t = {(int64_t)1 << (small ? 22 : 26),
               (int64_t)1 << bits,
               (int64_t)1 << bits,
               nullptr,
               nullptr,
               nullptr};
  t.row = dev<int32_t>(t.n), t.col = dev<int32_t>(t.n), t.val = dev<double>(t.n);
  fill_triples<<<1024, 256>>>(t.row, t.col, t.val, t.n, bits, 12345);
  CHECK_CUDA(cudaDeviceSynchronize());
  run_case("shuffled", ctx, h, t, bits, csv, device, date, nullptr);
  /* The same triples in (row, column) order. */
  uint64_t *keys = dev<uint64_t>(t.n), *sorted = dev<uint64_t>(t.n);
  double *vals = dev<double>(t.n);
  make_keys<<<1024, 256>>>(t.row, t.col, t.n, bits, keys);
  size_t bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, sorted, t.val, vals, t.n, 0, 2 * bits);
  void *temp = dev<char>(bytes);
  cub::DeviceRadixSort::SortPairs(temp, bytes, keys, sorted, t.val, vals, t.n, 0, 2 * bits);
  int count = (int)t.n, *count_dev = dev<int>(1);
  CHECK_CUDA(cudaMemcpy(count_dev, &count, sizeof count, cudaMemcpyHostToDevice));
  split_keys<<<1024, 256>>>(sorted, count_dev, bits, t.row, t.col);
  CHECK_CUDA(cudaMemcpy(t.val, vals, t.n * sizeof(double), cudaMemcpyDeviceToDevice));
  CHECK_CUDA(cudaDeviceSynchronize());
  csr_matrix *A = NULL;
  run_case("sorted", ctx, h, t, bits, csv, device, date, &A);
  dev_free(keys, sorted, vals, temp, count_dev, t.row, t.col, t.val);
  run_transpose("transpose", ctx, h, A, csv, device, date);
  csr_matrix_free(&A);
  run_dense("dense", ctx, h, small ? 4096 : 16384, csv, device, date);
}

int main(int argc, char **argv) {
  FILE *csv = nullptr;
  bool small = false;
  const char *matrices = nullptr, *cases = nullptr;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--reps") && i + 1 < argc)
      reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--small"))
      small = true;
    else if (!strcmp(argv[i], "--matrices") && i + 1 < argc)
      matrices = argv[++i];
    else if (!strcmp(argv[i], "--cases") && i + 1 < argc)
      cases = argv[++i];
    else if (!strcmp(argv[i], "--csv") && i + 1 < argc) {
      csv = fopen(argv[++i], "w");
      bench_csv_header(csv);
    } else {
      fprintf(stderr,
              "usage: %s [--reps N] [--small] [--csv FILE] [--matrices DIR] [--cases LIST]\n",
              argv[0]);
      return 2;
    }
  }
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  char device[300], date[32];
  snprintf(device, sizeof device, "%s %d SMs", prop.name, prop.multiProcessorCount);
  time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%MZ", gmtime(&now));
  double copy_ms = 0;
  copy_gbs = bench_copy_gbs(reps, &copy_ms);
  printf("copy: %.0f GB/s (1 GiB device to device, read + write)\n", copy_gbs);
  csr_context *ctx = NULL;
  if (csr_context_create(&ctx) < 0 || csr_context_set_backend(ctx, CSR_BACKEND_CUDA) < 0)
    return 3;
  cusparseHandle_t h;
  CHECK_SPARSE(cusparseCreate(&h));
  if (bench_name_selected("generated", cases))
    run_generated(ctx, h, small, csv, device, date);
  if (matrices == nullptr)
    matrices = bench_default_matrices();
  for (const spmv_case &c : spmv_cases(ctx, matrices, small, (int64_t)1 << (small ? 21 : 25)))
    if (c.name.find("_x") != std::string::npos && bench_name_selected(c.name, cases))
      run_real(c, ctx, h, csv, device, date);
  if (csv)
    fclose(csv);
  cusparseDestroy(h);
  csr_context_free(&ctx);
  return 0;
}
