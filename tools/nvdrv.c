// SPDX-License-Identifier: GPL-2.0
/*
 * nvdrv - NVIDIA's kernel driver (nvidia.ko) per process and GPU: opens of
 * its device nodes, every ioctl by escape with its latency, errno and the
 * resource manager's status, mmaps with their real sizes, interrupts and
 * their bottom halves, p2p calls, and Xid errors decoded.
 *
 * The driver has no tracepoints: kprobes on its interface layer, resolved
 * by name in /proc/kallsyms for the generation loaded (535 has a frontend,
 * nvidia_frontend_*; 550 does not), each role attached where its function
 * exists, and one line saying what the others would have shown.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nvdrv.h"
#include "nvdrv.skel.h"
#include "cgroup.h"
#include "trace_loop.h"
#include "histogram.h"
#include "maps.h"
#include "opts.h"
#include "output.h"
#include "probe.h"
#include "runtime.h"
#include "tool.h"

static struct env {
	bool events;
} env;

static struct nvdrv_bpf *skel;
static unsigned long long start_ns, last_summary_ns;

/* The maps a summary reads, and the previous summary's: each prints what changed. */
enum { S_CALLS, S_RM, S_ERRS, S_DEVS, S_IRQS, S_P2P, NR_SNAPS };
static struct map_snapshot prev[NR_SNAPS];
#define prev_calls prev[S_CALLS]
#define prev_rm prev[S_RM]
#define prev_errs prev[S_ERRS]
#define prev_devs prev[S_DEVS]
#define prev_irqs prev[S_IRQS]
#define prev_p2p prev[S_P2P]

const char *argp_program_version = "nvdrv 0.1";
static const char doc[] =
"NVIDIA kernel driver (nvidia.ko) calls, per process and GPU.\n"
"\n"
"USAGE: nvdrv [-ejmCT] [-p PID] [-c COMM] [--cgroup PATH] [interval [count]]\n"
"\n"
"EXAMPLES:\n"
"    nvdrv                 # summary at Ctrl-C\n"
"    nvdrv 1               # a summary every second\n"
"    nvdrv -p 1234         # only process 1234\n"
"    nvdrv -c nvidia-smi   # only processes named nvidia-smi\n"
"    nvdrv -e              # one line per event (ioctl, open, mmap, interrupt, Xid...)\n"
"    nvdrv -j              # JSON lines: one object per table row\n"
"    nvdrv --cgroup /sys/fs/cgroup/gpu.slice -C  # one cgroup's calls, named\n";

static const struct argp_option opts[] = {
	{ "events", 'e', NULL, 0, "Print one line per event", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'e':
		env.events = true;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* ---- names ---------------------------------------------------------------- */

struct name {
	unsigned int value;
	const char *name;
};

static const char *lookup(const struct name *t, size_t n, unsigned int v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].value == v)
			return t[i].name;
	return NULL;
}

#define LOOKUP(table, v) lookup(table, sizeof(table) / sizeof(table[0]), v)

/*
 * NV_ESC_* without the prefix: the interface layer's (nv-ioctl-numbers.h,
 * nv-ioctl-numa.h) and the resource manager's (nv_escape.h).
 */
static const struct name escapes[] = {
	{ 0x27, "RM_ALLOC_MEMORY" }, { 0x28, "RM_ALLOC_OBJECT" }, { 0x29, "RM_FREE" },
	{ 0x2a, "RM_CONTROL" }, { 0x2b, "RM_ALLOC" }, { 0x32, "RM_CONFIG_GET" },
	{ 0x33, "RM_CONFIG_SET" }, { 0x34, "RM_DUP_OBJECT" }, { 0x35, "RM_SHARE" },
	{ 0x37, "RM_CONFIG_GET_EX" }, { 0x38, "RM_CONFIG_SET_EX" }, { 0x39, "RM_I2C_ACCESS" },
	{ 0x41, "RM_IDLE_CHANNELS" }, { 0x4a, "RM_VID_HEAP_CONTROL" },
	{ 0x4d, "RM_ACCESS_REGISTRY" }, { 0x4e, "RM_MAP_MEMORY" }, { 0x4f, "RM_UNMAP_MEMORY" },
	{ 0x52, "RM_GET_EVENT_DATA" }, { 0x54, "RM_ALLOC_CONTEXT_DMA2" },
	{ 0x56, "RM_ADD_VBLANK_CALLBACK" }, { 0x57, "RM_MAP_MEMORY_DMA" },
	{ 0x58, "RM_UNMAP_MEMORY_DMA" }, { 0x59, "RM_BIND_CONTEXT_DMA" },
	{ 0x5c, "RM_EXPORT_OBJECT_TO_FD" }, { 0x5d, "RM_IMPORT_OBJECT_FROM_FD" },
	{ 0x5e, "RM_UPDATE_DEVICE_MAPPING_INFO" },
	{ 0xc8, "CARD_INFO" }, { 0xc9, "REGISTER_FD" }, { 0xce, "ALLOC_OS_EVENT" },
	{ 0xcf, "FREE_OS_EVENT" }, { 0xd1, "STATUS_CODE" }, { 0xd2, "CHECK_VERSION_STR" },
	{ 0xd3, "IOCTL_XFER_CMD" }, { 0xd4, "ATTACH_GPUS_TO_FD" },
	{ 0xd5, "QUERY_DEVICE_INTR" }, { 0xd6, "SYS_PARAMS" }, { 0xd7, "NUMA_INFO" },
	{ 0xd8, "SET_NUMA_STATUS" }, { 0xd9, "EXPORT_TO_DMABUF_FD" },
	{ 0xda, "WAIT_OPEN_COMPLETE" },
};

/* "RM_CONTROL", or "0x99" for an escape the table does not know. */
static const char *escape_name(__u32 esc, char *buf, size_t size)
{
	const char *n = LOOKUP(escapes, esc);

	if (n)
		return n;
	snprintf(buf, size, "0x%x", esc);
	return buf;
}

