// SPDX-License-Identifier: GPL-2.0
/* hiptrace: AMD's HIP runtime API, on the compute-API tracers' engine. */
#include "apitrace.bpf.h"
