/* SPDX-License-Identifier: GPL-2.0 */
/* The compute-API tracers: records and map layouts shared by apitrace.bpf.c and tools/apitrace/ */
#ifndef APITRACE_H
#define APITRACE_H

#include "histogram.h"

#define COMM_LEN	16
#define KNAME_LEN	64	/* kernel (CUfunction) names, truncated */

#define MAX_FUNCS	1024	/* probed symbols (function ids): real libcuda 535 exports 600 cu* */
#define NR_FALLBACK	128	/* per-function programs where BPF cookies are missing */
#define FALLBACK_ENTER	0	/* fallback_progs: the shared entry program */
#define FALLBACK_EXIT	1	/* ... and return program */
#define MAX_INFLIGHT	16384	/* calls entered and not yet returned */
#define MAX_ALLOCS	65536	/* outstanding allocations, all processes */
#define MAX_LAUNCH_ROWS	4096	/* (process, kernel, shape) rows, processes alive or just exited */
#define MAX_KNAMES	16384	/* (process, CUfunction) -> name */
#define MAX_PROCS	4096	/* processes seen calling the API */
#define MAX_ERR_ROWS	1024	/* (function, result) rows since tracing began */
#define ERR_ROW_BITS	11	/* their table (rows.bpf.h): room, probes to spare */
#define FUNC_ROW_BITS	11	/* a row per function id below MAX_FUNCS */
#define MAX_STACKS	16384	/* allocations with a recorded stack (--stack) */
#define STACK_DEPTH	32
#define LOG_LEN		256	/* the start of a failed build's log */
#define MAX_BUILDS	1024	/* (process, program) that failed to build */
#define MAX_PROF_EVENTS	16384	/* launches' events, until their profiling times are read */
#define MAX_GROUP_SIZES	16384	/* (process, kernel) -> the group size last set */

/*
 * What the kernel side reads at a call, chosen per symbol by the frontend
 * and passed in the probe's BPF cookie:
 *   bits  0-15  function id (the frontend's table index)
 *   bits 16-23  class (enum call_class)
 *   bits 24-31  flags (CF_*)
 *   bits 32-39  index + 1 of the argument holding a stream (0: none)
 */
enum call_class {
	CL_OTHER,
	CL_ALLOC,	/* (T **out, size_t size, ...): *out on return */
	CL_FREE,	/* (T *ptr, ...) */
	CL_COPY,	/* (dst, src, size_t bytes, [kind,] ...) */
	CL_LAUNCH,	/* cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shmem, stream, ...) */
	CL_LAUNCH_EX,	/* cuLaunchKernelEx(const CUlaunchConfig *, f, ...) */
	CL_RT_LAUNCH,	/* cudaLaunchKernel(func, dim3 grid, dim3 block, args, shmem, stream) */
	CL_GET_FUNC,	/* (CUfunction *out, module, const char *name) */
	CL_STREAM_CREATE, /* (CUstream *out, flags) */
	CL_STREAM,	/* (stream, ...) */
	CL_SYNC,	/* no arguments of interest */
	CL_LAUNCH_ND,	/* clEnqueueNDRangeKernel(queue, kernel, work_dim, offset *, global *, local *,
			 * nr_waits, waits, cl_event *event) */
	CL_RETAIN,	/* (object): one more reference to an object tracked as an allocation */
	CL_BUILD,	/* (program, ...): a failure is kept per program, for its log */
	CL_BUILD_LOG,	/* clGetProgramBuildInfo(program, device, param, size, value *, ...) */
	CL_PROFILE,	/* clGetEventProfilingInfo(event, param, size, cl_ulong *value, ...) */
	CL_LAUNCH_ZE,	/* zeCommandListAppendLaunchKernel(list, kernel, const ze_group_count_t *, ...):
			 * the group size is the kernel's last CL_SET_GROUP */
	CL_SET_GROUP,	/* zeKernelSetGroupSize(kernel, x, y, z) */
};

/* clGetProgramBuildInfo's param for the log; clGetEventProfilingInfo's for times. */
#define BUILD_LOG_PARAM		0x1183	/* CL_PROGRAM_BUILD_LOG */
#define PROFILING_QUEUED	0x1280	/* CL_PROFILING_COMMAND_QUEUED */
#define PROFILING_START		0x1282	/* CL_PROFILING_COMMAND_START */
#define PROFILING_END		0x1283	/* CL_PROFILING_COMMAND_END */