/* NV_STATUS codes (nvstatuscodes.h, 550: a superset of 535's). */
static const struct name statuses[] = {
	{ 0x0, "NV_OK" }, { 0xffff, "NV_ERR_GENERIC" },
	{ 0x1, "NV_ERR_BROKEN_FB" }, { 0x2, "NV_ERR_BUFFER_TOO_SMALL" },
	{ 0x3, "NV_ERR_BUSY_RETRY" }, { 0x4, "NV_ERR_CALLBACK_NOT_SCHEDULED" },
	{ 0x5, "NV_ERR_CARD_NOT_PRESENT" }, { 0x6, "NV_ERR_CYCLE_DETECTED" },
	{ 0x7, "NV_ERR_DMA_IN_USE" }, { 0x8, "NV_ERR_DMA_MEM_NOT_LOCKED" },
	{ 0x9, "NV_ERR_DMA_MEM_NOT_UNLOCKED" }, { 0xa, "NV_ERR_DUAL_LINK_INUSE" },
	{ 0xb, "NV_ERR_ECC_ERROR" }, { 0xc, "NV_ERR_FIFO_BAD_ACCESS" },
	{ 0xd, "NV_ERR_FREQ_NOT_SUPPORTED" }, { 0xe, "NV_ERR_GPU_DMA_NOT_INITIALIZED" },
	{ 0xf, "NV_ERR_GPU_IS_LOST" }, { 0x10, "NV_ERR_GPU_IN_FULLCHIP_RESET" },
	{ 0x11, "NV_ERR_GPU_NOT_FULL_POWER" }, { 0x12, "NV_ERR_GPU_UUID_NOT_FOUND" },
	{ 0x13, "NV_ERR_HOT_SWITCH" }, { 0x14, "NV_ERR_I2C_ERROR" },
	{ 0x15, "NV_ERR_I2C_SPEED_TOO_HIGH" }, { 0x16, "NV_ERR_ILLEGAL_ACTION" },
	{ 0x17, "NV_ERR_IN_USE" }, { 0x18, "NV_ERR_INFLATE_COMPRESSED_DATA_FAILED" },
	{ 0x19, "NV_ERR_INSERT_DUPLICATE_NAME" }, { 0x1a, "NV_ERR_INSUFFICIENT_RESOURCES" },
	{ 0x1b, "NV_ERR_INSUFFICIENT_PERMISSIONS" }, { 0x1c, "NV_ERR_INSUFFICIENT_POWER" },
	{ 0x1d, "NV_ERR_INVALID_ACCESS_TYPE" }, { 0x1e, "NV_ERR_INVALID_ADDRESS" },
	{ 0x1f, "NV_ERR_INVALID_ARGUMENT" }, { 0x20, "NV_ERR_INVALID_BASE" },
	{ 0x21, "NV_ERR_INVALID_CHANNEL" }, { 0x22, "NV_ERR_INVALID_CLASS" },
	{ 0x23, "NV_ERR_INVALID_CLIENT" }, { 0x24, "NV_ERR_INVALID_COMMAND" },
	{ 0x25, "NV_ERR_INVALID_DATA" }, { 0x26, "NV_ERR_INVALID_DEVICE" },
	{ 0x27, "NV_ERR_INVALID_DMA_SPECIFIER" }, { 0x28, "NV_ERR_INVALID_EVENT" },
	{ 0x29, "NV_ERR_INVALID_FLAGS" }, { 0x2a, "NV_ERR_INVALID_FUNCTION" },
	{ 0x2b, "NV_ERR_INVALID_HEAP" }, { 0x2c, "NV_ERR_INVALID_INDEX" },
	{ 0x2d, "NV_ERR_INVALID_IRQ_LEVEL" }, { 0x2e, "NV_ERR_INVALID_LIMIT" },
	{ 0x2f, "NV_ERR_INVALID_LOCK_STATE" }, { 0x30, "NV_ERR_INVALID_METHOD" },
	{ 0x31, "NV_ERR_INVALID_OBJECT" }, { 0x32, "NV_ERR_INVALID_OBJECT_BUFFER" },
	{ 0x33, "NV_ERR_INVALID_OBJECT_HANDLE" }, { 0x34, "NV_ERR_INVALID_OBJECT_NEW" },
	{ 0x35, "NV_ERR_INVALID_OBJECT_OLD" }, { 0x36, "NV_ERR_INVALID_OBJECT_PARENT" },
	{ 0x37, "NV_ERR_INVALID_OFFSET" }, { 0x38, "NV_ERR_INVALID_OPERATION" },
	{ 0x39, "NV_ERR_INVALID_OWNER" }, { 0x3a, "NV_ERR_INVALID_PARAM_STRUCT" },
	{ 0x3b, "NV_ERR_INVALID_PARAMETER" }, { 0x3c, "NV_ERR_INVALID_PATH" },
	{ 0x3d, "NV_ERR_INVALID_POINTER" }, { 0x3e, "NV_ERR_INVALID_REGISTRY_KEY" },
	{ 0x3f, "NV_ERR_INVALID_REQUEST" }, { 0x40, "NV_ERR_INVALID_STATE" },
	{ 0x41, "NV_ERR_INVALID_STRING_LENGTH" }, { 0x42, "NV_ERR_INVALID_READ" },
	{ 0x43, "NV_ERR_INVALID_WRITE" }, { 0x44, "NV_ERR_INVALID_XLATE" },
	{ 0x45, "NV_ERR_IRQ_NOT_FIRING" }, { 0x46, "NV_ERR_IRQ_EDGE_TRIGGERED" },
	{ 0x47, "NV_ERR_MEMORY_TRAINING_FAILED" }, { 0x48, "NV_ERR_MISMATCHED_SLAVE" },
	{ 0x49, "NV_ERR_MISMATCHED_TARGET" }, { 0x4a, "NV_ERR_MISSING_TABLE_ENTRY" },
	{ 0x4b, "NV_ERR_MODULE_LOAD_FAILED" }, { 0x4c, "NV_ERR_MORE_DATA_AVAILABLE" },
	{ 0x4d, "NV_ERR_MORE_PROCESSING_REQUIRED" }, { 0x4e, "NV_ERR_MULTIPLE_MEMORY_TYPES" },
	{ 0x4f, "NV_ERR_NO_FREE_FIFOS" }, { 0x50, "NV_ERR_NO_INTR_PENDING" },
	{ 0x51, "NV_ERR_NO_MEMORY" }, { 0x52, "NV_ERR_NO_SUCH_DOMAIN" },
	{ 0x53, "NV_ERR_NO_VALID_PATH" }, { 0x54, "NV_ERR_NOT_COMPATIBLE" },
	{ 0x55, "NV_ERR_NOT_READY" }, { 0x56, "NV_ERR_NOT_SUPPORTED" },
	{ 0x57, "NV_ERR_OBJECT_NOT_FOUND" }, { 0x58, "NV_ERR_OBJECT_TYPE_MISMATCH" },
	{ 0x59, "NV_ERR_OPERATING_SYSTEM" }, { 0x5a, "NV_ERR_OTHER_DEVICE_FOUND" },
	{ 0x5b, "NV_ERR_OUT_OF_RANGE" }, { 0x5c, "NV_ERR_OVERLAPPING_UVM_COMMIT" },
	{ 0x5d, "NV_ERR_PAGE_TABLE_NOT_AVAIL" }, { 0x5e, "NV_ERR_PID_NOT_FOUND" },
	{ 0x5f, "NV_ERR_PROTECTION_FAULT" }, { 0x60, "NV_ERR_RC_ERROR" },
	{ 0x61, "NV_ERR_REJECTED_VBIOS" }, { 0x62, "NV_ERR_RESET_REQUIRED" },
	{ 0x63, "NV_ERR_STATE_IN_USE" }, { 0x64, "NV_ERR_SIGNAL_PENDING" },
	{ 0x65, "NV_ERR_TIMEOUT" }, { 0x66, "NV_ERR_TIMEOUT_RETRY" },
	{ 0x67, "NV_ERR_TOO_MANY_PRIMARIES" }, { 0x68, "NV_ERR_UVM_ADDRESS_IN_USE" },
	{ 0x69, "NV_ERR_MAX_SESSION_LIMIT_REACHED" }, { 0x6a, "NV_ERR_LIB_RM_VERSION_MISMATCH" },
	{ 0x6b, "NV_ERR_PRIV_SEC_VIOLATION" }, { 0x6c, "NV_ERR_GPU_IN_DEBUG_MODE" },
	{ 0x6d, "NV_ERR_FEATURE_NOT_ENABLED" }, { 0x6e, "NV_ERR_RESOURCE_LOST" },
	{ 0x6f, "NV_ERR_PMU_NOT_READY" }, { 0x70, "NV_ERR_FLCN_ERROR" },
	{ 0x71, "NV_ERR_FATAL_ERROR" }, { 0x72, "NV_ERR_MEMORY_ERROR" },
	{ 0x73, "NV_ERR_INVALID_LICENSE" }, { 0x74, "NV_ERR_NVLINK_INIT_ERROR" },
	{ 0x75, "NV_ERR_NVLINK_MINION_ERROR" }, { 0x76, "NV_ERR_NVLINK_CLOCK_ERROR" },
	{ 0x77, "NV_ERR_NVLINK_TRAINING_ERROR" }, { 0x78, "NV_ERR_NVLINK_CONFIGURATION_ERROR" },
	{ 0x79, "NV_ERR_RISCV_ERROR" }, { 0x7a, "NV_ERR_FABRIC_MANAGER_NOT_PRESENT" },
	{ 0x7b, "NV_ERR_ALREADY_SIGNALLED" }, { 0x7c, "NV_ERR_QUEUE_TASK_SLOT_NOT_AVAILABLE" },
	{ 0x7d, "NV_ERR_KEY_ROTATION_IN_PROGRESS" }, { 0x81, "NV_ERR_NVSWITCH_FABRIC_NOT_READY" },
	{ 0x82, "NV_ERR_NVSWITCH_FABRIC_FAILURE" },
	{ 0x10001, "NV_WARN_HOT_SWITCH" }, { 0x10002, "NV_WARN_INCORRECT_PERFMON_DATA" },
	{ 0x10003, "NV_WARN_MISMATCHED_SLAVE" }, { 0x10004, "NV_WARN_MISMATCHED_TARGET" },
	{ 0x10005, "NV_WARN_MORE_PROCESSING_REQUIRED" }, { 0x10006, "NV_WARN_NOTHING_TO_DO" },
	{ 0x10007, "NV_WARN_NULL_OBJECT" }, { 0x10008, "NV_WARN_OUT_OF_RANGE" },
};

