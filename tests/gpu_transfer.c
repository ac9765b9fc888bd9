/* SPDX-License-Identifier: BSD-3-Clause */
/* Host <-> device round trips of every object through the CUDA backend (label gpu). */
#include "testing.h"

#include <stdlib.h>
#include <string.h>

static void round_trip_matrices(csr_context *ctx, csrt_rng *rng) {
  const csr_value_type types[3] = {CSR_F64, CSR_F32, CSR_PATTERN};
  for (int s = 0; s < CSRT_SHAPE_COUNT; s++)
    for (int t = 0; t < 3; t++) {
      csr_matrix *A = csrt_generate(ctx, (csrt_shape)s, types[t], CSRT_RANDOM, rng);
      csr_matrix *D = NULL, *D2 = NULL, *H = NULL;
      int eq = 0;
      CHECK_OK(ctx, csr_matrix_copy(ctx, A, &D, CSR_DEVICE));
      CHECK(D && D->location == CSR_DEVICE);
      CHECK_OK(ctx, csr_matrix_validate(ctx, D));              /* validated on the device */
      CHECK_OK(ctx, csr_matrix_copy(ctx, D, &D2, CSR_DEVICE)); /* device -> device */
      CHECK_OK(ctx, csr_matrix_copy(ctx, D2, &H, CSR_HOST));
      CHECK_OK(ctx, csr_matrix_equal(ctx, A, H, &eq));
      if (!eq)
        printf("round trip differs: shape %s type %d\n", csrt_shape_name((csrt_shape)s), t);
      CHECK(eq == 1 && H->flags == A->flags);
      CHECK_STATUS(ctx, csr_matrix_equal(ctx, A, D, &eq), CSR_ERR_LOCATION_MISMATCH);
      csr_matrix_free(&A);
      csr_matrix_free(&D);
      csr_matrix_free(&D2);
      csr_matrix_free(&H);
    }
}

/* An invalid matrix on the device is found by the validator (one pass on the device). */
static void invalid_on_device(csr_context *ctx, csrt_rng *rng) {
  csr_matrix *A = csrt_generate(ctx, CSRT_RANDOM_SQUARE, CSR_F64, CSRT_RANDOM, rng), *D = NULL;
  A->col_indices[A->nnz / 2] = (int32_t)A->cols; /* out of range */
  CHECK_OK(ctx, csr_matrix_copy(ctx, A, &D, CSR_DEVICE));
  CHECK_STATUS(ctx, csr_matrix_validate(ctx, D), CSR_ERR_INDEX_OUT_OF_BOUNDS);
  csr_matrix_free(&A);
  csr_matrix_free(&D);
}

static void round_trip_others(csr_context *ctx, csrt_rng *rng) {
  csr_coo *T = NULL, *TD = NULL, *TH = NULL;
  CHECK_OK(ctx, csr_coo_create(ctx, &T, 100, 90, 1000, CSR_F64, CSR_HOST));
  for (int64_t k = 0; k < T->nnz; k++) {
    T->row_indices[k] = (int32_t)csrt_below(rng, 100);
    T->col_indices[k] = (int32_t)csrt_below(rng, 90);
    ((double *)T->values)[k] = csrt_uniform(rng, -1, 1);
  }
  CHECK_OK(ctx, csr_coo_copy(ctx, T, &TD, CSR_DEVICE));
  CHECK_OK(ctx, csr_coo_copy(ctx, TD, &TH, CSR_HOST));
  CHECK(TH && memcmp(TH->row_indices, T->row_indices, 4000) == 0 &&
        memcmp(TH->col_indices, T->col_indices, 4000) == 0 &&
        memcmp(TH->values, T->values, 8000) == 0);
  csr_coo_free(&T);
  csr_coo_free(&TD);
  csr_coo_free(&TH);

  csr_dense *M = NULL, *MD = NULL, *MH = NULL;
  CHECK_OK(ctx, csr_dense_create(ctx, &M, 37, 21, CSR_COL_MAJOR, CSR_F32, CSR_HOST));
  for (int64_t k = 0; k < 37 * 21; k++)
    ((float *)M->data)[k] = (float)csrt_uniform(rng, -1, 1);
  CHECK_OK(ctx, csr_dense_copy(ctx, M, &MD, CSR_DEVICE));
  CHECK_OK(ctx, csr_dense_copy(ctx, MD, &MH, CSR_HOST));
  CHECK(MH && memcmp(MH->data, M->data, 37 * 21 * sizeof(float)) == 0);
  csr_dense_free(&M);
  csr_dense_free(&MD);
  csr_dense_free(&MH);

  csr_vector *v = csrt_random_vector(ctx, 12345, CSR_F64, rng), *vd = NULL, *vh = NULL;
  CHECK_OK(ctx, csr_vector_clone(ctx, v, &vd, CSR_DEVICE));
  CHECK_OK(ctx, csr_vector_clone(ctx, vd, &vh, CSR_HOST));
  CHECK(vh && memcmp(vh->data, v->data, 12345 * sizeof(double)) == 0);
  csr_vector_free(&v);
  csr_vector_free(&vd);
  csr_vector_free(&vh);
}

