/* SPDX-License-Identifier: BSD-3-Clause */
/* A distributed matrix from a Matrix Market file or an edge list, as csr_read_csr reads it on
 * one process. A plain file is read in parallel: every rank reads the header, takes an equal
 * share of the body's bytes and parses the lines that begin in it (src/io/mm_range.h); a prefix
 * sum of the shares' line ends numbers their lines, one of their entry counts numbers their
 * entries. A gzip file (or standard input, an array file) is read by rank 0 alone. Either way the
 * triples are numbered in file order (a symmetric file's mirrors after every stored entry, as
 * csr_read_coo appends them), so that duplicates are summed in file order on their owner. */
#include "dist/dist.h"
#include "io/mm_range.h"

#include <string.h>

/* The triples of entries e, numbered from `first` (mirrors of a symmetric file from
 * total + first, negated for skew) into t. */
static csr_status triples_of(csr_context *ctx, const csri_entries *e, int64_t first, int64_t total,
                             csr_mm_symmetry symmetry, int expand, csri_dist_triples *t) {
  int64_t mirrors = 0;
  for (int64_t k = 0; expand && k < e->count; k++)
    mirrors += e->rows[k] != e->cols[k];
  CSRI_TRY(csri_dist_triples_make(ctx, t, e->count + mirrors, e->value_type));
  size_t vb = csri_value_size(e->value_type);
  int64_t at = e->count;
  for (int64_t k = 0; k < e->count; k++) {
    t->row[k] = e->rows[k];
    t->col[k] = e->cols[k];
    t->seq[k] = first + k;
    if (vb)
      memcpy((char *)t->values + (size_t)k * vb, (const char *)e->values + (size_t)k * vb, vb);
    if (!expand || e->rows[k] == e->cols[k])
      continue;
    t->row[at] = e->cols[k];
    t->col[at] = e->rows[k];
    t->seq[at] = total + first + k;
    if (e->value_type == CSR_F64)
      ((double *)t->values)[at] = symmetry == CSR_MM_SKEW_SYMMETRIC
                                      ? -((const double *)e->values)[k]
                                      : ((const double *)e->values)[k];
    else if (e->value_type == CSR_F32)
      ((float *)t->values)[at] = symmetry == CSR_MM_SKEW_SYMMETRIC ? -((const float *)e->values)[k]
                                                                   : ((const float *)e->values)[k];
    at++;
  }
  return CSR_SUCCESS;
}

/* Rank 0's triples from the whole file, numbered in file order. */
static csr_status read_on_root(csr_context *ctx, const char *path, const csr_read_options *options,
                               csri_dist_triples *t, csr_file_info *info) {
  csr_coo *T = NULL;
  CSRI_TRY(csr_read_coo(ctx, path, options, &T, info));
  csr_status status = csri_dist_triples_make(ctx, t, T->nnz, T->value_type);
  for (int64_t k = 0; status >= 0 && k < T->nnz; k++) {
    t->row[k] = T->row_indices[k];
    t->col[k] = T->col_indices[k];
    t->seq[k] = k;
  }
  if (status >= 0 && T->value_type != CSR_PATTERN)
    memcpy(t->values, T->values, (size_t)T->nnz * csri_value_size(T->value_type));
  csr_coo_free(&T);
  return status;
}

/* The whole file on rank 0; its triples spread from there. */
static csr_status read_whole(csr_context *ctx, MPI_Comm comm, const char *path,
                             const csr_read_options *options, csr_location location,
                             csr_dist_matrix **A, csr_file_info *info) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  csri_dist_triples t = {0};
  csr_file_info seen;
  memset(&seen, 0, sizeof seen);
  /* Rank 0's verdict on the file is every rank's, in its own words (no rank named). */
  csr_status status = rank == 0 ? read_on_root(ctx, path, options, &t, &seen) : CSR_SUCCESS;
  status = csri_dist_adopt(ctx, comm, 0, status);
  if (status >= 0 && rank != 0)
    status = csri_dist_agree(ctx, comm, csri_dist_triples_make(ctx, &t, 0, CSR_F64));
  else if (status >= 0)
    status = csri_dist_agree(ctx, comm, CSR_SUCCESS);
  int64_t type = t.value_type;
  if (status >= 0)
    CSRI_MPI(ctx, MPI_Bcast(&seen, (int)sizeof seen, MPI_BYTE, 0, comm));
  if (status >= 0)
    CSRI_MPI(ctx, MPI_Bcast(&type, 1, MPI_INT64_T, 0, comm));
  if (status < 0) {
    csri_dist_triples_free(&t);
    return status;
  }
  if (rank != 0) { /* an empty share of the root's type */
    csri_free(t.values);
    t.values = NULL;
    t.value_type = (csr_value_type)type;
  }
  if (info != NULL)
    *info = seen;
  return csri_dist_from_triples(ctx, comm, seen.rows, seen.cols, &t, location, A);
}

