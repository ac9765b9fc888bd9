/* SPDX-License-Identifier: BSD-3-Clause */
/* The one-line shim that lets a program written for NIST's mmio.h build against libcsr. */
#include "csr_mmio.h"
