/* SPDX-License-Identifier: BSD-3-Clause */
/* The context's CUDA stream (label gpu): csr_context_set_stream puts the work where it says.
 *  1. Every kind of call (SpMV, the vector operations and reductions, the primitives, a CG
 *     solve) on a non-blocking stream of the caller's gives the bits it gives on the default
 *     stream.
 *  2. The asynchronous calls (SpMV, axpby, scale, fill, a scan with the caller's workspace) are
 *     captured into a CUDA graph from that stream: the graph holds their nodes and nothing runs
 *     until it is launched. A launch on any other stream would run at once (the stream does not
 *     wait for the legacy default stream) and leave the graph empty. A tiled SpMV kernel (stream by
 *     AUTO's choice, segmented forced) on a matrix never multiplied is captured too when
 *     csr_spmv_choose readied it before the capture; without that, the call that would grow the
 *     context's workspace is refused, the capture left intact.
 *  3. Two contexts on two streams, their work interleaved, each get their own results. */
#include "testing.h"

#include <stdlib.h>
#include <string.h>

#ifdef CSR_TEST_HAVE_CUDART
#include <cuda_runtime.h>

static csrt_rng rng;

/* Waits for ctx's stream: the test's copies to the host run on the default stream, which a
 * non-blocking stream does not wait for, nor it for them. */
static void sync_ctx(csr_context *ctx) {
  CHECK(cudaStreamSynchronize((cudaStream_t)csr_context_stream(ctx)) == cudaSuccess);
}

static int same_vector(const csr_vector *a, const csr_vector *b) {
  csr_vector *ha = csrt_host_vector(a), *hb = csrt_host_vector(b);
  size_t bytes = (size_t)ha->n * (ha->value_type == CSR_F64 ? 8 : 4);
  int same = ha->n == hb->n && (bytes == 0 || memcmp(ha->data, hb->data, bytes) == 0);
  csr_vector_free(&ha);
  csr_vector_free(&hb);
  return same;
}

/* One round of everything on ctx; the results (y, the reductions, scanned, sorted, counts, the
 * solution) go into out, for comparing two contexts. */
typedef struct round {
  csr_vector *y, *x_solved;
  double reductions[4];
  int64_t kept;
  uint32_t scanned[4096], compacted[4096], sorted[4096], counts[16];
} round;

