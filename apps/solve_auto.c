/* SPDX-License-Identifier: BSD-3-Clause */
/* cg's preconditioners: --precond's names, the combinations the command line may not ask for, the
 * report's preconditioner line and keys, and --method auto's choice. The choice reads A once on the
 * host (its symmetry through cg_check_symmetry, its diagonal here) before the solve; it is not
 * counted in the solve's time, as the read is not. */
#include "solve_auto.h"

#include "cg_advice.h"

#include <stdio.h>
#include <string.h>

static const struct {
  const char *name;
  csr_solver_preconditioner p;
} preconds[] = {{"none", CSR_PRECOND_NONE},
                {"jacobi", CSR_PRECOND_JACOBI},
                {"ilu0", CSR_PRECOND_ILU0},
                {"ilut", CSR_PRECOND_ILUT},
                {"ic0", CSR_PRECOND_IC0}};

int solve_precond_parse(const char *name, csr_solver_preconditioner *out) {
  for (size_t k = 0; k < sizeof preconds / sizeof *preconds; k++)
    if (strcmp(name, preconds[k].name) == 0) {
      *out = preconds[k].p;
      return 0;
    }
  return -1;
}

const char *solve_precond_name(csr_solver_method method, csr_solver_preconditioner p) {
  if (method == CSR_SOLVER_PCG_JACOBI)
    return "jacobi";
  for (size_t k = 0; k < sizeof preconds / sizeof *preconds; k++)
    if (preconds[k].p == p)
      return preconds[k].name;
  return "unknown";
}

int solve_precond_factors(csr_solver_preconditioner p) {
  return p == CSR_PRECOND_ILU0 || p == CSR_PRECOND_ILUT || p == CSR_PRECOND_IC0;
}

void solve_precond_text(csr_solver_method method, csr_solver_preconditioner p,
                        const csr_factor_options *factor) {
  const char *name = solve_precond_name(method, p);
  if (p == CSR_PRECOND_ILUT)
    printf("preconditioner     %s (drop tolerance %g, fill factor %g; factored in the solve, its "
           "time included)\n",
           name, factor->drop_tolerance, factor->fill_factor);
  else if (solve_precond_factors(p))
    printf("preconditioner     %s (factored in the solve, its time included)\n", name);
  else
    printf("preconditioner     %s\n", name);
}

void solve_precond_json(app_json *j, csr_solver_method method, csr_solver_preconditioner p,
                        const csr_factor_options *factor, const char *auto_reason) {
  app_json_string(j, "preconditioner", solve_precond_name(method, p));
  if (p == CSR_PRECOND_ILUT) {
    app_json_double(j, "drop_tol", factor->drop_tolerance);
    app_json_double(j, "fill_factor", factor->fill_factor);
  } else {
    app_json_null(j, "drop_tol");
    app_json_null(j, "fill_factor");
  }
  if (auto_reason)
    app_json_string(j, "auto_reason", auto_reason);
  else
    app_json_null(j, "auto_reason");
}

int solve_request_refused(const solve_request *q, char *text, size_t size) {
  const char *m = q->method_name, *p = solve_precond_name(CSR_SOLVER_CG, q->precond);
  if (q->precond_given && strcmp(m, "auto") == 0) {
    snprintf(text, size, "--precond does not apply to --method auto, which picks it from A");
  } else if (q->precond_given && q->precond != CSR_PRECOND_JACOBI &&
             (strcmp(m, "pcg") == 0 || strcmp(m, "gmres-jacobi") == 0)) {
    snprintf(text, size, "--method %s is %s with Jacobi: for --precond %s use --method %s", m,
             m[0] == 'p' ? "CG" : "GMRES", p, m[0] == 'p' ? "cg" : "gmres");
  } else if (q->precond_given && q->precond != CSR_PRECOND_NONE && strcmp(m, "bicgstab") == 0) {
    snprintf(text, size,
             "--precond %s does not apply to --method bicgstab: BiCGSTAB takes no "
             "preconditioner; use --method gmres --precond %s",
             p, p);
  } else if (q->ilut_options_given && strcmp(m, "auto") != 0 &&
             !(q->precond_given && q->precond == CSR_PRECOND_ILUT)) {
    snprintf(text, size,
             "--drop-tol and --fill-factor apply to --precond ilut (or --method auto, which may "
             "pick it)");
  } else {
    return 0;
  }
  return 1;
}

