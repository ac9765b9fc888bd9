/* SPDX-License-Identifier: BSD-3-Clause */
/* Allocation-failure injection over every public call that allocates, on the backend of argv[1]
 * (ref, omp, cuda: objects where it runs; host and device allocations both count): the n-th
 * allocation fails for n = 1, 2, ... until the call succeeds; each failure must return
 * CSR_ERR_OUT_OF_MEMORY and leave its outputs NULL. Leaks on those paths are found by the ASan
 * (LeakSanitizer) CI build, and on the device by compute-sanitizer's leak check. */
#include "ops/ops.h"
#include "testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct inputs {
  csr_context *ctx;
  csr_location at;    /* where the backend's operands live */
  csr_matrix *A;      /* random, sorted, F64 */
  csr_matrix *lower;  /* lower triangle of a square matrix */
  csr_matrix *nodups; /* unsorted but flagged duplicate-free: the validator allocates */
  csr_coo *T;         /* A's triples: in order, one explicit zero */
  csr_coo *U;         /* T backwards: the general path of from_coo */
  csr_coo *S;         /* past the chunking size, in order with repeats: the merging paths */
  csr_dense *D;
  csr_vector *x, *y;
  int32_t *offsets32; /* A's row offsets in 32 bits, where A is: a caller's to wrap */
} inputs;

/* One public call; returns its status and frees whatever it produced. */
typedef csr_status (*scenario_fn)(inputs *in);

static csr_status run_context(inputs *in) {
  csr_context *c = NULL;
  (void)in;
  csr_status s = csr_context_create(&c);
  CHECK(s == CSR_SUCCESS || c == NULL);
  csr_context_free(&c);
  return s;
}

#define PRODUCES(type, freer, call)                                                                \
  do {                                                                                             \
    type *out_ = NULL;                                                                             \
    csr_status s_ = (call);                                                                        \
    CHECK(s_ == CSR_SUCCESS || out_ == NULL);                                                      \
    freer(&out_);                                                                                  \
    return s_;                                                                                     \
  } while (0)

static csr_status run_matrix_create(inputs *in) {
  PRODUCES(csr_matrix, csr_matrix_free,
           csr_matrix_create(in->ctx, &out_, 50, 40, 300, CSR_F64, in->at));
}
static csr_status run_matrix_copy(inputs *in) {
  PRODUCES(csr_matrix, csr_matrix_free, csr_matrix_copy(in->ctx, in->A, &out_, in->at));
}
static csr_status run_coo_create(inputs *in) {
  PRODUCES(csr_coo, csr_coo_free, csr_coo_create(in->ctx, &out_, 9, 9, 30, CSR_F32, in->at));
}
static csr_status run_coo_copy(inputs *in) {
  PRODUCES(csr_coo, csr_coo_free, csr_coo_copy(in->ctx, in->T, &out_, in->at));
}
static csr_status run_dense_create(inputs *in) {
  PRODUCES(csr_dense, csr_dense_free,
           csr_dense_create(in->ctx, &out_, 7, 5, CSR_COL_MAJOR, CSR_F64, in->at));
}
static csr_status run_dense_wrap(inputs *in) {
  PRODUCES(csr_dense, csr_dense_free,
           csr_dense_wrap(in->ctx, &out_, in->D->rows, in->D->cols, in->D->ld, in->D->layout,
                          in->D->value_type, in->at, in->D->data));
}
static csr_status run_matrix_wrap(inputs *in) {
  const csr_matrix *A = in->A;
  PRODUCES(csr_matrix, csr_matrix_free,
           csr_matrix_wrap(in->ctx, &out_, A->rows, A->cols, A->nnz, in->offsets32, CSR_INDEX_32,
                           A->col_indices, A->values, A->value_type, in->at, A->flags));
}
static csr_status run_dense_copy(inputs *in) {
  PRODUCES(csr_dense, csr_dense_free, csr_dense_copy(in->ctx, in->D, &out_, in->at));
}
static csr_status run_vector_create(inputs *in) {
  PRODUCES(csr_vector, csr_vector_free, csr_vector_create(in->ctx, &out_, 33, CSR_F32, in->at));
}
static csr_status run_vector_wrap(inputs *in) {
  PRODUCES(csr_vector, csr_vector_free,
           csr_vector_wrap(in->ctx, &out_, in->x->n, CSR_F64, in->at, in->x->data));
}
static csr_status run_vector_clone(inputs *in) {
  PRODUCES(csr_vector, csr_vector_free, csr_vector_clone(in->ctx, in->x, &out_, in->at));
}
static csr_status run_validate(inputs *in) {
  return csr_matrix_validate(in->ctx, in->nodups);
}
static csr_status run_from_coo(inputs *in) {
  PRODUCES(csr_matrix, csr_matrix_free, csr_from_coo(in->ctx, in->T, 0, &out_));
}
static csr_status run_from_coo_drop(inputs *in) {
  PRODUCES(csr_matrix, csr_matrix_free,
           csr_from_coo(in->ctx, in->T, CSR_CONVERT_DROP_ZEROS, &out_));
}
static csr_status run_from_coo_unsorted(inputs *in) {
  PRODUCES(csr_matrix, csr_matrix_free, csr_from_coo(in->ctx, in->U, 0, &out_));
}
static csr_status run_from_coo_repeats(inputs *in) {
  PRODUCES(csr_matrix, csr_matrix_free, csr_from_coo(in->ctx, in->S, 0, &out_));
}
/* What csr_read_csr does with the COO it read: gives it up (here a copy) to the conversion. Three
 * threads, so that the OpenMP backend merges in chunks and the middle one sets items aside. */
