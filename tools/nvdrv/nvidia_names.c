// SPDX-License-Identifier: GPL-2.0
/*
 * The names nvdrv prints (nvidia_names.h). Each table is sorted by value,
 * as in the header it comes from, so a newer driver's header diffs against
 * it line by line. The driver source meant is Debian's nvidia-kernel-source
 * (what tests/nvidia/build builds: modules/nvidia-kernel/common/inc/ in its
 * tarball), or, for what that package ships only as the resource manager's
 * binary, NVIDIA's open-gpu-kernel-modules at the same version. Checked
 * against 535.261.03 (6.1's) and 550.163.01 (sid's).
 */
#include <stdio.h>
#include <string.h>

#include "nvidia_names.h"

#define NR(table) (sizeof(table) / sizeof(table[0]))

static const char *lookup(const struct nv_name *t, size_t n, unsigned int value)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].value == value)
			return t[i].name;
	return NULL;
}

/*
 * NV_ESC_* without the prefix: the resource manager's (open-gpu-kernel-
 * modules: src/nvidia/arch/nvalloc/unix/include/nv_escape.h), then the
 * interface layer's (common/inc/nv-ioctl-numbers.h, NV_IOCTL_BASE 200 + n,
 * and nv-ioctl-numa.h; WAIT_OPEN_COMPLETE is 550's). The same numbers in
 * 535 and 550.
 */
static const struct nv_name escapes[] = {
	{ 0x27, "RM_ALLOC_MEMORY" }, { 0x28, "RM_ALLOC_OBJECT" }, { 0x29, "RM_FREE" },
	{ NV_ESC_RM_CONTROL, "RM_CONTROL" }, { NV_ESC_RM_ALLOC, "RM_ALLOC" }, { 0x32, "RM_CONFIG_GET" },
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
	{ NV_ESC_IOCTL_XFER_CMD, "IOCTL_XFER_CMD" }, { 0xd4, "ATTACH_GPUS_TO_FD" },
	{ 0xd5, "QUERY_DEVICE_INTR" }, { 0xd6, "SYS_PARAMS" }, { 0xd7, "NUMA_INFO" },
	{ 0xd8, "SET_NUMA_STATUS" }, { 0xd9, "EXPORT_TO_DMABUF_FD" },
	{ 0xda, "WAIT_OPEN_COMPLETE" },
};

/*
 * NV_STATUS codes (common/inc/nvstatuscodes.h): 550's, a superset of 535's,
 * which lacks 0x7c, 0x7d, 0x81 and 0x82.
 */
