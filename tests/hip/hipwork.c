// SPDX-License-Identifier: GPL-2.0
/*
 * hiptrace's workload: drives the fake libamdhip64.so.5 through known
 * sequences of calls, so the tests can assert exact counts, sizes, shapes
 * and results.  Every call's result is checked: a surprise exits 1.
 *
 *   hipwork [--wait FILE] PHASE...
 *
 * --wait FILE   print "waiting PID", then go on once FILE exists (the
 *               tracer has attached)
 * batches N     hipModuleGetFunction train_step, then N x (hipMalloc 1 GiB,
 *               hipMemcpyHtoD 4096 bytes, hipModuleLaunchKernel train_step
 *               grid 64x1x1 block 256x1x1 shmem 0 stream 0, hipFree):
 *               1 + 4N calls, none failing
 * leak          allocations of every kind, 14 calls, none failing:
 *                 hipMalloc 4096                          never freed
 *                 hipMalloc 16384, hipFree
 *                 hipMallocManaged 8192 flags 0x1         never freed
 *                 hipHostMalloc 65536 flags 0x0, hipHostFree
 *                 hipHostMalloc 1000 flags 0x2            never freed
 *                 hipExtMallocWithFlags 512 flags 0x1, hipFree
 *                 hipExtMallocWithFlags 3000 flags 0x0    never freed
 *                 hipMallocAsync 1 MiB stream 0x5010, hipFreeAsync
 *                 hipMallocAsync 2 MiB stream 0x5010      never freed
 *                 hipFree(NULL): hipSuccess, frees nothing
 *               9 allocations, 4 frees, 5 left: printed as
 *               "leaked 0xADDR BYTES", in the order above.  Freed
 *               addresses are handed out again (the host ones by malloc):
 *               a free ends the allocation live at its address then
 * errors        one failing call of each kind, 14 calls, 10 failing:
 *                 hipMalloc 1024 GiB           hipErrorOutOfMemory 2
 *                 hipFree 0xdead0000           hipErrorInvalidValue 1
 *                 hipMemcpy 64 kind 7          hipErrorInvalidMemcpyDirection 21
 *                 hipModuleGetFunction no_such_kernel  hipErrorNotFound 500
 *                 hipModuleLaunchKernel NULL   hipErrorInvalidResourceHandle 400
 *                 hipLaunchKernel NULL         hipErrorInvalidDeviceFunction 98
 *                 hipSetDevice 1               hipErrorInvalidDevice 101
 *                 hipGetDeviceCount (scripted) hipErrorNoDevice 100
 *                 hipStreamDestroy 0xbad0      hipErrorInvalidResourceHandle 400
 *                 hipStreamSynchronize 0 (scripted, 2 ms) hipErrorLaunchFailure 719
 *                 hipDeviceSynchronize (scripted, 3 ms)   hipSuccess
 *                 hipPeekAtLastError           719, the last failure
 *                 hipGetLastError              719, and resets it
 *                 hipGetLastError              hipSuccess
 *               (the last three return a previous call's error: they do
 *               not fail themselves)
 * launch        6 calls, none failing:
 *                 hipModuleGetFunction vecAdd, hipModuleGetFunction reduce
 *                 hipModuleLaunchKernel vecAdd grid 3x5x7 block 11x13x17
 *                   shmem 19 stream 0x5010 (junk above every 32-bit value)
 *                 hipModuleLaunchKernel reduce grid 23x29x31 block 37x41x43
 *                   shmem 47 stream 0x5030
 *                 hipLaunchKernel hip_stub_kernel grid 5x6x7 block 8x9x10
 *                   shmem 1234 stream 0x5020 (junk above each z)
 *                 hipLaunchKernel hip_stub_kernel grid 64x1x1 block 128x1x1
 *                   shmem 0 stream 0
 * copies        every copy and set, each its own byte count, 11 calls, none
 *               failing (async ones on stream 0x5040):
 *                 hipMemcpy 1000 HostToDevice, hipMemcpy 1001 DeviceToHost
 *                 (junk above the kind), hipMemcpyAsync 2000 DeviceToDevice,
 *                 hipMemcpyHtoD 3000, hipMemcpyDtoH 4000, hipMemcpyDtoD 5000,
 *                 hipMemcpyHtoDAsync 6000, hipMemcpyDtoHAsync 7000,
 *                 hipMemcpyDtoDAsync 8000, hipMemset 9000 value 171 (junk
 *                 above it), hipMemsetAsync 10000 value 0
 * streams       7 calls, none failing: hipStreamCreate (0x5010 on a fresh
 *               fake), hipStreamCreateWithFlags hipStreamNonBlocking
 *               (0x5020), hipStreamSynchronize of each, hipDeviceSynchronize,
 *               hipStreamDestroy of each
 * setup         what a program does before its first allocation, 10 calls,
 *               1 failing: hipInit 0, hipDriverGetVersion,
 *               hipRuntimeGetVersion, hipGetDeviceCount, hipSetDevice 0
 *               (junk above it), hipGetDevice, hipModuleLoad
 *               /nonexistent/hipwork.hsaco hipErrorFileNotFound 301,
 *               hipModuleLoadData, hipModuleUnload, hipDeviceReset
 * sleep MS      stay alive MS milliseconds
 * die           hipStreamSynchronize 0 (scripted to take 10 s), during
 *               which another thread kills the process with SIGKILL 100 ms
 *               in: a process that ends inside a call, which never returns
 *
 * Each phase makes its calls whatever ran before it; the values listed are
 * those of a phase run first in a fresh process.  Phases share the fake's
 * state (live memory, streams, the last error): "leak leak" leaks 10, a
 * second "streams" gets streams 0x5030 and 0x5040.
 *
 * hipLaunchKernel names a kernel by its host function, the stub hipcc emits
 * for each __global__ one: hip_stub_kernel here, a real function of this
 * program with a symbol of its own, so a tracer can name it.
 *
 * Where a parameter is a 32-bit int, some calls go through a declaration
 * with 64-bit parameters and put junk in the upper halves of the registers
 * and stack slots, as the x86-64 ABI allows a caller to: the callee (and a
 * correct tracer) must read the low halves only.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fake_hip.h"
#define CLIENT_NAME "hipwork"
#include "client/check_call.h"
#include "client/kill_soon.h"
#include "client/phases.h"

#define GiB (1ULL << 30)
#define MiB (1ULL << 20)
#define JUNK 0xdeadbeef00000000ULL	/* upper halves the callee must ignore */