static csr_status run_from_coo_take(inputs *in) {
  csr_coo *copy = NULL;
  csr_status s = csr_coo_copy(in->ctx, in->S, &copy, in->at);
  if (s == CSR_SUCCESS) {
    csr_context_set_threads(in->ctx, 3);
    csr_matrix *out = NULL;
    s = csri_from_coo_take(in->ctx, copy, 0, &out);
    CHECK(s == CSR_SUCCESS || out == NULL);
    csr_context_set_threads(in->ctx, 0);
    csr_matrix_free(&out);
  }
  csr_coo_free(&copy);
  return s;
}
static csr_status run_to_coo(inputs *in) {
  PRODUCES(csr_coo, csr_coo_free, csr_to_coo(in->ctx, in->A, &out_));
}
static csr_status run_from_dense(inputs *in) {
  PRODUCES(csr_matrix, csr_matrix_free, csr_from_dense(in->ctx, in->D, &out_));
}
static csr_status run_to_dense(inputs *in) {
  PRODUCES(csr_dense, csr_dense_free, csr_to_dense(in->ctx, in->A, CSR_ROW_MAJOR, &out_));
}
static csr_status run_transpose(inputs *in) {
  PRODUCES(csr_matrix, csr_matrix_free, csr_transpose(in->ctx, in->A, &out_));
}
static csr_status run_symmetric_expand(inputs *in) {
  PRODUCES(csr_matrix, csr_matrix_free,
           csr_symmetric_expand(in->ctx, in->lower, CSR_LOWER, CSR_SYMMETRIC, &out_));
}
static csr_status run_spmv(inputs *in) {
  return csr_spmv(in->ctx, 1.5, in->A, in->x, 0.5, in->y);
}
/* The packed plan (its heads, flags, scan, halves), then a product through it. */
static csr_status run_spmv_packed(inputs *in) {
  csr_spmv_plan *plan = NULL;
  csr_status s = csr_spmv_analyze(in->ctx, in->A, CSR_COMPRESS_ON, &plan);
  CHECK(s == CSR_SUCCESS || plan == NULL);
  if (s == CSR_SUCCESS)
    s = csr_spmv_run(in->ctx, plan, 1.5, in->x, 0.5, in->y);
  csr_spmv_plan_free(&plan);
  return s;
}
/* Weighted and personalized: every allocation PageRank makes (weights, teleport, transpose,
 * the rescaled copy, two vectors). */
