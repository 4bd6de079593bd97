// SPDX-License-Identifier: GPL-2.0
/*
 * kfdmock-ioctl [--mock]: a client of /dev/kfd for tests/kmod/kfdmock-check.sh.
 * Prints one line per call: what was asked, the result (0 or the errno's
 * name) and what came back.
 *
 * Without --mock: the calls whose results need no GPU, which the real KFD
 * and the mock must answer alike (GET_VERSION, allocations and queues on a
 * gpu_id that does not exist, a size of 0, frees and destroys of nothing,
 * numbers outside the table, the fd used by a child).
 * With --mock: those, then the mock's GPU (gpu_id 0x4d4f): buffers of known
 * sizes up to and past its 1 GiB limit, frees, queues up to and past its 8,
 * destroys, index and queue id reuse, a second open file with its own
 * handles; it exits with buffers and queues held (kfd_release frees them).
 *
 * The uapi structures are declared here (linux/kfd_ioctl.h needs libdrm's
 * drm.h); their layouts have not changed since 4.x.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

struct kfd_ioctl_get_version_args {
	uint32_t major_version;
	uint32_t minor_version;
};

struct kfd_ioctl_create_queue_args {
	uint64_t ring_base_address;
	uint64_t write_pointer_address;
	uint64_t read_pointer_address;
	uint64_t doorbell_offset;
	uint32_t ring_size;
	uint32_t gpu_id;
	uint32_t queue_type;
	uint32_t queue_percentage;
	uint32_t queue_priority;
	uint32_t queue_id;
	uint64_t eop_buffer_address;
	uint64_t eop_buffer_size;
	uint64_t ctx_save_restore_address;
	uint32_t ctx_save_restore_size;
	uint32_t ctl_stack_size;
};

struct kfd_ioctl_destroy_queue_args {
	uint32_t queue_id;
	uint32_t pad;
};

struct kfd_ioctl_alloc_memory_of_gpu_args {
	uint64_t va_addr;
	uint64_t size;
	uint64_t handle;
	uint64_t mmap_offset;
	uint32_t gpu_id;
	uint32_t flags;
};

struct kfd_ioctl_free_memory_of_gpu_args {
	uint64_t handle;
};

_Static_assert(sizeof(struct kfd_ioctl_create_queue_args) == 88, "create_queue args");
_Static_assert(sizeof(struct kfd_ioctl_alloc_memory_of_gpu_args) == 40, "alloc args");

#define AMDKFD_IOCTL_BASE 'K'
#define AMDKFD_IOC_GET_VERSION _IOR(AMDKFD_IOCTL_BASE, 0x01, struct kfd_ioctl_get_version_args)
#define AMDKFD_IOC_CREATE_QUEUE _IOWR(AMDKFD_IOCTL_BASE, 0x02, struct kfd_ioctl_create_queue_args)
#define AMDKFD_IOC_DESTROY_QUEUE _IOWR(AMDKFD_IOCTL_BASE, 0x03, struct kfd_ioctl_destroy_queue_args)
#define AMDKFD_IOC_ALLOC_MEMORY_OF_GPU \
	_IOWR(AMDKFD_IOCTL_BASE, 0x16, struct kfd_ioctl_alloc_memory_of_gpu_args)
#define AMDKFD_IOC_FREE_MEMORY_OF_GPU \
	_IOW(AMDKFD_IOCTL_BASE, 0x17, struct kfd_ioctl_free_memory_of_gpu_args)
#define KFD_IOC_QUEUE_TYPE_COMPUTE 0x0
#define KFD_IOC_ALLOC_MEM_FLAGS_VRAM (1 << 0)

#define MOCK_GPU 0x4d4fu
#define NO_GPU 0x1234u
#define GIB (1ull << 30)

static const char *result(int ret)
{
	static char buf[32];

	if (ret == 0)
		return "0";
	switch (errno) {
	case EINVAL: return "EINVAL";
	case ENOMEM: return "ENOMEM";
	case ENOTTY: return "ENOTTY";
	case EBADF: return "EBADF";
	case EFAULT: return "EFAULT";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case ENODEV: return "ENODEV";
	}
	snprintf(buf, sizeof(buf), "errno %d", errno);
	return buf;
}

static void version(int fd)
{
	struct kfd_ioctl_get_version_args a = { 0 };
	int r = ioctl(fd, AMDKFD_IOC_GET_VERSION, &a);

	printf("get_version -> %s %u.%u\n", result(r), a.major_version, a.minor_version);
}

static uint64_t alloc(int fd, uint32_t gpu, uint64_t size)
{
	struct kfd_ioctl_alloc_memory_of_gpu_args a = {
		.va_addr = 0x100000000ull, .size = size, .gpu_id = gpu,
		.flags = KFD_IOC_ALLOC_MEM_FLAGS_VRAM,
	};
	int r = ioctl(fd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a);

	printf("alloc gpu=%#x size=%#llx -> %s", gpu, (unsigned long long)size, result(r));
	if (r == 0)
		printf(" handle=%#llx mmap_offset=%#llx", (unsigned long long)a.handle,
		       (unsigned long long)a.mmap_offset);
	printf("\n");
	return r ? 0 : a.handle;
}

static void free_mem(int fd, uint64_t handle)
{
	struct kfd_ioctl_free_memory_of_gpu_args a = { .handle = handle };
	int r = ioctl(fd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &a);

	printf("free handle=%#llx -> %s\n", (unsigned long long)handle, result(r));
}

static void create_queue(int fd, uint32_t gpu)
{
	struct kfd_ioctl_create_queue_args a = {
		.gpu_id = gpu, .queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE,
		.queue_percentage = 100, .queue_priority = 7, .queue_id = 0xffffffff,
	};
	int r = ioctl(fd, AMDKFD_IOC_CREATE_QUEUE, &a);

	printf("create_queue gpu=%#x -> %s", gpu, result(r));
	if (r == 0)
		printf(" queue_id=%u doorbell_offset=%#llx", a.queue_id,
		       (unsigned long long)a.doorbell_offset);
	printf("\n");
}

static void destroy_queue(int fd, uint32_t id)
{
	struct kfd_ioctl_destroy_queue_args a = { .queue_id = id };
	int r = ioctl(fd, AMDKFD_IOC_DESTROY_QUEUE, &a);

	printf("destroy_queue queue_id=%u -> %s\n", id, result(r));
}

static void raw(int fd, unsigned long cmd, const char *what)
{
	char buf[64] = { 0 };
	int r = ioctl(fd, cmd, buf);

	printf("%s -> %s\n", what, result(r));
}

/* The fd used by a child: the real KFD refuses another process's calls. */
static void child(int fd)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	if (pid == 0) {
		struct kfd_ioctl_get_version_args a = { 0 };
		int r = ioctl(fd, AMDKFD_IOC_GET_VERSION, &a);

		printf("child get_version -> %s\n", result(r));
		exit(0);
	}
	waitpid(pid, &status, 0);
}