/*
 * The kernel hipLaunchKernel names: its host stub, as hipcc would emit one.
 * Never called.  The local on its stack gives it a frame, so a frame
 * pointer too: gcc makes none for a leaf with no frame, whatever the flags.
 */
__attribute__((noinline, used)) void hip_stub_kernel(float a, float *x, float *y)
{
	volatile float arg = a;

	(void)arg;
}

static hipStream_t stream(unsigned long v)
{
	return (hipStream_t)(uintptr_t)v;
}

static void *dev(unsigned long long v)
{
	return (void *)(uintptr_t)v;
}

static char host[8192];

static void batches(int n)
{
	hipFunction_t f;
	void *p;
	int i;

	CHECK(hipModuleGetFunction(&f, NULL, "train_step"), hipSuccess);
	for (i = 0; i < n; i++) {
		CHECK(hipMalloc(&p, 1 * GiB), hipSuccess);
		CHECK(hipMemcpyHtoD(p, host, 4096), hipSuccess);
		CHECK(hipModuleLaunchKernel(f, 64, 1, 1, 256, 1, 1, 0, NULL, NULL, NULL), hipSuccess);
		CHECK(hipFree(p), hipSuccess);
	}
}

static __attribute__((noinline)) void leak(void)
{
	void *a, *b, *c, *h, *h1, *e, *e1, *m, *m1;
	hipStream_t s = stream(0x5010);

	CHECK(hipMalloc(&a, 4096), hipSuccess);				/* leaked */
	CHECK(hipMalloc(&b, 16384), hipSuccess);
	CHECK(hipFree(b), hipSuccess);
	CHECK(hipMallocManaged(&c, 8192, hipMemAttachGlobal), hipSuccess);	/* leaked */
	CHECK(hipHostMalloc(&h, 65536, hipHostMallocDefault), hipSuccess);
	CHECK(hipHostFree(h), hipSuccess);
	CHECK(hipHostMalloc(&h1, 1000, hipHostMallocMapped), hipSuccess);	/* leaked */
	CHECK(hipExtMallocWithFlags(&e, 512, hipDeviceMallocFinegrained), hipSuccess);
	CHECK(hipFree(e), hipSuccess);
	CHECK(hipExtMallocWithFlags(&e1, 3000, hipDeviceMallocDefault), hipSuccess);	/* leaked */
	CHECK(hipMallocAsync(&m, 1 * MiB, s), hipSuccess);
	CHECK(hipFreeAsync(m, s), hipSuccess);
	CHECK(hipMallocAsync(&m1, 2 * MiB, s), hipSuccess);		/* leaked */
	CHECK(hipFree(NULL), hipSuccess);
	printf("leaked 0x%lx 4096\nleaked 0x%lx 8192\nleaked 0x%lx 1000\nleaked 0x%lx 3000\n"
	       "leaked 0x%lx 2097152\n", (unsigned long)(uintptr_t)a, (unsigned long)(uintptr_t)c,
	       (unsigned long)(uintptr_t)h1, (unsigned long)(uintptr_t)e1, (unsigned long)(uintptr_t)m1);
}