static csr_status run_pagerank(inputs *in) {
  csr_vector *r = NULL, *p = NULL;
  csr_status s = csr_vector_create(in->ctx, &r, in->nodups->rows, CSR_F64, in->at);
  if (s == CSR_SUCCESS)
    s = csr_vector_create(in->ctx, &p, in->nodups->rows, CSR_F64, CSR_HOST);
  if (s == CSR_SUCCESS)
    s = csr_fill(in->ctx, 1.0, p);
  csr_pagerank_options o;
  csr_pagerank_options_init(&o);
  o.weighted = 1;
  o.personalization = p;
  if (s == CSR_SUCCESS)
    s = csr_pagerank(in->ctx, in->nodups, &o, r, NULL);
  csr_vector_free(&r);
  csr_vector_free(&p);
  return s;
}
static csr_status run_row_stats(inputs *in) {
  csr_row_stats st;
  return csr_row_stats_compute(in->ctx, in->A, &st);
}
static csr_status run_vector_ops(inputs *in) {
  double r;
  csr_vector *u = NULL;
  csr_status s = csr_vector_clone(in->ctx, in->y, &u, in->at);
  if (s != CSR_SUCCESS)
    return s;
  const csr_status all[] = {csr_dot(in->ctx, in->y, u, &r),     csr_axpy(in->ctx, 2, in->y, u),
                            csr_axpby(in->ctx, 2, in->y, 3, u), csr_scale(in->ctx, 2, u),
                            csr_copy(in->ctx, in->y, u),        csr_fill(in->ctx, 1, u),
                            csr_nrm2(in->ctx, u, &r),           csr_nrm1(in->ctx, u, &r),
                            csr_nrminf(in->ctx, u, &r)};
  csr_vector_free(&u);
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    if (all[i] != CSR_SUCCESS)
      return all[i];
  return CSR_SUCCESS;
}

/* A scenario names the backend entry its call needs (NONE: front-end and core work only); a
 * backend without it refuses the call before allocating, and the scenario is skipped there. */
typedef struct scenario {
  const char *name;
  scenario_fn run;
  size_t needs;
} scenario;
#define NONE ((size_t)-1)
#define NEEDS(entry) offsetof(csri_backend, entry)

static const scenario scenarios[] = {
    {"context_create", run_context, NONE},
    {"matrix_create", run_matrix_create, NONE},
    {"matrix_copy", run_matrix_copy, NONE},
    {"coo_create", run_coo_create, NONE},
    {"coo_copy", run_coo_copy, NONE},
    {"dense_create", run_dense_create, NONE},
    {"dense_wrap", run_dense_wrap, NONE},
    {"dense_copy", run_dense_copy, NONE},
    {"matrix_wrap", run_matrix_wrap, NONE},
    {"vector_create", run_vector_create, NONE},
    {"vector_wrap", run_vector_wrap, NONE},
    {"vector_clone", run_vector_clone, NONE},
    {"matrix_validate", run_validate, NONE},
    {"from_coo", run_from_coo, NEEDS(convert.from_coo)},
    {"from_coo_drop_zeros", run_from_coo_drop, NEEDS(convert.from_coo)},
    {"from_coo_unsorted", run_from_coo_unsorted, NEEDS(convert.from_coo)},
    {"from_coo_repeats", run_from_coo_repeats, NEEDS(convert.from_coo)},
    {"from_coo_take", run_from_coo_take, NEEDS(convert.from_coo)},
    {"to_coo", run_to_coo, NEEDS(convert.to_coo)},
    {"from_dense", run_from_dense, NEEDS(convert.from_dense)},
    {"to_dense", run_to_dense, NEEDS(convert.to_dense)},
    {"transpose", run_transpose, NEEDS(convert.transpose)},
    {"symmetric_expand", run_symmetric_expand, NEEDS(convert.symmetric_expand)},
    {"spmv", run_spmv, NEEDS(sparse.spmv)},
    {"spmv_packed", run_spmv_packed, NEEDS(sparse.pack_ranges)},
    {"row_stats", run_row_stats, NONE},
    {"pagerank", run_pagerank, NEEDS(graph.pagerank_weights)},
    {"vector_ops", run_vector_ops, NEEDS(vector.reduce)},
};

