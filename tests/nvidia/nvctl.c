// SPDX-License-Identifier: GPL-2.0
/*
 * nvctl: a client of NVIDIA's real kernel driver without its user-space
 * libraries, for the nvdrv tests. It opens /dev/nvidiactl and makes, in a
 * fixed order, the calls a CUDA or nvidia-smi process starts with, plus a
 * few that fail on purpose; one line per call:
 *
 *   NVCTL call=NAME esc=ESC size=N ret=R errno=E status=S obj=O info=I
 *
 * ESC the escape number (_IOC_NR of the ioctl, hex; "-" for open, mmap,
 * close), N the argument block's size (_IOC_SIZE), R and E what the system
 * call returned and errno (0 when it succeeded), S the resource manager's
 * status read from the argument block after the call (hex, "-" where the
 * escape has none, or the call failed before the RM wrote it), O the RM
 * object class (alloc), control command (control) or handle (free), I
 * call-specific details, never with spaces. A tracer's output is compared
 * with these lines.
 *
 * The structures mirror the driver's headers, declaring only what is used:
 * kernel/common/inc/nv-ioctl.h and nv-ioctl-numbers.h (the interface
 * layer's escapes, served in nv.c's nvidia_ioctl), and the resource
 * manager's, from NVIDIA's open-gpu-kernel-modules at the same version
 * (src/nvidia/arch/nvalloc/unix/include/nv_escape.h, src/common/sdk/nvidia/
 * inc/nvos.h, class/cl0000.h, ctrl/ctrl0000/ctrl0000{system,gpu}.h; the RM
 * escapes go through nvidia_ioctl's default case to rm_ioctl). The same in
 * 535 and 550.
 *
 * Usage: nvctl [DEVICE]   (default /dev/nvidiactl). Exit status 1 when the
 * device cannot be opened, else 0: the test judges the lines.
 *
 *        nvctl --burst ROUNDS MS [DEVICE]: a load of cheap calls for
 *        interval summaries to split: an RM client, then ROUNDS rounds of
 *        CHECK_VERSION_STR (the interface layer's) and RM_CONTROL
 *        GET_BUILD_VERSION_V2 (the RM's), spread evenly over at least MS
 *        milliseconds, then the client freed. One line per escape at the
 *        end, how many calls and how many failed (errno) or had a status
 *        other than NV_OK, and one with the pid and time taken:
 *
 *   NVCTL-BURST esc=ESC calls=N errors=E bad_status=B
 *   NVCTL-BURST pid=PID rounds=R ms=T
 *
 *        nvctl --poll N [DEVICE]: N poll() calls that do not wait (the
 *        driver's poll runs once each), then one that waits 50 ms for
 *        nothing (it runs twice: before sleeping and after the timeout);
 *        one line, how many poll() calls said the file had events:
 *
 *   NVCTL-POLL pid=PID polls=N waited=1 ready=R driver_polls=N+2
 *
 *        nvctl --map HOLD_MS [DEVICE]: mappings through their lifecycle,
 *        for a driver whose mmap succeeds (nvmock's; the real one needs a
 *        GPU): three 8 KiB mmaps (A, B, C) and one at a nonzero offset
 *        (refused), A unmapped, B's first page unmapped (the kernel splits
 *        B: one copy, released at once), then a fork whose child inherits
 *        B's rest and C (two copies) and exits (releasing them); the
 *        parent holds B's rest and C for HOLD_MS, prints, and exits
 *        (releasing them):
 *
 *   NVCTL-MAP pid=PID child=CHILD mapped=3 refused=1 live=2
 *
 *        nvctl --rm-memory HOLD_MS [DEVICE]: the RM's memory objects
 *        through their lifecycle, one NVCTL line per call (rm_alloc_mem:
 *        info size:BYTES asked,got:BYTES written back,handle:H): a client
 *        C and a device D; under D video memory of 1 MiB (M1) and 3 MiB
 *        (M2), system memory of 256 KiB and of 5000 bytes, 1 GiB of GPU
 *        virtual address space, an OS descriptor of 64 KiB (its limit
 *        65535); video memory of 0 bytes (refused); M1 freed; a second
 *        client with a device and 2 MiB of video memory, the client freed
 *        (its memory with it); a second device of C with 512 KiB of video
 *        memory, the device freed (its memory with it); then one line,
 *        and C's memory held for HOLD_MS until the exit closes the file
 *        (and the RM frees C):
 *
 *   NVCTL-RMMEM pid=PID
 *
 *        On the real driver without a GPU the device and all memory are
 *        refused (the lines say with which status); nvmock's makes them.
 */
