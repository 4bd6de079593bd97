/* SPDX-License-Identifier: GPL-2.0 */
/* oneAPI Level Zero, described for the engine (apitrace/api.h). */
#ifndef ZETRACE_ZE_API_H
#define ZETRACE_ZE_API_H

#include "apitrace/api.h"

extern const struct api_desc ze_api;

#endif /* ZETRACE_ZE_API_H */