static void run_round(csr_context *ctx, const csr_matrix *A, const csr_vector *x0, round *out) {
  csr_matrix *D = csrt_place_matrix(CSR_BACKEND_CUDA, A);
  csr_vector *x = csrt_place_vector(CSR_BACKEND_CUDA, x0);
  CHECK_OK(ctx, csr_vector_create(ctx, &out->y, A->rows, CSR_F64, CSR_DEVICE));
  CHECK_OK(ctx, csr_fill(ctx, 0.25, out->y));
  CHECK_OK(ctx, csr_spmv(ctx, 1.5, D, x, -0.5, out->y));
  CHECK_OK(ctx, csr_axpby(ctx, 2.0, x, 0.5, out->y));
  CHECK_OK(ctx, csr_scale(ctx, 3.0, out->y));
  CHECK_OK(ctx, csr_dot(ctx, x, out->y, &out->reductions[0]));
  CHECK_OK(ctx, csr_nrm2(ctx, out->y, &out->reductions[1]));
  CHECK_OK(ctx, csr_nrm1(ctx, out->y, &out->reductions[2]));
  CHECK_OK(ctx, csr_nrminf(ctx, out->y, &out->reductions[3]));
  /* The primitives over 4096 random 32-bit values (several tiles of each). */
  uint32_t host[4096];
  for (int i = 0; i < 4096; i++)
    host[i] = (uint32_t)csrt_next(&rng);
  uint32_t *in = csrt_place_bytes(CSR_BACKEND_CUDA, host, sizeof host);
  uint32_t *work = csrt_alloc_at(CSR_BACKEND_CUDA, sizeof host);
  uint32_t *counts = csrt_alloc_at(CSR_BACKEND_CUDA, sizeof out->counts);
  CHECK_OK(ctx,
           csr_scan(ctx, CSR_DEVICE, CSR_DATA_U32, CSR_SCAN_EXCLUSIVE, in, work, 4096, NULL, NULL));
  sync_ctx(ctx);
  csrt_fetch_bytes(CSR_BACKEND_CUDA, out->scanned, work, sizeof host);
  uint32_t half = UINT32_MAX / 2;
  CHECK_OK(ctx, csr_compact_if(ctx, CSR_DEVICE, CSR_DATA_U32, in, CSR_KEEP_LESS, &half, work, 4096,
                               &out->kept, NULL, NULL));
  sync_ctx(ctx);
  csrt_fetch_bytes(CSR_BACKEND_CUDA, out->compacted, work, sizeof host);
  csr_histogram_bins bins = {CSR_BINS_EVEN, 16, 0.0, 4294967296.0};
  CHECK_OK(ctx, csr_histogram(ctx, CSR_DEVICE, CSR_DATA_U32, in, 4096, &bins, CSR_DATA_U32, counts,
                              NULL, NULL));
  sync_ctx(ctx);
  csrt_fetch_bytes(CSR_BACKEND_CUDA, out->counts, counts, sizeof out->counts);
  CHECK_OK(ctx, csr_radix_sort(ctx, CSR_DEVICE, CSR_DATA_U32, in, CSR_DATA_U32, NULL, 4096, 0, 32,
                               NULL, NULL));
  sync_ctx(ctx);
  csrt_fetch_bytes(CSR_BACKEND_CUDA, out->sorted, in, sizeof host);
  /* A CG solve of the diagonally dominant A + A^T stand-in: A itself is SPD here. */
  CHECK_OK(ctx, csr_vector_create(ctx, &out->x_solved, A->rows, CSR_F64, CSR_DEVICE));
  CHECK_OK(ctx, csr_fill(ctx, 0.0, out->x_solved));
  CHECK_OK(ctx, csr_solve(ctx, D, x, out->x_solved, NULL, NULL));
  sync_ctx(ctx);
  csrt_free_at(CSR_BACKEND_CUDA, in);
  csrt_free_at(CSR_BACKEND_CUDA, work);
  csrt_free_at(CSR_BACKEND_CUDA, counts);
  csr_vector_free(&x);
  csr_matrix_free(&D);
}

static void free_round(round *r) {
  csr_vector_free(&r->y);
  csr_vector_free(&r->x_solved);
}

/* 1 and 3: the caller's stream, and two contexts interleaved, against the default stream. */
static void same_results(const csr_matrix *A, const csr_vector *x0, cudaStream_t s1,
                         cudaStream_t s2) {
  csr_context *plain = csrt_context(CSR_BACKEND_CUDA), *on1 = csrt_context(CSR_BACKEND_CUDA),
              *on2 = csrt_context(CSR_BACKEND_CUDA);
  CHECK_OK(on1, csr_context_set_stream(on1, s1));
  CHECK_OK(on2, csr_context_set_stream(on2, s2));
  CHECK(csr_context_stream(on1) == (void *)s1 && csr_context_stream(plain) == NULL);
  round want, got1, got2;
  memset(&want, 0, sizeof want), memset(&got1, 0, sizeof got1), memset(&got2, 0, sizeof got2);
  uint64_t seed = rng.state;
  run_round(plain, A, x0, &want);
  rng.state = seed;
  run_round(on1, A, x0, &got1);
  rng.state = seed;
  run_round(on2, A, x0, &got2);
  round *gots[2] = {&got1, &got2};
  for (int g = 0; g < 2; g++) {
    round *r = gots[g];
    CHECKF(same_vector(r->y, want.y) && same_vector(r->x_solved, want.x_solved),
           "stream %d: SpMV / vector results or the solve differ from the default stream's", g + 1);
    CHECK(memcmp(r->reductions, want.reductions, sizeof want.reductions) == 0);
    CHECK(memcmp(r->scanned, want.scanned, sizeof want.scanned) == 0);
    CHECK(r->kept == want.kept &&
          memcmp(r->compacted, want.compacted, (size_t)want.kept * sizeof(uint32_t)) == 0);
    CHECK(memcmp(r->sorted, want.sorted, sizeof want.sorted) == 0);
    CHECK(memcmp(r->counts, want.counts, sizeof want.counts) == 0);
  }
  free_round(&want), free_round(&got1), free_round(&got2);
  csr_context_free(&plain);
  csr_context_free(&on1);
  csr_context_free(&on2);
}

