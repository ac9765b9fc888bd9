/* SPDX-License-Identifier: BSD-3-Clause */
/* The halo of GPU ranks through NCCL: when every rank has a GPU of its own, the packed entries go
 * from device memory to the neighbours' ghost areas in device memory (ncclSend / ncclRecv in one
 * group), over NVLink or PCIe as NCCL finds best, with no copy through the host and no host
 * synchronisation. The exchange runs on a stream of its own, after an event that marks the
 * packing on the context's stream, so the interior product runs while it travels; the context's
 * stream then waits on the exchange's event before the boundary product. Without NCCL (or with
 * ranks sharing a GPU, which NCCL refuses) every function here leaves MPI to carry the halo. */
#include "dist/dist.h"

#include <stdlib.h>
#include <string.h>

#if CSR_HAVE_NCCL
#include <cuda_runtime_api.h>
#include <nccl.h>

struct csri_dist_nccl {
  ncclComm_t comm;
  cudaStream_t stream;         /* the exchange's */
  cudaEvent_t packed, arrived; /* on the context's stream, on the exchange's */
};

/* What each rank tells the others: whether it can take part, whether it asks to try NCCL even
 * on shared GPUs (CSR_NCCL=1: NCCL then refuses, and the fallback to MPI is what runs), and
 * its GPU's identity. */
typedef struct rank_card {
  unsigned char uuid[16];
  int willing, insist;
} rank_card;

static rank_card my_card(int device) {
  rank_card c;
  memset(&c, 0, sizeof c);
  const char *env = getenv("CSR_NCCL");
  int gpu = -1;
  struct cudaDeviceProp prop;
  if (device && (env == NULL || strcmp(env, "0") != 0) && cudaGetDevice(&gpu) == cudaSuccess &&
      cudaGetDeviceProperties(&prop, gpu) == cudaSuccess) {
    memcpy(c.uuid, prop.uuid.bytes, sizeof c.uuid);
    c.willing = 1;
    c.insist = env != NULL && strcmp(env, "1") == 0;
  }
  cudaGetLastError();
  return c;
}

/* 1 when every rank is willing and no two name the same GPU; the same answer on every rank,
 * computed from the same gathered cards. */
static int all_apart(const rank_card *cards, int size) {
  for (int a = 0; a < size; a++) {
    if (!cards[a].willing)
      return 0;
    for (int b = 0; b < a && !cards[a].insist; b++)
      if (memcmp(cards[a].uuid, cards[b].uuid, sizeof cards[a].uuid) == 0)
        return 0;
  }
  return 1;
}

static void release(csri_dist_nccl *n) {
  if (n->comm != NULL)
    ncclCommDestroy(n->comm);
  if (n->stream != NULL)
    cudaStreamDestroy(n->stream);
  if (n->packed != NULL)
    cudaEventDestroy(n->packed);
  if (n->arrived != NULL)
    cudaEventDestroy(n->arrived);
  cudaGetLastError();
  csri_free(n);
}

csr_status csri_dist_nccl_create(csr_context *ctx, MPI_Comm comm, int device,
                                 csri_dist_nccl **nccl) {
  *nccl = NULL;
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  rank_card mine = my_card(device), *cards = csri_malloc((size_t)size * sizeof *cards);
  int have = cards != NULL, all_have = 0;
  CSRI_MPI(ctx, MPI_Allreduce(&have, &all_have, 1, MPI_INT, MPI_MIN, comm));
  if (!all_have) { /* no room to compare: MPI it is, on every rank */
    csri_free(cards);
    return CSR_SUCCESS;
  }
  int code =
      MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, cards, (int)sizeof mine, MPI_BYTE, comm);
  int apart = code == MPI_SUCCESS && all_apart(cards, size);
  csri_free(cards);
  if (code != MPI_SUCCESS)
    return csri_dist_mpi_error(ctx, code, "MPI_Allgather (NCCL)");
  if (!apart || size == 1) /* one rank has no one to exchange with */
    return CSR_SUCCESS;
  /* Rank 0's id, and whether it got one, reach every rank in one broadcast. */
  struct {
    ncclUniqueId id;
    int ok;
  } root;
  memset(&root, 0, sizeof root);
  if (rank == 0)
    root.ok = ncclGetUniqueId(&root.id) == ncclSuccess;
  CSRI_MPI(ctx, MPI_Bcast(&root, (int)sizeof root, MPI_BYTE, 0, comm));
  if (!root.ok)
    return CSR_SUCCESS;
  csri_dist_nccl *n = csri_malloc(sizeof *n);
  int ok = n != NULL;
  if (ok) {
    memset(n, 0, sizeof *n);
    ok = ncclCommInitRank(&n->comm, size, root.id, rank) == ncclSuccess &&
         cudaStreamCreateWithFlags(&n->stream, cudaStreamNonBlocking) == cudaSuccess &&
         cudaEventCreateWithFlags(&n->packed, cudaEventDisableTiming) == cudaSuccess &&
         cudaEventCreateWithFlags(&n->arrived, cudaEventDisableTiming) == cudaSuccess;
  }
  int all_ok = 0;
  CSRI_MPI(ctx, MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm));
  if (!all_ok) { /* NCCL did not start everywhere: MPI carries the halo, on every rank */
    if (n != NULL)
      release(n);
    return CSR_SUCCESS;
  }
  *nccl = n;
  return CSR_SUCCESS;
}