#include <errno.h>
#include <poll.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* nv-ioctl-numbers.h */
#define NV_IOCTL_MAGIC 'F'
#define NV_IOCTL_BASE 200
#define NV_ESC_CARD_INFO (NV_IOCTL_BASE + 0)
#define NV_ESC_CHECK_VERSION_STR (NV_IOCTL_BASE + 10)
#define NV_ESC_IOCTL_XFER_CMD (NV_IOCTL_BASE + 11)
#define NV_ESC_ATTACH_GPUS_TO_FD (NV_IOCTL_BASE + 12)
#define NV_ESC_SYS_PARAMS (NV_IOCTL_BASE + 14)

/* nv_escape.h */
#define NV_ESC_RM_FREE 0x29
#define NV_ESC_RM_CONTROL 0x2A
#define NV_ESC_RM_ALLOC 0x2B

/* nv-ioctl.h: nv_ioctl_xfer_t, for argument blocks too big for _IOC_SIZE */
struct nv_ioctl_xfer {
	uint32_t cmd;
	uint32_t size;
	uint64_t ptr;
};

/* nv-ioctl.h: nv_ioctl_card_info_t (72 bytes), one per possible GPU */
struct nv_ioctl_card_info {
	uint8_t valid;
	struct {
		uint32_t domain;
		uint8_t bus, slot, function;
		uint16_t vendor_id, device_id;
	} pci_info;
	uint32_t gpu_id;
	uint16_t interrupt_line;
	uint64_t reg_address __attribute__((aligned(8)));
	uint64_t reg_size __attribute__((aligned(8)));
	uint64_t fb_address __attribute__((aligned(8)));
	uint64_t fb_size __attribute__((aligned(8)));
	uint32_t minor_number;
	uint8_t dev_name[10];
};

/* nv-ioctl.h: nv_ioctl_rm_api_version_t */
#define NV_RM_API_VERSION_CMD_STRICT 0
#define NV_RM_API_VERSION_CMD_QUERY '2'
struct nv_ioctl_rm_api_version {
	uint32_t cmd;
	uint32_t reply;    /* NV_RM_API_VERSION_REPLY_RECOGNIZED: 1 */
	char versionString[64];
};

/* nv-ioctl.h: nv_ioctl_sys_params_t */
struct nv_ioctl_sys_params {
	uint64_t memblock_size;
};

/* nvos.h: NVOS21_PARAMETERS, NV_ESC_RM_ALLOC (32 bytes; status at 28) */
struct nvos21 {
	uint32_t hRoot, hObjectParent, hObjectNew, hClass;
	uint64_t pAllocParms;
	uint32_t paramsSize;
	uint32_t status;
};

/* nvos.h: NVOS64_PARAMETERS, NV_ESC_RM_ALLOC with rights (48 bytes; status at 40) */
struct nvos64 {
	uint32_t hRoot, hObjectParent, hObjectNew, hClass;
	uint64_t pAllocParms;
	uint64_t pRightsRequested;
	uint32_t paramsSize;
	uint32_t flags;
	uint32_t status;
};

/* nvos.h: NVOS00_PARAMETERS, NV_ESC_RM_FREE (16 bytes; status at 12) */
struct nvos00 {
	uint32_t hRoot, hObjectParent, hObjectOld;
	uint32_t status;
};

/* nvos.h: NVOS54_PARAMETERS, NV_ESC_RM_CONTROL (32 bytes; status at 28) */
struct nvos54 {
	uint32_t hClient, hObject, cmd, flags;
	uint64_t params;
	uint32_t paramsSize;
	uint32_t status;
};

/* class/cl0000.h, cl0041.h: the root object (a client) and its alloc parameters */
#define NV01_ROOT_CLIENT 0x41
struct nv0000_alloc_parameters {
	uint32_t hClient;
	uint32_t processID;
	char processName[100];    /* NV_PROC_NAME_MAX_LENGTH */
};