/* Made by tests/nvidia/gen-nvidia-names from 550.163.01's nvstatuscodes.h. */
static const struct nv_name statuses[] = {
	{ 0x0, "NV_OK" },
	{ 0x1, "NV_ERR_BROKEN_FB" },
	{ 0x2, "NV_ERR_BUFFER_TOO_SMALL" },
	{ 0x3, "NV_ERR_BUSY_RETRY" },
	{ 0x4, "NV_ERR_CALLBACK_NOT_SCHEDULED" },
	{ 0x5, "NV_ERR_CARD_NOT_PRESENT" },
	{ 0x6, "NV_ERR_CYCLE_DETECTED" },
	{ 0x7, "NV_ERR_DMA_IN_USE" },
	{ 0x8, "NV_ERR_DMA_MEM_NOT_LOCKED" },
	{ 0x9, "NV_ERR_DMA_MEM_NOT_UNLOCKED" },
	{ 0xa, "NV_ERR_DUAL_LINK_INUSE" },
	{ 0xb, "NV_ERR_ECC_ERROR" },
	{ 0xc, "NV_ERR_FIFO_BAD_ACCESS" },
	{ 0xd, "NV_ERR_FREQ_NOT_SUPPORTED" },
	{ 0xe, "NV_ERR_GPU_DMA_NOT_INITIALIZED" },
	{ 0xf, "NV_ERR_GPU_IS_LOST" },
	{ 0x10, "NV_ERR_GPU_IN_FULLCHIP_RESET" },
	{ 0x11, "NV_ERR_GPU_NOT_FULL_POWER" },
	{ 0x12, "NV_ERR_GPU_UUID_NOT_FOUND" },
	{ 0x13, "NV_ERR_HOT_SWITCH" },
	{ 0x14, "NV_ERR_I2C_ERROR" },
	{ 0x15, "NV_ERR_I2C_SPEED_TOO_HIGH" },
	{ 0x16, "NV_ERR_ILLEGAL_ACTION" },
	{ 0x17, "NV_ERR_IN_USE" },
	{ 0x18, "NV_ERR_INFLATE_COMPRESSED_DATA_FAILED" },
	{ 0x19, "NV_ERR_INSERT_DUPLICATE_NAME" },
	{ 0x1a, "NV_ERR_INSUFFICIENT_RESOURCES" },
	{ 0x1b, "NV_ERR_INSUFFICIENT_PERMISSIONS" },
	{ 0x1c, "NV_ERR_INSUFFICIENT_POWER" },
	{ 0x1d, "NV_ERR_INVALID_ACCESS_TYPE" },
	{ 0x1e, "NV_ERR_INVALID_ADDRESS" },
	{ 0x1f, "NV_ERR_INVALID_ARGUMENT" },
	{ 0x20, "NV_ERR_INVALID_BASE" },
	{ 0x21, "NV_ERR_INVALID_CHANNEL" },
	{ 0x22, "NV_ERR_INVALID_CLASS" },
	{ 0x23, "NV_ERR_INVALID_CLIENT" },
	{ 0x24, "NV_ERR_INVALID_COMMAND" },
	{ 0x25, "NV_ERR_INVALID_DATA" },
	{ 0x26, "NV_ERR_INVALID_DEVICE" },
	{ 0x27, "NV_ERR_INVALID_DMA_SPECIFIER" },
	{ 0x28, "NV_ERR_INVALID_EVENT" },
	{ 0x29, "NV_ERR_INVALID_FLAGS" },
	{ 0x2a, "NV_ERR_INVALID_FUNCTION" },
	{ 0x2b, "NV_ERR_INVALID_HEAP" },
	{ 0x2c, "NV_ERR_INVALID_INDEX" },
	{ 0x2d, "NV_ERR_INVALID_IRQ_LEVEL" },
	{ 0x2e, "NV_ERR_INVALID_LIMIT" },
	{ 0x2f, "NV_ERR_INVALID_LOCK_STATE" },
	{ 0x30, "NV_ERR_INVALID_METHOD" },
	{ 0x31, "NV_ERR_INVALID_OBJECT" },
	{ 0x32, "NV_ERR_INVALID_OBJECT_BUFFER" },
	{ 0x33, "NV_ERR_INVALID_OBJECT_HANDLE" },
	{ 0x34, "NV_ERR_INVALID_OBJECT_NEW" },
	{ 0x35, "NV_ERR_INVALID_OBJECT_OLD" },
	{ 0x36, "NV_ERR_INVALID_OBJECT_PARENT" },
	{ 0x37, "NV_ERR_INVALID_OFFSET" },
	{ 0x38, "NV_ERR_INVALID_OPERATION" },
	{ 0x39, "NV_ERR_INVALID_OWNER" },
	{ 0x3a, "NV_ERR_INVALID_PARAM_STRUCT" },
	{ 0x3b, "NV_ERR_INVALID_PARAMETER" },
	{ 0x3c, "NV_ERR_INVALID_PATH" },
	{ 0x3d, "NV_ERR_INVALID_POINTER" },
	{ 0x3e, "NV_ERR_INVALID_REGISTRY_KEY" },
	{ 0x3f, "NV_ERR_INVALID_REQUEST" },
	{ 0x40, "NV_ERR_INVALID_STATE" },
	{ 0x41, "NV_ERR_INVALID_STRING_LENGTH" },
	{ 0x42, "NV_ERR_INVALID_READ" },
	{ 0x43, "NV_ERR_INVALID_WRITE" },
	{ 0x44, "NV_ERR_INVALID_XLATE" },
	{ 0x45, "NV_ERR_IRQ_NOT_FIRING" },
	{ 0x46, "NV_ERR_IRQ_EDGE_TRIGGERED" },
	{ 0x47, "NV_ERR_MEMORY_TRAINING_FAILED" },
	{ 0x48, "NV_ERR_MISMATCHED_SLAVE" },
	{ 0x49, "NV_ERR_MISMATCHED_TARGET" },
	{ 0x4a, "NV_ERR_MISSING_TABLE_ENTRY" },
	{ 0x4b, "NV_ERR_MODULE_LOAD_FAILED" },
	{ 0x4c, "NV_ERR_MORE_DATA_AVAILABLE" },
	{ 0x4d, "NV_ERR_MORE_PROCESSING_REQUIRED" },
	{ 0x4e, "NV_ERR_MULTIPLE_MEMORY_TYPES" },
	{ 0x4f, "NV_ERR_NO_FREE_FIFOS" },
	{ 0x50, "NV_ERR_NO_INTR_PENDING" },
	{ 0x51, "NV_ERR_NO_MEMORY" },
	{ 0x52, "NV_ERR_NO_SUCH_DOMAIN" },
	{ 0x53, "NV_ERR_NO_VALID_PATH" },
	{ 0x54, "NV_ERR_NOT_COMPATIBLE" },
	{ 0x55, "NV_ERR_NOT_READY" },
	{ 0x56, "NV_ERR_NOT_SUPPORTED" },
	{ 0x57, "NV_ERR_OBJECT_NOT_FOUND" },
	{ 0x58, "NV_ERR_OBJECT_TYPE_MISMATCH" },
	{ 0x59, "NV_ERR_OPERATING_SYSTEM" },
	{ 0x5a, "NV_ERR_OTHER_DEVICE_FOUND" },
	{ 0x5b, "NV_ERR_OUT_OF_RANGE" },
	{ 0x5c, "NV_ERR_OVERLAPPING_UVM_COMMIT" },
	{ 0x5d, "NV_ERR_PAGE_TABLE_NOT_AVAIL" },
	{ 0x5e, "NV_ERR_PID_NOT_FOUND" },
	{ 0x5f, "NV_ERR_PROTECTION_FAULT" },
	{ 0x60, "NV_ERR_RC_ERROR" },
	{ 0x61, "NV_ERR_REJECTED_VBIOS" },
	{ 0x62, "NV_ERR_RESET_REQUIRED" },
	{ 0x63, "NV_ERR_STATE_IN_USE" },
	{ 0x64, "NV_ERR_SIGNAL_PENDING" },
	{ 0x65, "NV_ERR_TIMEOUT" },
	{ 0x66, "NV_ERR_TIMEOUT_RETRY" },
	{ 0x67, "NV_ERR_TOO_MANY_PRIMARIES" },
	{ 0x68, "NV_ERR_UVM_ADDRESS_IN_USE" },
	{ 0x69, "NV_ERR_MAX_SESSION_LIMIT_REACHED" },
	{ 0x6a, "NV_ERR_LIB_RM_VERSION_MISMATCH" },
	{ 0x6b, "NV_ERR_PRIV_SEC_VIOLATION" },
	{ 0x6c, "NV_ERR_GPU_IN_DEBUG_MODE" },
	{ 0x6d, "NV_ERR_FEATURE_NOT_ENABLED" },
	{ 0x6e, "NV_ERR_RESOURCE_LOST" },
	{ 0x6f, "NV_ERR_PMU_NOT_READY" },
	{ 0x70, "NV_ERR_FLCN_ERROR" },
	{ 0x71, "NV_ERR_FATAL_ERROR" },
	{ 0x72, "NV_ERR_MEMORY_ERROR" },
	{ 0x73, "NV_ERR_INVALID_LICENSE" },
	{ 0x74, "NV_ERR_NVLINK_INIT_ERROR" },
	{ 0x75, "NV_ERR_NVLINK_MINION_ERROR" },
	{ 0x76, "NV_ERR_NVLINK_CLOCK_ERROR" },
	{ 0x77, "NV_ERR_NVLINK_TRAINING_ERROR" },
	{ 0x78, "NV_ERR_NVLINK_CONFIGURATION_ERROR" },
	{ 0x79, "NV_ERR_RISCV_ERROR" },
	{ 0x7a, "NV_ERR_FABRIC_MANAGER_NOT_PRESENT" },
	{ 0x7b, "NV_ERR_ALREADY_SIGNALLED" },
	{ 0x7c, "NV_ERR_QUEUE_TASK_SLOT_NOT_AVAILABLE" },
	{ 0x7d, "NV_ERR_KEY_ROTATION_IN_PROGRESS" },
	{ 0x81, "NV_ERR_NVSWITCH_FABRIC_NOT_READY" },
	{ 0x82, "NV_ERR_NVSWITCH_FABRIC_FAILURE" },
	{ 0xffff, "NV_ERR_GENERIC" },
	{ 0x10001, "NV_WARN_HOT_SWITCH" },
	{ 0x10002, "NV_WARN_INCORRECT_PERFMON_DATA" },
	{ 0x10003, "NV_WARN_MISMATCHED_SLAVE" },
	{ 0x10004, "NV_WARN_MISMATCHED_TARGET" },
	{ 0x10005, "NV_WARN_MORE_PROCESSING_REQUIRED" },
	{ 0x10006, "NV_WARN_NOTHING_TO_DO" },
	{ 0x10007, "NV_WARN_NULL_OBJECT" },
	{ 0x10008, "NV_WARN_OUT_OF_RANGE" },
};