int main(int argc, char **argv)
{
	int mock = argc > 1 && !strcmp(argv[1], "--mock");
	int fd, fd2, i;
	uint64_t h;

	setvbuf(stdout, NULL, _IOLBF, 0);
	fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		printf("open /dev/kfd -> %s\n", result(-1));
		return 2;
	}
	version(fd);
	alloc(fd, NO_GPU, 4096);
	alloc(fd, NO_GPU, 0);
	create_queue(fd, NO_GPU);
	free_mem(fd, (uint64_t)NO_GPU << 32 | 1);
	destroy_queue(fd, 5);
	raw(fd, _IOWR(AMDKFD_IOCTL_BASE, 0x7f, char[8]), "ioctl nr=0x7f");
	raw(fd, _IOWR(AMDKFD_IOCTL_BASE, 0x00, char[8]), "ioctl nr=0x00");
	child(fd);
	if (!mock)
		return 0;

	alloc(fd, MOCK_GPU, 4096);
	h = alloc(fd, MOCK_GPU, 1 << 20);
	alloc(fd, MOCK_GPU, GIB);
	alloc(fd, MOCK_GPU, GIB + 1);
	alloc(fd, MOCK_GPU, 0);
	free_mem(fd, h);
	free_mem(fd, h);
	alloc(fd, MOCK_GPU, 8192);	/* the lowest free index again */
	free_mem(fd, (uint64_t)MOCK_GPU << 32 | 99);
	for (i = 0; i < 9; i++)
		create_queue(fd, MOCK_GPU);
	destroy_queue(fd, 3);
	destroy_queue(fd, 3);
	destroy_queue(fd, 8);
	create_queue(fd, MOCK_GPU);	/* queue 3 again */
	raw(fd, _IOWR(AMDKFD_IOCTL_BASE, 0x04, char[8]), "ioctl nr=0x04 (not mocked)");

	/* A second open file: its own handles and queue ids. */
	fd2 = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	if (fd2 < 0) {
		printf("open /dev/kfd again -> %s\n", result(-1));
		return 2;
	}
	printf("second open\n");
	alloc(fd2, MOCK_GPU, 4096);
	create_queue(fd2, MOCK_GPU);
	free_mem(fd2, (uint64_t)MOCK_GPU << 32 | 3);	/* fd's, not fd2's */
	close(fd2);
	/* fd: 3 buffers and 8 queues held, freed by kfd_release at exit */
	return 0;
}