/* ctrl/ctrl0000/ctrl0000system.h, ctrl0000gpu.h: controls of a client */
#define NV0000_CTRL_CMD_SYSTEM_GET_BUILD_VERSION_V2 0x13e
struct nv0000_build_version_v2 {
	char driverVersionBuffer[256];
	char versionBuffer[256];
	char titleBuffer[256];
	uint32_t changelistNumber;
	uint32_t officialChangelistNumber;
};
#define NV0000_CTRL_CMD_GPU_GET_ATTACHED_IDS 0x201
#define NV0000_CTRL_CMD_GPU_GET_PROBED_IDS 0x214
#define NV0000_CTRL_GPU_INVALID_ID 0xffffffffu
struct nv0000_gpu_ids {
	uint32_t gpuIds[32];
};
struct nv0000_probed_ids {
	uint32_t gpuIds[32];
	uint32_t excludedGpuIds[32];
};
/* No such command in class 0000's system interface (0x01xx). */
#define NVCTL_BAD_CMD 0x1ff

_Static_assert(sizeof(struct nv_ioctl_xfer) == 16, "nv_ioctl_xfer_t");
_Static_assert(sizeof(struct nv_ioctl_card_info) == 72, "nv_ioctl_card_info_t");
_Static_assert(sizeof(struct nv_ioctl_rm_api_version) == 72, "nv_ioctl_rm_api_version_t");
_Static_assert(sizeof(struct nvos21) == 32, "NVOS21_PARAMETERS");
_Static_assert(sizeof(struct nvos64) == 48, "NVOS64_PARAMETERS");
_Static_assert(sizeof(struct nvos00) == 16, "NVOS00_PARAMETERS");
_Static_assert(sizeof(struct nvos54) == 32, "NVOS54_PARAMETERS");

static int fd = -1;
/* What the last nv_ioctl returned: the system call's value and errno. */
static int last_ret, last_errno;

/* The driver reads only _IOC_NR and _IOC_SIZE; libnvidia uses _IOWR. */
static int nv_ioctl(unsigned nr, void *arg, size_t size)
{
	last_ret = ioctl(fd, _IOC(_IOC_READ | _IOC_WRITE, NV_IOCTL_MAGIC, nr, size), arg);
	last_errno = last_ret < 0 ? errno : 0;
	return last_ret;
}

/* One result line. status < 0: none; obj < 0: none. */
static void line(const char *call, int esc, size_t size, long long status, long long obj, const char *info)
{
	char e[16] = "-", s[16] = "-", o[16] = "-";

	if (esc >= 0)
		snprintf(e, sizeof(e), "0x%x", esc);
	if (status >= 0)
		snprintf(s, sizeof(s), "0x%llx", status);
	if (obj >= 0)
		snprintf(o, sizeof(o), "0x%llx", obj);
	printf("NVCTL call=%s esc=%s size=%zu ret=%d errno=%d status=%s obj=%s info=%s\n",
	       call, e, size, last_ret, last_errno, s, o, info && *info ? info : "-");
	fflush(stdout);
}

/* The RM status, where the RM wrote one: the escape succeeded. */
static long long rm_status(uint32_t status)
{
	return last_ret == 0 ? (long long)status : -1;
}

static uint32_t rm_alloc_client(void)
{
	struct nv0000_alloc_parameters p = { .processID = (uint32_t)getpid() };
	struct nvos21 a = { .hClass = NV01_ROOT_CLIENT, .pAllocParms = (uintptr_t)&p,
			    .paramsSize = sizeof(p), .status = ~0u };
	char info[64];

	strcpy(p.processName, "nvctl");
	nv_ioctl(NV_ESC_RM_ALLOC, &a, sizeof(a));
	snprintf(info, sizeof(info), "hClient:0x%x", a.hObjectNew);
	line("rm_alloc", NV_ESC_RM_ALLOC, sizeof(a), rm_status(a.status), a.hClass, info);
	return last_ret == 0 && a.status == 0 ? a.hObjectNew : 0;
}

static uint32_t rm_alloc64_client(void)
{
	struct nv0000_alloc_parameters p = { .processID = (uint32_t)getpid() };
	struct nvos64 a = { .hClass = NV01_ROOT_CLIENT, .pAllocParms = (uintptr_t)&p,
			    .paramsSize = sizeof(p), .status = ~0u };
	char info[64];

	strcpy(p.processName, "nvctl");
	nv_ioctl(NV_ESC_RM_ALLOC, &a, sizeof(a));
	snprintf(info, sizeof(info), "hClient:0x%x", a.hObjectNew);
	line("rm_alloc64", NV_ESC_RM_ALLOC, sizeof(a), rm_status(a.status), a.hClass, info);
	return last_ret == 0 && a.status == 0 ? a.hObjectNew : 0;
}

