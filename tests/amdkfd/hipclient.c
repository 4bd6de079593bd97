// SPDX-License-Identifier: GPL-2.0
/*
 * hipclient: HIP's own runtime (Debian's libamdhip64.so.5, ROCm 5.2) asked
 * for its devices, as every HIP program does first: a real client of the
 * KFD that no one here wrote. Opened with dlopen, so nothing of HIP is
 * needed to build it. Prints "hipGetDeviceCount RESULT COUNT" and exits with
 * the result.
 *
 * Seen: on a machine without /dev/kfd, 100 (hipErrorNoDevice); on Debian
 * 12's 6.1 with amdgpu loaded and no AMD GPU, the runtime opens /dev/kfd,
 * makes its first calls and dies of SIGSEGV inside hipGetDeviceCount: the
 * amdkfd test shows its last calls before that death.
 */
#include <dlfcn.h>
#include <stdio.h>

int main(void)
{
	int (*get_count)(int *);
	void *hip = dlopen("libamdhip64.so.5", RTLD_NOW);
	int count = -1, err;

	if (!hip) {
		fprintf(stderr, "hipclient: %s\n", dlerror());
		return 125;
	}
	get_count = (int (*)(int *))dlsym(hip, "hipGetDeviceCount");
	if (!get_count) {
		fprintf(stderr, "hipclient: %s\n", dlerror());
		return 125;
	}
	/* Flushed first: the call may not return. */
	fflush(stdout);
	err = get_count(&count);
	printf("hipGetDeviceCount %d %d\n", err, count);
	return err;
}
