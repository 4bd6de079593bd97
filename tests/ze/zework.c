// SPDX-License-Identifier: GPL-2.0
/*
 * zetrace's workload: drives the fake libze_loader.so.1 through known
 * sequences of calls, so the tests can assert exact counts, sizes, shapes
 * and results.  Every call's result is checked: a surprise exits 1.
 * Handles and results below are those of a fresh process (the fake's
 * handles are numbered in creation order, never reused); results in
 * decimal, as the log has them.
 *
 *   zework [--wait FILE] PHASE...
 *
 * --wait FILE   print "waiting PID", then go on once FILE exists (the
 *               tracer has attached)
 * setup         what a program does before its first allocation, 8 calls,
 *               none failing:
 *                 zeInit 0 (junk above it)
 *                 zeDriverGet count 0, no array: count 1
 *                 zeDriverGet count 1: driver 0x64000010
 *                 zeDeviceGet count 1: device 0x44000010
 *                 zeDeviceGetProperties
 *                 zeContextCreate flags 0: context 0x63000010
 *                 zeCommandQueueCreate ordinal 0 index 0 asynchronous:
 *                   queue 0x71000010
 *                 zeCommandListCreate ordinal 0 flags 0: list 0x6c000010
 *               A second "setup" makes the same 8 calls and keeps the new
 *               context, queue and list; the first ones are never destroyed.
 * teardown      what setup made, and the module and kernels the phases
 *               made, destroyed: zeKernelDestroy of each kernel in creation
 *               order, zeModuleDestroy (if a module was made),
 *               zeCommandListDestroy, zeCommandQueueDestroy,
 *               zeContextDestroy: 3 calls and 1 per kernel and module, none
 *               failing; no call at all when no setup is live
 * batches N     zeKernelSetGroupSize train_step 256x1x1, then N x
 *               (zeMemAllocDevice 1 GiB, zeCommandListAppendMemoryCopy
 *               4096 bytes to it on the list, zeCommandListAppendLaunchKernel
 *               train_step group count 64x1x1 on the list, zeMemFree):
 *               1 + 4N calls, none failing
 * leak          allocations of every kind, 10 calls, none failing:
 *                 zeMemAllocDevice 4096 align 0                   never freed
 *                 zeMemAllocDevice 16384 align 0, zeMemFree
 *                 zeMemAllocHost 65536 align 64, zeMemFree
 *                 zeMemAllocHost 1000 align 0                     never freed
 *                 zeMemAllocShared 8192 align 0 device 0x44000010 never freed
 *                 zeMemAllocShared 2 MiB align 0 no device, zeMemFree
 *                 zeMemAllocDevice 3000 align 4096 flags 0x2      never freed
 *               7 allocations, 3 frees, 4 left: printed as
 *               "leaked 0xADDR BYTES", in the order above.  Freed
 *               addresses are handed out again (the host ones by malloc)
 * errors        one failing call of each kind, 12 calls, 7 failing:
 *                 zeMemAllocDevice 1024 GiB    ZE_RESULT_ERROR_UNSUPPORTED_SIZE 2013265929
 *                   (above maxMemAllocSize, the 16 GiB capacity)
 *                 zeMemAllocDevice 10 GiB      ZE_RESULT_SUCCESS 0
 *                 zeMemAllocDevice 10 GiB      ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY 1879048195
 *                 zeMemFree of the first 10 GiB  ZE_RESULT_SUCCESS 0
 *                 zeMemFree 0xdead0000         ZE_RESULT_ERROR_INVALID_ARGUMENT 2013265924
 *                 zeKernelCreate no_such_kernel  ZE_RESULT_ERROR_INVALID_KERNEL_NAME 2013265937
 *                 zeCommandListAppendLaunchKernel of a NULL kernel, group
 *                   count 1x1x1            ZE_RESULT_ERROR_INVALID_NULL_HANDLE 2013265925
 *                 zeModuleCreate of OpenCL C source given as SPIR-V (46
 *                   bytes), with a build log: log 0x62000010
 *                                          ZE_RESULT_ERROR_MODULE_BUILD_FAILURE 1879048196
 *                 zeModuleBuildLogGetString size 0, no buffer: size 109   0
 *                 zeModuleBuildLogGetString size 109, a buffer        0
 *                 zeModuleBuildLogDestroy                             0
 *                 zeCommandQueueSynchronize timeout UINT64_MAX (scripted,
 *                   2 ms)                  ZE_RESULT_ERROR_DEVICE_LOST 1879048193
 *               and prints the build log's first line:
 *                 "build log: error: invalid SPIR-V module: magic number
 *                 0x6e72656b, not 0x07230203" (one line; "kern" little-endian)
 *               (these sizes need the default capacity: a $FAKE_ZE_MEM
 *               below 10 GiB, or of 20 GiB or more, changes their results)
 * launch        two kernels on two command lists, 10 calls, none failing:
 *                 zeKernelSetGroupSize vecAdd 16x8x4 (junk above each)
 *                 zeKernelSetGroupSize reduce 32x6x2
 *                 zeCommandListCreateImmediate synchronous: list 0x6c000020
 *                 zeCommandListAppendLaunchKernel vecAdd group count 3x5x7
 *                   on the list (0x6c000010)
 *                 zeCommandListAppendLaunchKernel reduce group count 23x29x31
 *                   on the immediate list
 *                 zeCommandListClose, zeCommandQueueExecuteCommandLists 1
 *                   (the list), zeCommandQueueSynchronize UINT64_MAX,
 *                   zeCommandListReset of the list
 *                 zeCommandListDestroy of the immediate list
 * copies        copies and fills, each its own size, 6 calls, none failing,
 *               on the list; device address 0x7d8000000000 (not
 *               allocated: the fake does not check), host a static buffer:
 *                 zeCommandListAppendMemoryCopy 1000 host to device
 *                 zeCommandListAppendMemoryCopy 2000 device to host
 *                 zeCommandListAppendMemoryCopy 3000 device to device,
 *                   signalling event 0x65000010
 *                 zeCommandListAppendMemoryFill 4000, a 1-byte pattern
 *                 zeCommandListAppendMemoryFill 5000, a 4-byte pattern,
 *                   waiting for event 0x65000010 (1 wait event)
 *                 zeEventHostSynchronize 0x65000010 UINT64_MAX
 *               (no event is created: the fake has no event pools, and
 *               takes any non-NULL event handle for a signalled event)
 * sleep MS      stay alive MS milliseconds
 * die           zeCommandQueueSynchronize of the queue, UINT64_MAX
 *               (scripted to take 10 s), during which another thread
 *               kills the process with SIGKILL 100 ms in: a process that
 *               ends inside a call, which never returns (so the log has no
 *               line for it: the fake writes a line at the return)
 *
 * Phases run alone: each that needs them makes what it lacks first, in
 * this order, and the call counts above leave these out:
 *   - the setup: every phase but sleep and teardown runs setup's 8 calls
 *     first when no setup is live (none yet, or torn down since);
 *   - the module: batches, errors and launch make it with zeModuleCreate
 *     (a 20-byte SPIR-V header, no build log: module 0x6d000010) when
 *     there is none yet, 1 call;
 *   - the kernels: batches (train_step) and launch (vecAdd, then reduce)
 *     make each with zeKernelCreate when it has none yet, 1 call each
 *     (kernel 0x6b000010 for the first made, 0x6b000020 the next...).
 * After the last phase, if a setup is live, teardown runs.  So "zework
 * batches 2" makes 8 + 1 + 1 + 9 + 5 = 24 calls, "zework leak" 8 + 10 +
 * 3 = 21, "zework errors" 8 + 1 + 12 + 4 = 25, "zework launch" 8 + 1 + 2 +
 * 10 + 6 = 27, "zework copies" 8 + 6 + 3 = 17, "zework setup" 8 + 3 = 11,
 * "zework die" 8 and a call that never returns.
 *
 * Phases share the fake's state (live memory, handles): "leak leak" leaks
 * 8; a module and kernels, once made, serve every later phase until a
 * teardown.
 *
 * Where a parameter is a 32-bit int, some calls go through a declaration
 * with 64-bit parameters and put junk in the upper halves of the registers,
 * as the x86-64 ABI allows a caller to: the callee (and a correct tracer)
 * must read the low halves only.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_ze.h"
#define CLIENT_NAME "zework"
#define CHECK_HEX
#include "client/check_call.h"
#include "client/kill_soon.h"
#include "client/phases.h"

#define GiB (1ULL << 30)
#define MiB (1ULL << 20)
#define JUNK 0xdeadbeef00000000ULL	/* upper halves the callee must ignore */
#define FOREVER UINT64_MAX		/* a synchronize's timeout: until done */