/* Built on the host, then placed where the backend runs. */
static void make_inputs(inputs *in, csr_backend backend, csrt_rng *rng) {
  in->ctx = csrt_context(backend);
  in->at = csrt_location(backend);
  csr_context *ctx = csrt_context(CSR_BACKEND_REF);
  in->A = csrt_generate(ctx, CSRT_RANDOM_WIDE, CSR_F64, CSRT_RANDOM, rng);
  csr_matrix *sq = csrt_generate(ctx, CSRT_RANDOM_SQUARE, CSR_F64, CSRT_RANDOM, rng);
  /* Keep the lower triangle of sq in place. */
  int64_t k = 0;
  for (int64_t i = 0; i < sq->rows; i++) {
    int64_t b = sq->row_offsets[i], e = sq->row_offsets[i + 1];
    sq->row_offsets[i] = k;
    for (int64_t t = b; t < e; t++)
      if (sq->col_indices[t] <= i) {
        sq->col_indices[k] = sq->col_indices[t];
        ((double *)sq->values)[k++] = ((double *)sq->values)[t];
      }
  }
  sq->row_offsets[sq->rows] = sq->nnz = k;
  in->lower = sq;
  in->nodups = csrt_generate(ctx, CSRT_RANDOM_SQUARE, CSR_F64, CSRT_RANDOM, rng);
  in->nodups->flags = CSR_FLAG_NO_DUPLICATES;
  for (int64_t t = 0; t < in->nodups->nnz; t++) /* nonnegative: PageRank reads them as weights */
    ((double *)in->nodups->values)[t] = fabs(((double *)in->nodups->values)[t]);
  if (csr_to_coo(ctx, in->A, &in->T) != CSR_SUCCESS ||
      csr_to_dense(ctx, in->A, CSR_COL_MAJOR, &in->D) != CSR_SUCCESS) {
    fprintf(stderr, "cannot build inputs: %s\n", csr_context_last_error(ctx));
    exit(1);
  }
  ((double *)in->T->values)[0] = 0.0; /* an explicit zero for the drop-zeros path */
  const int64_t n = in->T->nnz, big = 100000;
  if (csr_coo_create(ctx, &in->U, in->T->rows, in->T->cols, n, CSR_F64, CSR_HOST) != CSR_SUCCESS ||
      csr_coo_create(ctx, &in->S, big / 4, 8, big, CSR_F64, CSR_HOST) != CSR_SUCCESS) {
    fprintf(stderr, "cannot build inputs: %s\n", csr_context_last_error(ctx));
    exit(1);
  }
  for (int64_t p = 0; p < n; p++) {
    in->U->row_indices[p] = in->T->row_indices[n - 1 - p];
    in->U->col_indices[p] = in->T->col_indices[n - 1 - p];
    ((double *)in->U->values)[p] = ((double *)in->T->values)[n - 1 - p];
  }
  for (int64_t p = 0; p < big; p++) { /* 4 per row, every 1000th a repeat of the one before */
    int64_t q = p % 1000 == 999 ? p - 1 : p;
    in->S->row_indices[p] = (int32_t)(q / 4);
    in->S->col_indices[p] = (int32_t)(2 * (q % 4));
    ((double *)in->S->values)[p] = 1.0 + (double)(p % 7);
  }
  csr_vector *x = csrt_random_vector(ctx, in->A->cols, CSR_F64, rng);
  csr_vector *y = csrt_random_vector(ctx, in->A->rows, CSR_F64, rng);
  int32_t *narrow = malloc((size_t)(in->A->rows + 1) * sizeof *narrow);
  for (int64_t i = 0; i <= in->A->rows; i++)
    narrow[i] = (int32_t)in->A->row_offsets[i];
  in->offsets32 = csrt_place_bytes(backend, narrow, (size_t)(in->A->rows + 1) * sizeof *narrow);
  free(narrow);
  in->x = csrt_place_vector(backend, x);
  in->y = csrt_place_vector(backend, y);
  csr_matrix *hosted[3] = {in->A, in->lower, in->nodups},
             **placed[3] = {&in->A, &in->lower, &in->nodups};
  for (int m = 0; m < 3; m++) {
    *placed[m] = csrt_place_matrix(backend, hosted[m]);
    csr_matrix_free(&hosted[m]);
  }
  csr_coo *T = in->T, *U = in->U, *S = in->S;
  csr_dense *D = in->D;
  in->T = in->U = in->S = NULL, in->D = NULL;
  if (csr_coo_copy(ctx, T, &in->T, in->at) != CSR_SUCCESS ||
      csr_coo_copy(ctx, U, &in->U, in->at) != CSR_SUCCESS ||
      csr_coo_copy(ctx, S, &in->S, in->at) != CSR_SUCCESS ||
      csr_dense_copy(ctx, D, &in->D, in->at) != CSR_SUCCESS) {
    fprintf(stderr, "cannot place inputs: %s\n", csr_context_last_error(ctx));
    exit(1);
  }
  csr_coo_free(&T);
  csr_coo_free(&U);
  csr_coo_free(&S);
  csr_dense_free(&D);
  csr_vector_free(&x);
  csr_vector_free(&y);
  csr_context_free(&ctx);
}

