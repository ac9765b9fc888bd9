/* SPDX-License-Identifier: BSD-3-Clause */
/* COO to CSR past 2^31 triples on the device: 2^31 + 100 distinct pattern triples of a
 * (2^21 + 1) x 1024 matrix, entry k at (k / 1024, k % 1024), given in order (the one pass over
 * ordered triples) and in the order k -> k * 1000003 mod n (the radix sort, whose last pass
 * writes the CSR's columns, then the check over the sorted triples),
 * must give the CSR whose row i holds the columns 0 .. 1023 (the last row 100 of them), with
 * 64-bit offsets past 2^31. Checked on the host, entry by entry. The CPU backends are tested past
 * 2^31 elsewhere and would take minutes here: they skip. Needs ~62 GB of device memory for the
 * shuffled case and ~30 GB of host memory; skipped (exit 77) when less is available, under
 * AddressSanitizer, or with CSR_SKIP_LARGE set. */
#include "testing.h"

#include <stdlib.h>
#include <string.h>

#define COLS 1024
#define STEP INT64_C(1000003) /* prime, and no divisor of n: k -> k * STEP mod n permutes */

/* A = the expected matrix exactly: offsets i * COLS up to n, columns k % COLS. */
static void check_result(const csr_matrix *A, int64_t n, const char *order) {
  int offsets_ok = A != NULL && A->nnz == n && A->rows == (n + COLS - 1) / COLS &&
                   A->flags == (CSR_FLAG_SORTED | CSR_FLAG_NO_DUPLICATES);
  for (int64_t i = 0; offsets_ok && i <= A->rows; i++)
    offsets_ok = A->row_offsets[i] == (i * COLS < n ? i * COLS : n);
  int columns_ok = offsets_ok;
  for (int64_t k = 0; columns_ok && k < n; k++)
    columns_ok = A->col_indices[k] == (int32_t)(k % COLS);
  CHECK(offsets_ok);
  CHECK(columns_ok);
  printf("backend_large_coo: %s triples: %lld x %d, nnz %lld, offsets %s, columns %s\n", order,
         A ? (long long)A->rows : -1LL, COLS, A ? (long long)A->nnz : -1LL,
         offsets_ok ? "exact" : "WRONG", columns_ok ? "exact" : "WRONG");
}

int main(int argc, char **argv) {
  csr_backend backend = csrt_backend_from_args(argc, argv);
  if (backend != CSR_BACKEND_CUDA) {
    printf("backend_large_coo: the device's 64-bit paths only: skipped on %s\n",
           csr_backend_name(backend));
    return 77;
  }
  if (csrt_under_asan() || csrt_available_gib() < 40 || getenv("CSR_SKIP_LARGE")) {
    printf("backend_large_coo: needs ~30 GB of host memory (%lld GiB available): skipped\n",
           csrt_available_gib());
    return 77;
  }
  csr_context *ctx = csrt_context(backend), *ref = csrt_context(CSR_BACKEND_REF);
  const int64_t n = (INT64_C(1) << 31) + 100, rows = (n + COLS - 1) / COLS;
  csr_coo *T = NULL;
  CHECK_OK(ref, csr_coo_create(ref, &T, rows, COLS, n, CSR_PATTERN, CSR_HOST));
  for (int shuffled = 0; T != NULL && shuffled <= 1; shuffled++) {
    for (int64_t k = 0; k < n; k++) {
      const int64_t p = shuffled ? (int64_t)((uint64_t)k * (uint64_t)STEP % (uint64_t)n) : k;
      T->row_indices[k] = (int32_t)(p / COLS);
      T->col_indices[k] = (int32_t)(p % COLS);
    }
    csr_coo *D = NULL;
    csr_matrix *B = NULL, *H = NULL;
    CHECK_OK(ctx, csr_coo_copy(ctx, T, &D, CSR_DEVICE));
    if (D != NULL)
      CHECK_OK(ctx, csr_from_coo(ctx, D, 0, &B));
    csr_coo_free(&D);
    if (B != NULL)
      CHECK_OK(ctx, csr_matrix_copy(ctx, B, &H, CSR_HOST));
    csr_matrix_free(&B);
    check_result(H, n, shuffled ? "shuffled" : "ordered");
    csr_matrix_free(&H);
  }
  csr_coo_free(&T);
  csr_context_free(&ctx);
  csr_context_free(&ref);
  return csrt_finish("backend_large_coo");
}