/*
 * The same functions declared with 64-bit parameters (asm labels name the
 * real symbols): the caller then fills whole registers, junk upper halves
 * included.
 */
ze_result_t zeInit_wide(unsigned long long) __asm__("zeInit");
ze_result_t zeKernelSetGroupSize_wide(ze_kernel_handle_t, unsigned long long, unsigned long long,
				      unsigned long long) __asm__("zeKernelSetGroupSize");

/* What setup makes, and the module and kernels made on it. */
static int set_up;
static ze_driver_handle_t driver;
static ze_device_handle_t device;
static ze_context_handle_t context;
static ze_command_queue_handle_t queue;
static ze_command_list_handle_t list;
static ze_module_handle_t module;
static struct {
	const char *name;
	ze_kernel_handle_t handle;
} kernels[8];
static int nr_kernels;

static const ze_device_mem_alloc_desc_t device_desc = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
static const ze_host_mem_alloc_desc_t host_desc = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC };

static char host[8192];

static void *dev(unsigned long long v)
{
	return (void *)(uintptr_t)v;
}

static unsigned long addr(const void *p)
{
	return (unsigned long)(uintptr_t)p;
}

static void setup(void)
{
	const ze_context_desc_t context_desc = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	const ze_command_queue_desc_t queue_desc = {
		ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0,
		ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, ZE_COMMAND_QUEUE_PRIORITY_NORMAL,
	};
	const ze_command_list_desc_t list_desc = { ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0, 0 };
	ze_device_properties_t props = { .stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES };
	uint32_t count = 0;

	CHECK(zeInit_wide(JUNK | 0), ZE_RESULT_SUCCESS);
	CHECK(zeDriverGet(&count, NULL), ZE_RESULT_SUCCESS);
	if (count != 1) {
		fprintf(stderr, "zework: zeDriverGet counted %u drivers, want 1\n", count);
		exit(1);
	}
	CHECK(zeDriverGet(&count, &driver), ZE_RESULT_SUCCESS);
	count = 1;
	CHECK(zeDeviceGet(driver, &count, &device), ZE_RESULT_SUCCESS);
	CHECK(zeDeviceGetProperties(device, &props), ZE_RESULT_SUCCESS);
	CHECK(zeContextCreate(driver, &context_desc, &context), ZE_RESULT_SUCCESS);
	CHECK(zeCommandQueueCreate(context, device, &queue_desc, &queue), ZE_RESULT_SUCCESS);
	CHECK(zeCommandListCreate(context, device, &list_desc, &list), ZE_RESULT_SUCCESS);
	set_up = 1;
}

