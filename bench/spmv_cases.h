/* SPDX-License-Identifier: BSD-3-Clause */
/* The matrices of the GPU SpMV benchmark (bench/gpu_bench_spmv_cg.cu), built on the host:
 * stencils, random rows, R-MAT, a tall narrow matrix, empty rows, and block-diagonal replicas of
 * the real matrices of a directory. Values are random in [0.5, 1.5) except the stencils': never
 * zero, and within fp32's range whatever a file held, so the fp32 runs time the same matrix. */
#ifndef SPMV_CASES_H
#define SPMV_CASES_H

#include "csr.h"

#include <functional>
#include <stdint.h>
#include <string>
#include <vector>

/* CSR on the host: 64-bit offsets, 32-bit columns sorted within a row (duplicates allowed),
 * fp64 values (the fp32 runs round them). */
struct host_csr {
  int64_t rows = 0, cols = 0;
  bool pattern = false; /* read from a file that holds no values (a graph's links) */
  std::vector<int64_t> off;
  std::vector<int32_t> col;
  std::vector<double> val;
};

/* The benchmark's random stream (splitmix64 from a fixed seed: every run builds the same
 * matrices and vectors). */
uint64_t next_u64();
/* Uniform in [0, 1). */
double uniform01();

/* Entries in the longest row: what a kernel giving a row to one thread or one warp waits for. */
int64_t longest_row(const host_csr &A);

/* Where x's gathers fall, to read the SpMV figures by (nothing here chooses a kernel). new_line:
 * the share of nonzeros whose x entry lies in another 128-byte line of x (16 fp64 entries) than
 * the previous nonzero's of its row (a row's first counts as another): low when the columns of a
 * row are clustered. hot: the share of nonzeros in the 4096 most used columns, the x entries a
 * 128 KB L1 could keep at a 32-byte sector each. */
struct gather_shape {
  double new_line = 0.0, hot = 0.0;
};
gather_shape describe_gathers(const host_csr &A);

/* Stencil on an n^d grid (d = 2 or 3): the 5/7-point Laplacian (diagonal 2d, -1 off), or with
 * full = 1 the 27-point box (diagonal 26, -1 off). SPD. */
host_csr stencil(int d, int64_t n, int full);
/* rows x cols, row i with len(i) random columns (sorted, repeats possible), random values. */
host_csr random_rows(int64_t rows, int64_t cols, const std::function<int64_t(int64_t)> &len);
/* rows x cols with cols <= 64, each row min_len..max_len distinct random columns (uniform
 * length), random values. */
host_csr narrow_rows(int64_t rows, int64_t cols, int64_t min_len, int64_t max_len);
/* R-MAT (a, b, c, d) = (0.57, 0.19, 0.19, 0.05): 2^scale vertices, edge_factor edges each,
 * duplicate edges kept (a row may hold a column more than once). */
host_csr rmat(int scale, int64_t edge_factor);
/* k copies of A's structure on the diagonal (row i of copy r is row r*rows + i, its columns
 * shifted by r*cols), fresh random values. */
host_csr replicate(const host_csr &A, int64_t k);

/* One benchmark case: its name, whether CG runs on it too, and how to build it (called when the
 * case's turn comes, so that one case's matrix is in memory at a time). */
struct spmv_case {
  std::string name;
  int cg = 0;
  std::function<host_csr()> make;
};

/* Real matrices smaller than this are left out: too small to time (launch latency dominates
 * even replicated). */
#define SPMV_MIN_REAL_NNZ 200000

/* The generated cases (smaller with quick), then one per file of matrices_dir (.mtx, .mtx.gz,
 * .txt.gz, in name order) that csr_read_csr reads with at least SPMV_MIN_REAL_NNZ entries,
 * replicated the fewest times that give at least target_nnz entries and named "<file>_x<k>".
 * Files that fail to read (complex ones) or are too small are skipped with a line on stdout. The
 * real matrices are read here (to know k); their replicas are made by the returned makers.
 * matrices_dir NULL: the generated cases alone. */
std::vector<spmv_case> spmv_cases(csr_context *ctx, const char *matrices_dir, int quick,
                                  int64_t target_nnz);

/* The graphs of the GPU PageRank benchmark (bench/gpu_bench_pagerank.cu): every square pattern
 * matrix or edge list of matrices_dir with at least SPMV_MIN_REAL_NNZ links, replicated
 * block-diagonally to at least target_links, then R-MAT graphs of scale 23 and 24 with 16 edges
 * per vertex (16 and 17 with quick). */
std::vector<spmv_case> graph_cases(csr_context *ctx, const char *matrices_dir, int quick,
                                   int64_t target_links);

#endif
