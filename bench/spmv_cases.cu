/* SPDX-License-Identifier: BSD-3-Clause */
/* The GPU SpMV benchmark's matrices (host code; bench/spmv_cases.h says what each one is). */
#include "spmv_cases.h"

#include "bench_random.h"

#include <algorithm>
#include <filesystem>
#include <math.h>
#include <memory>
#include <stdio.h>
#include <string.h>
#include <thread>
#include <vector>

static bench_rng rng = {0x9E3779B97F4A7C15ull};

uint64_t next_u64() {
  return bench_random(&rng);
}

double uniform01() {
  return bench_unit(next_u64());
}

/* A Poisson count of mean `mean` (small): the uniforms multiplied until below e^-mean. */
static int64_t poisson(double mean) {
  const double floor_product = exp(-mean);
  int64_t k = 0;
  for (double product = uniform01(); product > floor_product; product *= uniform01())
    k++;
  return k;
}

int64_t longest_row(const host_csr &A) {
  int64_t longest = 0;
  for (int64_t i = 0; i < A.rows; i++)
    longest = std::max(longest, A.off[i + 1] - A.off[i]);
  return longest;
}

gather_shape describe_gathers(const host_csr &A) {
  gather_shape g;
  if (A.col.empty())
    return g;
  std::vector<int64_t> uses((size_t)A.cols, 0);
  int64_t new_lines = 0;
  for (int64_t i = 0; i < A.rows; i++)
    for (int64_t k = A.off[i]; k < A.off[i + 1]; k++) {
      uses[(size_t)A.col[k]]++;
      new_lines += k == A.off[i] || A.col[k] / 16 != A.col[k - 1] / 16;
    }
  const size_t hottest = std::min<size_t>(4096, uses.size());
  std::nth_element(uses.begin(), uses.begin() + (hottest - 1), uses.end(), std::greater<int64_t>());
  int64_t hot = 0;
  for (size_t c = 0; c < hottest; c++)
    hot += uses[c];
  const double nnz = (double)A.col.size();
  g.new_line = (double)new_lines / nnz;
  g.hot = (double)hot / nnz;
  return g;
}

host_csr stencil(int d, int64_t n, int full) {
  host_csr A;
  int64_t nz = d == 3 ? n : 1, rows = n * n * nz;
  A.rows = A.cols = rows;
  A.off.resize(rows + 1);
  A.off[0] = 0;
  A.col.reserve(rows * (full ? 27 : 2 * d + 1));
  A.val.reserve(A.col.capacity());
  for (int64_t z = 0; z < nz; z++)
    for (int64_t y = 0; y < n; y++)
      for (int64_t x = 0; x < n; x++) {
        int64_t i = (z * n + y) * n + x;
        for (int dz = (d == 3 ? -1 : 0); dz <= (d == 3 ? 1 : 0); dz++)
          for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
              int far = (dx != 0) + (dy != 0) + (dz != 0);
              if (!full && far > 1)
                continue;
              int64_t X = x + dx, Y = y + dy, Z = z + dz;
              if (X < 0 || X >= n || Y < 0 || Y >= n || Z < 0 || Z >= nz)
                continue;
              A.col.push_back((int32_t)((Z * n + Y) * n + X));
              A.val.push_back(far == 0 ? (full ? 26.0 : 2.0 * d) : -1.0);
            }
        A.off[i + 1] = (int64_t)A.col.size();
      }
  return A;
}

host_csr random_rows(int64_t rows, int64_t cols, const std::function<int64_t(int64_t)> &len) {
  host_csr A;
  A.rows = rows;
  A.cols = cols;
  A.off.resize(rows + 1);
  A.off[0] = 0;
  for (int64_t i = 0; i < rows; i++)
    A.off[i + 1] = A.off[i] + len(i);
  A.col.resize(A.off[rows]);
  A.val.resize(A.off[rows]);
  for (int64_t i = 0; i < rows; i++) {
    for (int64_t k = A.off[i]; k < A.off[i + 1]; k++) {
      A.col[k] = (int32_t)(next_u64() % (uint64_t)cols);
      A.val[k] = 0.5 + uniform01();
    }
    std::sort(A.col.begin() + A.off[i], A.col.begin() + A.off[i + 1]);
  }
  return A;
}

