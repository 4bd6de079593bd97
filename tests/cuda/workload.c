// SPDX-License-Identifier: GPL-2.0
/*
 * cudatrace's workload: drives the fake libcuda.so.1 / libcudart.so.13
 * through known sequences of calls, so the tests can assert exact counts,
 * sizes, shapes and results.
 *
 *   workload [--wait FILE] PHASE...
 *   workload_rt [--wait FILE] PHASE...
 *
 * workload_rt is this program built with -DRUNTIME_ONLY and linked to the
 * runtime alone, as nvcc links a program to a shared cudart: it has no
 * libcuda mapped until the runtime loads it at its first call, and none
 * ever where none is found.  It has the runtime phases only.
 *
 * --wait FILE   print "waiting PID", then go on once FILE exists (the
 *               tracer has attached)
 * batches N     N x (cuMemAlloc_v2 1 GiB, cuMemcpyHtoD_v2 4096 bytes,
 *               cuLaunchKernel train_step, cuMemFree_v2): the seed's case
 * leak          allocations of every kind; 4 are never freed
 * errors        calls that fail, one of each kind, and scripted latencies
 * launch        launches of every kind with distinct grid/block/shmem
 * copies        every cuMemcpy* variant, each with its own byte count
 * streams       stream create, synchronize, destroy; cuCtxSynchronize
 * setup         what a program does before its first allocation, with
 *               the failures of a broken machine scripted: cuInit
 *               CUDA_ERROR_UNKNOWN then OK, the version and the device,
 *               cuDevicePrimaryCtxRetain CUDA_ERROR_INVALID_DEVICE then OK,
 *               a context, cuModuleLoad CUDA_ERROR_FILE_NOT_FOUND,
 *               cuModuleLoadData and cuModuleUnload, cuLibraryLoadData
 *               CUDA_ERROR_INVALID_PTX, the context destroyed: 18 calls,
 *               4 failing
 * extra         functions cudatrace reads no argument of: cuMemGetInfo_v2
 *               twice and through its alias cuMemGetInfo once, cuCtxGetDevice
 *               CUDA_ERROR_INVALID_CONTEXT then OK: 5 calls, 1 failing
 * steady MS     for MS milliseconds, as fast as it can, rounds of 7 calls:
 *               cuMemAlloc_v2, cuMemcpyHtoD_v2, cuLaunchKernel, cuMemFree_v2
 *               that succeed, then cuMemAlloc_v2, cuMemFree_v2 and
 *               cuLaunchKernel that fail (OUT_OF_MEMORY, INVALID_VALUE,
 *               INVALID_HANDLE) - after one cuModuleGetFunction; then prints
 *               "steady ROUNDS", the count of each of the 7
 * runtime       the runtime API (libcudart) on top of the driver
 * nodriver      the runtime API where it finds no driver: every call fails
 *               with cudaErrorInsufficientDriver
 * hostile       a kernel whose name no compiler makes but a module's symbol
 *               table can hold: a space, a quote, a backslash, a newline, a
 *               byte that is not UTF-8 and a terminal's clear-screen; it is
 *               looked up, launched once (1x1x1, 1x1x1) and 4096 bytes are
 *               allocated and never freed
 * inflight N    N threads inside cuCtxSynchronize at once (fake_cuda_hold),
 *               then all return
 * nested        two allocations, A (4096 bytes) and B (8192); cuMemFree_v2
 *               of A, scripted to take 500 ms, and 100 ms into it a signal
 *               handler's cuMemFree_v2 of B: a call inside a call of the
 *               same function on one thread; both freed
 * sleep MS      stay alive MS milliseconds
 *
 * Where a parameter is a 32-bit unsigned int, some calls go through a
 * declaration with 64-bit parameters and put junk in the upper halves of
 * the registers and stack slots, as the x86-64 ABI allows a caller to:
 * the callee (and a correct tracer) must read the low halves only.
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "fake_cuda.h"
#define CLIENT_NAME "workload"
#include "client/check_call.h"
#include "client/wait.h"

#define GiB (1ULL << 30)
#define JUNK 0xdeadbeef00000000ULL	/* upper halves the callee must ignore */

/* The kernel a runtime launch names: its host stub, as nvcc would emit one. */
__attribute__((noinline, used)) void saxpy_kernel(float a, float *x, float *y)
{
	__asm__ volatile("" ::: "memory");
}

