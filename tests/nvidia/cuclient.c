// SPDX-License-Identifier: GPL-2.0
/*
 * cuclient: the smallest real client of NVIDIA's libcuda (Debian's libcuda1,
 * tests/nvidia/userspace), run by tests/guest/nvclients.sh against the real
 * driver with no GPU. It makes the calls every CUDA program makes first and
 * prints, per call, what the library returned and the name the library
 * itself gives that CUresult (cuGetErrorName: no cuInit needed), so the test
 * holds cudatrace's names against the library's own:
 *
 *   FUNCTION RESULT NAME [VALUE]
 *
 * Usage: cuclient [LIBRARY]   (default libcuda.so.1, found by ld.so)
 * Exit status: 0 when the library and its functions were found (whatever
 * the calls returned), 1 otherwise.
 */
#include <dlfcn.h>
#include <stdio.h>

typedef int (*cu_int_fn)(int *);
typedef int (*cu_init_fn)(unsigned int);
typedef int (*cu_device_get_fn)(int *, int);
typedef int (*cu_error_name_fn)(int, const char **);

static cu_error_name_fn error_name;

static void report(const char *function, int result, const char *value)
{
	const char *name = NULL;

	if (error_name(result, &name) || !name)
		name = "?";
	printf("%s %d %s%s%s\n", function, result, name, value ? " " : "", value ? value : "");
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "libcuda.so.1";
	cu_init_fn init;
	cu_int_fn driver_version, device_count;
	cu_device_get_fn device_get;
	char buf[32];
	void *lib;
	int r, v;

	lib = dlopen(path, RTLD_NOW);
	if (!lib) {
		fprintf(stderr, "cuclient: %s\n", dlerror());
		return 1;
	}
	init = (cu_init_fn)dlsym(lib, "cuInit");
	driver_version = (cu_int_fn)dlsym(lib, "cuDriverGetVersion");
	device_count = (cu_int_fn)dlsym(lib, "cuDeviceGetCount");
	device_get = (cu_device_get_fn)dlsym(lib, "cuDeviceGet");
	error_name = (cu_error_name_fn)dlsym(lib, "cuGetErrorName");
	if (!init || !driver_version || !device_count || !device_get || !error_name) {
		fprintf(stderr, "cuclient: %s lacks cuInit, cuDriverGetVersion, cuDeviceGetCount, "
				"cuDeviceGet or cuGetErrorName\n", path);
		return 1;
	}

	report("cuInit", init(0), NULL);
	v = 0;
	r = driver_version(&v);
	snprintf(buf, sizeof(buf), "%d", v);
	report("cuDriverGetVersion", r, buf);
	v = -1;
	r = device_count(&v);
	snprintf(buf, sizeof(buf), "%d", v);
	report("cuDeviceGetCount", r, buf);
	r = device_get(&v, 0);
	report("cuDeviceGet", r, NULL);
	fflush(stdout);
	return 0;
}