static void need_setup(void)
{
	if (!set_up)
		setup();
}

static void teardown(void)
{
	int i;

	if (!set_up)
		return;
	for (i = 0; i < nr_kernels; i++)
		CHECK(zeKernelDestroy(kernels[i].handle), ZE_RESULT_SUCCESS);
	nr_kernels = 0;
	if (module)
		CHECK(zeModuleDestroy(module), ZE_RESULT_SUCCESS);
	module = NULL;
	CHECK(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
	CHECK(zeCommandQueueDestroy(queue), ZE_RESULT_SUCCESS);
	CHECK(zeContextDestroy(context), ZE_RESULT_SUCCESS);
	set_up = 0;
}

/* The module, made when there is none: a SPIR-V header and nothing else. */
static ze_module_handle_t need_module(void)
{
	static const uint32_t spirv[5] = { 0x07230203, 0x00010000, 0, 1, 0 };
	const ze_module_desc_t desc = {
		ZE_STRUCTURE_TYPE_MODULE_DESC, NULL, ZE_MODULE_FORMAT_IL_SPIRV, sizeof(spirv),
		(const uint8_t *)spirv, "", NULL,
	};

	need_setup();
	if (!module)
		CHECK(zeModuleCreate(context, device, &desc, &module, NULL), ZE_RESULT_SUCCESS);
	return module;
}

/* A kernel of the module by name, made the first time it is asked for. */
static ze_kernel_handle_t need_kernel(const char *name)
{
	ze_kernel_desc_t desc = { ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, name };
	int i;

	need_module();
	for (i = 0; i < nr_kernels; i++)
		if (!strcmp(kernels[i].name, name))
			return kernels[i].handle;
	if (nr_kernels == (int)(sizeof(kernels) / sizeof(kernels[0]))) {
		fprintf(stderr, "zework: too many kernels\n");
		exit(1);
	}
	kernels[nr_kernels].name = name;
	CHECK(zeKernelCreate(module, &desc, &kernels[nr_kernels].handle), ZE_RESULT_SUCCESS);
	return kernels[nr_kernels++].handle;
}

static void batches(int n)
{
	ze_kernel_handle_t k = need_kernel("train_step");
	const ze_group_count_t groups = { 64, 1, 1 };
	void *p;
	int i;

	CHECK(zeKernelSetGroupSize(k, 256, 1, 1), ZE_RESULT_SUCCESS);
	for (i = 0; i < n; i++) {
		CHECK(zeMemAllocDevice(context, &device_desc, 1 * GiB, 0, device, &p), ZE_RESULT_SUCCESS);
		CHECK(zeCommandListAppendMemoryCopy(list, p, host, 4096, NULL, 0, NULL),
		      ZE_RESULT_SUCCESS);
		CHECK(zeCommandListAppendLaunchKernel(list, k, &groups, NULL, 0, NULL),
		      ZE_RESULT_SUCCESS);
		CHECK(zeMemFree(context, p), ZE_RESULT_SUCCESS);
	}
}

static __attribute__((noinline)) void leak(void)
{
	const ze_device_mem_alloc_desc_t uncached = {
		ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_UNCACHED, 0,
	};
	void *a, *b, *h, *h1, *s, *s1, *d;

	need_setup();
	CHECK(zeMemAllocDevice(context, &device_desc, 4096, 0, device, &a), ZE_RESULT_SUCCESS);	/* leaked */
	CHECK(zeMemAllocDevice(context, &device_desc, 16384, 0, device, &b), ZE_RESULT_SUCCESS);
	CHECK(zeMemFree(context, b), ZE_RESULT_SUCCESS);
	CHECK(zeMemAllocHost(context, &host_desc, 65536, 64, &h), ZE_RESULT_SUCCESS);
	CHECK(zeMemFree(context, h), ZE_RESULT_SUCCESS);
	CHECK(zeMemAllocHost(context, &host_desc, 1000, 0, &h1), ZE_RESULT_SUCCESS);		/* leaked */
	CHECK(zeMemAllocShared(context, &device_desc, &host_desc, 8192, 0, device, &s),
	      ZE_RESULT_SUCCESS);								/* leaked */
	CHECK(zeMemAllocShared(context, &device_desc, &host_desc, 2 * MiB, 0, NULL, &s1),
	      ZE_RESULT_SUCCESS);
	CHECK(zeMemFree(context, s1), ZE_RESULT_SUCCESS);
	CHECK(zeMemAllocDevice(context, &uncached, 3000, 4096, device, &d), ZE_RESULT_SUCCESS);	/* leaked */
	printf("leaked 0x%lx 4096\nleaked 0x%lx 1000\nleaked 0x%lx 8192\nleaked 0x%lx 3000\n",
	       addr(a), addr(h1), addr(s), addr(d));
}

static void errors(void)
{
	/* OpenCL C where SPIR-V belongs: "kern" is no magic number. */
	static const char source[] = "kernel void broken(global int *x) { x[0] = ; }";
	const ze_module_desc_t bad = {
		ZE_STRUCTURE_TYPE_MODULE_DESC, NULL, ZE_MODULE_FORMAT_IL_SPIRV, sizeof(source) - 1,
		(const uint8_t *)source, "", NULL,
	};
	const ze_kernel_desc_t missing = { ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, "no_such_kernel" };
	const ze_group_count_t one = { 1, 1, 1 };
	ze_module_build_log_handle_t blog = NULL;
	ze_module_handle_t m;
	ze_kernel_handle_t k;
	void *p, *big;
	size_t size = 0;
	char *text;

	need_module();
	CHECK(zeMemAllocDevice(context, &device_desc, 1024 * GiB, 0, device, &p),
	      ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	CHECK(zeMemAllocDevice(context, &device_desc, 10 * GiB, 0, device, &big), ZE_RESULT_SUCCESS);
	CHECK(zeMemAllocDevice(context, &device_desc, 10 * GiB, 0, device, &p),
	      ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
	CHECK(zeMemFree(context, big), ZE_RESULT_SUCCESS);
	CHECK(zeMemFree(context, dev(0xdead0000)), ZE_RESULT_ERROR_INVALID_ARGUMENT);
	CHECK(zeKernelCreate(module, &missing, &k), ZE_RESULT_ERROR_INVALID_KERNEL_NAME);
	CHECK(zeCommandListAppendLaunchKernel(list, NULL, &one, NULL, 0, NULL),
	      ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	CHECK(zeModuleCreate(context, device, &bad, &m, &blog), ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
	CHECK(zeModuleBuildLogGetString(blog, &size, NULL), ZE_RESULT_SUCCESS);
	text = calloc(1, size + 1);
	if (!text) {
		fprintf(stderr, "zework: out of memory\n");
		exit(1);
	}
	CHECK(zeModuleBuildLogGetString(blog, &size, text), ZE_RESULT_SUCCESS);
	CHECK(zeModuleBuildLogDestroy(blog), ZE_RESULT_SUCCESS);
	printf("build log: %.*s\n", (int)strcspn(text, "\n"), text);
	free(text);
	fake_ze_script("zeCommandQueueSynchronize", ZE_RESULT_ERROR_DEVICE_LOST, 2000);
	CHECK(zeCommandQueueSynchronize(queue, FOREVER), ZE_RESULT_ERROR_DEVICE_LOST);
}

static void launch(void)
{
	const ze_command_queue_desc_t sync_desc = {
		ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0,
		ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, ZE_COMMAND_QUEUE_PRIORITY_NORMAL,
	};
	ze_kernel_handle_t f = need_kernel("vecAdd"), g = need_kernel("reduce");
	const ze_group_count_t fg = { 3, 5, 7 }, gg = { 23, 29, 31 };
	ze_command_list_handle_t imm;

	CHECK(zeKernelSetGroupSize_wide(f, JUNK | 16, JUNK | 8, JUNK | 4), ZE_RESULT_SUCCESS);
	CHECK(zeKernelSetGroupSize(g, 32, 6, 2), ZE_RESULT_SUCCESS);
	CHECK(zeCommandListCreateImmediate(context, device, &sync_desc, &imm), ZE_RESULT_SUCCESS);
	CHECK(zeCommandListAppendLaunchKernel(list, f, &fg, NULL, 0, NULL), ZE_RESULT_SUCCESS);
	CHECK(zeCommandListAppendLaunchKernel(imm, g, &gg, NULL, 0, NULL), ZE_RESULT_SUCCESS);
	CHECK(zeCommandListClose(list), ZE_RESULT_SUCCESS);
	CHECK(zeCommandQueueExecuteCommandLists(queue, 1, &list, NULL), ZE_RESULT_SUCCESS);
	CHECK(zeCommandQueueSynchronize(queue, FOREVER), ZE_RESULT_SUCCESS);
	CHECK(zeCommandListReset(list), ZE_RESULT_SUCCESS);
	CHECK(zeCommandListDestroy(imm), ZE_RESULT_SUCCESS);
}

static void copies(void)
{
	static const uint32_t pattern = 0xabcd1234;
	ze_event_handle_t ev = (ze_event_handle_t)(uintptr_t)0x65000010;
	void *d = dev(0x7d8000000000ULL);

	need_setup();
	CHECK(zeCommandListAppendMemoryCopy(list, d, host, 1000, NULL, 0, NULL), ZE_RESULT_SUCCESS);
	CHECK(zeCommandListAppendMemoryCopy(list, host, d, 2000, NULL, 0, NULL), ZE_RESULT_SUCCESS);
	CHECK(zeCommandListAppendMemoryCopy(list, d, d, 3000, ev, 0, NULL), ZE_RESULT_SUCCESS);
	CHECK(zeCommandListAppendMemoryFill(list, d, &pattern, 1, 4000, NULL, 0, NULL),
	      ZE_RESULT_SUCCESS);
	CHECK(zeCommandListAppendMemoryFill(list, d, &pattern, 4, 5000, NULL, 1, &ev),
	      ZE_RESULT_SUCCESS);
	CHECK(zeEventHostSynchronize(ev, FOREVER), ZE_RESULT_SUCCESS);
}

/* Ends the process inside zeCommandQueueSynchronize: no return. */
static void die_in_call(void)
{
	need_setup();
	fake_ze_script("zeCommandQueueSynchronize", ZE_RESULT_SUCCESS, 10000000);
	kill_soon();
	zeCommandQueueSynchronize(queue, FOREVER);
	fprintf(stderr, "zework: still alive after the kill\n");
	exit(1);
}

static const struct phase phases[] = {
	{ "setup", .run = setup },
	{ "teardown", .run = teardown },
	{ "batches", .run_n = batches },
	{ "leak", .run = leak },
	{ "errors", .run = errors },
	{ "launch", .run = launch },
	{ "copies", .run = copies },
	{ "die", .run = die_in_call },
};

int main(int argc, char **argv)
{
	int r;

	setvbuf(stdout, NULL, _IOLBF, 0);
	r = run_phases(phases, sizeof(phases) / sizeof(phases[0]), argc, argv);
	if (!r)		/* after the last phase, not after a word that is none */
		teardown();
	return r;
}