static void errors(void)
{
	hipFunction_t f;
	void *p;
	int count;

	CHECK(hipMalloc(&p, 1024 * GiB), hipErrorOutOfMemory);
	CHECK(hipFree(dev(0xdead0000)), hipErrorInvalidValue);
	CHECK(hipMemcpy(host, host, 64, (hipMemcpyKind)7), hipErrorInvalidMemcpyDirection);
	CHECK(hipModuleGetFunction(&f, NULL, "no_such_kernel"), hipErrorNotFound);
	CHECK(hipModuleLaunchKernel(NULL, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL),
	      hipErrorInvalidResourceHandle);
	CHECK(hipLaunchKernel(NULL, (dim3){ 1, 1, 1 }, (dim3){ 1, 1, 1 }, NULL, 0, NULL),
	      hipErrorInvalidDeviceFunction);
	CHECK(hipSetDevice(1), hipErrorInvalidDevice);
	fake_hip_script("hipGetDeviceCount", hipErrorNoDevice, 0);
	CHECK(hipGetDeviceCount(&count), hipErrorNoDevice);
	CHECK(hipStreamDestroy(stream(0xbad0)), hipErrorInvalidResourceHandle);
	fake_hip_script("hipStreamSynchronize", hipErrorLaunchFailure, 2000);
	CHECK(hipStreamSynchronize(NULL), hipErrorLaunchFailure);
	fake_hip_script("hipDeviceSynchronize", hipSuccess, 3000);
	CHECK(hipDeviceSynchronize(), hipSuccess);
	CHECK(hipPeekAtLastError(), hipErrorLaunchFailure);
	CHECK(hipGetLastError(), hipErrorLaunchFailure);
	CHECK(hipGetLastError(), hipSuccess);
}

/*
 * The same functions declared with 64-bit parameters (asm labels name the
 * real symbols): the caller then fills whole registers and stack slots,
 * junk upper halves included.
 */
hipError_t hipModuleLaunchKernel_wide(hipFunction_t, unsigned long long, unsigned long long,
				      unsigned long long, unsigned long long, unsigned long long,
				      unsigned long long, unsigned long long, hipStream_t, void **,
				      void **) __asm__("hipModuleLaunchKernel");
/* Each dim3 in two registers: x | y << 32, then z with junk above it. */
hipError_t hipLaunchKernel_wide(const void *, unsigned long long, unsigned long long,
				unsigned long long, unsigned long long, void **, size_t,
				hipStream_t) __asm__("hipLaunchKernel");
hipError_t hipMemcpy_wide(void *, const void *, size_t, unsigned long long) __asm__("hipMemcpy");
hipError_t hipMemset_wide(void *, unsigned long long, size_t) __asm__("hipMemset");
hipError_t hipSetDevice_wide(unsigned long long) __asm__("hipSetDevice");

