// SPDX-License-Identifier: GPL-2.0
/*
 * cudatrace's workload on the real CUDA toolkit: the runtime API of the
 * toolkit's libcudart (shared, or linked in statically), on a machine
 * without a GPU or driver, so every call fails with a real error:
 * cudaErrorInsufficientDriver when no libcuda.so.1 can be loaded, or with
 * --stub PATH (the toolkit's stub libcuda.so, loaded first) the runtime's
 * cudaErrorStubLibrary and the driver's own CUDA_ERROR_STUB_LIBRARY.
 *
 *   rt_workload [--wait FILE] [--stub PATH]
 *
 * --wait FILE prints "waiting PID", then goes on once FILE exists. *
 * Prints each call's result as the runtime names it (cudaGetErrorName),
 * for the tests to compare with what cudatrace reports.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "client/wait.h"

/* The kernel a launch names: a host stub, as nvcc emits one per kernel. */
__attribute__((noinline, used)) void rt_kernel(void)
{
	__asm__ volatile("" ::: "memory");
}

static void report(const char *func, cudaError_t e)
{
	printf("%s %s\n", func, cudaGetErrorName(e));
}

int main(int argc, char **argv)
{
	dim3 grid = { 5, 6, 7 }, block = { 8, 9, 10 };
	const char *stub = NULL, *wait = NULL;
	void *p = NULL, *args[1] = { NULL }, *h = NULL;
	char buf[256];
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--wait"))
			wait = argv[i + 1];
		else if (!strcmp(argv[i], "--stub"))
			stub = argv[i + 1];
	}
	if (stub) {
		/* Loaded first, under its soname libcuda.so.1: the runtime finds it. */
		h = dlopen(stub, RTLD_NOW | RTLD_GLOBAL);
		if (!h) {
			fprintf(stderr, "rt_workload: %s\n", dlerror());
			return 1;
		}
	}
	if (wait)
		wait_for(wait);
	report("cudaMalloc", cudaMalloc(&p, 1 << 20));
	report("cudaFree", cudaFree(p));
	report("cudaMemcpy", cudaMemcpy(buf, buf, 64, cudaMemcpyHostToDevice));
	report("cudaMemcpyAsync", cudaMemcpyAsync(buf, buf, 128, cudaMemcpyDeviceToHost, 0));
	report("cudaLaunchKernel", cudaLaunchKernel((const void *)rt_kernel, grid, block, args, 1234,
						    (cudaStream_t)0x77));
	report("cudaStreamSynchronize", cudaStreamSynchronize(0));
	report("cudaDeviceSynchronize", cudaDeviceSynchronize());
	if (h) {
		int (*alloc)(unsigned long long *, size_t) =
			(int (*)(unsigned long long *, size_t))dlsym(h, "cuMemAlloc_v2");
		unsigned long long d;

		printf("cuMemAlloc_v2 %d\n", alloc ? alloc(&d, 4096) : -1);
	}
	return 0;
}
