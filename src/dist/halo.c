/* SPDX-License-Identifier: BSD-3-Clause */
/* The halo exchange of x: each neighbour's ghosts arrive in their slice of the ghost area (the
 * ghosts are sorted, and a rank's columns are one block, so each sender's share is contiguous);
 * the owned entries others read are packed per neighbour and sent. On a GPU rank the packing is an
 * SpMV by the selection matrix (a gather on the device, with the single-process kernels), and the
 * data goes through page-locked host buffers, or straight from and to device memory when the
 * MPI library can, or through NCCL when every rank has a GPU of its own (src/dist/nccl.c). */
#include "dist/dist.h"

static MPI_Datatype mpi_type(csr_value_type type) {
  return type == CSR_F64 ? MPI_DOUBLE : MPI_FLOAT;
}

/* The owned entries to send, in send_index order, at `to` (host). */
static void pack_host(const csri_dist_halo *h, const csr_dist_vector *x, void *to) {
  int64_t total = h->send_at[h->send_ranks];
  if (x->value_type == CSR_F64) {
    const double *from = x->data;
    for (int64_t k = 0; k < total; k++)
      ((double *)to)[k] = from[h->send_index[k]];
  } else {
    const float *from = x->data;
    for (int64_t k = 0; k < total; k++)
      ((float *)to)[k] = from[h->send_index[k]];
  }
}

/* The same on the device: send = S x_own, then (through the host) into the send buffer; with
 * NCCL the packing is left on the stream, which the exchange follows. */
static csr_status pack_device(csr_context *ctx, const csri_dist_halo *h, const csr_dist_vector *x,
                              int64_t own) {
  int64_t total = h->send_at[h->send_ranks];
  csr_vector xv = csri_dist_view(x, 0, own), sv;
  sv = xv;
  sv.n = total;
  sv.data = h->send_device;
  CSRI_TRY(csr_spmv(ctx, 1.0, h->select, &xv, 0.0, &sv));
  if (h->nccl != NULL)
    return CSR_SUCCESS;
  if (h->device_direct)
    return csri_dist_device_sync(ctx);
  return csri_array_copy(ctx, h->send_buffer, CSR_HOST, h->send_device, CSR_DEVICE,
                         (size_t)total * csri_value_size(x->value_type));
}

csr_status csri_dist_halo_start(csr_context *ctx, const csr_dist_matrix *A,
                                const csr_dist_vector *x) {
  csri_dist_halo *h = (csri_dist_halo *)&A->halo;
  if (h->nccl != NULL && x->location == CSR_DEVICE) { /* device to device, on NCCL's stream */
    csr_status packed = pack_device(ctx, h, x, A->cols->count);
    size_t vb = csri_value_size(x->value_type);
    csr_status sent = csri_dist_nccl_exchange(
        ctx, h->nccl, h, (char *)x->data + (size_t)A->cols->count * vb, x->value_type);
    return packed < 0 ? packed : sent;
  }
  MPI_Comm comm = A->cols->comm;
  MPI_Datatype type = mpi_type(x->value_type);
  size_t vb = csri_value_size(x->value_type);
  int gpu = x->location == CSR_DEVICE, direct = gpu && h->device_direct;
  char *ghosts =
      gpu && !direct ? (char *)h->recv_buffer : (char *)x->data + (size_t)A->cols->count * vb;
  char *send = direct ? (char *)h->send_device : (char *)h->send_buffer;
  int n = 0;
  for (int k = 0; k < h->recv_ranks; k++, n++)
    CSRI_MPI(ctx, MPI_Irecv(ghosts + (size_t)h->recv_at[k] * vb,
                            (int)(h->recv_at[k + 1] - h->recv_at[k]), type, h->recv_rank[k], 0,
                            comm, &h->requests[n]));
  /* A packing that fails (a device error) still sends, so that every exchange completes and no
   * neighbour waits; the caller reports the error, agreed on, afterwards. */
  csr_status packed = CSR_SUCCESS;
  if (gpu && h->send_at[h->send_ranks] > 0) /* nothing to send: no launch, no copy, no wait */
    packed = pack_device(ctx, h, x, A->cols->count);
  else
    pack_host(h, x, h->send_buffer);
  for (int k = 0; k < h->send_ranks; k++, n++)
    CSRI_MPI(ctx,
             MPI_Isend(send + (size_t)h->send_at[k] * vb, (int)(h->send_at[k + 1] - h->send_at[k]),
                       type, h->send_rank[k], 0, comm, &h->requests[n]));
  return packed;
}

csr_status csri_dist_halo_finish(csr_context *ctx, const csr_dist_matrix *A,
                                 const csr_dist_vector *x) {
  const csri_dist_halo *h = &A->halo;
  if (h->nccl != NULL && x->location == CSR_DEVICE)
    return csri_dist_nccl_wait(ctx, h->nccl);
  CSRI_MPI(ctx, MPI_Waitall(h->recv_ranks + h->send_ranks, h->requests, MPI_STATUSES_IGNORE));
  if (x->location != CSR_DEVICE || h->device_direct || h->ghosts == 0)
    return CSR_SUCCESS;
  size_t vb = csri_value_size(x->value_type);
  return csri_array_copy(ctx, (char *)x->data + (size_t)A->cols->count * vb, CSR_DEVICE,
                         h->recv_buffer, CSR_HOST, (size_t)h->ghosts * vb);
}