/* RM classes a client allocates first (class/cl*.h). */
static const struct name classes[] = {
	{ 0x0041, "NV01_ROOT_CLIENT" }, { 0x0000, "NV01_ROOT" }, { 0x0001, "NV01_ROOT_NON_PRIV" },
	{ 0x0002, "NV01_CONTEXT_DMA" }, { 0x0003, "NV01_EVENT" }, { 0x0040, "NV01_MEMORY_LOCAL_USER" },
	{ 0x003e, "NV01_MEMORY_SYSTEM" }, { 0x0071, "NV01_MEMORY_SYSTEM_OS_DESCRIPTOR" },
	{ 0x0079, "NV01_EVENT_OS_EVENT" }, { 0x0080, "NV01_DEVICE_0" },
	{ 0x2080, "NV20_SUBDEVICE_0" }, { 0x90f1, "FERMI_VASPACE_A" },
	{ 0x00fd, "NV_MEMORY_FABRIC" }, { 0xc637, "AMPERE_SMC_PARTITION_REF" },
};

/* RM control commands of a client (ctrl/ctrl0000/ *.h). */
static const struct name controls[] = {
	{ 0x101, "SYSTEM_GET_CPU_INFO" }, { 0x13e, "SYSTEM_GET_BUILD_VERSION_V2" },
	{ 0x201, "GPU_GET_ATTACHED_IDS" }, { 0x202, "GPU_GET_ID_INFO" },
	{ 0x214, "GPU_GET_PROBED_IDS" }, { 0x215, "GPU_ATTACH_IDS" },
	{ 0x216, "GPU_DETACH_IDS" }, { 0x274, "GPU_GET_UUID_FROM_GPU_ID" },
};

static const char *status_name(__u32 status)
{
	return LOOKUP(statuses, status);
}

/* The name of an RM call's object: a class (RM_ALLOC) or control command. */
static const char *object_name(__u32 esc, __u32 obj)
{
	if (esc == 0x2b)
		return LOOKUP(classes, obj);
	if (esc == 0x2a)
		return LOOKUP(controls, obj);
	return NULL;
}

/* The escapes whose object (class or command) is shown. */
static bool has_object(__u32 esc)
{
	return esc == 0x2a || esc == 0x2b;
}

/* Xid meanings (NVIDIA's Xid catalog). */
static const struct name xids[] = {
	{ 8, "GPU stopped processing" }, { 13, "graphics engine exception" },
	{ 31, "GPU memory page fault" }, { 32, "invalid or corrupted push buffer stream" },
	{ 38, "driver firmware error" }, { 43, "GPU stopped processing (channel stopped)" },
	{ 45, "preemptive cleanup, due to previous errors" }, { 48, "double bit ECC error (DBE)" },
	{ 61, "internal micro-controller breakpoint/warning" },
	{ 62, "internal micro-controller halt" },
	{ 63, "ECC page retirement or row remapping recording event" },
	{ 64, "ECC page retirement or row remapper recording failure" },
	{ 68, "video processor exception" }, { 69, "graphics engine class error" },
	{ 74, "NVLink error" }, { 79, "GPU has fallen off the bus" },
	{ 92, "high single-bit ECC error rate" }, { 94, "contained ECC error" },
	{ 95, "uncontained ECC error" }, { 109, "context switch timeout" },
	{ 119, "GSP RPC timeout" }, { 120, "GSP error" }, { 121, "C2C link corrected error" },
	{ 140, "unrecovered ECC error" }, { 143, "GPU initialization failure" },
	{ 154, "GPU recovery action changed" },
};

/* Device nodes: major 195 is nvidia.ko's; others named by /proc/devices. */
#define MAJOR(dev) ((dev) >> 20)
#define MINOR(dev) ((dev) & 0xfffff)

static const char *dev_name(__u32 dev, char *buf, size_t size)
{
	unsigned int major = MAJOR(dev), minor = MINOR(dev), m;
	char line[128], name[48];
	FILE *f;

	if (major == 195) {
		if (minor == 255)
			return "nvidiactl";
		if (minor == 254)
			return "nvidia-modeset";
		snprintf(buf, size, "nvidia%u", minor);
		return buf;
	}
	snprintf(buf, size, "%u:%u", major, minor);
	f = fopen("/proc/devices", "r");
	if (!f)
		return buf;
	/* "Character devices:" come first: "510 nvidia-uvm" */
	while (fgets(line, sizeof(line), f) && strncmp(line, "Block", 5)) {
		if (sscanf(line, "%u %47s", &m, name) == 2 && m == major) {
			if (!strcmp(name, "nvidia-uvm"))
				snprintf(buf, size, "%s", minor ? "nvidia-uvm-tools" : "nvidia-uvm");
			else
				snprintf(buf, size, "%s:%u", name, minor);
			break;
		}
	}
	fclose(f);
	return buf;
}

static const char *gpu_name(__u32 gpu, char *buf, size_t size)
{
	snprintf(buf, size, "%04x:%02x:%02x", gpu >> 16, (gpu >> 8) & 0xff, gpu & 0xff);
	return buf;
}

static const char *const irq_kinds[NR_IRQ_KINDS] = { "isr", "msix" };
static const char *const bh_kinds[NR_BH_KINDS] = { "kthread", "msix_kthread", "unlocked" };
static const char *const p2p_fns[NR_P2P_FNS] = {
	"get_pages", "get_pages_persistent", "put_pages", "dma_map_pages", "dma_unmap_pages",
	"put_pages_persistent",
};

static const char *errno_name(int err, char *buf, size_t size)
{
	const char *n = strerrorname_np(err);

	if (n)
		return n;
	snprintf(buf, size, "%d", err);
	return buf;
}

/* ---- Xids: reported in user space from nv_printf's arguments ------------------- */

#define MAX_XIDS 256

struct xid_row {
	__u32 gpu, xid;
	unsigned long long count, prev;
	char pid[XID_STR_LEN], name[XID_STR_LEN], msg[XID_STR_LEN];
};

static struct xid_row xid_rows[MAX_XIDS];
static int nr_xid_rows;
static unsigned long long dropped_xids;

/* The last Xid nv_printf reported, per thread, for nv_log_error to match. */
static struct {
	__u32 tid, xid;
	bool matched;
} last_print;

struct xid_report {
	__u32 gpu, xid;
	const char *pid, *name, *msg;
};

/*
 * Which argument of nv_printf's format is which: the first three
 * conversions are the PCI domain, bus and device; the one after "): " the
 * Xid; then pid=%s, name=%s and the message. Argument i (after the format)
 * is in an integer register for i < 4, else in stack slot i - 4.
 */
