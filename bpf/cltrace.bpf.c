// SPDX-License-Identifier: GPL-2.0
/* cltrace: OpenCL, through its ICD loader, on the compute-API tracers' engine. */
#include "apitrace.bpf.h"
