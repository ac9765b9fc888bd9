/* SPDX-License-Identifier: BSD-3-Clause */
/* The most host memory one allocation may take: physical memory, the cgroup's limit, and the
 * context's own limit, whichever is least. A larger request is refused with
 * CSR_ERR_OUT_OF_MEMORY before it is made: with overcommit, malloc would succeed and the kernel
 * would kill the process once the pages were touched. */
#define _DEFAULT_SOURCE 1

#include "core/internal.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

csr_status csr_context_set_memory_limit(csr_context *ctx, size_t bytes) {
  CSRI_CHECK_NULL(ctx, ctx);
  ctx->memory_limit = bytes;
  return CSR_SUCCESS;
}

size_t csr_context_memory_limit(const csr_context *ctx) {
  return ctx ? ctx->memory_limit : 0;
}

/* A limit file's number ("max", or a v1 limit of about 2^63: none); 0 when absent or none. */
static uint64_t read_limit(const char *path) {
  FILE *f = fopen(path, "r");
  if (f == NULL)
    return 0;
  char text[64] = {0};
  unsigned long long v = 0;
  int ok = fgets(text, sizeof text, f) != NULL && sscanf(text, "%llu", &v) == 1;
  fclose(f);
  return ok && v < ((uint64_t)1 << 62) ? (uint64_t)v : 0;
}

/* The least memory limit of the process's cgroup and its ancestors (v2: memory.max; v1:
 * memory.limit_in_bytes of the memory controller's hierarchy), 0 when there is none. A path that
 * /proc/self/cgroup names but this mount namespace does not show is tried from its nearest
 * ancestor that exists, down to the root of the mount (a container's own limit). */
static uint64_t cgroup_limit(void) {
  FILE *f = fopen("/proc/self/cgroup", "r");
  if (f == NULL)
    return 0;
  char line[1024], dir[1200];
  uint64_t least = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    char *controllers = strchr(line, ':'), *path = controllers ? strchr(controllers + 1, ':') : 0;
    if (path == NULL)
      continue;
    *path++ = '\0';
    controllers++;
    const char *root, *file;
    if (controllers[0] == '\0') /* "0::/path": the v2 unified hierarchy */
      root = "/sys/fs/cgroup", file = "memory.max";
    else if (strstr(controllers, "memory")) /* "4:memory:/path" (v1) */
      root = "/sys/fs/cgroup/memory", file = "memory.limit_in_bytes";
    else
      continue;
    for (;;) { /* the cgroup and each ancestor: the least limit binds */
      snprintf(dir, sizeof dir, "%s%s/%s", root, path, file);
      uint64_t v = read_limit(dir);
      if (v > 0 && (least == 0 || v < least))
        least = v;
      char *slash = strrchr(path, '/');
      if (slash == NULL || path[0] == '\0')
        break;
      *slash = '\0'; /* "/a/b" -> "/a" -> "" (the root) */
    }
  }
  fclose(f);
  return least;
}

static uint64_t physical_memory(void) {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
}

/* The process's limits, found once (a race finds the same numbers twice). */
static _Atomic uint64_t known_physical = 0, known_cgroup = 0;
static _Atomic int known = 0;

static void process_limits(uint64_t *physical, uint64_t *cgroup) {
  if (!known) {
    known_physical = physical_memory();
    known_cgroup = cgroup_limit();
    known = 1;
  }
  *physical = known_physical;
  *cgroup = known_cgroup;
}

/* "12.3 GiB", "640.0 KiB", "17 bytes". */
static void format_bytes(uint64_t bytes, char *out, size_t size) {
  static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) {
    snprintf(out, size, "%llu bytes", (unsigned long long)bytes);
    return;
  }
  double v = (double)bytes / 1024;
  int u = 0;
  while (v >= 1024 && u < 5)
    v /= 1024, u++;
  snprintf(out, size, "%.1f %s", v, units[u]);
}

/* The least of the limits (UINT64_MAX: none known) and what it is, for the message. */
static uint64_t least_limit(const csr_context *ctx, const char **which) {
  uint64_t physical, cgroup, own = ctx ? ctx->memory_limit : 0, limit = UINT64_MAX;
  process_limits(&physical, &cgroup);
  *which = NULL;
  if (own > 0 && own < limit)
    limit = own, *which = "the context's limit of";
  if (cgroup > 0 && cgroup < limit)
    limit = cgroup, *which = "the cgroup's memory limit of";
  if (physical > 0 && physical < limit)
    limit = physical, *which = "the physical memory,";
  return limit;
}

int csri_host_bytes_fit(const csr_context *ctx, size_t bytes) {
  const char *which;
  return (uint64_t)bytes <= least_limit(ctx, &which);
}

csr_status csri_check_host_bytes(csr_context *ctx, size_t bytes, const char *what) {
  const char *which;
  uint64_t limit = least_limit(ctx, &which);
  if ((uint64_t)bytes <= limit)
    return CSR_SUCCESS;
  char size[32], most[32];
  format_bytes(bytes, size, sizeof size);
  format_bytes(limit, most, sizeof most);
  return CSRI_FAIL(ctx, CSR_ERR_OUT_OF_MEMORY, "allocating %s%s%s: more than %s %s", size,
                   what ? " " : "", what ? what : "", which, most);
}
