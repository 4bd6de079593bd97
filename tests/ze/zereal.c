// SPDX-License-Identifier: GPL-2.0
/*
 * zereal: a client of oneAPI Level Zero's real loader (Debian's
 * libze_loader.so.1, libze1 1.8.12), for zetrace's tests to hold the
 * tracer's view of each call against the program's own.  Opened with
 * dlopen, as tests/hip/hipreal.c opens HIP, so nothing of Level Zero is
 * needed to build it.  Makes a known sequence of calls and prints, per
 * call, what it returned (ze_result_t, in decimal), then any value the
 * call wrote (preset to 0, the count that asks for the count):
 *
 *   CALL zeInit RESULT                 (flags 0)
 *   CALL zeDriverGet RESULT count=N    (count 0, no array: a count query)
 *   CALL zeInit RESULT                 (flags 0, again)
 *
 * The library sees those 3 calls in that order, nothing else of the API.
 *
 * Usage: zereal [--wait FILE] [--lib PATH]
 *   --wait FILE  once the library is loaded, print "waiting PID" and go on
 *                when FILE exists (the tracer has attached)
 *   --lib PATH   another library than libze_loader.so.1 (found by ld.so):
 *                the fake, say
 * Exit status: 0 when the library and its functions were found, whatever
 * the calls returned; 125 when not; 128 + N when a call died of signal N,
 * after a line "DIED FUNCTION SIGNAL".
 *
 * Seen on the build host (Debian, libze1 1.8.12, no Level Zero driver
 * installed: no libze_intel_gpu.so.1 for the loader to find):
 *
 *   CALL zeInit 2013265921
 *   CALL zeDriverGet 2013265921 count=0
 *   CALL zeInit 2013265921
 *
 * 2013265921 is 0x78000001, ZE_RESULT_ERROR_UNINITIALIZED, for all three:
 * the loader finds no driver, so zeInit fails, every time it is called,
 * and zeDriverGet, with no driver initialized, fails the same way and
 * leaves the count unwritten.  Nothing is printed to stderr.  The same
 * run on the fake (--lib build/tests/ze/libze_loader.so.1) prints 0,
 * "0 count=1" and 0.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define CLIENT_NAME "zereal"
#include "client/reallib.h"
#include "client/wait.h"

/* ze_result_t: an enum of unsigned int values; ze_init_flags_t: uint32_t. */
typedef uint32_t (*ze_init_fn)(uint32_t flags);
typedef uint32_t (*ze_driver_get_fn)(uint32_t *count, void **drivers);

int main(int argc, char **argv)
{
	const char *path = "libze_loader.so.1", *wait = NULL;
	ze_driver_get_fn driver_get;
	ze_init_fn init;
	int i, missing = 0;
	uint32_t count, r;
	void *lib;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--wait") && i + 1 < argc) {
			wait = argv[++i];
		} else if (!strcmp(argv[i], "--lib") && i + 1 < argc) {
			path = argv[++i];
		} else {
			fprintf(stderr, "usage: zereal [--wait FILE] [--lib PATH]\n");
			return 2;
		}
	}

	lib = open_lib(path);
	init = (ze_init_fn)sym(lib, "zeInit", &missing);
	driver_get = (ze_driver_get_fn)sym(lib, "zeDriverGet", &missing);
	if (missing)
		return 125;

	report_deaths();
	if (wait)
		wait_for(wait);

	current = "zeInit";
	r = init(0);
	printf("CALL %s %u\n", current, r);

	current = "zeDriverGet";
	count = 0;
	r = driver_get(&count, NULL);
	printf("CALL %s %u count=%u\n", current, r, count);

	current = "zeInit";
	r = init(0);
	printf("CALL %s %u\n", current, r);

	return 0;
}