/*
 * RM classes a client allocates first (open-gpu-kernel-modules:
 * src/common/sdk/nvidia/inc/class/cl*.h: cl0000.h NV01_ROOT, cl0041.h
 * NV01_ROOT_CLIENT, cl0080.h NV01_DEVICE_0, cl2080.h NV20_SUBDEVICE_0, ...).
 */
static const struct nv_name classes[] = {
	{ 0x0000, "NV01_ROOT" }, { 0x0001, "NV01_ROOT_NON_PRIV" }, { 0x0002, "NV01_CONTEXT_DMA" },
	{ 0x0003, "NV01_EVENT" }, { 0x003e, "NV01_MEMORY_SYSTEM" }, { 0x0040, "NV01_MEMORY_LOCAL_USER" },
	{ 0x0041, "NV01_ROOT_CLIENT" }, { 0x0070, "NV01_MEMORY_VIRTUAL" },
	{ 0x0071, "NV01_MEMORY_SYSTEM_OS_DESCRIPTOR" }, { 0x0079, "NV01_EVENT_OS_EVENT" },
	{ 0x0080, "NV01_DEVICE_0" }, { 0x00f8, "NV_MEMORY_FABRIC" },
	{ 0x00fd, "NV_MEMORY_MULTICAST_FABRIC" }, { 0x2080, "NV20_SUBDEVICE_0" },
	{ 0x50a0, "NV50_MEMORY_VIRTUAL" }, { 0x90f1, "FERMI_VASPACE_A" },
	{ 0xc637, "AMPERE_SMC_PARTITION_REF" },
};

