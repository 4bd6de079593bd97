// SPDX-License-Identifier: GPL-2.0
/*
 * hipreal: a client of AMD's real HIP runtime (Debian's libamdhip64.so.5,
 * ROCm 5.2), for hiptrace's tests to hold the tracer's view of each call
 * against the program's own.  Opened with dlopen, as tests/amdkfd/hipclient.c
 * does, so nothing of HIP is needed to build it.  Makes a known sequence of
 * calls and prints, per call, what it returned and the name the library
 * itself gives that value (its hipGetErrorName), then any value the call
 * wrote (each is preset to -1 or 0x0, so "unwritten" shows):
 *
 *   CALL hipGetDeviceCount RESULT NAME count=N
 *   CALL hipDriverGetVersion RESULT NAME version=N
 *   CALL hipRuntimeGetVersion RESULT NAME version=N
 *   CALL hipMalloc RESULT NAME ptr=0xADDR          (1 MiB)
 *   CALL hipFree RESULT NAME                       (of NULL)
 *   CALL hipGetLastError RESULT NAME
 *   CALL hipDeviceSynchronize RESULT NAME
 *
 * The library sees those 7 calls in that order, each followed by one
 * hipGetErrorName of its result: 14 calls, nothing else of the API.
 *
 * Usage: hipreal [--wait FILE] [--lib PATH] [--names]
 *   --wait FILE  once the library is loaded, print "waiting PID" and go on
 *                when FILE exists (the tracer has attached)
 *   --lib PATH   another library than libamdhip64.so.5 (found by ld.so):
 *                the fake, say
 *   --names      no calls but hipGetErrorName's: "NAME VALUE NAME" for every
 *                value 0..2047 the library names (hipErrorUnknown for the
 *                values it does not know, so only 999 gets that name)
 * Exit status: 0 when the library and its functions were found, whatever
 * the calls returned; 125 when not; 128 + N when a call died of signal N,
 * after a line "DIED FUNCTION SIGNAL" (hipclient.c has seen the runtime
 * die of SIGSEGV in hipGetDeviceCount on a kernel with amdgpu loaded but
 * no AMD GPU).
 *
 * Seen on the build host (Debian 12, libamdhip64-5 5.2.3, no /dev/kfd:
 * hsa_init fails, and the runtime tries it again at every call):
 *
 *   CALL hipGetDeviceCount 100 hipErrorNoDevice count=0
 *   CALL hipDriverGetVersion 0 hipSuccess version=50221153
 *   CALL hipRuntimeGetVersion 0 hipSuccess version=50221153
 *   CALL hipMalloc 101 hipErrorInvalidDevice ptr=0x0
 *   CALL hipFree 101 hipErrorInvalidDevice
 *   CALL hipGetLastError 101 hipErrorInvalidDevice
 *   CALL hipDeviceSynchronize 101 hipErrorInvalidDevice
 *
 * Only hipGetDeviceCount says hipErrorNoDevice (and writes 0).  The
 * version functions need no device: they succeed and write HIP_VERSION.
 * Everything else fails with hipErrorInvalidDevice before doing its own
 * work, hipFree(NULL) and hipGetLastError included: hipGetLastError's 101
 * is its own failure, not a report of hipMalloc's (it returns 101 as a
 * process's first call too, and again when called twice in a row).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define CLIENT_NAME "hipreal"
#include "client/reallib.h"
#include "client/wait.h"

typedef int (*hip_int_fn)(int *);
typedef int (*hip_void_fn)(void);
typedef int (*hip_malloc_fn)(void **, size_t);
typedef int (*hip_free_fn)(void *);
typedef const char *(*hip_error_name_fn)(int);

static hip_error_name_fn error_name;

static void report(const char *function, int result, const char *value)
{
	const char *name;

	current = "hipGetErrorName";
	name = error_name(result);

	printf("CALL %s %d %s%s%s\n", function, result, name ? name : "?", value ? " " : "",
	       value ? value : "");
}

int main(int argc, char **argv)
{
	const char *path = "libamdhip64.so.5", *wait = NULL, *name;
	int names = 0;
	hip_int_fn device_count, driver_version, runtime_version;
	hip_void_fn get_last_error, device_synchronize;
	hip_malloc_fn hip_malloc;
	hip_free_fn hip_free;
	int i, r, v, missing = 0;
	char buf[32];
	void *lib, *p;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--wait") && i + 1 < argc) {
			wait = argv[++i];
		} else if (!strcmp(argv[i], "--lib") && i + 1 < argc) {
			path = argv[++i];
		} else if (!strcmp(argv[i], "--names")) {
			names = 1;
		} else {
			fprintf(stderr, "usage: hipreal [--wait FILE] [--lib PATH] [--names]\n");
			return 2;
		}
	}

	lib = open_lib(path);
	device_count = (hip_int_fn)sym(lib, "hipGetDeviceCount", &missing);
	driver_version = (hip_int_fn)sym(lib, "hipDriverGetVersion", &missing);
	runtime_version = (hip_int_fn)sym(lib, "hipRuntimeGetVersion", &missing);
	hip_malloc = (hip_malloc_fn)sym(lib, "hipMalloc", &missing);
	hip_free = (hip_free_fn)sym(lib, "hipFree", &missing);
	get_last_error = (hip_void_fn)sym(lib, "hipGetLastError", &missing);
	device_synchronize = (hip_void_fn)sym(lib, "hipDeviceSynchronize", &missing);
	error_name = (hip_error_name_fn)sym(lib, "hipGetErrorName", &missing);
	if (missing)
		return 125;
	if (names) {
		for (v = 0; v < 2048; v++) {
			name = error_name(v);
			if (name && (strcmp(name, "hipErrorUnknown") || v == 999))
				printf("NAME %d %s\n", v, name);
		}
		return 0;
	}

	report_deaths();
	if (wait)
		wait_for(wait);

	current = "hipGetDeviceCount";
	v = -1;
	r = device_count(&v);
	snprintf(buf, sizeof(buf), "count=%d", v);
	report(current, r, buf);

	current = "hipDriverGetVersion";
	v = -1;
	r = driver_version(&v);
	snprintf(buf, sizeof(buf), "version=%d", v);
	report(current, r, buf);

	current = "hipRuntimeGetVersion";
	v = -1;
	r = runtime_version(&v);
	snprintf(buf, sizeof(buf), "version=%d", v);
	report(current, r, buf);

	current = "hipMalloc";
	p = NULL;
	r = hip_malloc(&p, 1 << 20);
	snprintf(buf, sizeof(buf), "ptr=0x%lx", (unsigned long)(uintptr_t)p);
	report(current, r, buf);

	current = "hipFree";
	report(current, hip_free(NULL), NULL);

	current = "hipGetLastError";
	report(current, get_last_error(), NULL);

	current = "hipDeviceSynchronize";
	report(current, device_synchronize(), NULL);

	return 0;
}