static CUstream stream(unsigned long v)
{
	return (CUstream)(uintptr_t)v;
}

static char host[8192];

#ifndef RUNTIME_ONLY
static void batches(int n)
{
	CUfunction f;
	CUdeviceptr p;
	int i;

	CHECK(cuModuleGetFunction(&f, NULL, "train_step"), CUDA_SUCCESS);
	for (i = 0; i < n; i++) {
		CHECK(cuMemAlloc_v2(&p, 1 * GiB), CUDA_SUCCESS);
		CHECK(cuMemcpyHtoD_v2(p, host, 4096), CUDA_SUCCESS);
		CHECK(cuLaunchKernel(f, 64, 1, 1, 256, 1, 1, 0, NULL, NULL, NULL), CUDA_SUCCESS);
		CHECK(cuMemFree_v2(p), CUDA_SUCCESS);
	}
}

/*
 * The same functions declared with 64-bit parameters (asm labels name the
 * real symbols): the caller then fills whole registers and stack slots,
 * junk upper halves included.
 */
CUresult cuMemAlloc_wide(CUdeviceptr_v1 *, unsigned long long) __asm__("cuMemAlloc");
CUresult cuMemFree_wide(unsigned long long) __asm__("cuMemFree");

static __attribute__((noinline)) void leak(void)
{
	CUdeviceptr a, b, c, d;
	CUdeviceptr_v1 v1;
	void *h, *h1;

	CHECK(cuMemAlloc_v2(&a, 4096), CUDA_SUCCESS);			/* leaked */
	CHECK(cuMemAllocManaged(&b, 8192, 1), CUDA_SUCCESS);		/* leaked */
	CHECK(cuMemAllocHost_v2(&h, 65536), CUDA_SUCCESS);
	CHECK(cuMemFreeHost(h), CUDA_SUCCESS);
	/* v1: 32-bit size and pointer, with junk above them. */
	CHECK(cuMemAlloc_wide(&v1, JUNK | 512), CUDA_SUCCESS);
	CHECK(cuMemFree_wide(JUNK | v1), CUDA_SUCCESS);
	CHECK(cuMemAllocAsync(&c, 1 << 20, stream(0x5010)), CUDA_SUCCESS);
	CHECK(cuMemFreeAsync_ptsz(c, stream(0x5010)), CUDA_SUCCESS);
	CHECK(cuMemAllocAsync_ptsz(&d, 2 << 20, stream(0x5010)), CUDA_SUCCESS);	/* leaked */
	CHECK(cuMemAllocHost(&h1, 1000), CUDA_SUCCESS);			/* leaked */
	printf("leaked 0x%llx 4096\nleaked 0x%llx 8192\nleaked 0x%llx 2097152\nleaked 0x%lx 1000\n",
	       a, b, d, (unsigned long)(uintptr_t)h1);
}

static void errors(void)
{
	CUdeviceptr p;
	CUfunction f;

	CHECK(cuMemAlloc_v2(&p, 1024 * GiB), CUDA_ERROR_OUT_OF_MEMORY);
	CHECK(cuMemFree_v2(0xdead0000), CUDA_ERROR_INVALID_VALUE);
	CHECK(cuModuleGetFunction(&f, NULL, "missing"), CUDA_ERROR_NOT_FOUND);
	CHECK(cuLaunchKernel(NULL, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL), CUDA_ERROR_INVALID_HANDLE);
	fake_cuda_script("cuStreamSynchronize", CUDA_ERROR_LAUNCH_FAILED, 2000);
	CHECK(cuStreamSynchronize(NULL), CUDA_ERROR_LAUNCH_FAILED);
	fake_cuda_script("cuCtxSynchronize", CUDA_SUCCESS, 3000);
	CHECK(cuCtxSynchronize(), CUDA_SUCCESS);
}

/* cuLaunchKernel with every 32-bit parameter widened: junk in the upper halves. */
CUresult cuLaunchKernel_wide(CUfunction, unsigned long long, unsigned long long,
			     unsigned long long, unsigned long long, unsigned long long,
			     unsigned long long, unsigned long long, CUstream, void **,
			     void **) __asm__("cuLaunchKernel");