static bool parse_xid_print(const struct nvdrv_event *e, struct xid_report *r)
{
	const char *p = e->xid.fmt, *conv_start;
	__u64 val;
	int arg = 0, pci = 0;
	bool got_xid = false;

	memset(r, 0, sizeof(*r));
	while ((p = strchr(p, '%')) && arg < 4 + XID_SLOTS) {
		conv_start = p++;
		if (*p == '%') {
			p++;
			continue;
		}
		while (*p && strchr("0123456789.-+ #lhzjt", *p))
			p++;
		if (!*p)
			break;
		val = arg < 4 ? e->xid.regs[arg] : e->xid.slots[arg - 4];
		if (*p == 's') {
			const char *s = arg >= 4 ? e->xid.str[arg - 4] : "?";

			if (conv_start - e->xid.fmt >= 4 && !strncmp(conv_start - 4, "pid=", 4))
				r->pid = s;
			else if (conv_start - e->xid.fmt >= 5 && !strncmp(conv_start - 5, "name=", 5))
				r->name = s;
			else if (r->name)
				r->msg = s;
		} else if (conv_start - e->xid.fmt >= 3 && !strncmp(conv_start - 3, "): ", 3)) {
			r->xid = (__u32)val;
			got_xid = true;
		} else if (pci < 3 && !got_xid) {
			r->gpu |= pci == 0 ? ((__u32)val & 0xffff) << 16 : ((__u32)val & 0xff) << (pci == 1 ? 8 : 0);
			pci++;
		}
		p++;
		arg++;
	}
	return got_xid;
}

static void xid_count(const struct xid_report *r)
{
	struct xid_row *x = NULL;
	int i;

	for (i = 0; i < nr_xid_rows; i++)
		if (xid_rows[i].gpu == r->gpu && xid_rows[i].xid == r->xid)
			x = &xid_rows[i];
	if (!x) {
		if (nr_xid_rows == MAX_XIDS) {
			dropped_xids++;
			return;
		}
		x = &xid_rows[nr_xid_rows++];
		x->gpu = r->gpu;
		x->xid = r->xid;
	}
	x->count++;
	snprintf(x->pid, sizeof(x->pid), "%s", r->pid ? r->pid : "-");
	snprintf(x->name, sizeof(x->name), "%s", r->name ? r->name : "-");
	snprintf(x->msg, sizeof(x->msg), "%s", r->msg ? r->msg : "-");
}

/* ---- summaries ------------------------------------------------------------------ */

#define DELTA(now, was, field) ((now)->field - ((was) ? (was)->field : 0))

static int cmp_u32_pair(const void *a, const void *b)
{
	const __u32 *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

static int cmp_u32_quad(const void *a, const void *b)
{
	const __u32 *x = a, *y = b;
	int i;

	for (i = 0; i < 4; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

static const struct column device_cols[] = {
	{ "PID", "pid", -7, 0 },
	{ "COMM", "comm", -16, 0 },
	{ "DEVICE", "device", -16, 0 },
	{ "OPENS", "opens", 6, 0 },
	{ "OPEN_ERR", "open_errors", 8, 0 },
	{ "CLOSES", "closes", 6, 0 },
	{ "MMAPS", "mmaps", 6, 0 },
	{ "MMAP_BYTES", "mmap_bytes", 11, 0 },
	{ "MMAP_ERR", "mmap_errors", 8, 0 },
	{ "FAULTS", "faults", 7, 0 },
	{ "", "dev", 0, COL_JSON_ONLY },	/* major:minor */
	CGROUP_COLUMN,
};
static const struct table device_table = TABLE("device", device_cols);

static void print_devices(FILE *f, const struct map_snapshot *s)
{
	bool header = false;
	char name[64], num[32];
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct dev_key *k = snapshot_key(s, i);
		const struct dev_stats *now = snapshot_value(s, i);
		const struct dev_stats *was = map_snapshot_find(&prev_devs, k);

		if (!DELTA(now, was, opens) && !DELTA(now, was, closes) && !DELTA(now, was, mmaps) &&
		    !DELTA(now, was, faults))
			continue;
		if (!header) {
			table_header(f, &device_table);
			header = true;
		}
		snprintf(num, sizeof(num), "%u:%u", MAJOR(k->dev), MINOR(k->dev));
		table_row(f, &device_table, (struct cell[]){
			CELL_U(k->pid), CELL_S(now->comm), CELL_S(dev_name(k->dev, name, sizeof(name))),
			CELL_U(DELTA(now, was, opens)), CELL_U(DELTA(now, was, open_errors)),
			CELL_U(DELTA(now, was, closes)), CELL_U(DELTA(now, was, mmaps)),
			CELL_U(DELTA(now, was, mmap_bytes)), CELL_U(DELTA(now, was, mmap_errors)),
			CELL_U(DELTA(now, was, faults)), CELL_S(num), cell_cgroup(now->cgroup_id) });
	}
}

static const struct column ioctl_cols[] = {
	{ "PID", "pid", -7, 0 },
	{ "COMM", "comm", -16, 0 },
	{ "ESCAPE", "escape", -22, 0 },
	{ "NR", "esc", -5, 0 },
	{ "CALLS", "calls", 7, 0 },
	{ "XFER", "xfer", 5, 0 },
	{ "ERRORS", "errors", 6, 0 },
	{ "AVG", "lat_avg", 9, COL_TIME },
	{ "MAX", "lat_max", 9, COL_TIME },
	CGROUP_COLUMN,
};
static const struct table ioctl_table = TABLE("ioctl", ioctl_cols);
/* The histogram rows: named by escape. */
static const struct column ioctl_hist_cols[] = {
	{ "ESCAPE", "escape", 0, 0 },
	{ "NR", "esc", 0, 0 },
};
static const struct table ioctl_hist_table = TABLE("ioctl_hist", ioctl_hist_cols);

struct call_row {
	const struct call_key *k;
	const struct call_stats *now;
	unsigned long long calls;
	struct lat_hist lat;
};

/* Per process, the busiest escape first. */
static int cmp_call_row(const void *a, const void *b)
{
	const struct call_row *x = a, *y = b;

	if (x->k->pid != y->k->pid)
		return x->k->pid < y->k->pid ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return x->k->esc < y->k->esc ? -1 : x->k->esc > y->k->esc;
}

static void print_ioctls(FILE *f, const struct map_snapshot *s)
{
	struct lat_hist per_esc[256];
	bool seen[256] = {};
	struct call_row *rows;
	char buf[32], nr[8], title[64];
	size_t i, n = 0;
	int e;

	rows = calloc(s->n ? s->n : 1, sizeof(*rows));
	if (!rows)
		return;
	for (e = 0; e < 256; e++)
		lat_hist_reset(&per_esc[e]);
	for (i = 0; i < s->n; i++) {
		const struct call_key *k = snapshot_key(s, i);
		const struct call_stats *now = snapshot_value(s, i);
		const struct call_stats *was = map_snapshot_find(&prev_calls, k);

		if (!DELTA(now, was, calls))
			continue;
		rows[n].k = k;
		rows[n].now = now;
		rows[n].calls = DELTA(now, was, calls);
		lat_hist_delta(&rows[n].lat, &now->lat, was ? &was->lat : NULL);
		lat_hist_merge(&per_esc[k->esc & 0xff], &rows[n].lat);
		seen[k->esc & 0xff] = true;
		n++;
	}
	qsort(rows, n, sizeof(*rows), cmp_call_row);
	if (!n)
		text_printf(f, "no ioctls\n");
	else
		table_header(f, &ioctl_table);
	for (i = 0; i < n; i++) {
		const struct call_row *r = &rows[i];
		const struct call_stats *was = map_snapshot_find(&prev_calls, r->k);

		snprintf(nr, sizeof(nr), "0x%x", r->k->esc);
		table_row(f, &ioctl_table, (struct cell[]){
			CELL_U(r->k->pid), CELL_S(r->now->comm),
			CELL_S(escape_name(r->k->esc, buf, sizeof(buf))),
			json_output() ? CELL_U(r->k->esc) : CELL_S(nr), CELL_U(r->calls),
			CELL_U(DELTA(r->now, was, xfer)), CELL_U(DELTA(r->now, was, errors)),
			cell_hist_avg(&r->lat), CELL_U_IF(r->lat.count, r->lat.max),
			cell_cgroup(r->now->cgroup_id) });
	}
	free(rows);
	for (e = 0; e < 256; e++) {
		const char *name;

		if (!seen[e] || !per_esc[e].count)
			continue;
		name = escape_name(e, buf, sizeof(buf));
		snprintf(nr, sizeof(nr), "0x%x", e);
		snprintf(title, sizeof(title), "%s (%s) latency:", name, nr);
		table_lat_hist(f, &ioctl_hist_table,
			       (struct cell[]){ CELL_S(name), json_output() ? CELL_U(e) : CELL_S(nr) },
			       "latency", title, &per_esc[e], time_unit());
	}
}

static const struct column error_cols[] = {
	{ "PID", "pid", -7, 0 },
	{ "COMM", "comm", -16, 0 },
	{ "ESCAPE", "escape", -22, 0 },
	{ "", "esc", 0, COL_JSON_ONLY },
	{ "ERROR", "error", -10, 0 },
	{ "", "errno", 0, COL_JSON_ONLY },
	{ "COUNT", "count", 7, 0 },
	CGROUP_COLUMN,
};
static const struct table error_table = TABLE("ioctl_error", error_cols);

static void print_errors(FILE *f, const struct map_snapshot *s)
{
	bool header = false;
	char buf[32], ebuf[16];
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct err_key *k = snapshot_key(s, i);
		const struct err_stats *now = snapshot_value(s, i);
		const struct err_stats *was = map_snapshot_find(&prev_errs, k);

		if (!DELTA(now, was, count))
			continue;
		if (!header) {
			text_printf(f, "\n");
			table_header(f, &error_table);
			header = true;
		}
		table_row(f, &error_table, (struct cell[]){
			CELL_U(k->pid), CELL_S(now->comm), CELL_S(escape_name(k->esc, buf, sizeof(buf))),
			CELL_U(k->esc), CELL_S(errno_name(k->err, ebuf, sizeof(ebuf))), CELL_U(k->err),
			CELL_U(DELTA(now, was, count)), cell_cgroup(now->cgroup_id) });
	}
}

static const struct column rm_cols[] = {
	{ "PID", "pid", -7, 0 },
	{ "COMM", "comm", -16, 0 },
	{ "ESCAPE", "escape", -22, 0 },
	{ "", "esc", 0, COL_JSON_ONLY },
	{ "OBJECT", "object", -8, 0 },
	{ "STATUS", "status", -8, 0 },
	{ "COUNT", "count", 7, 0 },
	{ "STATUS_NAME", "status_name", -30, 0 },
	{ "OBJECT_NAME", "object_name", 0, 0 },
	CGROUP_COLUMN,
};
static const struct table rm_table = TABLE("rm", rm_cols);

static void print_rm(FILE *f, const struct map_snapshot *s)
{
	bool header = false;
	char buf[32], obj[16], st[16];
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct rm_key *k = snapshot_key(s, i);
		const struct rm_stats *now = snapshot_value(s, i);
		const struct rm_stats *was = map_snapshot_find(&prev_rm, k);
		const char *sname = status_name(k->status), *oname = object_name(k->esc, k->obj);

		if (!DELTA(now, was, count))
			continue;
		if (!header) {
			text_printf(f, "\n");
			table_header(f, &rm_table);
			header = true;
		}
		snprintf(obj, sizeof(obj), "0x%x", k->obj);
		snprintf(st, sizeof(st), "0x%x", k->status);
		table_row(f, &rm_table, (struct cell[]){
			CELL_U(k->pid), CELL_S(now->comm), CELL_S(escape_name(k->esc, buf, sizeof(buf))),
			CELL_U(k->esc),
			has_object(k->esc) ? (json_output() ? CELL_U(k->obj) : CELL_S(obj)) : CELL_NONE,
			json_output() ? CELL_U(k->status) : CELL_S(st), CELL_U(DELTA(now, was, count)),
			sname ? CELL_S(sname) : CELL_NONE, oname ? CELL_S(oname) : CELL_NONE,
			cell_cgroup(now->cgroup_id) });
	}
}