host_csr narrow_rows(int64_t rows, int64_t cols, int64_t min_len, int64_t max_len) {
  host_csr A;
  A.rows = rows;
  A.cols = cols;
  A.off.resize(rows + 1);
  A.off[0] = 0;
  A.col.reserve(rows * (min_len + max_len) / 2 + rows);
  for (int64_t i = 0; i < rows; i++) {
    int64_t len = min_len + (int64_t)(next_u64() % (uint64_t)(max_len - min_len + 1));
    uint64_t taken = 0; /* a bit per column: distinct columns, read out in order */
    for (int64_t n = 0; n < len;) {
      uint64_t bit = 1ull << (next_u64() % (uint64_t)cols);
      n += (taken & bit) == 0;
      taken |= bit;
    }
    for (int j = 0; j < 64; j++)
      if (taken >> j & 1)
        A.col.push_back(j);
    A.off[i + 1] = (int64_t)A.col.size();
  }
  A.val.resize(A.col.size());
  for (double &v : A.val)
    v = 0.5 + uniform01();
  return A;
}

/* Stream `key` of a family of bench_random streams: counter-based, so that a generator cut into
 * chunks over threads draws the same numbers whatever the number of threads. */
static bench_rng keyed_stream(uint64_t key) {
  return bench_rng{key * 0xD1B54A32D192ED03ull};
}

/* body(begin, end) on [0, count) cut into one chunk per hardware thread. */
template <typename Body> static void in_chunks(int64_t count, Body body) {
  const int64_t t = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> threads;
  for (int64_t k = 0; k < t; k++)
    threads.emplace_back(body, count * k / t, count * (k + 1) / t);
  for (std::thread &thread : threads)
    thread.join();
}

/* Edge e's endpoints from stream e (a number a level), entry k's value from stream m + k: the
 * graph is the same on any number of threads, and 2^28 edges take seconds, not minutes. */
host_csr rmat(int scale, int64_t edge_factor) {
  int64_t n = (int64_t)1 << scale, m = n * edge_factor;
  std::vector<int32_t> src(m), dst(m);
  in_chunks(m, [&](int64_t begin, int64_t end) {
    for (int64_t e = begin; e < end; e++) {
      bench_rng edge = keyed_stream((uint64_t)e);
      int64_t i = 0, j = 0;
      for (int l = 0; l < scale; l++) {
        double u = bench_unit(bench_random(&edge));
        int bi = u >= 0.76, bj = (u >= 0.57 && u < 0.76) || u >= 0.95;
        i = 2 * i + bi;
        j = 2 * j + bj;
      }
      src[e] = (int32_t)i;
      dst[e] = (int32_t)j;
    }
  });
  host_csr A;
  A.rows = A.cols = n;
  A.off.assign(n + 1, 0);
  for (int64_t e = 0; e < m; e++)
    A.off[src[e] + 1]++;
  for (int64_t i = 0; i < n; i++)
    A.off[i + 1] += A.off[i];
  A.col.resize(m);
  A.val.resize(m);
  std::vector<int64_t> next(A.off.begin(), A.off.end() - 1);
  for (int64_t e = 0; e < m; e++)
    A.col[next[src[e]]++] = dst[e];
  in_chunks(n, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; i++)
      std::sort(A.col.begin() + A.off[i], A.col.begin() + A.off[i + 1]);
    for (int64_t k = A.off[begin]; k < A.off[end]; k++) {
      bench_rng value = keyed_stream((uint64_t)(m + k));
      A.val[k] = 0.5 + bench_unit(bench_random(&value));
    }
  });
  return A;
}