/*
 * RM control commands of a client, NV0000_CTRL_CMD_* without the prefix
 * (open-gpu-kernel-modules: src/common/sdk/nvidia/inc/ctrl/ctrl0000/
 * ctrl0000system.h, ctrl0000gpu.h).
 */
static const struct nv_name controls[] = {
	{ 0x101, "SYSTEM_GET_CPU_INFO" }, { 0x13e, "SYSTEM_GET_BUILD_VERSION_V2" },
	{ 0x201, "GPU_GET_ATTACHED_IDS" }, { 0x202, "GPU_GET_ID_INFO" },
	{ 0x214, "GPU_GET_PROBED_IDS" }, { 0x215, "GPU_ATTACH_IDS" },
	{ 0x216, "GPU_DETACH_IDS" }, { 0x274, "GPU_GET_UUID_FROM_GPU_ID" },
};

/* Xid meanings: NVIDIA's Xid catalog (the "Xid Errors" document), no header. */
static const struct nv_name xids[] = {
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

const char *nv_escape_name(__u32 esc)
{
	return lookup(escapes, NR(escapes), esc);
}

const char *nv_escape_str(__u32 esc, char *buf, size_t size)
{
	const char *n = nv_escape_name(esc);

	if (n)
		return n;
	snprintf(buf, size, "0x%x", esc);
	return buf;
}

bool nv_escape_has_object(__u32 esc)
{
	return esc == NV_ESC_RM_CONTROL || esc == NV_ESC_RM_ALLOC;
}

const char *nv_status_name(__u32 status)
{
	return lookup(statuses, NR(statuses), status);
}

const char *nv_object_name(__u32 esc, __u32 obj)
{
	if (esc == NV_ESC_RM_ALLOC)
		return lookup(classes, NR(classes), obj);
	if (esc == NV_ESC_RM_CONTROL)
		return lookup(controls, NR(controls), obj);
	return NULL;
}

const char *nv_xid_meaning(__u32 xid)
{
	return lookup(xids, NR(xids), xid);
}

/* ---- the driver's devices, GPUs and hooked functions ----------------------------- */

/* Major 195 is nvidia.ko's; others named by /proc/devices. */
const char *dev_name(__u32 dev, char *buf, size_t size)
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

const char *gpu_name(__u32 gpu, char *buf, size_t size)
{
	snprintf(buf, size, "%04x:%02x:%02x", gpu >> 16, (gpu >> 8) & 0xff, gpu & 0xff);
	return buf;
}

const char *errno_name(int err, char *buf, size_t size)
{
	const char *n = strerrorname_np(err);

	if (n)
		return n;
	snprintf(buf, size, "%d", err);
	return buf;
}

static const char *const irq_kinds[NR_IRQ_KINDS] = { "isr", "msix" };
static const char *const bh_kinds[NR_BH_KINDS] = { "kthread", "msix_kthread", "unlocked" };
static const char *const p2p_fns[NR_P2P_FNS] = {
	"get_pages", "get_pages_persistent", "put_pages", "dma_map_pages", "dma_unmap_pages",
	"put_pages_persistent",
};

const char *irq_kind_name(__u32 kind)
{
	return kind < NR_IRQ_KINDS ? irq_kinds[kind] : "?";
}

const char *bh_kind_name(__u32 kind)
{
	return kind < NR_BH_KINDS ? bh_kinds[kind] : "?";
}

const char *p2p_fn_name(__u32 fn)
{
	return fn < NR_P2P_FNS ? p2p_fns[fn] : "?";
}

/* nv_power_state_t and nv_pm_action_depth_t (nv.h); the words of /proc/driver/nvidia/suspend. */
static const char *const power_rows[NR_POWER_ROWS] = { "hibernate", "suspend", "resume", "cycle" };
static const char *const pm_depths[] = { "default", "modeset", "uvm" };

const char *power_row_name(__u32 row)
{
	return row < NR_POWER_ROWS ? power_rows[row] : "?";
}

const char *pm_depth_name(__u32 depth)
{
	return depth < sizeof(pm_depths) / sizeof(pm_depths[0]) ? pm_depths[depth] : "?";
}