static void launch(void)
{
	CUlaunchConfig ex = { 23, 29, 31, 37, 41, 43, 47, stream(0x5020), NULL, 0 };
	CUlaunchConfig ex2 = { 1, 2, 3, 4, 5, 6, 7, NULL, NULL, 0 };
	CUfunction f;
	CUkernel k;
	int i;

	CHECK(cuModuleGetFunction(&f, NULL, "vecAdd"), CUDA_SUCCESS);
	CHECK(cuLibraryGetKernel(&k, NULL, "reduce"), CUDA_SUCCESS);
	/* gx..by in rsi, rdx, rcx, r8, r9; bz at sp+8, shmem at sp+16, stream at sp+24. */
	for (i = 0; i < 2; i++)
		CHECK(cuLaunchKernel_wide(f, JUNK | 3, JUNK | 5, JUNK | 7, JUNK | 11,
						    JUNK | 13, JUNK | 17, JUNK | 19,
						    stream(0x5010), NULL, NULL),
		      CUDA_SUCCESS);
	CHECK(cuLaunchKernel_ptsz(f, 2, 1, 1, 256, 1, 1, 0, NULL, NULL, NULL), CUDA_SUCCESS);
	CHECK(cuLaunchKernelEx(&ex, (CUfunction)k, NULL, NULL), CUDA_SUCCESS);
	CHECK(cuLaunchKernelEx_ptsz(&ex2, f, NULL, NULL), CUDA_SUCCESS);
	CHECK(cuLaunchCooperativeKernel(f, 4, 4, 1, 32, 32, 1, 1024, stream(0x5010), NULL),
	      CUDA_SUCCESS);
}

static void hostile(void)
{
	CUfunction f;
	CUdeviceptr p;

	CHECK(cuModuleGetFunction(&f, NULL, "k \"\\\n\xff\x1b[2J"), CUDA_SUCCESS);
	CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL), CUDA_SUCCESS);
	CHECK(cuMemAlloc_v2(&p, 4096), CUDA_SUCCESS);
}