/* 2: the asynchronous calls captured from the context's stream into a graph. */
static void captured(const csr_matrix *A, const csr_vector *x0, cudaStream_t s) {
  csr_context *ctx = csrt_context(CSR_BACKEND_CUDA), *ref = csrt_context(CSR_BACKEND_REF);
  CHECK_OK(ctx, csr_context_set_stream(ctx, s));
  csr_matrix *D = csrt_place_matrix(CSR_BACKEND_CUDA, A);
  csr_vector *x = csrt_place_vector(CSR_BACKEND_CUDA, x0), *y = NULL, *yh = NULL, *want = NULL;
  CHECK_OK(ctx, csr_vector_create(ctx, &y, A->rows, CSR_F64, CSR_DEVICE));
  CHECK_OK(ctx, csr_fill(ctx, 1.0, y));
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  /* The scan's workspace is the caller's: nothing is allocated while capturing. */
  uint32_t host[3000], scanned[3000];
  for (int i = 0; i < 3000; i++)
    host[i] = (uint32_t)i;
  uint32_t *in = csrt_place_bytes(CSR_BACKEND_CUDA, host, sizeof host);
  uint32_t *out = csrt_alloc_at(CSR_BACKEND_CUDA, sizeof host);
  size_t ws_bytes = 0;
  CHECK_OK(ctx, csr_scan(ctx, CSR_DEVICE, CSR_DATA_U32, CSR_SCAN_INCLUSIVE, in, out, 3000, NULL,
                         &ws_bytes));
  void *ws = csrt_alloc_at(CSR_BACKEND_CUDA, ws_bytes ? ws_bytes : 1);

  /* The first SpMV on a matrix counts its rows (synchronising) to choose the kernel, and sizes
   * the kernel's scratch: both happen before the capture, as a graph cannot synchronise. A
   * capture with nothing cached is refused, the capture left intact. */
  csr_matrix *fresh = NULL;
  CHECK_OK(ctx, csr_matrix_copy(ctx, D, &fresh, CSR_DEVICE));
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
  CHECK_STATUS(ctx, csr_spmv(ctx, 2.0, fresh, x, 0.5, y), CSR_ERR_UNSUPPORTED);
  CHECK(strstr(csr_context_last_error(ctx), "csr_spmv_choose") != NULL);
  cudaGraph_t graph = NULL;
  CHECK(cudaStreamEndCapture(s, &graph) == cudaSuccess);
  if (graph)
    cudaGraphDestroy(graph);
  graph = NULL;
  csr_matrix_free(&fresh);
  CHECK_OK(ctx, csr_spmv(ctx, 2.0, D, x, 0.5, y));
  CHECK_OK(ctx, csr_fill(ctx, 1.0, y));
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
  CHECK_OK(ctx, csr_spmv(ctx, 2.0, D, x, 0.5, y));
  CHECK_OK(ctx, csr_axpby(ctx, -1.0, x, 1.0, y));
  CHECK_OK(ctx, csr_scale(ctx, 0.25, y));
  CHECK_OK(ctx, csr_scan(ctx, CSR_DEVICE, CSR_DATA_U32, CSR_SCAN_INCLUSIVE, in, out, 3000, ws,
                         &ws_bytes));
  CHECK(cudaStreamEndCapture(s, &graph) == cudaSuccess && graph != NULL);
  size_t nodes = 0;
  CHECK(graph && cudaGraphGetNodes(graph, NULL, &nodes) == cudaSuccess);
  CHECKF(nodes >= 4, "the graph holds %zu nodes: at least SpMV, axpby, scale and the scan", nodes);
  yh = csrt_host_vector(y); /* nothing has run yet */
  int untouched = 1;
  for (int64_t i = 0; i < yh->n; i++)
    untouched = untouched && ((double *)yh->data)[i] == 1.0;
  CHECK(untouched);

  cudaGraphExec_t exec = NULL;
  CHECK(graph && cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  CHECK(exec && cudaGraphLaunch(exec, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  /* The same sequence on the host, by the reference backend. */
  CHECK_OK(ref, csr_vector_create(ref, &want, A->rows, CSR_F64, CSR_HOST));
  CHECK_OK(ref, csr_fill(ref, 1.0, want));
  CHECK_OK(ref, csr_spmv(ref, 2.0, A, x0, 0.5, want));
  CHECK_OK(ref, csr_axpby(ref, -1.0, x0, 1.0, want));
  CHECK_OK(ref, csr_scale(ref, 0.25, want));
  csrt_set_vector(yh, y);
  double worst = 0.0;
  for (int64_t i = 0; i < yh->n; i++) {
    double d = ((double *)yh->data)[i] - ((double *)want->data)[i];
    worst = d > worst ? d : -d > worst ? -d : worst;
  }
  CHECKF(worst <= 1e-12, "graph replay: max |y - reference| = %.3g", worst);
  csrt_fetch_bytes(CSR_BACKEND_CUDA, scanned, out, sizeof scanned);
  CHECK(scanned[0] == 0 && scanned[2999] == 2999u * 3000u / 2u);

  if (exec)
    cudaGraphExecDestroy(exec);
  if (graph)
    cudaGraphDestroy(graph);
  csrt_free_at(CSR_BACKEND_CUDA, in);
  csrt_free_at(CSR_BACKEND_CUDA, out);
  csrt_free_at(CSR_BACKEND_CUDA, ws);
  csr_vector_free(&x);
  csr_vector_free(&y);
  csr_vector_free(&yh);
  csr_vector_free(&want);
  csr_matrix_free(&D);
  csr_context_free(&ctx);
  csr_context_free(&ref);
}

/* A graph of one SpMV with `kernel` on a matrix that AUTO gives the stream kernel (rows of 12 to
 * 19), never multiplied before the capture; `prepared`: csr_spmv_choose was called before it,
 * which readies the kernel (tile starts kept, workspace grown), so the captured call neither
 * allocates nor synchronises and the replayed graph gives the reference's y. Unprepared, on a
 * fresh context, the call would have to grow the workspace: refused with CSR_ERR_UNSUPPORTED,
 * the capture left intact. */
static void captured_tiled(cudaStream_t s, csr_spmv_kernel kernel, int prepared) {
  csr_context *ctx = csrt_context(CSR_BACKEND_CUDA), *ref = csrt_context(CSR_BACKEND_REF);
  CHECK_OK(ctx, csr_context_set_stream(ctx, s));
  CHECK_OK(ctx, csr_context_set_kernel(ctx, kernel));
  const int64_t rows = 20000;
  int64_t *len = malloc((size_t)rows * sizeof *len);
  for (int64_t i = 0; i < rows; i++)
    len[i] = 12 + (int64_t)csrt_below(&rng, 8);
  csr_matrix *A = csrt_from_row_lengths(ref, rows, rows, len, CSR_F64, CSRT_RANDOM, &rng);
  free(len);
  csr_matrix *D = csrt_place_matrix(CSR_BACKEND_CUDA, A);
  csr_vector *x0 = csrt_random_vector(ref, rows, CSR_F64, &rng), *want = NULL, *yh = NULL;
  csr_vector *x = csrt_place_vector(CSR_BACKEND_CUDA, x0), *y = NULL;
  CHECK_OK(ctx, csr_vector_create(ctx, &y, rows, CSR_F64, CSR_DEVICE));
  if (prepared) {
    csr_spmv_choice choice;
    CHECK_OK(ctx, csr_spmv_choose(ctx, D, &choice));
    csr_spmv_kernel expected = kernel == CSR_KERNEL_AUTO ? CSR_KERNEL_STREAM : kernel;
    CHECKF(choice.kernel == expected, "chose %s", csr_spmv_kernel_name(choice.kernel));
  }
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  cudaGraph_t graph = NULL;
  cudaGraphExec_t exec = NULL;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
  if (!prepared) {
    CHECK_STATUS(ctx, csr_spmv(ctx, 1.0, D, x, 0.0, y), CSR_ERR_UNSUPPORTED);
    CHECK(strstr(csr_context_last_error(ctx), "before capturing") != NULL);
    CHECK(cudaStreamEndCapture(s, &graph) == cudaSuccess);
  } else {
    CHECK_OK(ctx, csr_spmv(ctx, 1.0, D, x, 0.0, y));
    CHECK(cudaStreamEndCapture(s, &graph) == cudaSuccess && graph != NULL);
    CHECK(graph && cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
    CHECK(exec && cudaGraphLaunch(exec, s) == cudaSuccess);
    CHECK(cudaStreamSynchronize(s) == cudaSuccess);
    CHECK_OK(ref, csr_vector_create(ref, &want, rows, CSR_F64, CSR_HOST));
    CHECK_OK(ref, csr_spmv(ref, 1.0, A, x0, 0.0, want));
    yh = csrt_host_vector(y);
    double worst = 0.0;
    for (int64_t i = 0; i < rows; i++) {
      double d = ((double *)yh->data)[i] - ((double *)want->data)[i];
      worst = d > worst ? d : -d > worst ? -d : worst;
    }
    CHECKF(worst <= 1e-12, "%s graph replay: max |y - reference| = %.3g",
           csr_spmv_kernel_name(kernel), worst);
  }
  if (exec)
    cudaGraphExecDestroy(exec);
  if (graph)
    cudaGraphDestroy(graph);
  csr_vector_free(&x0);
  csr_vector_free(&x);
  csr_vector_free(&y);
  csr_vector_free(&yh);
  csr_vector_free(&want);
  csr_matrix_free(&A);
  csr_matrix_free(&D);
  csr_context_free(&ctx);
  csr_context_free(&ref);
}

int main(void) {
  if (!csr_backend_available(CSR_BACKEND_CUDA) || !csr_cuda_device_present()) {
    printf("gpu_stream: no CUDA device (or CUDA backend not built): skipped\n");
    return 77;
  }
  rng.state = csrt_seed("gpu_stream");
  csr_context *ref = csrt_context(CSR_BACKEND_REF);
  csr_matrix *A = csrt_poisson_2d(ref, 60, 1.0); /* SPD */
  csr_vector *x0 = csrt_random_vector(ref, A->cols, CSR_F64, &rng);
  cudaStream_t s1 = NULL, s2 = NULL;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking) == cudaSuccess);
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking) == cudaSuccess);
  same_results(A, x0, s1, s2);
  captured(A, x0, s1);
  captured_tiled(s1, CSR_KERNEL_AUTO, 1);
  captured_tiled(s1, CSR_KERNEL_SEGMENTED, 1);
  captured_tiled(s1, CSR_KERNEL_SEGMENTED, 0);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
  csr_matrix_free(&A);
  csr_vector_free(&x0);
  csr_context_free(&ref);
  return csrt_finish("gpu_stream");
}
#else
int main(void) {
  printf("gpu_stream: built without the CUDA runtime: skipped\n");
  return 77;
}
#endif
