/* SPDX-License-Identifier: BSD-3-Clause */
/* Layouts (src/dist/dist.h): which global indices each rank holds, and in which order; and the
 * communicator duplicate the objects share. */
#include "dist/dist.h"

#include <string.h>

csr_status csri_dist_comm_dup(csr_context *ctx, MPI_Comm comm, MPI_Comm *dup, int **refs) {
  *dup = MPI_COMM_NULL;
  *refs = csri_malloc(sizeof **refs);
  csr_status status =
      *refs ? CSR_SUCCESS
            : CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating a communicator's count failed");
  status = csri_dist_agree(ctx, comm, status); /* MPI_Comm_dup is collective */
  if (status >= 0) {
    int code = MPI_Comm_dup(comm, dup);
    if (code != MPI_SUCCESS)
      status = csri_dist_mpi_error(ctx, code, "MPI_Comm_dup");
  }
  if (status < 0) {
    csri_free(*refs);
    *refs = NULL;
    return status;
  }
  **refs = 1;
  return CSR_SUCCESS;
}

void csri_dist_comm_release(MPI_Comm *comm, int **refs) {
  if (*refs == NULL)
    return;
  if (--**refs == 0) {
    MPI_Comm_free(comm);
    csri_free(*refs);
  }
  *refs = NULL;
  *comm = MPI_COMM_NULL;
}

csr_status csri_dist_layout_create(csr_context *ctx, MPI_Comm comm, int *comm_refs, int64_t n,
                                   const int64_t *starts, csri_dist_layout **L) {
  *L = NULL;
  csri_dist_layout *l = csri_calloc(1, sizeof *l);
  if (l == NULL)
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating a layout failed");
  MPI_Comm_rank(comm, &l->rank);
  MPI_Comm_size(comm, &l->size);
  l->starts = csri_malloc(((size_t)l->size + 1) * sizeof *l->starts);
  if (l->starts == NULL) {
    csri_free(l);
    return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating a layout failed");
  }
  memcpy(l->starts, starts, ((size_t)l->size + 1) * sizeof *l->starts);
  l->refs = 1;
  l->comm = comm;
  l->comm_refs = comm_refs;
  ++*comm_refs;
  l->n = n;
  l->first = starts[l->rank];
  l->count = starts[l->rank + 1] - starts[l->rank];
  *L = l;
  return CSR_SUCCESS;
}

void csri_dist_layout_retain(csri_dist_layout *L) {
  L->refs++;
}

void csri_dist_layout_release(csri_dist_layout **L) {
  csri_dist_layout *l = *L;
  *L = NULL;
  if (l == NULL || --l->refs > 0)
    return;
  csri_dist_comm_release(&l->comm, &l->comm_refs);
  csri_free(l->starts);
  csri_free(l->order);
  csri_free(l->position);
  csri_free(l);
}

int csri_dist_layout_same(const csri_dist_layout *a, const csri_dist_layout *b) {
  if (a == b)
    return 1;
  int relation = MPI_UNEQUAL;
  if (a->n != b->n || a->size != b->size || a->rank != b->rank ||
      MPI_Comm_compare(a->comm, b->comm, &relation) != MPI_SUCCESS ||
      (relation != MPI_IDENT && relation != MPI_CONGRUENT) ||
      memcmp(a->starts, b->starts, ((size_t)a->size + 1) * sizeof *a->starts) != 0)
    return 0;
  if ((a->order == NULL) != (b->order == NULL))
    return 0;
  return a->order == NULL || memcmp(a->order, b->order, (size_t)a->count * sizeof *a->order) == 0;
}