static void free_inputs(inputs *in) {
  csr_matrix_free(&in->A);
  csr_matrix_free(&in->lower);
  csr_matrix_free(&in->nodups);
  csr_coo_free(&in->T);
  csr_coo_free(&in->U);
  csr_coo_free(&in->S);
  csr_dense_free(&in->D);
  csr_vector_free(&in->x);
  csr_vector_free(&in->y);
  csrt_free_at(in->at == CSR_DEVICE ? CSR_BACKEND_CUDA : CSR_BACKEND_REF, in->offsets32);
  csr_context_free(&in->ctx);
}

int main(int argc, char **argv) {
  csr_backend backend = csrt_backend_from_args(argc, argv);
  csrt_rng rng = {csrt_seed("backend_alloc_failure")};
  inputs in;
  memset(&in, 0, sizeof in);
  make_inputs(&in, backend, &rng);
  for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++) {
    if (scenarios[i].needs != NONE && !csrt_implements(backend, scenarios[i].needs)) {
      printf("%-22s not in the %s backend: skipped\n", scenarios[i].name,
             csr_backend_name(backend));
      continue;
    }
    int64_t failures = 0;
    for (int64_t n = 1; n < 10000; n++) {
      csr_debug_fail_allocation_after(n);
      csr_status s = scenarios[i].run(&in);
      int64_t made = csr_debug_allocation_count();
      csr_debug_fail_allocation_after(0);
      if (made < n) { /* the injected failure never fired: the call ran to completion (on the
                       * host, for a device matrix's row statistics: CSR_INFO_DECLINED) */
        CHECK(s >= 0);
        break;
      }
      failures++;
      if (s != CSR_ERR_OUT_OF_MEMORY) {
        char msg[300];
        snprintf(msg, sizeof msg, "%s: allocation %lld failed but the call returned %s",
                 scenarios[i].name, (long long)n, csr_status_string(s));
        csrt_fail(__FILE__, __LINE__, msg);
      }
    }
    printf("%-22s %lld allocation points, each failing returns CSR_ERR_OUT_OF_MEMORY\n",
           scenarios[i].name, (long long)failures);
  }
  free_inputs(&in);
  return csrt_finish("backend_alloc_failure");
}
