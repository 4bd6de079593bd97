/* SPDX-License-Identifier: GPL-2.0 */
/* AMD's HIP runtime API, described for the engine (apitrace/api.h). */
#ifndef HIPTRACE_HIP_API_H
#define HIPTRACE_HIP_API_H

#include "apitrace/api.h"

extern const struct api_desc hip_api;

#endif /* HIPTRACE_HIP_API_H */