static void rm_free(const char *call, uint32_t h)
{
	struct nvos00 f = { .hRoot = h, .hObjectParent = h, .hObjectOld = h, .status = ~0u };

	nv_ioctl(NV_ESC_RM_FREE, &f, sizeof(f));
	line(call, NV_ESC_RM_FREE, sizeof(f), rm_status(f.status), h, NULL);
}

/* NV_ESC_RM_CONTROL on object h; xfer: through NV_ESC_IOCTL_XFER_CMD, as
 * libnvidia passes argument blocks. Returns the RM status (or ~0). */
static uint32_t rm_control(const char *call, uint32_t h, uint32_t cmd, void *params, uint32_t size,
			   int xfer, const char *info)
{
	struct nvos54 c = { .hClient = h, .hObject = h, .cmd = cmd, .params = (uintptr_t)params,
			    .paramsSize = size, .status = ~0u };

	if (xfer) {
		struct nv_ioctl_xfer x = { .cmd = NV_ESC_RM_CONTROL, .size = sizeof(c), .ptr = (uintptr_t)&c };
		char i[128];

		nv_ioctl(NV_ESC_IOCTL_XFER_CMD, &x, sizeof(x));
		/* The escape the driver runs is the inner one, with its size. */
		snprintf(i, sizeof(i), "xfer:0x%x:%zu%s%s", NV_ESC_RM_CONTROL, sizeof(c),
			 info ? "," : "", info ? info : "");
		line(call, NV_ESC_IOCTL_XFER_CMD, sizeof(x), rm_status(c.status), cmd, i);
	} else {
		nv_ioctl(NV_ESC_RM_CONTROL, &c, sizeof(c));
		line(call, NV_ESC_RM_CONTROL, sizeof(c), rm_status(c.status), cmd, info);
	}
	return last_ret == 0 ? c.status : ~0u;
}

static int valid_ids(const uint32_t *ids, int n)
{
	int i, valid = 0;

	for (i = 0; i < n; i++)
		valid += ids[i] != NV0000_CTRL_GPU_INVALID_ID;
	return valid;
}

/* Calls and failures per escape of a burst. */
static struct { unsigned calls, errors, bad_status; } burst_count[256];

static void burst_call(unsigned esc, void *arg, size_t size, const uint32_t *status)
{
	nv_ioctl(esc, arg, size);
	burst_count[esc].calls++;
	burst_count[esc].errors += last_ret != 0;
	burst_count[esc].bad_status += last_ret == 0 && status && *status != 0;
}

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* nvctl --burst ROUNDS MS: see the top. */
static int burst(long rounds, long ms)
{
	struct nv0000_alloc_parameters p = { .processID = (uint32_t)getpid() };
	struct nvos21 a = { .hClass = NV01_ROOT_CLIENT, .pAllocParms = (uintptr_t)&p,
			    .paramsSize = sizeof(p), .status = ~0u };
	struct nv_ioctl_rm_api_version v;
	struct nv0000_build_version_v2 bv;
	struct nvos54 c;
	struct nvos00 f;
	double start = now_ms(), due;
	long i;
	int e;

	strcpy(p.processName, "nvctl");
	burst_call(NV_ESC_RM_ALLOC, &a, sizeof(a), &a.status);
	for (i = 0; i < rounds; i++) {
		/* Round i starts no sooner than its share of MS. */
		due = start + (double)ms * i / rounds - now_ms();
		if (due > 0)
			usleep((useconds_t)(due * 1e3));
		memset(&v, 0, sizeof(v));
		v.cmd = NV_RM_API_VERSION_CMD_QUERY;
		burst_call(NV_ESC_CHECK_VERSION_STR, &v, sizeof(v), NULL);
		c = (struct nvos54){ .hClient = a.hObjectNew, .hObject = a.hObjectNew,
				     .cmd = NV0000_CTRL_CMD_SYSTEM_GET_BUILD_VERSION_V2,
				     .params = (uintptr_t)&bv, .paramsSize = sizeof(bv), .status = ~0u };
		burst_call(NV_ESC_RM_CONTROL, &c, sizeof(c), &c.status);
	}
	due = start + ms - now_ms();
	if (due > 0)
		usleep((useconds_t)(due * 1e3));
	f = (struct nvos00){ .hRoot = a.hObjectNew, .hObjectParent = a.hObjectNew,
			     .hObjectOld = a.hObjectNew, .status = ~0u };
	burst_call(NV_ESC_RM_FREE, &f, sizeof(f), &f.status);
	for (e = 0; e < 256; e++)
		if (burst_count[e].calls)
			printf("NVCTL-BURST esc=0x%x calls=%u errors=%u bad_status=%u\n", e,
			       burst_count[e].calls, burst_count[e].errors, burst_count[e].bad_status);
	printf("NVCTL-BURST pid=%d rounds=%ld ms=%.0f\n", (int)getpid(), rounds, now_ms() - start);
	return 0;
}