#define CF_SIZE32	0x01	/* sizes are unsigned int (CUDA v1 API, a launch's shmem) */
#define CF_PTR32	0x02	/* v1 API: device pointers are 32 bits (CUdeviceptr_v1) */
#define CF_KIND		0x04	/* cudaMemcpy*: enum cudaMemcpyKind in the 4th argument */
#define CF_RUNTIME	0x08	/* returns cudaError_t, not CUresult */
/* GET_FUNC: the name argument is a ze_kernel_desc_t *, the name its pKernelName */
#define CF_ZE_DESC	0x10
#define ZE_DESC_NAME_OFFSET	24	/* stype, pNext, flags, then pKernelName */

#define COOKIE(func, cls, flags, stream_arg)                                        \
	((__u64)(func) | (__u64)(cls) << 16 | (__u64)(flags) << 24 |                \
	 (__u64)(stream_arg) << 32)
#define COOKIE_FUNC(c)		((__u32)((c) & 0xffff))
#define COOKIE_CLASS(c)		((__u32)(((c) >> 16) & 0xff))
#define COOKIE_FLAGS(c)		((__u32)(((c) >> 24) & 0xff))
#define COOKIE_STREAM_ARG(c)	((__u32)(((c) >> 32) & 0xff))
/*
 *   bits 40-43  index + 1 of an error-code out-argument (OpenCL's cl_int
 *               *errcode_ret): the result is what the call wrote there, the
 *               return value the object it made (0: the return value is the
 *               result). Such objects are tracked as allocations (of the
 *               size argument's bytes, or none) until released, counting
 *               references (CL_RETAIN).
 *   bits 44-47  index + 1 of the size argument of an ALLOC or COPY (0: the class's)
 *   bits 48-51  index + 1 of the name argument of a GET_FUNC (0: the class's)
 *   bits 52-55  index + 1 of the pointer argument (0: the class's, the
 *               first): where an ALLOC, GET_FUNC or STREAM_CREATE writes
 *               what it made; the pointer a FREE frees
 * Any index (the stack's too: Level Zero's zeMemAllocShared writes its 7th).
 */
#define COOKIE_ARGS(errcode_arg, size_arg, name_arg, ptr_arg)                       \
	((__u64)(errcode_arg) << 40 | (__u64)(size_arg) << 44 | (__u64)(name_arg) << 48 | \
	 (__u64)(ptr_arg) << 52)
#define COOKIE_ERRCODE_ARG(c)	((__u32)(((c) >> 40) & 0xf))
#define COOKIE_SIZE_ARG(c)	((__u32)(((c) >> 44) & 0xf))
#define COOKIE_NAME_ARG(c)	((__u32)(((c) >> 48) & 0xf))
#define COOKIE_PTR_ARG(c)	((__u32)(((c) >> 52) & 0xf))

/* The result of a call that returned no handle and had no errcode_ret to write. */
#define RESULT_NO_ERRCODE	0x7fffffffu

/* Arguments decoded at entry, completed at return. */
struct call_args {
	__u64 size;	/* ALLOC: requested; COPY: bytes; FREE: the allocation's, if known */
	__u64 addr;	/* ALLOC: the pointer returned; FREE: the pointer; LAUNCH: the function;
			 * GET_FUNC: the handle returned; STREAM_CREATE: the stream returned */
	__u64 stream;
	__u64 shmem;
	__u32 grid[3];
	__u32 block[3];
	__u32 kind;	/* cudaMemcpyKind (CF_KIND) */
	__u32 pad;
};

/*
 * A call in flight, keyed by thread and function, and depth: a call of a
 * function the thread is already inside (from a signal handler, a
 * callback) is depth 1, 2, ... of it.
 */
struct inflight_key {
	__u32 tid;
	__u32 func;
	__u32 depth;
};

/* Calls of one function one thread can be inside at once. */
#define MAX_NESTED	8

