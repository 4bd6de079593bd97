// SPDX-License-Identifier: GPL-2.0
/*
 * clwork: a known OpenCL workload on the first device of the first
 * platform (pocl's CPU device here), for tests/host/cltrace.sh.
 *
 *   clwork [--wait FILE] [-b N] [-l L] [-m M]
 *
 * Waits for FILE to exist first (the tracer attached). Then: a context and
 * a profiling queue; N buffers of 4096 * (i + 1) bytes (default 4), the
 * last L of them never released (default 1), the first retained once and
 * so released twice; a program that does not build
 * (CL_BUILD_PROGRAM_FAILURE), its build log read, and one that does; its
 * kernel add1 made twice, the second never released; M launches of it
 * (default 3) over 64 work-items in groups of 16, each launch's queued,
 * start and end times read of its event; the result read back and
 * checked; and two calls that fail: a buffer of 0 bytes
 * (CL_INVALID_BUFFER_SIZE) and a kernel that does not exist
 * (CL_INVALID_KERNEL_NAME). Prints the build log's first line and the
 * launches' device times, summed in ns ("run" start -> end, "wait" queued
 * -> start). Exits 0 when every call did as said.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *good = "__kernel void add1(__global int *a) { a[get_global_id(0)] += 1; }";
static const char *broken = "__kernel void add1(__global int *a) { a[get_global_id(0)] += ; }";

#define MAX_BUFFERS 64
#define MAX_LAUNCHES 64

static int fail(const char *what, cl_int err)
{
	fprintf(stderr, "clwork: %s: %d\n", what, err);
	return 1;
}

int main(int argc, char **argv)
{
	int nbuf = 4, leak = 1, launches = 3, data[64] = { 0 }, i;
	const char *wait_file = NULL;
	cl_mem bufs[MAX_BUFFERS], none;
	cl_platform_id platform;
	cl_command_queue queue;
	cl_program prog, bad;
	cl_kernel kernel, nok, leaked;
	cl_context ctx;
	cl_device_id dev;
	size_t global = 64, local = 16, log_size;
	cl_queue_properties props[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0 };
	cl_event events[MAX_LAUNCHES];
	cl_ulong queued, start, end, run_ns = 0, wait_ns = 0;
	char log[4096], *line;
	cl_int err;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--wait") && i + 1 < argc)
			wait_file = argv[++i];
		else if (!strcmp(argv[i], "-b") && i + 1 < argc)
			nbuf = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-l") && i + 1 < argc)
			leak = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-m") && i + 1 < argc)
			launches = atoi(argv[++i]);
		else
			return fprintf(stderr, "usage: clwork [--wait FILE] [-b N] [-l L] [-m M]\n"), 2;
	}
	if (nbuf < 1 || nbuf > MAX_BUFFERS || leak < 0 || leak >= nbuf || launches < 0 ||
	    launches > MAX_LAUNCHES)
		return fprintf(stderr, "clwork: 1 <= N <= %d, 0 <= L < N, 0 <= M <= %d\n",
			       MAX_BUFFERS, MAX_LAUNCHES), 2;
	if (wait_file) {
		printf("waiting\n");
		fflush(stdout);
		while (access(wait_file, F_OK))
			usleep(10000);
	}
	if ((err = clGetPlatformIDs(1, &platform, NULL)))
		return fail("clGetPlatformIDs", err);
	if ((err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL)))
		return fail("clGetDeviceIDs", err);
	ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	if (err)
		return fail("clCreateContext", err);
	queue = clCreateCommandQueueWithProperties(ctx, dev, props, &err);
	if (err)
		return fail("clCreateCommandQueueWithProperties", err);
	for (i = 0; i < nbuf; i++) {
		bufs[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096 * (i + 1), NULL, &err);
		if (err)
			return fail("clCreateBuffer", err);
	}
	if ((err = clRetainMemObject(bufs[0])))
		return fail("clRetainMemObject", err);
	none = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 0, NULL, &err);
	if (none || err != CL_INVALID_BUFFER_SIZE)
		return fail("clCreateBuffer of 0 bytes", err);

	bad = clCreateProgramWithSource(ctx, 1, &broken, NULL, &err);
	if (err)
		return fail("clCreateProgramWithSource", err);
	if ((err = clBuildProgram(bad, 1, &dev, NULL, NULL, NULL)) != CL_BUILD_PROGRAM_FAILURE)
		return fail("clBuildProgram of the broken source", err);
	/* Its size first, as programs do, then the log. */
	if ((err = clGetProgramBuildInfo(bad, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_size)))
		return fail("clGetProgramBuildInfo", err);
	if (log_size > sizeof(log))
		log_size = sizeof(log);
	if ((err = clGetProgramBuildInfo(bad, dev, CL_PROGRAM_BUILD_LOG, log_size, log, NULL)))
		return fail("clGetProgramBuildInfo", err);
	log[sizeof(log) - 1] = '\0';
	for (line = log; *line == '\n' || *line == '\r' || *line == ' ' || *line == '\t'; line++)
		;
	printf("build log: %.*s\n", (int)strcspn(line, "\r\n"), line);
	prog = clCreateProgramWithSource(ctx, 1, &good, NULL, &err);
	if (err)
		return fail("clCreateProgramWithSource", err);
	if ((err = clBuildProgram(prog, 1, &dev, NULL, NULL, NULL)))
		return fail("clBuildProgram", err);
	kernel = clCreateKernel(prog, "add1", &err);
	if (err)
		return fail("clCreateKernel", err);
	leaked = clCreateKernel(prog, "add1", &err);
	if (!leaked || err)
		return fail("clCreateKernel, again", err);
	nok = clCreateKernel(prog, "nope", &err);
	if (nok || err != CL_INVALID_KERNEL_NAME)
		return fail("clCreateKernel of no such kernel", err);

	if ((err = clSetKernelArg(kernel, 0, sizeof(bufs[0]), &bufs[0])))
		return fail("clSetKernelArg", err);
	if ((err = clEnqueueWriteBuffer(queue, bufs[0], CL_TRUE, 0, sizeof(data), data, 0, NULL, NULL)))
		return fail("clEnqueueWriteBuffer", err);
	for (i = 0; i < launches; i++)
		if ((err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL,
						  &events[i])))
			return fail("clEnqueueNDRangeKernel", err);
	if ((err = clEnqueueReadBuffer(queue, bufs[0], CL_TRUE, 0, sizeof(data), data, 0, NULL, NULL)))
		return fail("clEnqueueReadBuffer", err);
	if ((err = clFinish(queue)))
		return fail("clFinish", err);
	for (i = 0; i < 64; i++)
		if (data[i] != launches)
			return fprintf(stderr, "clwork: data[%d] = %d, not %d\n", i, data[i], launches), 1;
	for (i = 0; i < launches; i++) {
		if ((err = clGetEventProfilingInfo(events[i], CL_PROFILING_COMMAND_QUEUED,
						   sizeof(queued), &queued, NULL)) ||
		    (err = clGetEventProfilingInfo(events[i], CL_PROFILING_COMMAND_START,
						   sizeof(start), &start, NULL)) ||
		    (err = clGetEventProfilingInfo(events[i], CL_PROFILING_COMMAND_END,
						   sizeof(end), &end, NULL)))
			return fail("clGetEventProfilingInfo", err);
		run_ns += end - start;
		wait_ns += start - queued;
		clReleaseEvent(events[i]);
	}
	printf("device times: run %llu wait %llu\n", (unsigned long long)run_ns,
	       (unsigned long long)wait_ns);
	/* The retained buffer: its first release drops a reference, the second frees it. */
	if ((err = clReleaseMemObject(bufs[0])))
		return fail("clReleaseMemObject", err);
	for (i = 0; i < nbuf - leak; i++)
		if ((err = clReleaseMemObject(bufs[i])))
			return fail("clReleaseMemObject", err);
	clReleaseKernel(kernel);
	clReleaseProgram(prog);
	clReleaseProgram(bad);
	clReleaseCommandQueue(queue);
	clReleaseContext(ctx);
	printf("done: %d buffers, %d left, %d launches\n", nbuf, leak, launches);
	return 0;
}
