/* SPDX-License-Identifier: BSD-3-Clause */
/* csr_dist_matrix_read against csr_read_csr on one process, for every file of ../shared/mmtests
 * and ../shared/matrices (under 8 MB), the bundled matrices and files made here: the same status
 * and message on every rank (a bad line seen by one rank's share only included), and, gathered,
 * the same matrix bit for bit. Plain files are read in byte shares, gzip files by rank 0. */
#include "mpi_testing.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int rank, ranks, files;

static void check_file(csr_context *ctx, const char *path) {
  /* One process's answer, from rank 0 to all. */
  csr_status want = CSR_SUCCESS;
  char message[512] = "";
  csr_matrix *M = NULL;
  if (rank == 0) {
    want = csr_read_csr(ctx, path, NULL, &M, NULL);
    snprintf(message, sizeof message, "%s", want < 0 ? csr_context_last_message(ctx) : "");
  }
  MPI_Bcast(&want, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(message, sizeof message, MPI_CHAR, 0, MPI_COMM_WORLD);
  csr_dist_matrix *D = NULL;
  csr_file_info info;
  csr_status got = csr_dist_matrix_read(ctx, MPI_COMM_WORLD, path, NULL, CSR_HOST, &D, &info);
  files++;
  CHECKF(got == want, "%s: %s distributed, %s on one process (%s)", path, csr_status_string(got),
         csr_status_string(want), csr_context_last_message(ctx));
  if (got < 0 && want < 0)
    CHECKF(strcmp(csr_context_last_message(ctx), message) == 0,
           "%s: rank %d says \"%s\", one process \"%s\"", path, rank, csr_context_last_message(ctx),
           message);
  if (got >= 0 && want >= 0) {
    csr_matrix *G = NULL;
    CHECK_OK(ctx, csr_dist_matrix_gather(ctx, D, 0, &G));
    int equal = 1;
    if (rank == 0)
      CHECK_OK(ctx, csr_matrix_equal(ctx, G, M, &equal));
    MPI_Bcast(&equal, 1, MPI_INT, 0, MPI_COMM_WORLD);
    CHECKF(equal, "%s: the distributed read differs from csr_read_csr's", path);
    csr_matrix_free(&G);
  }
  csr_dist_matrix_free(&D);
  csr_matrix_free(&M);
}

static int compare_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file under dir (sorted, so that every rank walks alike), below max_bytes. */
static void walk(csr_context *ctx, const char *dir, long long max_bytes) {
  DIR *d = opendir(dir);
  if (d == NULL)
    return;
  char **names = NULL;
  size_t n = 0;
  struct dirent *entry;
  while ((entry = readdir(d)) != NULL) {
    if (entry->d_name[0] == '.' || strstr(entry->d_name, ".md"))
      continue;
    names = realloc(names, (n + 1) * sizeof *names);
    names[n] = malloc(strlen(dir) + strlen(entry->d_name) + 2);
    sprintf(names[n++], "%s/%s", dir, entry->d_name);
  }
  closedir(d);
  qsort(names, n, sizeof *names, compare_names);
  for (size_t k = 0; k < n; k++) {
    struct stat st;
    if (stat(names[k], &st) == 0 && S_ISDIR(st.st_mode))
      walk(ctx, names[k], max_bytes);
    else if (stat(names[k], &st) == 0 && S_ISREG(st.st_mode) && st.st_size < max_bytes)
      check_file(ctx, names[k]);
    free(names[k]);
  }
  free(names);
}

/* Files made here, their bad line late (in the last share): rank 0 writes, all read. */
static void check_made(csr_context *ctx) {
  const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  char path[512];
  int pid = (int)getpid(); /* rank 0's names the file for all */
  MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
  snprintf(path, sizeof path, "%s/mpi_read_%d.mtx", dir, pid);
  for (int variant = 0; variant < 6; variant++) {
    if (rank == 0) {
      FILE *f = fopen(path, "w");
      int lines = 300;
      fprintf(f, "%%%%MatrixMarket matrix coordinate real %s\n",
              variant == 3 ? "symmetric" : "general");
      fprintf(f, "%d %d %d\n", 50, 50, variant == 4 ? lines + 1 : lines);
      for (int k = 0; k < lines; k++) {
        int i = 1 + (k * 7) % 50, j = 1 + (k * 13) % 50;
        if (variant == 3 && j > i) /* one triangle */
          j = i;
        if (variant == 0 && k == lines - 5)
          fprintf(f, "%d %d x1.5\n", i, j); /* a bad value near the end */
        else if (variant == 1 && k == lines - 9)
          fprintf(f, "%d 51 1.0\n", i); /* a column out of range */
        else if (variant == 2)
          fprintf(f, "%d %d %d.25\r\n", i, j, k); /* CRLF, duplicates summed in file order */
        else
          fprintf(f, "%d %d %d.5\n", i, j, k % 17);
      }
      if (variant == 5)
        fprintf(f, "1 1 1.0\n"); /* one entry too many */
      fclose(f);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    check_file(ctx, path);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank == 0)
    remove(path);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  csr_context *ctx = csrt_context(CSR_BACKEND_OMP);
  csr_context_set_threads(ctx, 1);
  check_made(ctx);
  walk(ctx, "matrices", 8 << 20);
  walk(ctx, "../shared/mmtests", 8 << 20);
  walk(ctx, "../shared/matrices", 8 << 20);
  if (rank == 0)
    printf("mpi_read: %d files\n", files);
  csr_context_free(&ctx);
  return mpit_finish("mpi_read");
}