/* nvctl --poll N: see the top. */
static int polls(long n)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLPRI };
	long i, ready = 0;

	for (i = 0; i < n; i++)
		ready += poll(&p, 1, 0) > 0;
	ready += poll(&p, 1, 50) > 0;
	printf("NVCTL-POLL pid=%d polls=%ld waited=1 ready=%ld driver_polls=%ld\n",
	       (int)getpid(), n, ready, n + 2);
	return 0;
}

/* nvctl --map HOLD_MS: see the top. */
static int maps(long hold_ms)
{
	const size_t page = 4096, len = 2 * page;
	char *a, *b, *c, *bad;
	pid_t child;

	a = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	b = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	c = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	bad = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, page);
	if (a == MAP_FAILED || b == MAP_FAILED || c == MAP_FAILED || bad != MAP_FAILED) {
		fprintf(stderr, "nvctl --map: the mmaps did not go as planned\n");
		return 1;
	}
	if (munmap(a, len) || munmap(b, page)) {
		perror("munmap");
		return 1;
	}
	child = fork();
	if (child < 0) {
		perror("fork");
		return 1;
	}
	if (child == 0)
		_exit(0);	/* its copies of B's rest and C released at its exit */
	waitpid(child, NULL, 0);
	printf("NVCTL-MAP pid=%d child=%d mapped=3 refused=1 live=2\n", (int)getpid(), (int)child);
	fflush(stdout);
	usleep((useconds_t)hold_ms * 1000);
	return 0;
}

/* NV0080_ALLOC_PARAMETERS (class/cl0080.h), as libnvidia asks for GPU 0's device. */
#define NV01_DEVICE_0 0x80
struct nv0080_alloc_parameters {
	uint32_t deviceId, hClientShare, hTargetClient, hTargetDevice, flags;
	uint64_t vaSpaceSize __attribute__((aligned(8)));
	uint64_t vaStartInternal __attribute__((aligned(8)));
	uint64_t vaLimitInternal __attribute__((aligned(8)));
	uint32_t vaMode;
};
/* nvos.h: NV_MEMORY_ALLOCATION_PARAMS (535's 120 bytes; 550 added numaNode), and the OS descriptor's */
struct nv_memory_allocation_params {
	uint32_t owner, type, flags, width, height;
	int32_t pitch;
	uint32_t attr, attr2, format, comprCovg, zcullCovg;
	uint64_t rangeLo __attribute__((aligned(8)));
	uint64_t rangeHi __attribute__((aligned(8)));
	uint64_t size __attribute__((aligned(8)));
	uint64_t alignment __attribute__((aligned(8)));
	uint64_t offset __attribute__((aligned(8)));
	uint64_t limit __attribute__((aligned(8)));
	uint64_t address __attribute__((aligned(8)));
	uint32_t ctagOffset, hVASpace, internalflags, tag;
	int32_t numaNode;
};
struct nv_os_desc_memory_allocation_params {
	uint32_t type, flags, attr, attr2;
	uint64_t descriptor __attribute__((aligned(8)));
	uint64_t limit __attribute__((aligned(8)));
	uint32_t descriptorType, tag;
};
_Static_assert(__builtin_offsetof(struct nv_memory_allocation_params, size) == 64, "size");
_Static_assert(__builtin_offsetof(struct nv_os_desc_memory_allocation_params, limit) == 24, "limit");

