/* SPDX-License-Identifier: BSD-3-Clause */
/* The apps under mpiexec: launcher detection, MPI's start and end, agreement on exit codes, a
 * rank's context and barrier-bounded wall times (see dist.h). */
#include "dist.h"

#include <stdlib.h>
#include <string.h>

/* The environment variables launchers set to the world size, in the order they are read. */
static const char *const size_variables[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"};

int dist_launcher_size(void) {
  for (size_t k = 0; k < sizeof size_variables / sizeof size_variables[0]; k++) {
    const char *text = getenv(size_variables[k]);
    long long size;
    if (text != NULL && app_parse_int(text, 1, 1 << 30, &size) == 0)
      return (int)size;
  }
  return 1;
}

int dist_begin(dist_run *run) {
  run->rank = 0;
  run->ranks = 1;
  if (MPI_Init(NULL, NULL) != MPI_SUCCESS)
    return app_fail(APP_RUNTIME, "MPI_Init failed");
  MPI_Comm_rank(MPI_COMM_WORLD, &run->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &run->ranks);
  app_report_quiet(run->rank != 0);
  return APP_OK;
}

int dist_end(int rc) {
  MPI_Finalize();
  return rc;
}

int dist_run_app(dist_body_fn *body, const void *options) {
  dist_run run;
  int rc = dist_begin(&run);
  if (rc != APP_OK)
    return rc;
  csr_context *ctx = NULL;
  csr_status s = csr_context_create(&ctx);
  rc = s < 0 ? app_fail(APP_RUNTIME, "cannot create a context: %s", csr_status_string(s)) : APP_OK;
  if ((rc = dist_agree(&run, rc)) == APP_OK)
    rc = body(&run, ctx, options);
  csr_context_free(&ctx);
  return dist_end(rc);
}

int dist_agree(const dist_run *run, int rc) {
  int mine = rc != APP_OK ? run->rank : run->ranks, first = run->ranks;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == run->ranks)
    return APP_OK;
  const char *text = "";
  int code = app_last_failure(&text);
  char message[1024];
  snprintf(message, sizeof message, "%s", text);
  if (run->rank == first)
    code = rc;
  MPI_Bcast(&code, 1, MPI_INT, first, MPI_COMM_WORLD);
  MPI_Bcast(message, (int)sizeof message, MPI_CHAR, first, MPI_COMM_WORLD);
  if (run->rank == 0 && first != 0)
    app_fail(code, "rank %d of %d: %s", first, run->ranks, message);
  return code;
}

int dist_threads(long long requested) {
  return requested > 0 ? (int)requested : 1;
}

int dist_context(csr_context *ctx, csr_backend backend, long long threads, csr_location *location) {
  *location = CSR_HOST;
  /* The library's agreement covers its collective calls; these two are local, but every rank
   * makes the same request of the same library, so they succeed or fail alike. */
  csr_status s = csr_context_set_backend(ctx, backend);
  if (s < 0)
    return app_fail_status(app_exit_code(s), "--backend", ctx, s);
  if ((s = csr_context_set_threads(ctx, dist_threads(threads))) < 0)
    return app_fail_status(app_exit_code(s), "--threads", ctx, s);
  if (backend != CSR_BACKEND_CUDA)
    return APP_OK;
  if ((s = csr_dist_select_device(ctx, MPI_COMM_WORLD, NULL)) < 0)
    return app_fail_status(s == CSR_ERR_UNSUPPORTED ? APP_RUNTIME : app_exit_code(s),
                           "--backend cuda: selecting this rank's GPU", ctx, s);
  *location = CSR_DEVICE;
  return APP_OK;
}

double dist_barrier_now(void) {
  MPI_Barrier(MPI_COMM_WORLD);
  return app_now();
}

double dist_max(double value) {
  double max = value;
  MPI_Allreduce(&value, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return max;
}