host_csr replicate(const host_csr &A, int64_t k) {
  host_csr R;
  int64_t nnz = A.off[A.rows];
  R.rows = k * A.rows;
  R.cols = k * A.cols;
  R.off.resize(R.rows + 1);
  R.col.resize(k * nnz);
  R.val.resize(k * nnz);
  R.off[0] = 0;
  for (int64_t r = 0; r < k; r++) {
    for (int64_t i = 0; i < A.rows; i++)
      R.off[r * A.rows + i + 1] = r * nnz + A.off[i + 1];
    for (int64_t j = 0; j < nnz; j++)
      R.col[r * nnz + j] = (int32_t)(A.col[j] + r * A.cols);
  }
  for (double &v : R.val)
    v = 0.5 + uniform01();
  return R;
}

/* The file name without its matrix suffix, or "" when it has none of ours. */
static std::string matrix_stem(const std::string &file) {
  for (const char *suffix : {".mtx.gz", ".txt.gz", ".mtx"}) {
    size_t n = strlen(suffix);
    if (file.size() > n && file.compare(file.size() - n, n, suffix) == 0)
      return file.substr(0, file.size() - n);
  }
  return "";
}

/* The structure of a real matrix as libcsr reads it (symmetric files expanded, duplicates
 * summed); its values are not kept (the replicas get random ones). NULL when it cannot be read. */
static std::shared_ptr<host_csr> read_structure(csr_context *ctx, const char *dir,
                                                const std::string &file) {
  csr_matrix *M = NULL;
  csr_status s = csr_read_csr(ctx, (dir + ("/" + file)).c_str(), NULL, &M, NULL);
  if (s < 0) {
    printf("matrices: %s skipped: %s\n", file.c_str(), csr_context_last_error(ctx));
    return NULL;
  }
  csr_matrix *H = M;
  if (M->location != CSR_HOST && csr_matrix_copy(ctx, M, &H, CSR_HOST) < 0) {
    printf("matrices: %s skipped: %s\n", file.c_str(), csr_context_last_error(ctx));
    csr_matrix_free(&M);
    return NULL;
  }
  auto A = std::make_shared<host_csr>();
  A->rows = H->rows;
  A->cols = H->cols;
  A->pattern = H->value_type == CSR_PATTERN;
  A->off.assign(H->row_offsets, H->row_offsets + H->rows + 1);
  A->col.assign(H->col_indices, H->col_indices + H->nnz);
  if (H != M)
    csr_matrix_free(&H);
  csr_matrix_free(&M);
  return A;
}

/* One case per real matrix of dir large enough to time (graphs_only: square pattern matrices and
 * edge lists alone). */
static void real_cases(csr_context *ctx, const char *dir, int64_t target_nnz,
                       std::vector<spmv_case> &cases, bool graphs_only = false) {
  std::error_code error;
  std::vector<std::string> files;
  for (const auto &entry : std::filesystem::directory_iterator(dir, error))
    if (entry.is_regular_file() && matrix_stem(entry.path().filename().string()) != "")
      files.push_back(entry.path().filename().string());
  if (error) {
    printf("matrices: cannot list %s (%s): no real matrices\n", dir, error.message().c_str());
    return;
  }
  std::sort(files.begin(), files.end());
  for (const std::string &file : files) {
    std::shared_ptr<host_csr> A = read_structure(ctx, dir, file);
    if (A == NULL)
      continue;
    if (graphs_only && !(A->pattern && A->rows == A->cols)) {
      printf("matrices: %s skipped: not a graph (square, links without values)\n", file.c_str());
      continue;
    }
    int64_t nnz = A->off[A->rows];
    if (nnz < SPMV_MIN_REAL_NNZ) {
      printf("matrices: %s skipped: %lld nonzeros < %d\n", file.c_str(), (long long)nnz,
             SPMV_MIN_REAL_NNZ);
      continue;
    }
    int64_t k = (target_nnz + nnz - 1) / nnz;
    /* 32-bit columns, and cuSPARSE's copy has 32-bit offsets. */
    if (k * std::max(A->rows, A->cols) > INT32_MAX || k * nnz > INT32_MAX) {
      printf("matrices: %s skipped: %lld copies overflow 32-bit indices\n", file.c_str(),
             (long long)k);
      continue;
    }
    spmv_case c;
    c.name = matrix_stem(file) + "_x" + std::to_string(k);
    c.make = [A, k] { return replicate(*A, k); };
    cases.push_back(c);
  }
}