/* Tens of millions of entries: transfers larger than any staging buffer. */
static void large_round_trip(csr_context *ctx, csrt_rng *rng) {
  int64_t rows = 4000000;
  int64_t *len = malloc((size_t)rows * sizeof(int64_t));
  for (int64_t i = 0; i < rows; i++)
    len[i] = 8 + (int64_t)csrt_below(rng, 9);
  csr_matrix *A = csrt_from_row_lengths(ctx, rows, rows, len, CSR_F64, CSRT_RANDOM, rng);
  csr_matrix *D = NULL, *H = NULL;
  int eq = 0;
  CHECK_OK(ctx, csr_matrix_copy(ctx, A, &D, CSR_DEVICE));
  CHECK_OK(ctx, csr_matrix_copy(ctx, D, &H, CSR_HOST));
  CHECK_OK(ctx, csr_matrix_equal(ctx, A, H, &eq));
  CHECK(eq == 1);
  printf("large round trip: %lld rows, %lld nnz\n", (long long)A->rows, (long long)A->nnz);
  csr_matrix_free(&A);
  csr_matrix_free(&D);
  csr_matrix_free(&H);
  free(len);
}

/* Every allocation of a device copy failing in turn: out-of-memory, nothing left behind. */
static void device_allocation_failures(csr_context *ctx, csrt_rng *rng) {
  csr_matrix *A = csrt_generate(ctx, CSRT_RANDOM_SQUARE, CSR_F64, CSRT_RANDOM, rng), *D = NULL;
  for (int64_t n = 1;; n++) {
    csr_debug_fail_allocation_after(n);
    csr_status s = csr_matrix_copy(ctx, A, &D, CSR_DEVICE);
    csr_debug_fail_allocation_after(0);
    if (s == CSR_SUCCESS) {
      CHECK(n > 3); /* descriptor, offsets, indices, values */
      csr_matrix_free(&D);
      break;
    }
    CHECK(s == CSR_ERR_OUT_OF_MEMORY && D == NULL);
  }
  csr_matrix_free(&A);
}

int main(void) {
  if (!csr_backend_available(CSR_BACKEND_CUDA) || !csr_cuda_device_present()) {
    printf("gpu_transfer: no CUDA device (or CUDA backend not built): skipped\n");
    return 77;
  }
  csrt_rng rng = {csrt_seed("gpu_transfer")};
  csr_context *ctx = csrt_context(CSR_BACKEND_CUDA);
  round_trip_matrices(ctx, &rng);
  invalid_on_device(ctx, &rng);
  round_trip_others(ctx, &rng);
  large_round_trip(ctx, &rng);
  device_allocation_failures(ctx, &rng);
  csr_context_free(&ctx);
  return csrt_finish("gpu_transfer");
}
