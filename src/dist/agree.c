/* SPDX-License-Identifier: BSD-3-Clause */
/* Collective agreement on a call's outcome: one MPI_Allreduce finds the lowest failing rank; only
 * when there is one does it broadcast its status and message to the others. So an error seen on
 * one rank (its file, its allocation, its device) is returned by all, and none is left waiting
 * in a later collective for a rank that gave up. */
#include "dist/dist.h"

#include <stdio.h>
#include <string.h>

csr_status csri_dist_mpi_error(csr_context *ctx, int code, const char *call) {
  char text[MPI_MAX_ERROR_STRING] = "";
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS)
    snprintf(text, sizeof text, "error code %d", code);
  return CSRI_FAIL(ctx, CSR_ERR_IO, "%s failed: %s", call, text);
}

/* What travels from the failing rank: its status and its context's error text. */
typedef struct verdict {
  int status;
  int message_at; /* where the message starts after the source location */
  char error[CSRI_ERROR_CAPACITY];
} verdict;

csr_status csri_dist_agree(csr_context *ctx, MPI_Comm comm, csr_status status) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  /* {lowest failing rank (size: none), -1 when some rank succeeded}, both by MPI_MIN. */
  int mine[2] = {status < 0 ? rank : size, status < 0 ? 0 : -1}, all[2];
  int code = MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MIN, comm);
  if (code != MPI_SUCCESS)
    return csri_dist_mpi_error(ctx, code, "MPI_Allreduce (agreeing on a status)");
  if (all[0] == size)
    return status;
  verdict v;
  memset(&v, 0, sizeof v);
  if (rank == all[0]) {
    v.status = status;
    if (ctx != NULL && ctx->last_status == status) {
      memcpy(v.error, ctx->last_error, sizeof v.error);
      v.message_at = ctx->last_message_at;
    } else {
      snprintf(v.error, sizeof v.error, "%s", csr_status_string(status));
    }
  }
  code = MPI_Bcast(&v, (int)sizeof v, MPI_BYTE, all[0], comm);
  if (code != MPI_SUCCESS)
    return csri_dist_mpi_error(ctx, code, "MPI_Bcast (sharing an error)");
  v.error[sizeof v.error - 1] = '\0';
  if (ctx == NULL)
    return (csr_status)v.status;
  ctx->last_status = (csr_status)v.status;
  if (all[1] == 0) { /* every rank failed: the lowest's words, as they are */
    memcpy(ctx->last_error, v.error, sizeof v.error);
    ctx->last_message_at = v.message_at;
    return (csr_status)v.status;
  }
  /* Some ranks did not fail: say whose error it is, before the message. */
  char prefix[48];
  snprintf(prefix, sizeof prefix, "rank %d of %d: ", all[0], size);
  int at = v.message_at < 0 || v.message_at > (int)strlen(v.error) ? 0 : v.message_at;
  snprintf(ctx->last_error, sizeof ctx->last_error, "%.*s%s%s", at, v.error, prefix, v.error + at);
  ctx->last_message_at = at;
  return (csr_status)v.status;
}

csr_status csri_dist_adopt(csr_context *ctx, MPI_Comm comm, int root, csr_status status) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  verdict v;
  memset(&v, 0, sizeof v);
  if (rank == root) {
    v.status = status;
    if (ctx != NULL && status < 0 && ctx->last_status == status) {
      memcpy(v.error, ctx->last_error, sizeof v.error);
      v.message_at = ctx->last_message_at;
    }
  }
  int code = MPI_Bcast(&v, (int)sizeof v, MPI_BYTE, root, comm);
  if (code != MPI_SUCCESS)
    return csri_dist_mpi_error(ctx, code, "MPI_Bcast (sharing an error)");
  v.error[sizeof v.error - 1] = '\0';
  if (ctx != NULL && v.status < 0) {
    ctx->last_status = (csr_status)v.status;
    memcpy(ctx->last_error, v.error, sizeof v.error);
    ctx->last_message_at = v.message_at;
  }
  return (csr_status)v.status;
}
