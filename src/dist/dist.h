/* SPDX-License-Identifier: BSD-3-Clause */
/* The distributed layer's objects (include/csr_mpi.h), shared by the files of src/dist. Internal.
 *
 * A layout says which global indices each rank holds and in what order it stores them:
 *   rank r holds [starts[r], starts[r + 1]); local position p holds global index
 *   first + order[p] (order NULL: p itself).
 * A matrix's rows are stored interior rows first (those that read no ghost column), then the
 * boundary rows, each group in global order: the two groups are two ordinary csr_matrix objects
 * that the single-process kernels multiply, the first while the halo travels. Vectors laid out
 * like those rows store their entries in the same order, so y of each group is a contiguous
 * slice; a square matrix whose rows and columns are split alike renames its owned columns the
 * same way, so that x, y, b and the solvers' vectors share one layout. */
#ifndef CSR_DIST_DIST_H
#define CSR_DIST_DIST_H

#include "core/internal.h"
#include "csr_mpi.h"
#include "kernels/exact_sum.h"

/* --- layouts (src/dist/layout.c) --------------------------------------------------------- */

typedef struct csri_dist_layout {
  int refs;
  MPI_Comm comm; /* the objects' duplicate, freed with the last layout that holds it */
  int *comm_refs;
  int rank, size;
  int64_t n;       /* global length */
  int64_t *starts; /* size + 1 entries, the same on every rank */
  int64_t first, count;
  int64_t *order;    /* count entries, or NULL: identity */
  int64_t *position; /* its inverse: position[g - first] = p, or NULL */
} csri_dist_layout;

/* A new layout of n entries in blocks `starts` (copied) over comm (shared, counted in comm_refs);
 * order NULL (identity) until set. */
csr_status csri_dist_layout_create(csr_context *ctx, MPI_Comm comm, int *comm_refs, int64_t n,
                                   const int64_t *starts, csri_dist_layout **L);
void csri_dist_layout_retain(csri_dist_layout *L);
void csri_dist_layout_release(csri_dist_layout **L);
/* 1 when a and b hold the same indices in the same order (a == b, or equal contents). */
int csri_dist_layout_same(const csri_dist_layout *a, const csri_dist_layout *b);

/* A communicator duplicate with a count of the objects holding it. */
csr_status csri_dist_comm_dup(csr_context *ctx, MPI_Comm comm, MPI_Comm *dup, int **refs);
void csri_dist_comm_release(MPI_Comm *comm, int **refs);

/* --- agreement (src/dist/agree.c) --------------------------------------------------------- */

/* Every rank passes its own status; all return the same: the first error of the lowest failing
 * rank (its message copied into every context, prefixed "rank r of P: " unless every rank
 * failed), else the local status (success or information). Collective. */
csr_status csri_dist_agree(csr_context *ctx, MPI_Comm comm, csr_status status);
/* Every rank returns rank root's status, with its message as it is (no rank named): for an
 * error that belongs to all, such as a bad line of a file one rank parsed. Collective. */
