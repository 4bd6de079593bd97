// SPDX-License-Identifier: GPL-2.0
/* cudatrace: the CUDA driver and runtime APIs, on the compute-API tracers' engine. */
#include "apitrace.bpf.h"