/* An RM_ALLOC of class cls, handle h, under parent, with its parameters: the RM status (~0: none). */
static uint32_t rm_alloc_obj(const char *call, uint32_t client, uint32_t parent, uint32_t h, uint32_t cls,
			     void *params, uint32_t size, const char *info)
{
	struct nvos21 a = { .hRoot = client, .hObjectParent = parent, .hObjectNew = h, .hClass = cls,
			    .pAllocParms = (uintptr_t)params, .paramsSize = size, .status = ~0u };

	nv_ioctl(NV_ESC_RM_ALLOC, &a, sizeof(a));
	line(call, NV_ESC_RM_ALLOC, sizeof(a), rm_status(a.status), cls, info);
	return last_ret == 0 ? a.status : ~0u;
}

/* Memory of class cls and `bytes` under parent: its line says the size asked and the one written back. */
static void rm_alloc_mem(uint32_t client, uint32_t parent, uint32_t h, uint32_t cls, uint64_t bytes)
{
	struct nv_memory_allocation_params m = { .size = bytes };
	struct nv_os_desc_memory_allocation_params d = { .limit = bytes - 1 };
	static char buf[65536];
	char info[96];
	uint32_t st;

	if (cls == 0x71) {
		d.descriptor = (uintptr_t)buf;
		st = rm_alloc_obj("rm_alloc_mem", client, parent, h, cls, &d, sizeof(d), NULL);
		snprintf(info, sizeof(info), "size:%llu,got:%llu,handle:0x%x,status:0x%x",
			 (unsigned long long)bytes, (unsigned long long)d.limit + 1, h, st);
	} else {
		st = rm_alloc_obj("rm_alloc_mem", client, parent, h, cls, &m, sizeof(m), NULL);
		snprintf(info, sizeof(info), "size:%llu,got:%llu,handle:0x%x,status:0x%x",
			 (unsigned long long)bytes, (unsigned long long)m.size, h, st);
	}
	printf("NVCTL-MEM class=0x%x %s\n", cls, info);
	fflush(stdout);
}

static void rm_free_obj(const char *call, uint32_t client, uint32_t parent, uint32_t h)
{
	struct nvos00 f = { .hRoot = client, .hObjectParent = parent, .hObjectOld = h, .status = ~0u };

	nv_ioctl(NV_ESC_RM_FREE, &f, sizeof(f));
	line(call, NV_ESC_RM_FREE, sizeof(f), rm_status(f.status), h, NULL);
}

/* nvctl --rm-memory HOLD_MS: see the top. */
static int rm_memory(long hold_ms)
{
	struct nv0080_alloc_parameters dev = { 0 };
	uint32_t c = rm_alloc_client(), c2;
	const uint32_t d = 0xa0000001, m1 = 0xa0000010, d2 = 0xa0000002, d3 = 0xa0000003;

	if (!c)
		return 1;
	rm_alloc_obj("rm_alloc_device", c, c, d, NV01_DEVICE_0, &dev, sizeof(dev), NULL);
	rm_alloc_mem(c, d, m1, 0x40, 1 << 20);
	rm_alloc_mem(c, d, 0xa0000011, 0x40, 3 << 20);
	rm_alloc_mem(c, d, 0xa0000012, 0x3e, 256 << 10);
	rm_alloc_mem(c, d, 0xa0000013, 0x3e, 5000);
	rm_alloc_mem(c, d, 0xa0000014, 0x50a0, 1ULL << 30);
	rm_alloc_mem(c, d, 0xa0000015, 0x71, 64 << 10);
	rm_alloc_mem(c, d, 0xa0000016, 0x40, 0);
	rm_free_obj("rm_free_mem", c, d, m1);
	c2 = rm_alloc_client();
	if (c2) {
		rm_alloc_obj("rm_alloc_device", c2, c2, d3, NV01_DEVICE_0, &dev, sizeof(dev), NULL);
		rm_alloc_mem(c2, d3, 0xa0000020, 0x40, 2 << 20);
		rm_free_obj("rm_free_client", c2, c2, c2);
	}
	rm_alloc_obj("rm_alloc_device", c, c, d2, NV01_DEVICE_0, &dev, sizeof(dev), NULL);
	rm_alloc_mem(c, d2, 0xa0000030, 0x40, 512 << 10);
	rm_free_obj("rm_free_device", c, c, d2);
	printf("NVCTL-RMMEM pid=%d\n", (int)getpid());
	fflush(stdout);
	usleep((useconds_t)hold_ms * 1000);
	return 0;
}

