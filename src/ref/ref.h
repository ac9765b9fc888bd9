/* SPDX-License-Identifier: BSD-3-Clause */
/* The reference backend: serial, obviously correct, the oracle of every backend test. Its entries
 * are declared by CSRI_DECLARE_BACKEND (their contracts: src/core/backend.h) and listed in
 * src/ref/table.c. Internal. */
#ifndef CSR_REF_H
#define CSR_REF_H

#include "core/backend.h"

CSRI_DECLARE_BACKEND(ref);

#endif /* CSR_REF_H */
