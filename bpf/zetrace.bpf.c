// SPDX-License-Identifier: GPL-2.0
/* zetrace: oneAPI Level Zero, through its loader, on the compute-API tracers' engine. */
#include "apitrace.bpf.h"