static int usage(const char *mode)
{
	fprintf(stderr, "usage: nvctl %s [DEVICE]\n", mode);
	return 2;
}

/* The device of a mode (default /dev/nvidiactl) opened: 0, or 1 after saying why. */
static int open_dev(const char *dev)
{
	if (!dev)
		dev = "/dev/nvidiactl";
	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		perror(dev);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *dev = argc > 1 ? argv[1] : "/dev/nvidiactl";
	struct nv_ioctl_card_info cards[32];
	struct nv_ioctl_rm_api_version v;
	struct nv_ioctl_sys_params sp;
	struct nv0000_build_version_v2 bv;
	struct nv0000_gpu_ids ids;
	struct nv0000_probed_ids probed;
	uint32_t h, h64, gpu, bogus;
	char info[128];
	void *map;
	long rounds = 0, ms = 0;
	int i, n;

	if (argc > 1 && !strcmp(argv[1], "--burst")) {
		if (argc < 4 || (rounds = atol(argv[2])) <= 0 || (ms = atol(argv[3])) < 0)
			return usage("--burst ROUNDS MS");
		return open_dev(argc > 4 ? argv[4] : NULL) ?: burst(rounds, ms);
	}
	if (argc > 1 && !strcmp(argv[1], "--poll")) {
		if (argc < 3 || (rounds = atol(argv[2])) <= 0)
			return usage("--poll N");
		return open_dev(argc > 3 ? argv[3] : NULL) ?: polls(rounds);
	}
	if (argc > 1 && !strcmp(argv[1], "--rm-memory")) {
		if (argc < 3 || (ms = atol(argv[2])) < 0)
			return usage("--rm-memory HOLD_MS");
		return open_dev(argc > 3 ? argv[3] : NULL) ?: rm_memory(ms);
	}
	if (argc > 1 && !strcmp(argv[1], "--map")) {
		if (argc < 3 || (ms = atol(argv[2])) < 0)
			return usage("--map HOLD_MS");
		return open_dev(argc > 3 ? argv[3] : NULL) ?: maps(ms);
	}
	fd = open(dev, O_RDWR | O_CLOEXEC);
	last_ret = fd;
	last_errno = fd < 0 ? errno : 0;
	line("open", -1, 0, -1, -1, dev);
	if (fd < 0)
		return 1;

	/* What libcuda and nvidia-smi do first: is the driver the version I
	 * was built for? QUERY asks for the driver's own version string. */
	memset(&v, 0, sizeof(v));
	v.cmd = NV_RM_API_VERSION_CMD_QUERY;
	nv_ioctl(NV_ESC_CHECK_VERSION_STR, &v, sizeof(v));
	snprintf(info, sizeof(info), "reply:%u,version:%.40s", v.reply, v.versionString);
	line("check_version", NV_ESC_CHECK_VERSION_STR, sizeof(v), -1, -1, info);

	/* STRICT with a version that is not the driver's: refused, EINVAL. */
	memset(&v, 0, sizeof(v));
	v.cmd = NV_RM_API_VERSION_CMD_STRICT;
	strcpy(v.versionString, "1.0");
	nv_ioctl(NV_ESC_CHECK_VERSION_STR, &v, sizeof(v));
	snprintf(info, sizeof(info), "reply:%u", v.reply);
	line("check_version_bad", NV_ESC_CHECK_VERSION_STR, sizeof(v), -1, -1, info);

	/* The set memory block size only once: the same again is accepted,
	 * another one is EBUSY (the first run in a boot sets it). */
	sp.memblock_size = 128 << 20;
	nv_ioctl(NV_ESC_SYS_PARAMS, &sp, sizeof(sp));
	line("sys_params", NV_ESC_SYS_PARAMS, sizeof(sp), -1, -1, "memblock:0x8000000");
	sp.memblock_size = 256 << 20;
	nv_ioctl(NV_ESC_SYS_PARAMS, &sp, sizeof(sp));
	line("sys_params_busy", NV_ESC_SYS_PARAMS, sizeof(sp), -1, -1, "memblock:0x10000000");

	memset(cards, 0, sizeof(cards));
	nv_ioctl(NV_ESC_CARD_INFO, cards, sizeof(cards));
	for (i = n = 0; i < 32; i++)
		n += cards[i].valid != 0;
	snprintf(info, sizeof(info), "valid:%d", n);
	line("card_info", NV_ESC_CARD_INFO, sizeof(cards), -1, -1, info);

	/* A GPU id no device has: EINVAL. */
	gpu = 0x100;
	nv_ioctl(NV_ESC_ATTACH_GPUS_TO_FD, &gpu, sizeof(gpu));
	line("attach_gpus", NV_ESC_ATTACH_GPUS_TO_FD, sizeof(gpu), -1, -1, "gpu:0x100");

	/* The resource manager: a client (the root of every RM object tree),
	 * in both alloc shapes. */
	h = rm_alloc_client();
	h64 = rm_alloc64_client();

	memset(&bv, 0, sizeof(bv));
	rm_control("rm_control", h, NV0000_CTRL_CMD_SYSTEM_GET_BUILD_VERSION_V2, &bv, sizeof(bv), 0, NULL);
	/* The same through the XFER escape, with the version in info. */
	memset(&bv, 0, sizeof(bv));
	rm_control("rm_control_xfer", h, NV0000_CTRL_CMD_SYSTEM_GET_BUILD_VERSION_V2, &bv, sizeof(bv), 1, NULL);
	printf("NVCTL-INFO build_version=%.40s\n", bv.driverVersionBuffer);

	memset(&ids, 0, sizeof(ids));
	if (rm_control("rm_control_attached", h, NV0000_CTRL_CMD_GPU_GET_ATTACHED_IDS, &ids, sizeof(ids), 0, NULL) == 0)
		printf("NVCTL-INFO attached_gpus=%d\n", valid_ids(ids.gpuIds, 32));
	memset(&probed, 0, sizeof(probed));
	if (rm_control("rm_control_probed", h, NV0000_CTRL_CMD_GPU_GET_PROBED_IDS, &probed, sizeof(probed), 0, NULL) == 0)
		printf("NVCTL-INFO probed_gpus=%d\n", valid_ids(probed.gpuIds, 32));

	/* Failures the RM reports in the status field (the ioctl succeeds):
	 * a command the client does not have, a parameter block of the wrong
	 * size, a client handle that does not exist. */
	rm_control("rm_control_badcmd", h, NVCTL_BAD_CMD, &ids, sizeof(ids), 0, NULL);
	rm_control("rm_control_badsize", h, NV0000_CTRL_CMD_GPU_GET_ATTACHED_IDS, &ids, 4, 0, NULL);
	bogus = 0xbad0001;
	rm_control("rm_control_badclient", bogus, NV0000_CTRL_CMD_GPU_GET_ATTACHED_IDS, &ids, sizeof(ids), 0, NULL);

	/* An argument block of no RM shape: the driver refuses the escape
	 * itself (EINVAL), and writes no status. */
	{
		struct nvos21 a = { .hClass = NV01_ROOT_CLIENT, .status = ~0u };

		nv_ioctl(NV_ESC_RM_ALLOC, &a, 24);
		line("rm_alloc_badsize", NV_ESC_RM_ALLOC, 24, -1, a.hClass, NULL);
	}
	/* An escape the driver does not know (0x99): EINVAL from rm_ioctl. */
	{
		uint64_t junk = 0;

		nv_ioctl(0x99, &junk, sizeof(junk));
		line("unknown_escape", 0x99, sizeof(junk), -1, -1, NULL);
	}

	rm_free("rm_free", h);
	rm_free("rm_free64", h64);
	rm_free("rm_free_again", h);    /* already freed */

	/* nvidiactl maps only what an RM call prepared (an mmap context): a
	 * bare mmap is refused, EINVAL, after the driver saw its size. */
	map = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	last_ret = map == MAP_FAILED ? -1 : 0;
	last_errno = map == MAP_FAILED ? errno : 0;
	line("mmap", -1, 2 * 4096, -1, -1, NULL);
	if (map != MAP_FAILED)
		munmap(map, 2 * 4096);

	last_ret = close(fd);
	last_errno = last_ret < 0 ? errno : 0;
	line("close", -1, 0, -1, -1, NULL);
	return 0;
}
