/* SPDX-License-Identifier: BSD-3-Clause */
/* cg's preconditioners: the names --precond takes, which method takes which, how the report names
 * them, and the choice of --method auto from A's symmetry and diagonal (apps/solve_auto.c). */
#ifndef CSR_APPS_SOLVE_AUTO_H
#define CSR_APPS_SOLVE_AUTO_H

#include "common.h"
#include "csr.h"

#include <stddef.h>

/* What --precond accepts, for its error message. */
#define SOLVE_PRECOND_NAMES "none, jacobi, ilu0, ilut or ic0"

/* The preconditioner --precond names (none, jacobi, ilu0, ilut, ic0): 0, or -1 for another name. */
int solve_precond_parse(const char *name, csr_solver_preconditioner *out);

/* Its --precond name; CSR_SOLVER_PCG_JACOBI counts as Jacobi whatever preconditioner says. */
const char *solve_precond_name(csr_solver_method method, csr_solver_preconditioner p);

/* 1 when p is made by an incomplete factorization inside csr_solve (ILU0, ILUT, IC0). */
int solve_precond_factors(csr_solver_preconditioner p);

/* The report's preconditioner line, "preconditioner     ilu0 (factored in the solve, its time
 * included)", with ILUT's drop tolerance and fill factor from factor. */
void solve_precond_text(csr_solver_method method, csr_solver_preconditioner p,
                        const csr_factor_options *factor);

/* The JSON keys preconditioner, drop_tol and fill_factor (ILUT; else null) and auto_reason
 * (NULL: null). */
void solve_precond_json(app_json *j, csr_solver_method method, csr_solver_preconditioner p,
                        const csr_factor_options *factor, const char *auto_reason);

/* What the command line asked, before A is read. */
typedef struct solve_request {
  const char *method_name; /* as given to --method: cg, pcg, bicgstab, gmres, gmres-jacobi, auto */
  int precond_given;       /* --precond was on the line */
  csr_solver_preconditioner precond;
  int ilut_options_given; /* --drop-tol or --fill-factor was */
} solve_request;

/* The usage error of an impossible combination, as one sentence into text ("--precond ilu0 does not
 * apply to --method bicgstab: ..."); 1 when there is one, 0 when the request is fine. */
int solve_request_refused(const solve_request *q, char *text, size_t size);

/* What --method auto picked and why, in a sentence for the user. */
typedef struct solve_auto_choice {
  csr_solver_method method;
  csr_solver_preconditioner preconditioner;
  char reason[1024]; /* "A is symmetric with a positive diagonal: CG with IC(0)" */
} solve_auto_choice;

/* The choice for the square host A: symmetric (within the rounding cg_check_symmetry allows) with
 * every diagonal entry > 0: CG with IC(0); otherwise GMRES(restart) with ILU(0) when every diagonal
 * entry is nonzero, else with ILUT, whose rows csr_factor_compute then matches. A pattern A (no
 * values to factor): CG or GMRES alone. restart: what GMRES will use (for the reason). Errors:
 * those of csr_transpose. */
csr_status solve_auto_choose(csr_context *ctx, const csr_matrix *A, long long restart,
                             solve_auto_choice *out);

/* 1 when a csr_solve that returned s with *info failed in the choice's IC(0) factorization
 * (before any iteration, not for a reason that would fail any method: a singular A), so that CG
 * with Jacobi may be tried instead; message: the library's. */
int solve_auto_should_fall_back(const solve_auto_choice *c, csr_status s,
                                const csr_solver_info *info, const char *message);

/* Switches the choice to CG with Jacobi, adding to the reason why (message: the library's). */
void solve_auto_fall_back(solve_auto_choice *c, const char *message);

#endif /* CSR_APPS_SOLVE_AUTO_H */
