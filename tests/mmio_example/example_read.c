/* SPDX-License-Identifier: BSD-3-Clause */
/* A program in the style of NIST's example_read.c, written against the NIST mmio.h interface
 * and built unchanged against libcsr (its mmio.h is the one-line shim beside it). Reads a real,
 * integer or pattern coordinate matrix and prints "M N nz", then "i j value" per stored entry
 * (1-based, values "%20.19g").
 *
 *   example_read [--data] file.mtx
 *
 * Without --data the entries are read by the classic fscanf loop after mm_read_banner and
 * mm_read_mtx_crd_size; with --data by mm_read_mtx_crd_data. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmio.h"

int main(int argc, char *argv[]) {
  MM_typecode matcode;
  FILE *f;
  int M, N, nz, i, *I, *J, use_data = 0;
  double *val;

  if (argc > 2 && strcmp(argv[1], "--data") == 0) {
    use_data = 1;
    argv++, argc--;
  }
  if (argc < 2) {
    fprintf(stderr, "usage: %s [--data] matrix-market-file\n", argv[0]);
    return 1;
  }
  if ((f = fopen(argv[1], "r")) == NULL) {
    fprintf(stderr, "cannot open %s\n", argv[1]);
    return 1;
  }
  if (mm_read_banner(f, &matcode) != 0) {
    fprintf(stderr, "Could not process Matrix Market banner.\n");
    return 1;
  }
  /* Screen the types this program supports. */
  if (mm_is_complex(matcode) || !mm_is_matrix(matcode) || !mm_is_sparse(matcode)) {
    char *type = mm_typecode_to_str(matcode);
    fprintf(stderr, "Sorry, this program does not support Matrix Market type [%s]\n",
            type ? type : "?");
    free(type);
    return 1;
  }
  if (mm_read_mtx_crd_size(f, &M, &N, &nz) != 0) {
    fprintf(stderr, "Could not read the size line.\n");
    return 1;
  }

  I = (int *)malloc((nz + 1) * sizeof(int));
  J = (int *)malloc((nz + 1) * sizeof(int));
  val = (double *)malloc((nz + 1) * sizeof(double));
  if (!I || !J || !val)
    return 1;

  if (use_data) {
    if (mm_read_mtx_crd_data(f, M, N, nz, I, J, val, matcode) != 0) {
      fprintf(stderr, "Could not read the entries.\n");
      return 1;
    }
    for (i = 0; i < nz; i++) {
      if (mm_is_pattern(matcode))
        val[i] = 1.0;
      I[i]--; /* to 0-based, as the classic loop below */
      J[i]--;
    }
  } else {
    /* NOTE: "%lg" reads a double (ANSI C needs the "l"). */
    for (i = 0; i < nz; i++) {
      int got = mm_is_pattern(matcode) ? fscanf(f, "%d %d", &I[i], &J[i])
                                       : fscanf(f, "%d %d %lg", &I[i], &J[i], &val[i]);
      if (got != (mm_is_pattern(matcode) ? 2 : 3)) {
        fprintf(stderr, "Could not read entry %d.\n", i + 1);
        return 1;
      }
      if (mm_is_pattern(matcode))
        val[i] = 1.0;
      I[i]--; /* adjust from 1-based to 0-based */
      J[i]--;
    }
  }
  if (f != stdin)
    fclose(f);

  mm_write_mtx_crd_size(stdout, M, N, nz);
  for (i = 0; i < nz; i++)
    fprintf(stdout, "%d %d %20.19g\n", I[i] + 1, J[i] + 1, val[i]);

  free(I);
  free(J);
  free(val);
  return 0;
}