struct inflight {
	__u64 ts;
	__u64 cookie;
	__u64 out;	/* user address of the out-parameter (ALLOC, GET_FUNC, STREAM_CREATE) */
	__u64 name;	/* user address of the kernel name (GET_FUNC) */
	__u64 errcode;	/* user address of the error code out-argument (COOKIE_ERRCODE_ARG) */
	__u32 pid;	/* a process that dies inside the call leaves this: its exit names it */
	__u32 nested;	/* depth 0's: the calls of the same function inside it, on its thread */
	struct call_args a;
};

/*
 * Per function id, since tracing began: counters that only grow (each
 * summary prints what they gained since the previous one).
 */
struct func_stats {
	__u64 calls;
	__u64 errors;
	__u64 bytes;	/* of successful calls: allocated, copied or freed */
	__u64 total_ns;
	struct lat_hist lat;
};

struct err_key {
	__u32 func;
	__u32 result;
};

/* Outstanding allocations, for sizes of frees and the leak report. */
struct alloc_key {
	__u32 pid;
	__u32 pad;
	__u64 addr;
};

struct alloc_info {
	__u64 size;
	__u64 ts;	/* when the allocation returned */
	__u32 func;
	__u32 refs;	/* references taken since (CL_RETAIN): releases before it is freed */
};

/* With --stack: the user stack of each outstanding allocation, same key. */
struct alloc_stack {
	__u64 ips[STACK_DEPTH];	/* innermost first, 0-terminated */
};

/*
 * Kernel launches per process, function, kernel and shape, counted as long
 * as the process lives (the frontend deletes its rows in the summary after
 * its exit).
 */
struct launch_key {
	__u32 pid;
	__u32 func;
	__u64 handle;	/* CUfunction / CUkernel, or cudaLaunchKernel's host stub */
	__u32 grid[3];
	__u32 block[3];
};

struct launch_stats {
	__u64 ok;
	__u64 failed;
};

struct kname_key {
	__u32 pid;
	__u32 pad;
	__u64 handle;
};

struct kname {
	char name[KNAME_LEN];
};

/* A program's failed builds, and the start of the log the process read. */
struct build_info {
	__u64 failures;
	__u64 logs;		/* times the log was read */
	__s32 result;		/* the last failure's */
	__u32 func;		/* of the function that failed */
	char log[LOG_LEN];
};

/*
 * Device times of a process's kernel (key: struct kname_key), from the
 * profiling times the process read of its launches' events.
 */
struct kernel_time {
	__u64 runs;		/* launches with a start and an end read */
	__u64 run_ns;		/* start -> end, summed */
	__u64 waits;		/* of those, with their queued time read too */
	__u64 wait_ns;		/* queued -> start, summed */
};

/* A kernel's group size (key: struct kname_key of the kernel), for its launches (CL_SET_GROUP). */
struct group_size {
	__u32 xyz[3];
	__u32 pad;
};

/* A launch's event (key: struct kname_key of the event), until its times are read. */
struct prof_event {
	__u64 kernel;
	__u64 queued;
	__u64 start;
	__u64 end;
};

struct proc_info {
	__u64 cgroup_id;	/* at its first call (0: not seen calling yet) */
	char comm[COMM_LEN];
};

/* Per-call records (-e, --errors), on the `events` ring buffer. */
struct call_event {
	__u64 ts_ns;	/* return */
	__u64 lat_ns;
	__u64 cgroup_id;
	__u32 pid;
	__u32 tid;
	__u32 func;
	__u32 result;
	char comm[COMM_LEN];
	struct call_args a;
	char name[KNAME_LEN];	/* GET_FUNC: the kernel name asked for */
};

/* Process notices, on the `notices` ring buffer. */
enum notice_type {
	NOTICE_NEW,	/* first call of the API seen from this process */
	NOTICE_EXIT,	/* a process we saw exited (its last thread) */
};

struct notice {
	__u64 ts_ns;
	__u64 cgroup_id;	/* the process's, at its first call */
	__u32 type;
	__u32 pid;
	char comm[COMM_LEN];
	__u32 exit_code;	/* NOTICE_EXIT: as wait(2) has it (a signal in the low 7 bits) */
	__u32 pad;
};

#endif /* APITRACE_H */
