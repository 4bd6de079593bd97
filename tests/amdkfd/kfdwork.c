// SPDX-License-Identifier: GPL-2.0
/*
 * kfdwork: what a ROCm program with a GPU asks of the KFD, in known numbers,
 * for the KFD of tests/kmod/kfdmock.c (whose allocations and queues succeed
 * on its GPU): on GPU GPU_ID, in this order,
 *
 *   ALLOC_MEMORY_OF_GPU  VRAM|WRITABLE 1 MiB x3, GTT|WRITABLE 64 KiB x2,
 *                        USERPTR 4 KiB, DOORBELL 8 KiB         all succeed
 *   FREE_MEMORY_OF_GPU   two of the VRAM ones, one of the GTT ones
 *   ALLOC_MEMORY_OF_GPU  VRAM 2 GiB (ENOMEM: past the mock's 1 GiB),
 *                        VRAM 0 bytes (EINVAL)
 *   CREATE_QUEUE         COMPUTE_AQL x3, SDMA x1 (ring 4096)   all succeed
 *   DESTROY_QUEUE        two of the COMPUTE_AQL ones
 *
 * leaving alive 1 MiB of VRAM, 64 KiB of GTT, 4 KiB of USERPTR and 8 KiB
 * of DOORBELL (1126400 bytes in 4 allocations), one COMPUTE_AQL queue and
 * one SDMA queue. Then, with -w, it waits for its stdin to close, and exits
 * without freeing them: a leak.
 *
 * Usage: kfdwork [-w] GPU_ID. Exits 0 when every call gave what is said
 * above, 1 (with a line on stderr) at the first that did not.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/kfd_ioctl.h>

static int fd;
static unsigned int gpu_id;

static void expect(const char *what, int ret, int want_errno)
{
	int err = ret < 0 ? errno : 0;

	if (err == want_errno)
		return;
	fprintf(stderr, "kfdwork: %s: %s, expected %s\n", what, err ? strerror(err) : "success",
		want_errno ? strerror(want_errno) : "success");
	exit(1);
}

static __u64 alloc(__u64 size, __u32 flags, int want_errno)
{
	struct kfd_ioctl_alloc_memory_of_gpu_args a = {
		.va_addr = 0x100000000ULL, .size = size, .gpu_id = gpu_id, .flags = flags,
	};

	if (flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR)
		a.mmap_offset = (__u64)(unsigned long)&a;	/* the user memory it stands for */
	expect("ALLOC_MEMORY_OF_GPU", ioctl(fd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), want_errno);
	return a.handle;
}

static void release(__u64 handle)
{
	struct kfd_ioctl_free_memory_of_gpu_args f = { .handle = handle };

	expect("FREE_MEMORY_OF_GPU", ioctl(fd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f), 0);
}

static __u32 create_queue(__u32 type)
{
	struct kfd_ioctl_create_queue_args q = {
		.ring_base_address = 0x200000000ULL, .ring_size = 4096, .gpu_id = gpu_id,
		.queue_type = type, .queue_percentage = 100,
	};

	expect("CREATE_QUEUE", ioctl(fd, AMDKFD_IOC_CREATE_QUEUE, &q), 0);
	return q.queue_id;
}

static void destroy_queue(__u32 id)
{
	struct kfd_ioctl_destroy_queue_args d = { .queue_id = id };

	expect("DESTROY_QUEUE", ioctl(fd, AMDKFD_IOC_DESTROY_QUEUE, &d), 0);
}

int main(int argc, char **argv)
{
	const __u32 vram = KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE;
	const __u32 gtt = KFD_IOC_ALLOC_MEM_FLAGS_GTT | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE;
	__u64 v[3], g[2];
	__u32 aql[3];
	int wait = 0, i;
	char c;

	if (argc > 1 && !strcmp(argv[1], "-w")) {
		wait = 1;
		argv++;
		argc--;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: kfdwork [-w] GPU_ID\n");
		return 2;
	}
	gpu_id = strtoul(argv[1], NULL, 0);
	fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "kfdwork: /dev/kfd: %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < 3; i++)
		v[i] = alloc(1 << 20, vram, 0);
	for (i = 0; i < 2; i++)
		g[i] = alloc(64 << 10, gtt, 0);
	alloc(4 << 10, KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, 0);
	alloc(8 << 10, KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, 0);
	release(v[0]);
	release(v[2]);
	release(g[1]);
	alloc(2ULL << 30, vram, ENOMEM);
	alloc(0, vram, EINVAL);

	for (i = 0; i < 3; i++)
		aql[i] = create_queue(KFD_IOC_QUEUE_TYPE_COMPUTE_AQL);
	create_queue(KFD_IOC_QUEUE_TYPE_SDMA);
	destroy_queue(aql[0]);
	destroy_queue(aql[1]);

	printf("ready\n");
	fflush(stdout);
	while (wait && read(0, &c, 1) > 0)
		;
	return 0;	/* the rest is left to the KFD: freed at close */
}
