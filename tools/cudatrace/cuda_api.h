/* SPDX-License-Identifier: GPL-2.0 */
/* The CUDA driver and runtime APIs, described for the engine (apitrace/api.h). */
#ifndef CUDATRACE_CUDA_API_H
#define CUDATRACE_CUDA_API_H

#include "apitrace/api.h"

extern const struct api_desc cuda_api;

#endif /* CUDATRACE_CUDA_API_H */