void csri_dist_nccl_free(csri_dist_nccl **nccl) {
  if (nccl == NULL || *nccl == NULL)
    return;
  release(*nccl);
  *nccl = NULL;
}

static csr_status nccl_error(csr_context *ctx, ncclResult_t r, const char *what) {
  return CSRI_FAIL(ctx, CSR_ERR_DEVICE, "%s: %s", what, ncclGetErrorString(r));
}

static csr_status cuda_error(csr_context *ctx, cudaError_t e, const char *what) {
  cudaGetLastError();
  return CSRI_FAIL(ctx, CSR_ERR_DEVICE, "%s: %s", what, cudaGetErrorString(e));
}

csr_status csri_dist_nccl_exchange(csr_context *ctx, csri_dist_nccl *nccl, const csri_dist_halo *h,
                                   void *ghosts, csr_value_type type) {
  cudaStream_t stream = (cudaStream_t)csr_context_stream(ctx);
  cudaError_t e = cudaEventRecord(nccl->packed, stream);
  if (e == cudaSuccess)
    e = cudaStreamWaitEvent(nccl->stream, nccl->packed, 0);
  if (e != cudaSuccess)
    return cuda_error(ctx, e, "ordering the NCCL exchange after the packing");
  const ncclDataType_t t = type == CSR_F64 ? ncclFloat64 : ncclFloat32;
  const size_t vb = csri_value_size(type);
  ncclResult_t r = ncclGroupStart();
  for (int k = 0; r == ncclSuccess && k < h->recv_ranks; k++)
    r = ncclRecv((char *)ghosts + (size_t)h->recv_at[k] * vb,
                 (size_t)(h->recv_at[k + 1] - h->recv_at[k]), t, h->recv_rank[k], nccl->comm,
                 nccl->stream);
  for (int k = 0; r == ncclSuccess && k < h->send_ranks; k++)
    r = ncclSend((const char *)h->send_device + (size_t)h->send_at[k] * vb,
                 (size_t)(h->send_at[k + 1] - h->send_at[k]), t, h->send_rank[k], nccl->comm,
                 nccl->stream);
  ncclResult_t end = ncclGroupEnd(); /* always closed, whatever a call in it said */
  r = r == ncclSuccess ? end : r;
  if (r != ncclSuccess)
    return nccl_error(ctx, r, "the NCCL halo exchange");
  e = cudaEventRecord(nccl->arrived, nccl->stream);
  return e == cudaSuccess ? CSR_SUCCESS : cuda_error(ctx, e, "marking the NCCL exchange");
}

csr_status csri_dist_nccl_wait(csr_context *ctx, csri_dist_nccl *nccl) {
  cudaError_t e = cudaStreamWaitEvent((cudaStream_t)csr_context_stream(ctx), nccl->arrived, 0);
  return e == cudaSuccess ? CSR_SUCCESS : cuda_error(ctx, e, "waiting for the NCCL exchange");
}

#else /* without NCCL: MPI carries every halo */

csr_status csri_dist_nccl_create(csr_context *ctx, MPI_Comm comm, int device,
                                 csri_dist_nccl **nccl) {
  (void)ctx;
  (void)comm;
  (void)device;
  *nccl = NULL;
  return CSR_SUCCESS;
}

void csri_dist_nccl_free(csri_dist_nccl **nccl) {
  if (nccl != NULL)
    *nccl = NULL;
}

csr_status csri_dist_nccl_exchange(csr_context *ctx, csri_dist_nccl *nccl, const csri_dist_halo *h,
                                   void *ghosts, csr_value_type type) {
  (void)nccl;
  (void)h;
  (void)ghosts;
  (void)type;
  return CSRI_FAIL(ctx, CSR_ERR_NOT_COMPILED, "libcsr was built without NCCL");
}

csr_status csri_dist_nccl_wait(csr_context *ctx, csri_dist_nccl *nccl) {
  (void)nccl;
  return CSRI_FAIL(ctx, CSR_ERR_NOT_COMPILED, "libcsr was built without NCCL");
}

#endif
