/* SPDX-License-Identifier: BSD-3-Clause */
/* The matrices of the factorization benchmarks (gpu_bench_spsv.cu, gpu_bench_gmres.cu): 2D
 * 5-point and 3D 7-point stencils, with upwind convection (non-symmetric) or without (the SPD
 * Laplacian), and Matrix Market files; how they reach the device (libcsr's 64-bit offsets, and
 * the 32-bit copy that cuSPARSE gets) and how two device vectors are compared. */
#ifndef CSR_BENCH_GPU_BENCH_FACTOR_CASES_CUH
#define CSR_BENCH_GPU_BENCH_FACTOR_CASES_CUH

#include "csr.h"
#include "gpu_bench_common.cuh"

#include <cuda_runtime.h>
#include <dirent.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

/* A square matrix on the host, rows sorted by column, no duplicates. */
struct factor_case {
  std::string name;
  int64_t n = 0;
  std::vector<int64_t> off;
  std::vector<int32_t> col;
  std::vector<double> val;
  bool zero_diagonal = false; /* a row without a nonzero diagonal entry: ILU needs a matching */
};

/* The 5-point (dims 2) or 7-point (dims 3) stencil on an m^dims grid with Dirichlet boundaries
 * (neighbours outside the grid dropped), first-order upwind convection of strength `wind` along
 * every axis: a_ii = 2 dims + dims wind, the lower neighbour -1 - wind, the upper -1. wind = 0
 * is the SPD Laplacian; wind > 0 makes A non-symmetric but keeps it a diagonally dominant
 * M-matrix, so ILU(0) exists without pivoting (the convection-diffusion problem of the ILU
 * literature). Row index (z m + y) m + x; each row's columns ascend. */
static factor_case stencil_case(const char *name, int dims, int64_t m, double wind) {
  factor_case c;
  c.name = name;
  c.n = dims == 2 ? m * m : m * m * m;
  c.off.reserve(c.n + 1);
  c.col.reserve((2 * dims + 1) * c.n);
  c.val.reserve((2 * dims + 1) * c.n);
  c.off.push_back(0);
  const int64_t stride[3] = {1, m, m * m};
  for (int64_t i = 0; i < c.n; i++) {
    int64_t coord[3] = {i % m, (i / m) % m, dims == 3 ? i / (m * m) : 0};
    for (int d = dims - 1; d >= 0; d--) /* lower neighbours, farthest first */
      if (coord[d] > 0)
        c.col.push_back((int32_t)(i - stride[d])), c.val.push_back(-1.0 - wind);
    c.col.push_back((int32_t)i), c.val.push_back(2.0 * dims + dims * wind);
    for (int d = 0; d < dims; d++) /* upper neighbours, nearest first */
      if (coord[d] < m - 1)
        c.col.push_back((int32_t)(i + stride[d])), c.val.push_back(-1.0);
    c.off.push_back((int64_t)c.col.size());
  }
  return c;
}

/* A Matrix Market file as a case: false (and why, on stderr) when it is not a square real
 * matrix that libcsr reads. */
static inline bool file_case(csr_context *ctx, const std::string &path, factor_case *c) {
  csr_matrix *M = NULL;
  if (csr_read_csr(ctx, path.c_str(), NULL, &M, NULL) < 0) {
    fprintf(stderr, "skipped %s: %s\n", path.c_str(), csr_context_last_error(ctx));
    return false;
  }
  bool fits = M->rows == M->cols && M->value_type == CSR_F64 && M->rows > 0;
  if (!fits)
    fprintf(stderr, "skipped %s: not a square real matrix\n", path.c_str());
  if (fits) {
    c->name = path.substr(path.find_last_of('/') + 1);
    c->name = c->name.substr(0, c->name.find('.'));
    c->n = M->rows;
    c->off.assign(M->row_offsets, M->row_offsets + M->rows + 1);
    c->col.assign(M->col_indices, M->col_indices + M->nnz);
    c->val.assign((const double *)M->values, (const double *)M->values + M->nnz);
    for (int64_t i = 0; i < c->n && !c->zero_diagonal; i++) {
      bool has = false;
      for (int64_t k = c->off[i]; k < c->off[i + 1]; k++)
        has = has || (c->col[k] == i && c->val[k] != 0.0);
      c->zero_diagonal = !has;
    }
  }
  csr_matrix_free(&M);
  return fits;
}

/* The files named on the command line, then every .mtx / .mtx.gz of --matrices DIR (sorted by
 * name, so runs list them in the same order). */