/* This rank's share of a plain file: its lines' entries, numbered; the shape and info agreed. */
static csr_status read_share(csr_context *ctx, MPI_Comm comm, const char *path,
                             const csr_read_options *options, const csri_prologue *pro,
                             csri_dist_triples *t, csr_file_info *info) {
  int rank = 0, P = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &P);
  int64_t begin = csri_range_cut(pro->body_begin, pro->size, P, rank);
  int64_t end = csri_range_cut(pro->body_begin, pro->size, P, rank + 1);
  /* Line numbers: the line ends before this share, summed across ranks. */
  int64_t ends = 0, ends_before = 0, ends_total = 0;
  CSRI_TRY(csri_dist_agree(ctx, comm, csri_count_line_ends(ctx, path, begin, end, &ends)));
  CSRI_MPI(ctx, MPI_Exscan(&ends, &ends_before, 1, MPI_INT64_T, MPI_SUM, comm));
  CSRI_MPI(ctx, MPI_Allreduce(&ends, &ends_total, 1, MPI_INT64_T, MPI_SUM, comm));
  if (rank == 0)
    ends_before = 0;
  int64_t first_line = pro->body_first_line + ends_before;
  csri_entries e;
  memset(&e, 0, sizeof e);
  int64_t max_id = -1;
  csr_status status = csri_read_range(ctx, path, pro, begin, end, first_line, -1, &e, &max_id);
  /* Entry numbers, and the first share that failed or passed the size line's count: its error is
   * the file's (the earliest in file order), found again with the count before it known. */
  int64_t count = e.count, before = 0;
  int code = MPI_Exscan(&count, &before, 1, MPI_INT64_T, MPI_SUM, comm);
  if (rank == 0)
    before = 0;
  int matrix_market = pro->format == CSR_FORMAT_MATRIX_MARKET;
  int bad = status < 0 || (matrix_market && before + count > pro->header.entries);
  int mine = bad ? rank : P, culprit = P;
  if (code == MPI_SUCCESS)
    code = MPI_Allreduce(&mine, &culprit, 1, MPI_INT, MPI_MIN, comm);
  if (code != MPI_SUCCESS) {
    csri_entries_free(&e);
    return csri_dist_mpi_error(ctx, code, "the shares' counts");
  }
  if (culprit < P) {
    csri_entries_free(&e); /* the re-read fills it afresh */
    if (rank == culprit)
      status = csri_read_range(ctx, path, pro, begin, end, first_line, before, &e, &max_id);
    csri_entries_free(&e);
    return csri_dist_adopt(ctx, comm, culprit, status);
  }
  int64_t total = 0, largest = -1;
  CSRI_MPI(ctx, MPI_Allreduce(&count, &total, 1, MPI_INT64_T, MPI_SUM, comm));
  CSRI_MPI(ctx, MPI_Allreduce(&max_id, &largest, 1, MPI_INT64_T, MPI_MAX, comm));
  status = csri_range_check_total(ctx, path, pro, total, ends_total, largest, NULL);
  int expand = matrix_market && pro->header.symmetry != CSR_MM_GENERAL &&
               !(options != NULL && options->keep_symmetry);
  if (status >= 0)
    status = triples_of(ctx, &e, before, total, pro->header.symmetry, expand, t);
  csri_entries_free(&e);
  CSRI_TRY(csri_dist_agree(ctx, comm, status));
  int64_t mirrors = t->count - count, all_mirrors = 0;
  CSRI_MPI(ctx, MPI_Allreduce(&mirrors, &all_mirrors, 1, MPI_INT64_T, MPI_SUM, comm));
  memset(info, 0, sizeof *info);
  info->format = pro->format;
  info->field = matrix_market                    ? pro->header.field
                : pro->value_type == CSR_PATTERN ? CSR_MM_PATTERN
                                                 : CSR_MM_REAL;
  info->symmetry = matrix_market ? pro->header.symmetry : CSR_MM_GENERAL;
  info->is_vector = matrix_market && pro->header.is_vector;
  info->rows = matrix_market ? pro->header.rows : largest + 1;
  info->cols = matrix_market ? pro->header.cols : largest + 1;
  info->stored_entries = matrix_market ? pro->header.entries : total;
  info->entries = total + all_mirrors;
  info->bytes = pro->size;
  return CSR_SUCCESS;
}

csr_status csr_dist_matrix_read(csr_context *ctx, MPI_Comm comm, const char *path,
                                const csr_read_options *options, csr_location location,
                                csr_dist_matrix **A, csr_file_info *info) {
  if (A != NULL)
    *A = NULL;
  csr_status status = A == NULL || path == NULL
                          ? CSRI_FAIL(ctx, CSR_ERR_NULL_POINTER, "A and path must not be NULL")
                          : csri_check_location(ctx, location);
  CSRI_TRY(csri_dist_agree(ctx, comm, status));
  /* Every rank reads the header: the same verdict everywhere, or the same error. */
  csri_prologue pro;
  memset(&pro, 0, sizeof pro);
  CSRI_TRY(csri_dist_agree(ctx, comm, csri_read_prologue(ctx, path, options, &pro)));
  int readable = pro.range_readable, everywhere = 0;
  CSRI_MPI(ctx, MPI_Allreduce(&readable, &everywhere, 1, MPI_INT, MPI_MIN, comm));
  if (!everywhere)
    return read_whole(ctx, comm, path, options, location, A, info);
  csri_dist_triples t = {0};
  csr_file_info seen;
  memset(&seen, 0, sizeof seen);
  status = read_share(ctx, comm, path, options, &pro, &t, &seen);
  if (status < 0) {
    csri_dist_triples_free(&t);
    return status;
  }
  if (info != NULL)
    *info = seen;
  return csri_dist_from_triples(ctx, comm, seen.rows, seen.cols, &t, location, A);
}