static const struct column irq_cols[] = {
	{ "GPU", "gpu", -12, 0 },
	{ "KIND", "kind", -5, 0 },
	{ "TOP", "top", 9, 0 },
	{ "RATE/s", "rate_per_s", 10, 0 },
	{ "BOTTOM", "bottom", 9, 0 },
	{ "T->B AVG", "top_to_bottom_avg", 13, COL_TIME },
	{ "T->B MAX", "top_to_bottom_max", 13, COL_TIME },
};
static const struct table irq_table = TABLE("interrupt", irq_cols);
static const struct table irq_hist_table = { "interrupt_hist", irq_cols, 2, false };

static void print_irqs(FILE *f, const struct map_snapshot *s, double secs)
{
	bool header = false;
	char gpu[32], title[80];
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct irq_key *k = snapshot_key(s, i);
		const struct irq_stats *now = snapshot_value(s, i);
		const struct irq_stats *was = map_snapshot_find(&prev_irqs, k);
		unsigned long long top = DELTA(now, was, top);
		struct lat_hist tb;

		if (!top && !DELTA(now, was, bottom))
			continue;
		if (!header) {
			text_printf(f, "\n");
			table_header(f, &irq_table);
			header = true;
		}
		lat_hist_delta(&tb, &now->top_bottom, was ? &was->top_bottom : NULL);
		gpu_name(k->gpu, gpu, sizeof(gpu));
		table_row(f, &irq_table, (struct cell[]){
			CELL_S(gpu), CELL_S(k->kind < NR_IRQ_KINDS ? irq_kinds[k->kind] : "?"), CELL_U(top),
			CELL_F(secs > 0 ? top / secs : 0.0, 1), CELL_U(DELTA(now, was, bottom)),
			cell_hist_avg(&tb), CELL_U_IF(tb.count, tb.max) });
		if (tb.count) {
			snprintf(title, sizeof(title), "%s %s top half -> bottom half:", gpu,
				 k->kind < NR_IRQ_KINDS ? irq_kinds[k->kind] : "?");
			table_lat_hist(f, &irq_hist_table, (struct cell[]){
				CELL_S(gpu), CELL_S(k->kind < NR_IRQ_KINDS ? irq_kinds[k->kind] : "?") },
				"top_to_bottom", title, &tb, time_unit());
		}
	}
}

static const struct column p2p_cols[] = {
	{ "PID", "pid", -7, 0 },
	{ "COMM", "comm", -16, 0 },
	{ "FUNCTION", "function", -31, 0 },	/* nvidia_p2p_get_pages_persistent */
	{ "CALLS", "calls", 7, 0 },
	{ "ERRORS", "errors", 7, 0 },
	{ "BYTES", "bytes", 14, 0 },
	CGROUP_COLUMN,
};
static const struct table p2p_table = TABLE("p2p", p2p_cols);

static void print_p2p(FILE *f, const struct map_snapshot *s)
{
	bool header = false;
	char fn[48];
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct p2p_key *k = snapshot_key(s, i);
		const struct p2p_stats *now = snapshot_value(s, i);
		const struct p2p_stats *was = map_snapshot_find(&prev_p2p, k);

		if (!DELTA(now, was, calls))
			continue;
		if (!header) {
			text_printf(f, "\n");
			table_header(f, &p2p_table);
			header = true;
		}
		snprintf(fn, sizeof(fn), "nvidia_p2p_%s", k->fn < NR_P2P_FNS ? p2p_fns[k->fn] : "?");
		table_row(f, &p2p_table, (struct cell[]){
			CELL_U(k->pid), CELL_S(now->comm), CELL_S(fn), CELL_U(DELTA(now, was, calls)),
			CELL_U(DELTA(now, was, errors)), CELL_U(DELTA(now, was, bytes)),
			cell_cgroup(now->cgroup_id) });
	}
}