#define COPY_WIDE(name)                                                              \
	CUresult name##_wide(unsigned long long, unsigned long long, unsigned long long) \
		__asm__(#name)
#define COPY_ASYNC_WIDE(name)                                                        \
	CUresult name##_wide(unsigned long long, unsigned long long, unsigned long long, \
			     CUstream) __asm__(#name)
COPY_WIDE(cuMemcpyHtoD);
COPY_WIDE(cuMemcpyDtoH);
COPY_WIDE(cuMemcpyDtoD);
COPY_ASYNC_WIDE(cuMemcpyHtoDAsync);
COPY_ASYNC_WIDE(cuMemcpyDtoHAsync);
COPY_ASYNC_WIDE(cuMemcpyDtoDAsync);

static void copies(void)
{
	CUstream s = stream(0x5030);
	CUdeviceptr d = 0x7e0000000000ULL;
	unsigned long long h = (uintptr_t)host;

	CHECK(cuMemcpyHtoD_v2(d, host, 1000), CUDA_SUCCESS);
	CHECK(cuMemcpyHtoD_v2_ptds(d, host, 1001), CUDA_SUCCESS);
	CHECK(cuMemcpyHtoD_wide(JUNK | 0x1000, h, JUNK | 1002), CUDA_SUCCESS);
	CHECK(cuMemcpyDtoH_v2(host, d, 2000), CUDA_SUCCESS);
	CHECK(cuMemcpyDtoH_v2_ptds(host, d, 2001), CUDA_SUCCESS);
	CHECK(cuMemcpyDtoH_wide(h, JUNK | 0x1000, JUNK | 2002), CUDA_SUCCESS);
	CHECK(cuMemcpyDtoD_v2(d, d, 3000), CUDA_SUCCESS);
	CHECK(cuMemcpyDtoD_v2_ptds(d, d, 3001), CUDA_SUCCESS);
	CHECK(cuMemcpyDtoD_wide(JUNK | 0x1000, JUNK | 0x2000, JUNK | 3002), CUDA_SUCCESS);
	CHECK(cuMemcpyHtoDAsync_v2(d, host, 4000, s), CUDA_SUCCESS);
	CHECK(cuMemcpyHtoDAsync_v2_ptsz(d, host, 4001, s), CUDA_SUCCESS);
	CHECK(cuMemcpyHtoDAsync_wide(JUNK | 0x1000, h, JUNK | 4002, s), CUDA_SUCCESS);
	CHECK(cuMemcpyDtoHAsync_v2(host, d, 5000, s), CUDA_SUCCESS);
	CHECK(cuMemcpyDtoHAsync_v2_ptsz(host, d, 5001, s), CUDA_SUCCESS);
	CHECK(cuMemcpyDtoHAsync_wide(h, JUNK | 0x1000, JUNK | 5002, s), CUDA_SUCCESS);
	CHECK(cuMemcpyDtoDAsync_v2(d, d, 6000, s), CUDA_SUCCESS);
	CHECK(cuMemcpyDtoDAsync_v2_ptsz(d, d, 6001, s), CUDA_SUCCESS);
	CHECK(cuMemcpyDtoDAsync_wide(JUNK | 0x1000, JUNK | 0x2000, JUNK | 6002, s),
	      CUDA_SUCCESS);
}

static unsigned long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

static void steady(int ms)
{
	unsigned long long end = now_ms() + ms, rounds = 0;
	CUdeviceptr p;
	CUfunction f;

	CHECK(cuModuleGetFunction(&f, NULL, "train_step"), CUDA_SUCCESS);
	do {
		CHECK(cuMemAlloc_v2(&p, 4096), CUDA_SUCCESS);
		CHECK(cuMemcpyHtoD_v2(p, host, 4096), CUDA_SUCCESS);
		CHECK(cuLaunchKernel(f, 64, 1, 1, 256, 1, 1, 0, NULL, NULL, NULL), CUDA_SUCCESS);
		CHECK(cuMemFree_v2(p), CUDA_SUCCESS);
		CHECK(cuMemAlloc_v2(&p, 1024 * GiB), CUDA_ERROR_OUT_OF_MEMORY);
		CHECK(cuMemFree_v2(0xdead0000), CUDA_ERROR_INVALID_VALUE);
		CHECK(cuLaunchKernel(NULL, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL),
		      CUDA_ERROR_INVALID_HANDLE);
		rounds++;
	} while (now_ms() < end);
	printf("steady %llu\n", rounds);
}

static void *synchronize(void *unused)
{
	CHECK(cuCtxSynchronize(), CUDA_SUCCESS);
	return NULL;
}

static void inflight(int n)
{
	pthread_t *threads = calloc(n, sizeof(*threads));
	pthread_attr_t attr;
	int i;

	if (!threads)
		exit(1);
	fake_cuda_hold(n);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 << 10);	/* thousands of threads */
	for (i = 0; i < n; i++)
		if (pthread_create(&threads[i], &attr, synchronize, NULL)) {
			fprintf(stderr, "workload: inflight: thread %d of %d: no thread\n", i, n);
			exit(1);
		}
	for (i = 0; i < n; i++)
		pthread_join(threads[i], NULL);
	free(threads);
}

static CUdeviceptr nested_b;

static void free_b(int sig)
{
	CHECK(cuMemFree_v2(nested_b), CUDA_SUCCESS);
}

static void nested(void)
{
	struct itimerval in_100ms = { .it_value = { .tv_usec = 100000 } };
	CUdeviceptr a;

	CHECK(cuMemAlloc_v2(&a, 4096), CUDA_SUCCESS);
	CHECK(cuMemAlloc_v2(&nested_b, 8192), CUDA_SUCCESS);
	signal(SIGALRM, free_b);
	fake_cuda_script("cuMemFree_v2", CUDA_SUCCESS, 500000);
	setitimer(ITIMER_REAL, &in_100ms, NULL);
	CHECK(cuMemFree_v2(a), CUDA_SUCCESS);
	signal(SIGALRM, SIG_DFL);
}

static void streams(void)
{
	CUstream s1, s2;

	CHECK(cuStreamCreate(&s1, 0), CUDA_SUCCESS);
	CHECK(cuStreamCreate(&s2, 1), CUDA_SUCCESS);
	CHECK(cuStreamSynchronize(s1), CUDA_SUCCESS);
	CHECK(cuStreamSynchronize_ptsz(s2), CUDA_SUCCESS);
	CHECK(cuCtxSynchronize(), CUDA_SUCCESS);
	CHECK(cuStreamDestroy_v2(s1), CUDA_SUCCESS);
	CHECK(cuStreamDestroy(s2), CUDA_SUCCESS);
}
#define CUDA_ERROR_INVALID_DEVICE	101
#define CUDA_ERROR_INVALID_PTX		218
#define CUDA_ERROR_FILE_NOT_FOUND	301
#define CUDA_ERROR_UNKNOWN		999