std::vector<spmv_case> spmv_cases(csr_context *ctx, const char *matrices_dir, int quick,
                                  int64_t target_nnz) {
  int q = quick;
  int64_t n3 = q ? 64 : 193;                 /* 193^3: 7.19M rows, 50.1M nonzeros */
  int64_t n = q ? 1 << 18 : 4000000;         /* rows of the random ones: 64M nonzeros at 16 */
  int64_t alternate = q ? 1 << 19 : 8000000; /* half of them empty, the rest 16: 64M */
  std::vector<spmv_case> cases = {
      {"poisson3d_7pt_" + std::to_string(n3), 1, [n3] { return stencil(3, n3, 0); }},
      {"poisson2d_5pt_3000", 0, [q] { return stencil(2, q ? 500 : 3000, 0); }},
      {"stencil3d_27pt_150", 0, [q] { return stencil(3, q ? 40 : 150, 1); }},
      {"uniform_16_per_row", 0, [n] { return random_rows(n, n, [](int64_t) { return 16; }); }},
      /* Short rows of one length, and of lengths that vary like those of random triples (each
       * row's count Poisson with mean 6, 0 to about 20): a thread per row waits for the longest
       * row of its warp. */
      {"uniform_6_per_row", 0, [n] { return random_rows(n, n, [](int64_t) { return 6; }); }},
      {"poisson_6_per_row", 0,
       [n] { return random_rows(n, n, [](int64_t) { return poisson(6.0); }); }},
      {"8_per_row_40_long_rows", 0,
       [n] {
         return random_rows(n, n, [n](int64_t i) { return i % (n / 40) == 0 ? n / 20 : 8; });
       }},
      {"rmat_22_16", 0, [q] { return rmat(q ? 16 : 22, 16); }},
      /* Half of the nonzeros in one row: only a kernel that splits rows can take it. */
      {"one_row_half_of_nnz", 0,
       [n] { return random_rows(n, n, [n](int64_t i) { return i == n / 3 ? 8 * n : 8; }); }},
      /* x is 64 entries, always in cache: the matrix stream alone, in short rows. */
      {"tall_64_cols", 0, [n] { return narrow_rows(n, 64, 8, 24); }},
      /* Empty rows still write y; their mean length of 8 hides rows of 16. */
      {"odd_rows_empty", 0,
       [alternate] {
         return random_rows(alternate, alternate, [](int64_t i) { return i % 2 ? 0 : 16; });
       }},
  };
  if (!q) /* 16.8M rows, 117M nonzeros */
    cases.insert(cases.begin() + 1,
                 spmv_case{"poisson3d_7pt_256", 1, [] { return stencil(3, 256, 0); }});
  if (matrices_dir != NULL)
    real_cases(ctx, matrices_dir, target_nnz, cases);
  return cases;
}

std::vector<spmv_case> graph_cases(csr_context *ctx, const char *matrices_dir, int quick,
                                   int64_t target_links) {
  std::vector<spmv_case> cases;
  if (matrices_dir != NULL)
    real_cases(ctx, matrices_dir, target_links, cases, true);
  for (int scale : {quick ? 16 : 23, quick ? 17 : 24})
    cases.push_back(
        {"rmat_" + std::to_string(scale) + "_16", 0, [scale] { return rmat(scale, 16); }});
  return cases;
}