static const struct column xid_cols[] = {
	{ "GPU", "gpu", -12, 0 },
	{ "XID", "xid", 4, 0 },
	{ "COUNT", "count", 6, 0 },
	{ "PID", "pid", -9, 0 },	/* the RM's string: "1234" or "'<unknown>'" */
	{ "NAME", "name", -16, 0 },
	{ "MEANING", "meaning", 0, 0 },
	{ "", "message", 0, COL_JSON_ONLY },
};
static const struct table xid_table = TABLE("xid", xid_cols);

static void print_xids(FILE *f)
{
	bool header = false;
	char gpu[32];
	int i;

	for (i = 0; i < nr_xid_rows; i++) {
		struct xid_row *x = &xid_rows[i];
		const char *meaning = LOOKUP(xids, x->xid);

		if (x->count == x->prev)
			continue;
		if (!header) {
			text_printf(f, "\n");
			table_header(f, &xid_table);
			header = true;
		}
		table_row(f, &xid_table, (struct cell[]){
			CELL_S(gpu_name(x->gpu, gpu, sizeof(gpu))), CELL_U(x->xid),
			CELL_U(x->count - x->prev), CELL_S(x->pid), CELL_S(x->name),
			meaning ? CELL_S(meaning) : CELL_NONE, CELL_S(x->msg) });
		x->prev = x->count;
	}
}

static int print_summary(void *ctx)
{
	struct bpf_map *const maps[NR_SNAPS] = {
		skel->maps.calls, skel->maps.rm_rows, skel->maps.err_rows, skel->maps.dev_rows,
		skel->maps.irq_rows, skel->maps.p2p_rows,
	};
	struct map_snapshot now[NR_SNAPS];
	unsigned long long t = monotonic_ns();
	FILE *f = summary_stream();
	int err;

	(void)ctx;
	err = map_snapshot_all(maps, now, NR_SNAPS);
	if (err) {
		fprintf(stderr, "nvdrv: failed to read maps: %s\n", strerror(-err));
		return err;
	}
	map_snapshot_sort(&now[S_RM], cmp_u32_quad);
	map_snapshot_sort(&now[S_ERRS], cmp_u32_quad);
	map_snapshot_sort(&now[S_DEVS], cmp_u32_pair);
	map_snapshot_sort(&now[S_IRQS], cmp_u32_pair);
	map_snapshot_sort(&now[S_P2P], cmp_u32_pair);

	summary_begin(f);
	print_ioctls(f, &now[S_CALLS]);
	print_errors(f, &now[S_ERRS]);
	print_rm(f, &now[S_RM]);
	if (now[S_DEVS].n)
		text_printf(f, "\n");
	print_devices(f, &now[S_DEVS]);
	print_irqs(f, &now[S_IRQS], (t - last_summary_ns) / 1e9);
	print_p2p(f, &now[S_P2P]);
	print_xids(f);
	fflush(f);

	map_snapshot_keep(prev, now, NR_SNAPS);
	last_summary_ns = t;
	return 0;
}

/* ---- -e ------------------------------------------------------------------------ */

static const char *const event_names[NR_EVENT_TYPES] = {
	[EV_OPEN] = "OPEN", [EV_CLOSE] = "CLOSE", [EV_IOCTL] = "IOCTL", [EV_MMAP] = "MMAP",
	[EV_FAULT] = "FAULT", [EV_ISR] = "ISR", [EV_BH] = "BH", [EV_P2P] = "P2P",
	[EV_XID_PRINT] = "XID", [EV_XID_LOG] = "XID",
};

/* The DETAIL text holds what the JSON fields after it hold, for grep. */
static const struct column event_cols[] = {
	{ "TIME(s)", "time_s", -11, 0 },
	{ "EVENT", "event", -6, 0 },
	{ "PID", "pid", -7, 0 },
	{ "COMM", "comm", -16, 0 },
	{ "DETAIL", "", 0, COL_TEXT_ONLY },
	{ "", "device", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "escape", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "esc", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "xfer", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "size", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "object", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "status", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "status_name", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "ret", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "error", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "bytes", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "lat", 0, COL_JSON_ONLY | COL_SPARSE | COL_TIME },
	{ "", "gpu", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "kind", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "irq", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "function", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "va", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "xid", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "xid_pid", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "xid_name", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "meaning", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "message", 0, COL_JSON_ONLY | COL_SPARSE },
};
static const struct table event_table = EVENT_TABLE("event", event_cols);

enum {
	F_DEVICE = 5, F_ESCAPE, F_ESC, F_XFER, F_SIZE, F_OBJECT, F_STATUS, F_STATUS_NAME, F_RET,
	F_ERROR, F_BYTES, F_LAT, F_GPU, F_KIND, F_IRQ, F_FUNCTION, F_VA, F_XID, F_XID_PID,
	F_XID_NAME, F_MEANING, F_MESSAGE, NR_F,
};

/* "ret=-22 EINVAL" or "ret=0" into the detail text and the cells. */
static int put_ret(char *d, size_t size, struct cell *c, long long ret, char *ebuf, size_t esize)
{
	c[F_RET] = CELL_I(ret);
	if (ret < 0 && ret > -4096) {
		c[F_ERROR] = CELL_S(errno_name(-ret, ebuf, esize));
		return snprintf(d, size, " ret=%lld %s", ret, c[F_ERROR].s);
	}
	return snprintf(d, size, " ret=%lld", ret);
}

