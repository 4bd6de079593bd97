// SPDX-License-Identifier: GPL-2.0
/*
 * clbench: cltrace's benchmark workload (tests/bench/cltrace.sh), on the
 * real OpenCL: the system's ICD loader libOpenCL.so.1 and the first device
 * of its first platform (pocl's CPU device here).
 *
 *   clbench [--wait FILE | batches N]...
 *
 * First, before any argument: a context and a queue on that device and one
 * buffer of 64 bytes (these set-up calls are outside the measured burst).
 * Then the arguments in order, as tests/cuda/workload takes them:
 *
 * --wait FILE   print "waiting PID", then go on once FILE exists (the
 *               tracer has attached), or after 60 s
 * batches N     N x (clEnqueueWriteBuffer of the 64 bytes, blocking;
 *               clEnqueueReadBuffer of them, blocking; clRetainMemObject;
 *               clReleaseMemObject): 4 calls through libOpenCL each, every
 *               one CL_SUCCESS; no kernel is built, so no compiler runs and
 *               no program cache is read or written
 *
 * Exits 0 when every call succeeded (the bytes read back are the bytes
 * written), 1 with the failing call and its cl_int otherwise.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/wait.h"

#define CHECK(call)                                                              \
	do {                                                                     \
		cl_int r_ = (call);                                              \
		if (r_ != CL_SUCCESS) {                                          \
			fprintf(stderr, "clbench: %s returned %d\n", #call, (int)r_); \
			exit(1);                                                 \
		}                                                                \
	} while (0)

static cl_context ctx;
static cl_command_queue queue;
static cl_mem buf;

static void setup(void)
{
	cl_platform_id platform;
	cl_device_id dev;
	cl_int err;

	CHECK(clGetPlatformIDs(1, &platform, NULL));
	CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
	ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	CHECK(err);
	queue = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
	CHECK(err);
	buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
	CHECK(err);
}

static void batches(int n)
{
	unsigned char out[64], in[64];
	int i;

	for (i = 0; i < n; i++) {
		memset(out, i, sizeof(out));
		CHECK(clEnqueueWriteBuffer(queue, buf, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
		CHECK(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, sizeof(in), in, 0, NULL, NULL));
		CHECK(clRetainMemObject(buf));
		CHECK(clReleaseMemObject(buf));
		if (memcmp(in, out, sizeof(in))) {
			fprintf(stderr, "clbench: batch %d read back other bytes than it wrote\n", i);
			exit(1);
		}
	}
}

int main(int argc, char **argv)
{
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	setup();
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--wait") && i + 1 < argc) {
			wait_for(argv[++i]);
		} else if (!strcmp(argv[i], "batches") && i + 1 < argc) {
			batches(atoi(argv[++i]));
		} else {
			fprintf(stderr, "usage: clbench [--wait FILE | batches N]...\n");
			return 2;
		}
	}
	CHECK(clReleaseMemObject(buf));
	CHECK(clReleaseCommandQueue(queue));
	CHECK(clReleaseContext(ctx));
	return 0;
}