static std::vector<std::string> case_files(const std::vector<std::string> &named, const char *dir) {
  std::vector<std::string> files = named, found;
  if (dir != NULL) {
    DIR *d = opendir(dir);
    if (d == NULL) {
      fprintf(stderr, "cannot open --matrices %s\n", dir);
      exit(2);
    }
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
      std::string f = e->d_name;
      const auto ends = [&](const char *tail) {
        return f.size() > strlen(tail) &&
               f.compare(f.size() - strlen(tail), strlen(tail), tail) == 0;
      };
      if (ends(".mtx") || ends(".mtx.gz"))
        found.push_back(std::string(dir) + "/" + f);
    }
    closedir(d);
    std::sort(found.begin(), found.end());
  }
  files.insert(files.end(), found.begin(), found.end());
  return files;
}

/* The case as a device matrix of libcsr's (64-bit offsets). */
static csr_matrix *upload_case(csr_context *ctx, const factor_case &c) {
  csr_matrix *A = NULL;
  const int64_t nnz = (int64_t)c.col.size();
  CSR_OK(ctx, csr_matrix_create(ctx, &A, c.n, c.n, nnz, CSR_F64, CSR_DEVICE));
  CHECK_CUDA(cudaMemcpy(A->row_offsets, c.off.data(), (c.n + 1) * sizeof(int64_t),
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(
      cudaMemcpy(A->col_indices, c.col.data(), nnz * sizeof(int32_t), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(A->values, c.val.data(), nnz * sizeof(double), cudaMemcpyHostToDevice));
  A->flags = CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES;
  return A;
}

/* A device copy of M's row offsets as 32-bit integers, for cuSPARSE (NULL when nnz does not fit:
 * the caller skips the anchor). M on the host or the device. */
static int32_t *offsets32(const csr_matrix *M) {
  if (M->nnz > INT32_MAX)
    return NULL;
  std::vector<int64_t> o64(M->rows + 1);
  CHECK_CUDA(cudaMemcpy(o64.data(), M->row_offsets, o64.size() * sizeof(int64_t),
                        M->location == CSR_DEVICE ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost));
  std::vector<int32_t> o32(o64.begin(), o64.end());
  int32_t *d = NULL;
  CHECK_CUDA(cudaMalloc(&d, o32.size() * sizeof(int32_t)));
  CHECK_CUDA(cudaMemcpy(d, o32.data(), o32.size() * sizeof(int32_t), cudaMemcpyHostToDevice));
  return d;
}

/* A device vector of n doubles holding `values`. */
static csr_vector *upload_vector(csr_context *ctx, const std::vector<double> &values) {
  csr_vector *v = NULL;
  CSR_OK(ctx, csr_vector_create(ctx, &v, (int64_t)values.size(), CSR_F64, CSR_DEVICE));
  CHECK_CUDA(
      cudaMemcpy(v->data, values.data(), values.size() * sizeof(double), cudaMemcpyHostToDevice));
  return v;
}

/* max_i |a_i - b_i| / max_i |b_i| of two device arrays of n doubles; NaN when either holds one. */
static inline double relative_difference(const double *a, const double *b, int64_t n) {
  std::vector<double> ha(n), hb(n);
  CHECK_CUDA(cudaMemcpy(ha.data(), a, n * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(hb.data(), b, n * sizeof(double), cudaMemcpyDeviceToHost));
  double diff = 0.0, mag = 0.0;
  for (int64_t i = 0; i < n; i++) {
    if (std::isnan(ha[i]) || std::isnan(hb[i]))
      return NAN;
    diff = fmax(diff, fabs(ha[i] - hb[i]));
    mag = fmax(mag, fabs(hb[i]));
  }
  return mag > 0 ? diff / mag : diff;
}

/* The options both factorization benchmarks take: --csv FILE (opened here), --reps N, --quick,
 * --cases TEXT, --matrices DIR, and files. */
struct factor_bench_args {
  FILE *csv = NULL;
  int reps, quick = 0;
  const char *only = NULL, *matrices = NULL;
  std::vector<std::string> files;
};

/* Takes argv[*i] (and its value, advancing *i) when it is one of those options: 1 when taken, 0
 * when it is not one of them, -1 when --csv cannot be written. */
static int factor_bench_option(int argc, char **argv, int *i, factor_bench_args *a) {
  const char *arg = argv[*i];
  int valued = *i + 1 < argc;
  if (!strcmp(arg, "--csv") && valued) {
    a->csv = fopen(argv[++*i], "w");
    if (a->csv == NULL) {
      fprintf(stderr, "cannot write %s\n", argv[*i]);
      return -1;
    }
  } else if (!strcmp(arg, "--reps") && valued) {
    a->reps = atoi(argv[++*i]);
  } else if (!strcmp(arg, "--quick")) {
    a->quick = 1;
  } else if (!strcmp(arg, "--cases") && valued) {
    a->only = argv[++*i];
  } else if (!strcmp(arg, "--matrices") && valued) {
    a->matrices = argv[++*i];
  } else if (arg[0] != '-') {
    a->files.push_back(arg);
  } else {
    return 0;
  }
  return 1;
}

#endif