static int handle_event(void *ctx, void *data, size_t size)
{
	const struct nvdrv_event *e = data;
	char detail[320], dev[64], esc[32], ebuf[16], gpu[32], fn[48];
	struct xid_report xr;
	struct cell c[NR_F];
	const char *sname, *meaning;
	size_t len = 0;
	int i;

	(void)ctx;
	if (size < sizeof(*e) || e->type >= NR_EVENT_TYPES)
		return 0;
	/* Xids are counted in every mode. */
	if (e->type == EV_XID_PRINT) {
		if (!parse_xid_print(e, &xr))
			return 0;
		last_print.tid = e->tid;
		last_print.xid = xr.xid;
		last_print.matched = false;
		xid_count(&xr);
	} else if (e->type == EV_XID_LOG) {
		/* nv_log_error after the thread's nv_printf of the same Xid: counted. */
		if (last_print.tid == e->tid && last_print.xid == e->xlog.xid && !last_print.matched) {
			last_print.matched = true;
			return 0;
		}
		memset(&xr, 0, sizeof(xr));
		xr.gpu = e->xlog.gpu;
		xr.xid = e->xlog.xid;
		xid_count(&xr);
	}
	if (!env.events)
		return 0;

	for (i = 0; i < NR_F; i++)
		c[i] = CELL_NONE;
	detail[0] = '\0';
	switch (e->type) {
	case EV_OPEN:
	case EV_CLOSE:
	case EV_MMAP:
	case EV_FAULT:
		c[F_DEVICE] = CELL_S(dev_name(e->file.dev, dev, sizeof(dev)));
		len = snprintf(detail, sizeof(detail), "dev=%s", c[F_DEVICE].s);
		if (e->type == EV_MMAP) {
			c[F_BYTES] = CELL_U(e->file.bytes);
			len += snprintf(detail + len, sizeof(detail) - len, " bytes=%llu",
					(unsigned long long)e->file.bytes);
		}
		if (e->type == EV_OPEN || e->type == EV_MMAP) {
			len += put_ret(detail + len, sizeof(detail) - len, c, e->file.ret, ebuf, sizeof(ebuf));
			c[F_LAT] = CELL_U(e->file.lat);
			snprintf(detail + len, sizeof(detail) - len, " lat=%llu%s",
				 (unsigned long long)e->file.lat, common_env.msecs ? "ms" : "us");
		}
		break;
	case EV_IOCTL:
		c[F_DEVICE] = CELL_S(dev_name(e->ioctl.dev, dev, sizeof(dev)));
		c[F_ESCAPE] = CELL_S(escape_name(e->ioctl.esc, esc, sizeof(esc)));
		c[F_ESC] = CELL_U(e->ioctl.esc);
		c[F_XFER] = CELL_B(e->ioctl.xfer);
		c[F_SIZE] = CELL_U(e->ioctl.size);
		len = snprintf(detail, sizeof(detail), "esc=%s(0x%x)%s size=%u", c[F_ESCAPE].s,
			       e->ioctl.esc, e->ioctl.xfer ? " xfer" : "", e->ioctl.size);
		if (e->ioctl.has_obj && has_object(e->ioctl.esc)) {
			c[F_OBJECT] = CELL_U(e->ioctl.obj);
			len += snprintf(detail + len, sizeof(detail) - len, " %s=0x%x",
					e->ioctl.esc == 0x2b ? "class" : "cmd", e->ioctl.obj);
		}
		len += put_ret(detail + len, sizeof(detail) - len, c, e->ioctl.ret, ebuf, sizeof(ebuf));
		if (e->ioctl.has_status) {
			sname = status_name(e->ioctl.status);
			c[F_STATUS] = CELL_U(e->ioctl.status);
			if (sname)
				c[F_STATUS_NAME] = CELL_S(sname);
			len += snprintf(detail + len, sizeof(detail) - len, " status=0x%x%s%s",
					e->ioctl.status, sname ? " " : "", sname ? sname : "");
		}
		c[F_LAT] = CELL_U(e->ioctl.lat);
		snprintf(detail + len, sizeof(detail) - len, " lat=%llu%s",
			 (unsigned long long)e->ioctl.lat, common_env.msecs ? "ms" : "us");
		break;
	case EV_ISR:
	case EV_BH:
		c[F_GPU] = CELL_S(gpu_name(e->irq.gpu, gpu, sizeof(gpu)));
		c[F_KIND] = CELL_S(e->type == EV_ISR ? (e->irq.kind < NR_IRQ_KINDS ? irq_kinds[e->irq.kind] : "?")
				   : (e->irq.kind < NR_BH_KINDS ? bh_kinds[e->irq.kind] : "?"));
		c[F_IRQ] = CELL_I((int)e->irq.irq);
		len = snprintf(detail, sizeof(detail), "gpu=%s kind=%s irq=%d", gpu, c[F_KIND].s,
			       (int)e->irq.irq);
		if (e->type == EV_BH && e->irq.lat) {
			c[F_LAT] = CELL_U(e->irq.lat);
			snprintf(detail + len, sizeof(detail) - len, " top_to_bottom=%llu%s",
				 (unsigned long long)e->irq.lat, common_env.msecs ? "ms" : "us");
		}
		break;
	case EV_P2P:
		snprintf(fn, sizeof(fn), "nvidia_p2p_%s", e->p2p.fn < NR_P2P_FNS ? p2p_fns[e->p2p.fn] : "?");
		c[F_FUNCTION] = CELL_S(fn);
		c[F_BYTES] = CELL_U(e->p2p.bytes);
		len = snprintf(detail, sizeof(detail), "fn=%s bytes=%llu", fn,
			       (unsigned long long)e->p2p.bytes);
		if (e->p2p.va) {
			c[F_VA] = CELL_U(e->p2p.va);
			len += snprintf(detail + len, sizeof(detail) - len, " va=0x%llx",
					(unsigned long long)e->p2p.va);
		}
		put_ret(detail + len, sizeof(detail) - len, c, e->p2p.ret, ebuf, sizeof(ebuf));
		break;
	default:	/* an Xid, counted above */
		meaning = LOOKUP(xids, xr.xid);
		c[F_GPU] = CELL_S(gpu_name(xr.gpu, gpu, sizeof(gpu)));
		c[F_XID] = CELL_U(xr.xid);
		if (xr.pid)
			c[F_XID_PID] = CELL_S(xr.pid);
		if (xr.name)
			c[F_XID_NAME] = CELL_S(xr.name);
		if (meaning)
			c[F_MEANING] = CELL_S(meaning);
		if (xr.msg)
			c[F_MESSAGE] = CELL_S(xr.msg);
		snprintf(detail, sizeof(detail), "gpu=%s xid=%u (%s) pid=%s name=%s msg=%s", gpu, xr.xid,
			 meaning ? meaning : "?", xr.pid ? xr.pid : "-", xr.name ? xr.name : "-",
			 xr.msg ? xr.msg : "-");
	}
	c[0] = CELL_F((e->ts_ns - start_ns) / 1e9, 6);
	c[1] = CELL_S(event_names[e->type]);
	c[2] = CELL_U(e->pid);
	c[3] = CELL_S(e->comm);
	c[4] = CELL_S(detail);
	table_event(stdout, &event_table, c, e->ts_ns);
	return 0;
}

/* ---- the driver's functions, by generation --------------------------------------- */

enum prog_id {
	P_OPEN, P_OPEN_RET, P_CLOSE, P_IOCTL, P_IOCTL_RET, P_MMAP, P_MMAP_RET, P_FAULT,
	P_ISR, P_ISR_MSIX, P_ISR_MSIX_RET, P_BH, P_BH_UNLOCKED, P_P2P, P_P2P_RET, P_PRINTF,
	P_LOG_ERROR, NR_PROGS, P_NONE = -1,
};

static struct bpf_program *prog_of(enum prog_id id)
{
	struct bpf_program *progs[NR_PROGS] = {
		skel->progs.open_entry, skel->progs.open_return, skel->progs.close_entry,
		skel->progs.ioctl_entry, skel->progs.ioctl_return, skel->progs.mmap_entry,
		skel->progs.mmap_return, skel->progs.fault_entry, skel->progs.isr_entry,
		skel->progs.isr_msix_entry, skel->progs.isr_msix_return, skel->progs.bh_entry,
		skel->progs.bh_unlocked_entry, skel->progs.p2p_entry, skel->progs.p2p_return,
		skel->progs.printf_entry, skel->progs.log_error_entry,
	};

	return progs[id];
}

/*
 * One role: the first of its candidate functions that the module has, with
 * a kprobe and maybe a kretprobe; `shows` what is lost without it (NULL:
 * nothing, another role covers it).
 */
