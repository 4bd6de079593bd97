/* SPDX-License-Identifier: GPL-2.0 */
/* OpenCL, through its ICD loader, described for the engine (apitrace/api.h). */
#ifndef CLTRACE_CL_API_H
#define CLTRACE_CL_API_H

#include "apitrace/api.h"

extern const struct api_desc cl_api;

#endif /* CLTRACE_CL_API_H */