static void setup(void)
{
	static const char image[16];
	int version, count, attr;
	char name[64];
	size_t bytes;
	CUcontext ctx;
	CUmodule mod;
	CUlibrary lib;
	CUdevice dev;

	fake_cuda_script("cuInit", CUDA_ERROR_UNKNOWN, 0);
	CHECK(cuInit(0), CUDA_ERROR_UNKNOWN);
	CHECK(cuInit(0), CUDA_SUCCESS);
	CHECK(cuDriverGetVersion(&version), CUDA_SUCCESS);
	CHECK(cuDeviceGetCount(&count), CUDA_SUCCESS);
	CHECK(cuDeviceGet(&dev, 0), CUDA_SUCCESS);
	CHECK(cuDeviceGetName(name, sizeof(name), dev), CUDA_SUCCESS);
	CHECK(cuDeviceGetAttribute(&attr, 75, dev), CUDA_SUCCESS);
	CHECK(cuDeviceTotalMem_v2(&bytes, dev), CUDA_SUCCESS);
	fake_cuda_script("cuDevicePrimaryCtxRetain", CUDA_ERROR_INVALID_DEVICE, 0);
	CHECK(cuDevicePrimaryCtxRetain(&ctx, dev), CUDA_ERROR_INVALID_DEVICE);
	CHECK(cuDevicePrimaryCtxRetain(&ctx, dev), CUDA_SUCCESS);
	CHECK(cuDevicePrimaryCtxRelease_v2(dev), CUDA_SUCCESS);
	CHECK(cuCtxCreate_v2(&ctx, 0, dev), CUDA_SUCCESS);
	CHECK(cuCtxSetCurrent(ctx), CUDA_SUCCESS);
	fake_cuda_script("cuModuleLoad", CUDA_ERROR_FILE_NOT_FOUND, 0);
	CHECK(cuModuleLoad(&mod, "missing.cubin"), CUDA_ERROR_FILE_NOT_FOUND);
	CHECK(cuModuleLoadData(&mod, image), CUDA_SUCCESS);
	CHECK(cuModuleUnload(mod), CUDA_SUCCESS);
	fake_cuda_script("cuLibraryLoadData", CUDA_ERROR_INVALID_PTX, 0);
	CHECK(cuLibraryLoadData(&lib, image, NULL, NULL, 0, NULL, NULL, 0), CUDA_ERROR_INVALID_PTX);
	CHECK(cuCtxDestroy_v2(ctx), CUDA_SUCCESS);
}

#define CUDA_ERROR_INVALID_CONTEXT	201

static void extra(void)
{
	size_t free, total;
	CUdevice dev;

	CHECK(cuMemGetInfo_v2(&free, &total), CUDA_SUCCESS);
	CHECK(cuMemGetInfo_v2(&free, &total), CUDA_SUCCESS);
	CHECK(cuMemGetInfo(&free, &total), CUDA_SUCCESS);
	fake_cuda_script("cuCtxGetDevice", CUDA_ERROR_INVALID_CONTEXT, 0);
	CHECK(cuCtxGetDevice(&dev), CUDA_ERROR_INVALID_CONTEXT);
	CHECK(cuCtxGetDevice(&dev), CUDA_SUCCESS);
}

#endif /* !RUNTIME_ONLY */

/* cudaLaunchKernel with each dim3 as its two registers: junk above each z. */
cudaError_t cudaLaunchKernel_wide(const void *, unsigned long long, unsigned long long,
				  unsigned long long, unsigned long long, void **, size_t,
				  cudaStream_t) __asm__("cudaLaunchKernel");