csr_status csri_dist_adopt(csr_context *ctx, MPI_Comm comm, int root, csr_status status);
/* An MPI call's error code as CSR_ERR_IO, naming the call. */
csr_status csri_dist_mpi_error(csr_context *ctx, int code, const char *call);
#define CSRI_MPI(ctx, call)                                                                        \
  do {                                                                                             \
    int csri_mpi_code_ = (call);                                                                   \
    if (csri_mpi_code_ != MPI_SUCCESS)                                                             \
      return csri_dist_mpi_error((ctx), csri_mpi_code_, #call);                                    \
  } while (0)

/* --- the halo plan and the matrix (src/dist/assemble.c, src/dist/halo.c) ------------------- */

typedef struct csri_dist_halo {
  int64_t ghosts;         /* ghost entries, received after the owned ones of x */
  int64_t *ghost_columns; /* their global columns, ascending */
  int recv_ranks;         /* neighbours it receives from */
  int *recv_rank;         /* ascending */
  int64_t *recv_at;       /* recv_ranks + 1: slice of the ghost area from each */
  int send_ranks;
  int *send_rank;
  int64_t *send_at;    /* send_ranks + 1: slice of send_index for each */
  int64_t *send_index; /* local positions of x's owned entries, in each neighbour's order */
  void *send_buffer;   /* room for send_at[send_ranks] doubles (host; pinned on GPU ranks) */
  /* GPU ranks: x's owned entries to send are gathered on the device by an SpMV with `select`
   * (row k: a 1 at column send_index[k]) into send_device; received ghosts land in recv_buffer
   * (pinned) and go up in one copy, unless the MPI library takes device pointers. */
  csr_matrix *select;
  void *send_device, *recv_buffer;
  int device_direct;     /* 1: MPI reads and writes device memory itself */
  MPI_Request *requests; /* recv_ranks + send_ranks */
  /* GPU ranks each on a GPU of its own, with NCCL: the exchange goes device to device through
   * NCCL on a stream of its own (src/dist/nccl.c); NULL otherwise. */
  struct csri_dist_nccl *nccl;
} csri_dist_halo;

struct csr_dist_matrix {
  csri_dist_layout *rows, *cols; /* the same object when rows and columns are split alike */
  int64_t global_rows, global_cols, global_nnz;
  csr_value_type value_type;
  csr_location location;
  csr_matrix *interior; /* rows that read owned columns only, columns renamed locally */
  csr_matrix *boundary; /* the other rows */
  csri_dist_halo halo;
  double comm_seconds;
};

struct csr_dist_vector {
  csri_dist_layout *layout;
  csr_value_type value_type;
  csr_location location;
  int64_t capacity;  /* entries allocated: count, plus room for a matrix's ghosts */
  csr_vector *local; /* count entries (a view of data) */
  void *data;
};

/* Entries of one rank's rows before assembly: local row, global column, value, and a sequence
 * key saying which of two duplicates came first. */
typedef struct csri_dist_triples {
  int64_t count;
  int64_t *row; /* global rows (the receiver subtracts its first row) */
  int64_t *col;
  int64_t *seq;
  void *values; /* count values of value_type, or NULL for a pattern */
  csr_value_type value_type;
} csri_dist_triples;
/* Room for count triples (t->count = count); all NULL on failure. */
csr_status csri_dist_triples_make(csr_context *ctx, csri_dist_triples *t, int64_t count,
                                  csr_value_type type);
void csri_dist_triples_free(csri_dist_triples *t);

/* Sends each triple to the rank of `rows` that owns its row (MPI_Alltoallv), in (sender, k)
 * order; *out receives this rank's. Collective; the status is agreed. */
csr_status csri_dist_send_triples(csr_context *ctx, const csri_dist_layout *rows,
                                  const csri_dist_triples *in, csri_dist_triples *out);
/* Replaces t, the triples of rows [first, first + count), by its rows merged as csr_from_coo
 * would: ordered by row, then column, duplicates summed in seq order (src/dist/assemble.c). */
csr_status csri_dist_triples_merge(csr_context *ctx, int64_t first, int64_t count,
                                   csri_dist_triples *t);
/* The row blocks of `rows` global rows split by weight from the global row counts (known only
 * in parts: this rank's `count` rows starting at global row `first`, counts[i] entries each),
 * into starts (size + 1). Collective. */
csr_status csri_dist_split_rows(csr_context *ctx, MPI_Comm comm, int64_t rows, int64_t first,
                                int64_t count, const int64_t *counts, int64_t *starts);
/* The matrix from this rank's triples (rows within its block): rows sorted by column, duplicates
 * summed in seq order, the plan built, the interior and boundary parts made at `location`.
 * Takes the row and column layouts (one reference each). Collective; the status is agreed. */
csr_status csri_dist_assemble(csr_context *ctx, csri_dist_layout *rows, csri_dist_layout *cols,
                              int64_t global_cols, csri_dist_triples *t, csr_location location,
                              csr_dist_matrix **A);

/* y = alpha*A*x + beta*y for checked operands, without agreeing (src/dist/spmv.c). */
csr_status csri_dist_spmv(csr_context *ctx, double alpha, const csr_dist_matrix *A,
                          const csr_dist_vector *x, double beta, csr_dist_vector *y);
/* The matrix of the triples the ranks hold (rows within [0, rows), any rank): moved to an even
 * split, counted, split by weight, moved to their owners, assembled (src/dist/matrix.c). Takes
 * t. Collective; the status is agreed. */
csr_status csri_dist_from_triples(csr_context *ctx, MPI_Comm comm, int64_t rows, int64_t cols,
                                  csri_dist_triples *t, csr_location location, csr_dist_matrix **A);
/* to = from, entry by entry, between two layouts of one length over one communicator: each
 * rank sends what it holds to the ranks that hold it in `to` (MPI_Alltoallv of the overlaps of
 * the two splits, which are ranges). Host arrays of doubles in each layout's local order. */
csr_status csri_dist_move(csr_context *ctx, const csri_dist_layout *from_layout, const double *from,
                          const csri_dist_layout *to_layout, double *to);
/* Starts the halo exchange of x (posts the receives into x's ghost area, packs and sends the
 * owned entries others read); csri_dist_halo_finish waits for it. */
csr_status csri_dist_halo_start(csr_context *ctx, const csr_dist_matrix *A,
                                const csr_dist_vector *x);
csr_status csri_dist_halo_finish(csr_context *ctx, const csr_dist_matrix *A,
                                 const csr_dist_vector *x);

/* --- NCCL (src/dist/nccl.c) ------------------------------------------------------------------- */

typedef struct csri_dist_nccl csri_dist_nccl;
/* *nccl = an NCCL communicator over comm's ranks when libcsr has NCCL, `device` holds on every
 * rank, no two ranks use one GPU (NCCL needs a GPU a rank; CSR_NCCL=1 tries anyway) and
 * CSR_NCCL is not 0 in any rank's environment; else NULL, and MPI carries the halo. The ranks
 * decide together from what they gather, and fall back to MPI together when NCCL fails to start.
 * Collective. */
csr_status csri_dist_nccl_create(csr_context *ctx, MPI_Comm comm, int device,
                                 csri_dist_nccl **nccl);
void csri_dist_nccl_free(csri_dist_nccl **nccl);
/* Enqueues the exchange of h after the work already on the context's stream (the packing into
 * h->send_device): sends from there, receives into `ghosts` (device memory, h->ghosts entries),
 * on NCCL's own stream. csri_dist_nccl_wait makes the context's stream wait for it, without
 * the host waiting. */
csr_status csri_dist_nccl_exchange(csr_context *ctx, csri_dist_nccl *nccl, const csri_dist_halo *h,
                                   void *ghosts, csr_value_type type);
csr_status csri_dist_nccl_wait(csr_context *ctx, csri_dist_nccl *nccl);

/* --- GPU ranks (src/dist/device.c) ----------------------------------------------------------- */

/* Page-locked host memory (plain memory without the CUDA backend); NULL on failure. */
void *csri_dist_pinned_alloc(size_t bytes);
void csri_dist_pinned_free(void *p);
/* 1 when the MPI library reports that it reads and writes device memory. */
int csri_dist_cuda_aware(void);
/* Waits for the context's stream. */
csr_status csri_dist_device_sync(csr_context *ctx);

/* --- vectors and reductions (src/dist/vector.c, src/dist/reduce.c) ------------------------ */

/* A vector of layout L (retained) with room for `ghosts` entries after its own. */
csr_status csri_dist_vector_make(csr_context *ctx, csri_dist_layout *L, int64_t ghosts,
                                 csr_value_type type, csr_location location, csr_dist_vector **v);
/* v's own entries = values (local order, doubles rounded to v's type), wherever v lives. */
csr_status csri_dist_store_local(csr_context *ctx, csr_dist_vector *v, const double *values);
/* values = v's own entries (local order) as doubles, wherever v lives. */
csr_status csri_dist_load_local(csr_context *ctx, const csr_dist_vector *v, double *values);
/* A csr_vector view of entries [begin, end) of v's storage (the ghost area included). */
csr_vector csri_dist_view(const csr_dist_vector *v, int64_t begin, int64_t end);
/* CSR_SUCCESS, or the error of operands that do not fit (named), without communicating. */
csr_status csri_dist_check_vectors(csr_context *ctx, const char *what, const csr_dist_vector *a,
                                   const csr_dist_vector *b);

/* Exact sums across ranks (src/dist/reduce.c): each rank deposits its terms into acc[k]
 * (k < count), then csri_dist_sums_finish adds the accumulators of all ranks (one
 * MPI_Allreduce of integers) and rounds each once (its square root when bit k of sqrt_mask is
 * set). The local status rides along in the same reduction: when any rank failed, every rank
 * returns its error (csri_dist_agree). */
enum { CSRI_DIST_MAX_SUMS = 5 };
typedef struct csri_dist_sums {
  int count;
  csri_exact_acc acc[CSRI_DIST_MAX_SUMS];
} csri_dist_sums;
void csri_dist_sums_init(csri_dist_sums *s, int count);
csr_status csri_dist_sums_finish(csr_context *ctx, MPI_Comm comm, csri_dist_sums *s,
                                 csr_status local, unsigned sqrt_mask, double *out);
/* Deposits this rank's terms of x.y, of x_i^2, of |x_i| (host or device local entries). */
csr_status csri_dist_deposit_dot(csr_context *ctx, csri_exact_acc *acc, const csr_dist_vector *x,
                                 const csr_dist_vector *y);
csr_status csri_dist_deposit_squares(csr_context *ctx, csri_exact_acc *acc,
                                     const csr_dist_vector *x);
csr_status csri_dist_deposit_abs(csr_context *ctx, csri_exact_acc *acc, const csr_dist_vector *x);

#endif /* CSR_DIST_DIST_H */