static void launch(void)
{
	hipFunction_t f, g;
	void *args[3] = {};

	CHECK(hipModuleGetFunction(&f, NULL, "vecAdd"), hipSuccess);
	CHECK(hipModuleGetFunction(&g, NULL, "reduce"), hipSuccess);
	/* gx..by in rsi, rdx, rcx, r8, r9; bz at sp+8, shmem at sp+16, stream at sp+24. */
	CHECK(hipModuleLaunchKernel_wide(f, JUNK | 3, JUNK | 5, JUNK | 7, JUNK | 11, JUNK | 13,
					 JUNK | 17, JUNK | 19, stream(0x5010), NULL, NULL),
	      hipSuccess);
	CHECK(hipModuleLaunchKernel(g, 23, 29, 31, 37, 41, 43, 47, stream(0x5030), NULL, NULL),
	      hipSuccess);
	/* grid {5,6,7}: rsi = 5 | 6 << 32, rdx = 7; block {8,9,10}: rcx, r8; shmem, stream on the stack. */
	CHECK(hipLaunchKernel_wide((const void *)hip_stub_kernel, 5 | 6ULL << 32, JUNK | 7,
				   8 | 9ULL << 32, JUNK | 10, args, 1234, stream(0x5020)),
	      hipSuccess);
	CHECK(hipLaunchKernel((const void *)hip_stub_kernel, (dim3){ 64, 1, 1 },
			      (dim3){ 128, 1, 1 }, NULL, 0, NULL),
	      hipSuccess);
}

static void copies(void)
{
	hipStream_t s = stream(0x5040);
	void *d = dev(0x7e8000000000ULL);

	CHECK(hipMemcpy(d, host, 1000, hipMemcpyHostToDevice), hipSuccess);
	CHECK(hipMemcpy_wide(host, d, 1001, JUNK | hipMemcpyDeviceToHost), hipSuccess);
	CHECK(hipMemcpyAsync(d, d, 2000, hipMemcpyDeviceToDevice, s), hipSuccess);
	CHECK(hipMemcpyHtoD(d, host, 3000), hipSuccess);
	CHECK(hipMemcpyDtoH(host, d, 4000), hipSuccess);
	CHECK(hipMemcpyDtoD(d, d, 5000), hipSuccess);
	CHECK(hipMemcpyHtoDAsync(d, host, 6000, s), hipSuccess);
	CHECK(hipMemcpyDtoHAsync(host, d, 7000, s), hipSuccess);
	CHECK(hipMemcpyDtoDAsync(d, d, 8000, s), hipSuccess);
	CHECK(hipMemset_wide(d, JUNK | 0xab, 9000), hipSuccess);
	CHECK(hipMemsetAsync(d, 0, 10000, s), hipSuccess);
}

static void streams(void)
{
	hipStream_t s1, s2;

	CHECK(hipStreamCreate(&s1), hipSuccess);
	CHECK(hipStreamCreateWithFlags(&s2, hipStreamNonBlocking), hipSuccess);
	CHECK(hipStreamSynchronize(s1), hipSuccess);
	CHECK(hipStreamSynchronize(s2), hipSuccess);
	CHECK(hipDeviceSynchronize(), hipSuccess);
	CHECK(hipStreamDestroy(s1), hipSuccess);
	CHECK(hipStreamDestroy(s2), hipSuccess);
}

static void setup(void)
{
	static const char image[16] = "\x7f" "ELF";
	int version, count, device;
	hipModule_t mod;

	CHECK(hipInit(0), hipSuccess);
	CHECK(hipDriverGetVersion(&version), hipSuccess);
	CHECK(hipRuntimeGetVersion(&version), hipSuccess);
	CHECK(hipGetDeviceCount(&count), hipSuccess);
	CHECK(hipSetDevice_wide(JUNK | 0), hipSuccess);
	CHECK(hipGetDevice(&device), hipSuccess);
	CHECK(hipModuleLoad(&mod, "/nonexistent/hipwork.hsaco"), hipErrorFileNotFound);
	CHECK(hipModuleLoadData(&mod, image), hipSuccess);
	CHECK(hipModuleUnload(mod), hipSuccess);
	CHECK(hipDeviceReset(), hipSuccess);
}

/* Ends the process inside hipStreamSynchronize: no return. */
static void die_in_call(void)
{
	fake_hip_script("hipStreamSynchronize", hipSuccess, 10000000);
	kill_soon();
	hipStreamSynchronize(0);
	fprintf(stderr, "hipwork: still alive after the kill\n");
	exit(1);
}

static const struct phase phases[] = {
	{ "batches", .run_n = batches },
	{ "leak", .run = leak },
	{ "errors", .run = errors },
	{ "launch", .run = launch },
	{ "copies", .run = copies },
	{ "streams", .run = streams },
	{ "setup", .run = setup },
	{ "die", .run = die_in_call },
};

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	return run_phases(phases, sizeof(phases) / sizeof(phases[0]), argc, argv);
}