static struct hook {
	const char *const fn[3];
	enum prog_id entry, ret;
	__u64 cookie;
	const char *shows;
	const char *found;	/* the function attached */
} hooks[] = {
	{ { "nvidia_frontend_open", "nvidia_open" }, P_OPEN, P_OPEN_RET, 0, "opens", NULL },
	{ { "nvidia_frontend_close", "nvidia_close" }, P_CLOSE, P_NONE, 0, "closes", NULL },
	{ { "nvidia_frontend_unlocked_ioctl", "nvidia_unlocked_ioctl" }, P_IOCTL, P_IOCTL_RET, 0,
	  "ioctls", NULL },
	/* 535's 32-bit entry; 550 serves it with nvidia_unlocked_ioctl. */
	{ { "nvidia_frontend_compat_ioctl" }, P_IOCTL, P_IOCTL_RET, 0, NULL, NULL },
	{ { "nvidia_frontend_mmap", "nvidia_mmap" }, P_MMAP, P_MMAP_RET, 0, "mmaps", NULL },
	{ { "nvidia_fault" }, P_FAULT, P_NONE, 0, "faults", NULL },
	{ { "nvidia_isr" }, P_ISR, P_NONE, 0, "interrupts", NULL },
	{ { "nvidia_isr_msix" }, P_ISR_MSIX, P_ISR_MSIX_RET, 0, "MSI-X interrupts", NULL },
	{ { "nvidia_isr_kthread_bh" }, P_BH, P_NONE, BH_KTHREAD, "bottom halves", NULL },
	{ { "nvidia_isr_msix_kthread_bh" }, P_BH, P_NONE, BH_MSIX_KTHREAD, "MSI-X bottom halves", NULL },
	{ { "nvidia_isr_bh_unlocked" }, P_BH_UNLOCKED, P_NONE, BH_UNLOCKED, "unlocked bottom halves", NULL },
	{ { "nvidia_p2p_get_pages" }, P_P2P, P_P2P_RET, P2P_GET_PAGES, "p2p get_pages", NULL },
	{ { "nvidia_p2p_get_pages_persistent" }, P_P2P, P_P2P_RET, P2P_GET_PAGES_PERSISTENT,
	  "persistent p2p get_pages", NULL },
	{ { "nvidia_p2p_put_pages" }, P_P2P, P_P2P_RET, P2P_PUT_PAGES, "p2p put_pages", NULL },
	{ { "nvidia_p2p_put_pages_persistent" }, P_P2P, P_P2P_RET, P2P_PUT_PAGES_PERSISTENT,
	  "persistent p2p put_pages", NULL },
	{ { "nvidia_p2p_dma_map_pages" }, P_P2P, P_P2P_RET, P2P_DMA_MAP_PAGES, "p2p dma_map_pages", NULL },
	{ { "nvidia_p2p_dma_unmap_pages" }, P_P2P, P_P2P_RET, P2P_DMA_UNMAP_PAGES,
	  "p2p dma_unmap_pages", NULL },
	{ { "nv_printf" }, P_PRINTF, P_NONE, 0, "the pid and name of Xids", NULL },
	{ { "nv_log_error" }, P_LOG_ERROR, P_NONE, 0, "Xids not printed", NULL },
};
#define NR_HOOKS (sizeof(hooks) / sizeof(hooks[0]))

static struct bpf_link *links[NR_HOOKS * 2];
static int nr_links;

/* Choose each role's function; programs no role uses are not loaded. */
static void resolve_hooks(const struct ksyms_module *ksyms)
{
	bool used[NR_PROGS] = {};
	size_t i, j;
	int p;

	for (i = 0; i < NR_HOOKS; i++) {
		for (j = 0; j < 3 && hooks[i].fn[j] && !hooks[i].found; j++)
			if (ksyms_module_has(ksyms, hooks[i].fn[j]))
				hooks[i].found = hooks[i].fn[j];
		if (!hooks[i].found)
			continue;
		used[hooks[i].entry] = true;
		if (hooks[i].ret != P_NONE)
			used[hooks[i].ret] = true;
	}
	for (p = 0; p < NR_PROGS; p++)
		bpf_program__set_autoload(prog_of(p), used[p]);
}

static int attach_one(enum prog_id id, const char *fn, bool retprobe, __u64 cookie)
{
	LIBBPF_OPTS(bpf_kprobe_opts, o, .retprobe = retprobe, .bpf_cookie = cookie);
	struct bpf_link *l = bpf_program__attach_kprobe_opts(prog_of(id), fn, &o);

	if (!l)
		return -errno;
	links[nr_links++] = l;
	return 0;
}

/* Attach every role found; the ones absent or refused said in one line. */
static int attach_hooks(void)
{
	char missing[512] = "", lost[512] = "";
	size_t i, lm = 0, ll = 0;
	int err, attached = 0;

	for (i = 0; i < NR_HOOKS; i++) {
		struct hook *h = &hooks[i];

		err = 0;
		if (h->found) {
			err = attach_one(h->entry, h->found, false, h->cookie);
			if (!err && h->ret != P_NONE)
				err = attach_one(h->ret, h->found, true, h->cookie);
			if (!err) {
				attached++;
				continue;
			}
		}
		if (!h->shows)
			continue;
		lm += snprintf(missing + lm, lm < sizeof(missing) ? sizeof(missing) - lm : 0, "%s%s%s",
			       lm ? ", " : "", h->found ? h->found : h->fn[0],
			       err ? " (refused a kprobe)" : "");
		ll += snprintf(lost + ll, ll < sizeof(lost) ? sizeof(lost) - ll : 0, "%s%s",
			       ll ? ", " : "", h->shows);
	}
	if (!attached) {
		fprintf(stderr, "nvdrv: no function of nvidia.ko takes a kprobe: %s\n", missing);
		return -ENOENT;
	}
	if (lm)
		fprintf(stderr, "nvdrv: nvidia.ko has no %s: not shown: %s\n", missing, lost);
	return 0;
}

/* "535.261.03" from /sys/module/nvidia/version. */
static const char *driver_version(void)
{
	static char v[64] = "";
	FILE *f = fopen("/sys/module/nvidia/version", "r");

	if (f) {
		if (fgets(v, sizeof(v), f))
			v[strcspn(v, "\n")] = '\0';
		fclose(f);
	}
	return v;
}

/* What the kernel side had no room for: never silent. */
static void report_dropped(void)
{
	const struct nvdrv_bpf__bss *bss = skel->bss;

	if (bss->dropped_rows)
		report_lost("rows", bss->dropped_rows, 0, "%llu calls beyond the tables' rows not "
			    "counted", (unsigned long long)bss->dropped_rows);
	if (bss->dropped_inflight)
		report_lost("inflight", bss->dropped_inflight, MAX_INFLIGHT, "%llu calls not followed "
			    "to their return (more than %d in flight)",
			    (unsigned long long)bss->dropped_inflight, MAX_INFLIGHT);
	if (dropped_xids)
		report_lost("xids", dropped_xids, MAX_XIDS, "%llu Xids beyond %d (GPU, Xid) rows not "
			    "counted", dropped_xids, MAX_XIDS);
}

int main(int argc, char **argv)
{
	static const struct argp argp = {
		.options = opts,
		.parser = parse_arg,
		.args_doc = "[interval [count]]",
		.doc = doc,
		.children = common_argp_child,
	};
	struct ksyms_module *ksyms;
	struct trace_loop loop = {};
	int err;

	if (!tool_init(&argp, argc, argv, TOOL_TRACEFS))
		return 1;
	ksyms = ksyms_module_load("nvidia");
	if (!ksyms) {
		fprintf(stderr, "nvdrv: module nvidia is not loaded (no nvidia.ko functions in "
			"/proc/kallsyms): 'modprobe nvidia'\n");
		return 1;
	}

	skel = nvdrv_bpf__open();
	if (!skel) {
		report_bpf_error("open BPF object", -errno);
		ksyms_module_free(ksyms);
		return 1;
	}
	tool_set_rodata(skel, env.events);
	/* Without -e only Xids come through the ring buffer. */
	bpf_map__set_max_entries(skel->maps.events, env.events ? 4 << 20 : 64 << 10);
	resolve_hooks(ksyms);
	ksyms_module_free(ksyms);

	err = tool_load(skel->skeleton, skel->maps.cgroup_map);
	if (err)
		goto cleanup;
	/* Before attaching: an event that comes while the others attach is not before it. */
	start_ns = last_summary_ns = monotonic_ns();
	err = attach_hooks();
	if (err)
		goto cleanup;

	loop = TOOL_TRACE_LOOP(skel);
	loop.events = skel->maps.events;	/* Xids come through it without -e too */
	loop.on_event = handle_event;
	err = tool_trace(&loop, env.events ? &event_table : NULL, print_summary,
			 "Tracing nvidia.ko %s", driver_version());
	report_dropped();
cleanup:
	trace_loop_free(&loop);
	while (nr_links)
		bpf_link__destroy(links[--nr_links]);
	map_snapshot_free_all(prev, NR_SNAPS);
	nvdrv_bpf__destroy(skel);
	return err != 0;
}
