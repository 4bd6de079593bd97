/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names of CUDA result codes: the driver API's CUresult (cuda.h) and the
 * runtime's cudaError_t (driver_types.h) are different tables, with
 * different names for the same numbers.  The tables (cuda_errors.c) are
 * generated from the toolkit's headers by tests/cuda/gen-cuda-errors.
 */
#ifndef GPU_BPF_CUDA_ERRORS_H
#define GPU_BPF_CUDA_ERRORS_H

#include <stddef.h>

struct cuda_error_name {
	int value;
	const char *name;
};

extern const struct cuda_error_name cuda_result_names[];
extern const unsigned int cuda_result_count;
extern const struct cuda_error_name cuda_rt_error_names[];
extern const unsigned int cuda_rt_error_count;

/* "CUDA_ERROR_OUT_OF_MEMORY", or NULL for a value the table lacks. */
const char *cuda_result_name(int value);

/* "cudaErrorMemoryAllocation", or NULL for a value the table lacks. */
const char *cuda_rt_error_name(int value);

/*
 * The name of a result for printing: the table's name, else
 * "CUresult(N)" / "cudaError(N)" (a code newer than the table).
 */
const char *cuda_result_str(int value, int runtime, char *buf, size_t size);

#endif /* GPU_BPF_CUDA_ERRORS_H */