static double value_at(const csr_matrix *A, int64_t k) {
  if (A->value_type == CSR_PATTERN)
    return 1.0;
  return A->value_type == CSR_F64 ? ((const double *)A->values)[k]
                                  : (double)((const float *)A->values)[k];
}

/* The rows whose diagonal (its stored entries summed) is zero or not stored. */
static int64_t zero_diagonals(const csr_matrix *A) {
  int64_t zeros = 0;
  for (int64_t i = 0; i < A->rows; i++) {
    double d = 0.0;
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++)
      if (A->col_indices[k] == i)
        d += value_at(A, k);
    zeros += d == 0.0;
  }
  return zeros;
}

csr_status solve_auto_choose(csr_context *ctx, const csr_matrix *A, long long restart,
                             solve_auto_choice *out) {
  cg_symmetry sym;
  csr_status s = cg_check_symmetry(ctx, A, &sym);
  if (s < 0)
    return s;
  const int spd_like = sym.symmetric && sym.diagonal_row < 0;
  const int64_t zeros = zero_diagonals(A);
  char why[256];
  if (spd_like)
    snprintf(why, sizeof why, "A is symmetric with a positive diagonal");
  else if (zeros > 0)
    snprintf(why, sizeof why, "A is %s and %lld of its %lld diagonal entries are zero or missing",
             sym.symmetric ? "symmetric" : "not symmetric", (long long)zeros, (long long)A->rows);
  else if (sym.symmetric)
    snprintf(why, sizeof why, "A is symmetric but A(%lld,%lld) = %g < 0 (0-based)",
             (long long)sym.diagonal_row, (long long)sym.diagonal_row, sym.diagonal);
  else
    snprintf(why, sizeof why, "A is not symmetric");
  out->method = spd_like ? CSR_SOLVER_CG : CSR_SOLVER_GMRES;
  char gmres[64];
  snprintf(gmres, sizeof gmres, "GMRES(%lld)", restart);
  const char *method = spd_like ? "CG" : gmres;
  if (A->value_type == CSR_PATTERN) { /* the factorizations need values */
    out->preconditioner = CSR_PRECOND_NONE;
    snprintf(out->reason, sizeof out->reason,
             "%s: %s without a preconditioner (A is a pattern: no values to factor)", why, method);
    return CSR_SUCCESS;
  }
  const char *with = "IC(0)";
  out->preconditioner = CSR_PRECOND_IC0;
  if (!spd_like) {
    out->preconditioner = zeros > 0 ? CSR_PRECOND_ILUT : CSR_PRECOND_ILU0;
    with = zeros > 0 ? "ILUT (rows matched)" : "ILU(0)";
  }
  snprintf(out->reason, sizeof out->reason, "%s: %s with %s", why, method, with);
  return CSR_SUCCESS;
}

int solve_auto_should_fall_back(const solve_auto_choice *c, csr_status s,
                                const csr_solver_info *info, const char *message) {
  return c->method == CSR_SOLVER_CG && c->preconditioner == CSR_PRECOND_IC0 &&
         s == CSR_ERR_INVALID_MATRIX && info->iterations == 0 && info->stop == CSR_SOLVER_FAILED &&
         strstr(message, "A is singular") == NULL;
}

void solve_auto_fall_back(solve_auto_choice *c, const char *message) {
  size_t used = strlen(c->reason);
  snprintf(c->reason + used, sizeof c->reason - used,
           "; IC(0) failed (%s), so CG with Jacobi instead", message);
  c->preconditioner = CSR_PRECOND_JACOBI;
}