static void runtime(void)
{
	cudaStream_t s = stream(0x5040);
	void *a, *b, *c;
	void *args[3] = {};

	CHECK(cudaMalloc(&a, 1 << 20), cudaSuccess);
	CHECK(cudaFree(a), cudaSuccess);
	CHECK(cudaMalloc(&b, 3000), cudaSuccess);			/* leaked */
	CHECK(cudaMalloc(&c, 1024 * GiB), cudaErrorMemoryAllocation);
	CHECK(cudaMemcpy(host, host, 100, cudaMemcpyHostToDevice), cudaSuccess);
	CHECK(cudaMemcpy_ptds(host, host, 200, cudaMemcpyDeviceToHost), cudaSuccess);
	CHECK(cudaMemcpyAsync(host, host, 300, cudaMemcpyDeviceToDevice, s), cudaSuccess);
	CHECK(cudaMemcpyAsync_ptsz(host, host, 400, cudaMemcpyDefault, s), cudaSuccess);
	CHECK(cudaMemcpy(host, host, 500, (enum cudaMemcpyKind)7), cudaErrorInvalidMemcpyDirection);
	/* grid {5,6,7}: rsi = 5 | 6 << 32, rdx = 7; block {8,9,10}: rcx, r8; shmem, stream on the stack. */
	CHECK(cudaLaunchKernel_wide((const void *)saxpy_kernel, 5 | 6ULL << 32, JUNK | 7,
						 8 | 9ULL << 32, JUNK | 10, args, 1234, s),
	      cudaSuccess);
	CHECK(cudaLaunchKernel_ptsz((const void *)saxpy_kernel, (dim3){ 64, 1, 1 },
				    (dim3){ 128, 1, 1 }, NULL, 0, NULL),
	      cudaSuccess);
	CHECK(cudaLaunchKernel(NULL, (dim3){ 1, 1, 1 }, (dim3){ 1, 1, 1 }, NULL, 0, NULL),
	      cudaErrorInvalidDeviceFunction);
	CHECK(cudaStreamSynchronize(s), cudaSuccess);
	CHECK(cudaStreamSynchronize_ptsz(NULL), cudaSuccess);
	CHECK(cudaDeviceSynchronize(), cudaSuccess);
	printf("leaked 0x%lx 3000\n", (unsigned long)(uintptr_t)b);
}

/* The calls rt_workload makes on the real runtime, where it finds no driver. */
static void nodriver(void)
{
	cudaStream_t s = stream(0x77);
	void *p = NULL, *args[1] = {};

	CHECK(cudaMalloc(&p, 1 << 20), cudaErrorInsufficientDriver);
	CHECK(cudaFree(p), cudaErrorInsufficientDriver);
	CHECK(cudaMemcpy(host, host, 64, cudaMemcpyHostToDevice), cudaErrorInsufficientDriver);
	CHECK(cudaMemcpyAsync(host, host, 128, cudaMemcpyDeviceToHost, NULL),
	      cudaErrorInsufficientDriver);
	CHECK(cudaLaunchKernel((const void *)saxpy_kernel, (dim3){ 5, 6, 7 }, (dim3){ 8, 9, 10 },
			       args, 1234, s),
	      cudaErrorInsufficientDriver);
	CHECK(cudaStreamSynchronize(NULL), cudaErrorInsufficientDriver);
	CHECK(cudaDeviceSynchronize(), cudaErrorInsufficientDriver);
}

int main(int argc, char **argv)
{
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 1; i < argc; i++) {
		const char *p = argv[i], *next = i + 1 < argc ? argv[i + 1] : "0";

		if (!strcmp(p, "--wait") && i + 1 < argc) {
			wait_for(argv[++i]);
#ifndef RUNTIME_ONLY
		} else if (!strcmp(p, "batches")) {
			batches(atoi(next));
			i++;
		} else if (!strcmp(p, "leak")) {
			leak();
		} else if (!strcmp(p, "errors")) {
			errors();
		} else if (!strcmp(p, "launch")) {
			launch();
		} else if (!strcmp(p, "copies")) {
			copies();
		} else if (!strcmp(p, "setup")) {
			setup();
		} else if (!strcmp(p, "extra")) {
			extra();
		} else if (!strcmp(p, "streams")) {
			streams();
		} else if (!strcmp(p, "nested")) {
			nested();
		} else if (!strcmp(p, "inflight")) {
			inflight(atoi(next));
			i++;
		} else if (!strcmp(p, "hostile")) {
			hostile();
		} else if (!strcmp(p, "steady")) {
			steady(atoi(next));
			i++;
#endif
		} else if (!strcmp(p, "runtime")) {
			runtime();
		} else if (!strcmp(p, "nodriver")) {
			nodriver();
		} else if (!strcmp(p, "sleep")) {
			usleep(atoi(next) * 1000);
			i++;
		} else {
			fprintf(stderr, "workload: unknown phase '%s'\n", p);
			return 2;
		}
	}
	return 0;
}
