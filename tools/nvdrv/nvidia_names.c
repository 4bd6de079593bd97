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
 * Every class the resource manager knows, by its primary name
 * (open-gpu-kernel-modules: src/nvidia/generated/g_allclasses.h), and the
 * root client's control commands, NV0000_CTRL_CMD_* without the prefix
 * (src/common/sdk/nvidia/inc/ctrl/ctrl0000/ctrl0000*.h), and
 * NV_CONFIDENTIAL_COMPUTE's (ctrlcb33.h) as CONF_COMPUTE_*: all a client
 * can ask before it has a GPU (nvidia-smi and libcuda on a machine without one).
 * 535.261.03's and 550.163.01's, merged: made by tests/nvidia/gen-rm-names.
 */
static const struct nv_name classes[] = {
	{ 0x0, "NV01_ROOT" },
	{ 0x1, "NV01_ROOT_NON_PRIV" },
	{ 0x2, "NV01_CONTEXT_DMA" },
	{ 0x4, "NV01_TIMER" },
	{ 0x5, "NV01_EVENT" },
	{ 0xf, "FABRIC_MANAGER_SESSION" },
	{ 0x20, "NV0020_GPU_MANAGEMENT" },
	{ 0x30, "NV01_NULL" },
	{ 0x3e, "NV01_MEMORY_SYSTEM" },
	{ 0x3f, "NV01_MEMORY_LOCAL_PRIVILEGED" },
	{ 0x40, "NV01_MEMORY_LOCAL_USER" },
	{ 0x41, "NV01_ROOT_CLIENT" },
	{ 0x42, "NV_MEMORY_EXTENDED_USER" },
	{ 0x50, "NV_CE_UTILS" },
	{ 0x60, "NV0060_SYNC_GPU_BOOST" },
	{ 0x70, "NV01_MEMORY_VIRTUAL" },
	{ 0x71, "NV01_MEMORY_SYSTEM_OS_DESCRIPTOR" },
	{ 0x73, "NV04_DISPLAY_COMMON" },
	{ 0x76, "NV01_MEMORY_FRAMEBUFFER_CONSOLE" },
	{ 0x78, "NV01_EVENT_KERNEL_CALLBACK" },
	{ 0x79, "NV01_EVENT_OS_EVENT" },
	{ 0x7d, "NV04_SOFTWARE_TEST" },
	{ 0x7e, "NV01_EVENT_KERNEL_CALLBACK_EX" },
	{ 0x80, "NV01_DEVICE_0" },
	{ 0x81, "NV01_MEMORY_LIST_SYSTEM" },
	{ 0x82, "NV01_MEMORY_LIST_FBMEM" },
	{ 0x83, "NV01_MEMORY_LIST_OBJECT" },
	{ 0x90, "KERNEL_GRAPHICS_CONTEXT" },
	{ 0x92, "NV0092_RG_LINE_CALLBACK" },
	{ 0xb1, "NV01_MEMORY_HW_RESOURCES" },
	{ 0xc2, "NV01_MEMORY_LOCAL_PHYSICAL" },
	{ 0xda, "NV_SEMAPHORE_SURFACE" },
	{ 0xdb, "NV40_DEBUG_BUFFER" },
	{ 0xde, "RM_USER_SHARED_DATA" },
	{ 0xe0, "NV_MEMORY_EXPORT" },
	{ 0xf1, "NV_IMEX_SESSION" },
	{ 0xf2, "IO_VASPACE_A" },
	{ 0xf3, "NV01_MEMORY_FLA" },
	{ 0xf8, "NV_MEMORY_FABRIC" },
	{ 0xf9, "NV_MEMORY_FABRIC_IMPORT_V2" },
	{ 0xfb, "NV_MEMORY_FABRIC_IMPORTED_REF" },
	{ 0xfc, "FABRIC_VASPACE_A" },
	{ 0xfd, "NV_MEMORY_MULTICAST_FABRIC" },
	{ 0xfe, "NV_MEMORY_MAPPER" },
	{ 0x2080, "NV20_SUBDEVICE_0" },
	{ 0x2081, "NV2081_BINAPI" },
	{ 0x2082, "NV2082_BINAPI_PRIVILEGED" },
	{ 0x208f, "NV20_SUBDEVICE_DIAG" },
	{ 0x30f1, "NV30_GSYNC" },
	{ 0x402c, "NV40_I2C" },
	{ 0x503b, "NV50_P2P" },
	{ 0x503c, "NV50_THIRD_PARTY_P2P" },
	{ 0x506f, "NV50_CHANNEL_GPFIFO" },
	{ 0x5080, "NV50_DEFERRED_API_CLASS" },
	{ 0x50a0, "NV50_MEMORY_VIRTUAL" },
	{ 0x83de, "GT200_DEBUGGER" },
	{ 0x844c, "G84_PERFBUFFER" },
	{ 0x900e, "MPS_COMPUTE" },
	{ 0x9010, "NV9010_VBLANK_CALLBACK" },
	{ 0x902d, "FERMI_TWOD_A" },
	{ 0x9067, "FERMI_CONTEXT_SHARE_A" },
	{ 0x906f, "GF100_CHANNEL_GPFIFO" },
	{ 0x9072, "GF100_DISP_SW" },
	{ 0x9074, "GF100_TIMED_SEMAPHORE_SW" },
	{ 0x9096, "GF100_ZBC_CLEAR" },
	{ 0x90cc, "GF100_PROFILER" },
	{ 0x90cd, "NV_EVENT_BUFFER" },
	{ 0x90ce, "NV01_MEMORY_DEVICELESS" },
	{ 0x90e6, "GF100_SUBDEVICE_MASTER" },
	{ 0x90e7, "GF100_SUBDEVICE_INFOROM" },
	{ 0x90ec, "GF100_HDACODEC" },
	{ 0x90f1, "FERMI_VASPACE_A" },
	{ 0xa06c, "KEPLER_CHANNEL_GROUP_A" },
	{ 0xa06f, "KEPLER_CHANNEL_GPFIFO_A" },
	{ 0xa080, "KEPLER_DEVICE_VGPU" },
	{ 0xa081, "NVA081_VGPU_CONFIG" },
	{ 0xa084, "NVA084_KERNEL_HOST_VGPU_DEVICE" },
	{ 0xa0bc, "NVENC_SW_SESSION" },
	{ 0xa0bd, "NVFBC_SW_SESSION" },
	{ 0xa140, "KEPLER_INLINE_TO_MEMORY_B" },
	{ 0xa16f, "KEPLER_CHANNEL_GPFIFO_B" },
	{ 0xb06f, "MAXWELL_CHANNEL_GPFIFO_A" },
	{ 0xb0b5, "MAXWELL_DMA_COPY_A" },
	{ 0xb0cc, "MAXWELL_PROFILER" },
	{ 0xb2cc, "MAXWELL_PROFILER_DEVICE" },
	{ 0xb4b7, "NVB4B7_VIDEO_ENCODER" },
	{ 0xb8b0, "NVB8B0_VIDEO_DECODER" },
	{ 0xb8d1, "NVB8D1_VIDEO_NVJPG" },
	{ 0xb8fa, "NVB8FA_VIDEO_OFA" },
	{ 0xc06f, "PASCAL_CHANNEL_GPFIFO_A" },
	{ 0xc076, "GP100_UVM_SW" },
	{ 0xc0b5, "PASCAL_DMA_COPY_A" },
	{ 0xc361, "VOLTA_USERMODE_A" },
	{ 0xc365, "ACCESS_COUNTER_NOTIFY_BUFFER" },
	{ 0xc369, "MMU_FAULT_BUFFER" },
	{ 0xc36f, "VOLTA_CHANNEL_GPFIFO_A" },
	{ 0xc371, "NVC371_DISP_SF_USER" },
	{ 0xc372, "NVC372_DISPLAY_SW" },
	{ 0xc461, "TURING_USERMODE_A" },
	{ 0xc46f, "TURING_CHANNEL_GPFIFO_A" },
	{ 0xc4b0, "NVC4B0_VIDEO_DECODER" },
	{ 0xc4b7, "NVC4B7_VIDEO_ENCODER" },
	{ 0xc4d1, "NVC4D1_VIDEO_NVJPG" },
	{ 0xc561, "AMPERE_USERMODE_A" },
	{ 0xc56f, "AMPERE_CHANNEL_GPFIFO_A" },
	{ 0xc570, "NVC570_DISPLAY" },
	{ 0xc573, "NVC573_DISP_CAPABILITIES" },
	{ 0xc574, "UVM_CHANNEL_RETAINER" },
	{ 0xc57a, "NVC57A_CURSOR_IMM_CHANNEL_PIO" },
	{ 0xc57b, "NVC57B_WINDOW_IMM_CHANNEL_DMA" },
	{ 0xc57d, "NVC57D_CORE_CHANNEL_DMA" },
	{ 0xc57e, "NVC57E_WINDOW_CHANNEL_DMA" },
	{ 0xc597, "TURING_A" },
	{ 0xc5b5, "TURING_DMA_COPY_A" },
	{ 0xc5c0, "TURING_COMPUTE_A" },
	{ 0xc637, "AMPERE_SMC_PARTITION_REF" },
	{ 0xc638, "AMPERE_SMC_EXEC_PARTITION_REF" },
	{ 0xc639, "AMPERE_SMC_CONFIG_SESSION" },
	{ 0xc640, "AMPERE_SMC_MONITOR_SESSION" },
	{ 0xc661, "HOPPER_USERMODE_A" },
	{ 0xc670, "NVC670_DISPLAY" },
	{ 0xc671, "NVC671_DISP_SF_USER" },
	{ 0xc673, "NVC673_DISP_CAPABILITIES" },
	{ 0xc67a, "NVC67A_CURSOR_IMM_CHANNEL_PIO" },
	{ 0xc67b, "NVC67B_WINDOW_IMM_CHANNEL_DMA" },
	{ 0xc67d, "NVC67D_CORE_CHANNEL_DMA" },
	{ 0xc67e, "NVC67E_WINDOW_CHANNEL_DMA" },
	{ 0xc697, "AMPERE_A" },
	{ 0xc6b0, "NVC6B0_VIDEO_DECODER" },
	{ 0xc6b5, "AMPERE_DMA_COPY_A" },
	{ 0xc6c0, "AMPERE_COMPUTE_A" },
	{ 0xc6fa, "NVC6FA_VIDEO_OFA" },
	{ 0xc763, "MMU_VIDMEM_ACCESS_BIT_BUFFER" },
	{ 0xc770, "NVC770_DISPLAY" },
	{ 0xc771, "NVC771_DISP_SF_USER" },
	{ 0xc773, "NVC773_DISP_CAPABILITIES" },
	{ 0xc77d, "NVC77D_CORE_CHANNEL_DMA" },
	{ 0xc77f, "NVC77F_ANY_CHANNEL_DMA" },
	{ 0xc797, "AMPERE_B" },
	{ 0xc7b0, "NVC7B0_VIDEO_DECODER" },
	{ 0xc7b5, "AMPERE_DMA_COPY_B" },
	{ 0xc7b7, "NVC7B7_VIDEO_ENCODER" },
	{ 0xc7c0, "AMPERE_COMPUTE_B" },
	{ 0xc7fa, "NVC7FA_VIDEO_OFA" },
	{ 0xc86f, "HOPPER_CHANNEL_GPFIFO_A" },
	{ 0xc8b5, "HOPPER_DMA_COPY_A" },
	{ 0xc997, "ADA_A" },
	{ 0xc9b0, "NVC9B0_VIDEO_DECODER" },
	{ 0xc9b7, "NVC9B7_VIDEO_ENCODER" },
	{ 0xc9c0, "ADA_COMPUTE_A" },
	{ 0xc9d1, "NVC9D1_VIDEO_NVJPG" },
	{ 0xc9fa, "NVC9FA_VIDEO_OFA" },
	{ 0xcb33, "NV_CONFIDENTIAL_COMPUTE" },
	{ 0xcb97, "HOPPER_A" },
	{ 0xcba2, "HOPPER_SEC2_WORK_LAUNCH_A" },
	{ 0xcbc0, "HOPPER_COMPUTE_A" },
	{ 0xcbca, "NV_COUNTER_COLLECTION_UNIT" },
};

static const struct nv_name controls[] = {
	{ 0x0, "NULL" },
	{ 0x101, "SYSTEM_GET_BUILD_VERSION" },
	{ 0x102, "SYSTEM_GET_CPU_INFO" },
	{ 0x104, "SYSTEM_GET_CHIPSET_INFO" },
	{ 0x107, "SYSTEM_SET_MEMORY_SIZE" },
	{ 0x108, "SYSTEM_GET_CLASSLIST" },
	{ 0x109, "SYSTEM_GET_LOCK_TIMES" },
	{ 0x110, "SYSTEM_NOTIFY_EVENT" },
	{ 0x111, "SYSTEM_GET_PLATFORM_TYPE" },
	{ 0x121, "SYSTEM_DEBUG_RMMSG_CTRL" },
	{ 0x122, "SYSTEM_GPS_CONTROL" },
	{ 0x123, "SYSTEM_GPS_BATCH_CONTROL" },
	{ 0x124, "SYSTEM_GET_HWBC_INFO" },
	{ 0x127, "SYSTEM_GET_P2P_CAPS" },
	{ 0x129, "SYSTEM_SET_SECURITY_SETTINGS" },
	{ 0x12a, "SYSTEM_GPS_CTRL" },
	{ 0x12b, "SYSTEM_GET_P2P_CAPS_V2" },
	{ 0x12c, "SYSTEM_GPS_GET_PERF_SENSORS" },
	{ 0x12d, "SYSTEM_GPS_CALL_ACPI" },
	{ 0x12e, "SYSTEM_GPS_GET_EXTENDED_PERF_SENSORS" },
	{ 0x12f, "SYSTEM_GPS_GET_FRM_DATA" },
	{ 0x130, "SYSTEM_EXECUTE_ACPI_METHOD" },
	{ 0x131, "SYSTEM_ENABLE_ETW_EVENTS" },
	{ 0x132, "SYSTEM_GPS_SET_FRM_DATA" },
	{ 0x133, "SYSTEM_GET_VGX_SYSTEM_INFO" },
	{ 0x134, "SYSTEM_GET_GPUS_POWER_STATUS" },
	{ 0x135, "SYSTEM_GET_PRIVILEGED_STATUS" },
	{ 0x136, "SYSTEM_GET_FABRIC_STATUS" },
	{ 0x139, "SYSTEM_GET_RM_INSTANCE_ID" },
	{ 0x13a, "SYSTEM_GET_P2P_CAPS_MATRIX" },
	{ 0x13b, "SYSTEM_NVPCF_GET_POWER_MODE_INFO" },
	{ 0x13c, "SYSTEM_SYNC_EXTERNAL_FABRIC_MGMT" },
	{ 0x13d, "SYSTEM_GET_CLIENT_DATABASE_INFO" },
	{ 0x13e, "SYSTEM_GET_BUILD_VERSION_V2" },
	{ 0x13f, "SYSTEM_RMCTRL_CACHE_MODE_CTRL" },
	{ 0x140, "SYSTEM_PFM_REQ_HNDLR_CONTROL" },
	{ 0x141, "SYSTEM_PFM_REQ_HNDLR_BATCH_CONTROL" },
	{ 0x142, "SYSTEM_PFM_REQ_HNDLR_CTRL" },
	{ 0x143, "SYSTEM_PFM_REQ_HNDLR_CALL_ACPI" },
	{ 0x144, "SYSTEM_PFM_REQ_HNDLR_GET_FRM_DATA" },
	{ 0x145, "SYSTEM_PFM_REQ_HNDLR_SET_FRM_DATA" },
	{ 0x146, "SYSTEM_PFM_REQ_HNDLR_GET_PERF_SENSORS" },
	{ 0x147, "SYSTEM_PFM_REQ_HNDLR_GET_EXTENDED_PERF_SENSORS" },
	{ 0x1f0, "SYSTEM_GET_FEATURES" },
	{ 0x201, "GPU_GET_ATTACHED_IDS" },
	{ 0x202, "GPU_GET_ID_INFO" },
	{ 0x203, "GPU_GET_INIT_STATUS" },
	{ 0x204, "GPU_GET_DEVICE_IDS" },
	{ 0x205, "GPU_GET_ID_INFO_V2" },
	{ 0x214, "GPU_GET_PROBED_IDS" },
	{ 0x215, "GPU_ATTACH_IDS" },
	{ 0x216, "GPU_DETACH_IDS" },
	{ 0x219, "GPU_GET_VIDEO_LINKS" },
	{ 0x21b, "GPU_GET_PCI_INFO" },
	{ 0x240, "GPU_GET_SVM_SIZE" },
	{ 0x274, "GPU_GET_UUID_INFO" },
	{ 0x275, "GPU_GET_UUID_FROM_GPU_ID" },
	{ 0x278, "GPU_MODIFY_DRAIN_STATE" },
	{ 0x279, "GPU_QUERY_DRAIN_STATE" },
	{ 0x27a, "GPU_DISCOVER" },
	{ 0x27b, "GPU_GET_MEMOP_ENABLE" },
	{ 0x281, "GPU_DISABLE_NVLINK_INIT" },
	{ 0x282, "GPU_LEGACY_CONFIG" },
	{ 0x283, "IDLE_CHANNELS" },
	{ 0x285, "PUSH_GSP_UCODE" },
	{ 0x286, "GPU_SET_NVLINK_BW_MODE" },
	{ 0x287, "GPU_GET_NVLINK_BW_MODE" },
	{ 0x288, "GPU_GET_ACTIVE_DEVICE_IDS" },
	{ 0x289, "GPU_ASYNC_ATTACH_ID" },
	{ 0x290, "GPU_WAIT_ATTACH_ID" },
	{ 0x301, "GSYNC_GET_ATTACHED_IDS" },
	{ 0x302, "GSYNC_GET_ID_INFO" },
	{ 0x480, "DIAG_GET_LOCK_METER_STATE" },
	{ 0x481, "DIAG_SET_LOCK_METER_STATE" },
	{ 0x485, "DIAG_GET_LOCK_METER_ENTRIES" },
	{ 0x488, "DIAG_PROFILE_RPC" },
	{ 0x489, "DIAG_DUMP_RPC" },
	{ 0x501, "EVENT_SET_NOTIFICATION" },
	{ 0x502, "GET_SYSTEM_EVENT_STATUS" },
	{ 0x601, "NVD_GET_DUMP_SIZE" },
	{ 0x602, "NVD_GET_DUMP" },
	{ 0x603, "NVD_GET_TIMESTAMP" },
	{ 0x604, "NVD_GET_NVLOG_INFO" },
	{ 0x605, "NVD_GET_NVLOG_BUFFER_INFO" },
	{ 0x606, "NVD_GET_NVLOG" },
	{ 0x607, "NVD_GET_RCERR_RPT" },
	{ 0x608, "NVD_GET_DPC_ISR_TS" },
	{ 0x901, "SET_SUB_PROCESS_ID" },
	{ 0x902, "DISABLE_SUB_PROCESS_USERD_ISOLATION" },
	{ 0xa01, "SYNC_GPU_BOOST_INFO" },
	{ 0xa02, "SYNC_GPU_BOOST_GROUP_CREATE" },
	{ 0xa03, "SYNC_GPU_BOOST_GROUP_DESTROY" },
	{ 0xa04, "SYNC_GPU_BOOST_GROUP_INFO" },
	{ 0xb01, "GPUACCT_SET_ACCOUNTING_STATE" },
	{ 0xb02, "GPUACCT_GET_ACCOUNTING_STATE" },
	{ 0xb03, "GPUACCT_GET_PROC_ACCOUNTING_INFO" },
	{ 0xb04, "GPUACCT_GET_ACCOUNTING_PIDS" },
	{ 0xb05, "GPUACCT_CLEAR_ACCOUNTING_DATA" },
	{ 0xc02, "VGPU_CREATE_DEVICE" },
	{ 0xc03, "VGPU_GET_INSTANCES" },
	{ 0xc04, "VGPU_DELETE_DEVICE" },
	{ 0xc05, "VGPU_VFIO_NOTIFY_RM_STATUS" },
	{ 0xd01, "CLIENT_GET_ADDR_SPACE_TYPE" },
	{ 0xd02, "CLIENT_GET_HANDLE_INFO" },
	{ 0xd03, "CLIENT_GET_ACCESS_RIGHTS" },
	{ 0xd04, "CLIENT_SET_INHERITED_SHARE_POLICY" },
	{ 0xd05, "CLIENT_GET_CHILD_HANDLE" },
	{ 0xd06, "CLIENT_SHARE_OBJECT" },
	{ 0xd07, "CLIENT_OBJECTS_ARE_DUPLICATES" },
	{ 0xd08, "CLIENT_SUBSCRIBE_TO_IMEX_CHANNEL" },
	{ 0x3d02, "OS_UNIX_FLUSH_USER_CACHE" },
	{ 0x3d04, "OS_UNIX_GET_CONTROL_FILE_DESCRIPTOR" },
	{ 0x3d05, "OS_UNIX_EXPORT_OBJECT_TO_FD" },
	{ 0x3d06, "OS_UNIX_IMPORT_OBJECT_FROM_FD" },
	{ 0x3d07, "OS_GET_GPU_INFO" },
	{ 0x3d08, "OS_UNIX_GET_EXPORT_OBJECT_INFO" },
	{ 0x3d09, "OS_UNIX_REFRESH_RMAPI_DEVICE_LIST" },
	{ 0x3d0a, "OS_UNIX_CREATE_EXPORT_OBJECT_FD" },
	{ 0x3d0b, "OS_UNIX_EXPORT_OBJECTS_TO_FD" },
	{ 0x3d0c, "OS_UNIX_IMPORT_OBJECTS_FROM_FD" },
	{ 0xcb330000, "CONF_COMPUTE_NULL" },
	{ 0xcb330101, "CONF_COMPUTE_SYSTEM_GET_CAPABILITIES" },
	{ 0xcb330104, "CONF_COMPUTE_SYSTEM_GET_GPUS_STATE" },
	{ 0xcb330105, "CONF_COMPUTE_SYSTEM_SET_GPUS_STATE" },
	{ 0xcb330106, "CONF_COMPUTE_GPU_GET_VIDMEM_SIZE" },
	{ 0xcb330107, "CONF_COMPUTE_GPU_SET_VIDMEM_SIZE" },
	{ 0xcb330108, "CONF_COMPUTE_GET_NUM_SUPPORTED_CC_SECURE_CHANNELS" },
	{ 0xcb330109, "CONF_COMPUTE_GET_GPU_CERTIFICATE" },
	{ 0xcb33010a, "CONF_COMPUTE_GET_GPU_ATTESTATION_REPORT" },
	{ 0xcb33010b, "CONF_COMPUTE_GPU_GET_NUM_SECURE_CHANNELS" },
	{ 0xcb33010c, "CONF_COMPUTE_GPU_GET_KEY_ROTATION_STATE" },
};

/*
 * /dev/nvidia-uvm's ioctl commands (nvidia-uvm.ko: uvm_ioctl.h and
 * uvm_linux_ioctl.h, in Debian's nvidia-kernel-source too; UVM_IOCTL_BASE(i)
 * is i on Linux), with where each one's parameters hold the RM's status
 * (rmStatus) in 535 and in 550 (-1: no parameters): made by
 * tests/nvidia/gen-uvm-ioctls, checked against both packages' headers by
 * tests/guest/nvclients.sh.
 */
struct nv_uvm_ioctl {
	__u32 cmd;
	const char *name;
	int status_535, status_550;
};

static const struct nv_uvm_ioctl uvm_ioctls[] = {
	{ 0x1, "UVM_RESERVE_VA", 16, 16 },
	{ 0x2, "UVM_RELEASE_VA", 16, 16 },
	{ 0x3, "UVM_REGION_COMMIT", 40, 40 },
	{ 0x4, "UVM_REGION_DECOMMIT", 16, 16 },
	{ 0x5, "UVM_REGION_SET_STREAM", 40, 40 },
	{ 0x6, "UVM_SET_STREAM_RUNNING", 8, 8 },
	{ 0x7, "UVM_SET_STREAM_STOPPED", 264, 264 },
	{ 0x9, "UVM_RUN_TEST", 40, 40 },
	{ 0xa, "UVM_ADD_SESSION", 20, 20 },
	{ 0xb, "UVM_REMOVE_SESSION", 4, 4 },
	{ 0xc, "UVM_ENABLE_COUNTERS", 904, 904 },
	{ 0xd, "UVM_MAP_COUNTER", 40, 40 },
	{ 0xe, "UVM_CREATE_EVENT_QUEUE", 28, 28 },
	{ 0xf, "UVM_REMOVE_EVENT_QUEUE", 8, 8 },
	{ 0x10, "UVM_MAP_EVENT_QUEUE", 48, 48 },
	{ 0x11, "UVM_EVENT_CTRL", 16, 16 },
	{ 0x12, "UVM_REGISTER_MPS_SERVER", 528, 528 },
	{ 0x13, "UVM_REGISTER_MPS_CLIENT", 8, 8 },
	{ 0x14, "UVM_GET_GPU_UUID_TABLE", 516, 516 },
	{ 0x17, "UVM_CREATE_RANGE_GROUP", 8, 8 },
	{ 0x18, "UVM_DESTROY_RANGE_GROUP", 8, 8 },
	{ 0x19, "UVM_REGISTER_GPU_VASPACE", 28, 28 },
	{ 0x1a, "UVM_UNREGISTER_GPU_VASPACE", 16, 16 },
	{ 0x1b, "UVM_REGISTER_CHANNEL", 48, 48 },
	{ 0x1c, "UVM_UNREGISTER_CHANNEL", 24, 24 },
	{ 0x1d, "UVM_ENABLE_PEER_ACCESS", 32, 32 },
	{ 0x1e, "UVM_DISABLE_PEER_ACCESS", 32, 32 },
	{ 0x1f, "UVM_SET_RANGE_GROUP", 24, 24 },
	{ 0x21, "UVM_MAP_EXTERNAL_ALLOCATION", 1196, 9260 },
	{ 0x22, "UVM_FREE", 16, 16 },
	{ 0x23, "UVM_MEM_MAP", 16, 16 },
	{ 0x24, "UVM_DEBUG_ACCESS_MEMORY", 56, 56 },
	{ 0x25, "UVM_REGISTER_GPU", 36, 36 },
	{ 0x26, "UVM_UNREGISTER_GPU", 16, 16 },
	{ 0x27, "UVM_PAGEABLE_MEM_ACCESS", 4, 4 },
	{ 0x28, "UVM_PREVENT_MIGRATION_RANGE_GROUPS", 264, 264 },
	{ 0x29, "UVM_ALLOW_MIGRATION_RANGE_GROUPS", 264, 264 },
	{ 0x2a, "UVM_SET_PREFERRED_LOCATION", 32, 36 },
	{ 0x2b, "UVM_UNSET_PREFERRED_LOCATION", 16, 16 },
	{ 0x2c, "UVM_ENABLE_READ_DUPLICATION", 16, 16 },
	{ 0x2d, "UVM_DISABLE_READ_DUPLICATION", 16, 16 },
	{ 0x2e, "UVM_SET_ACCESSED_BY", 32, 32 },
	{ 0x2f, "UVM_UNSET_ACCESSED_BY", 32, 32 },
	{ 0x33, "UVM_MIGRATE", 72, 72 },
	{ 0x35, "UVM_MIGRATE_RANGE_GROUP", 24, 24 },
	{ 0x36, "UVM_ENABLE_SYSTEM_WIDE_ATOMICS", 16, 16 },
	{ 0x37, "UVM_DISABLE_SYSTEM_WIDE_ATOMICS", 16, 16 },
	{ 0x38, "UVM_TOOLS_INIT_EVENT_TRACKER", 48, 48 },
	{ 0x39, "UVM_TOOLS_SET_NOTIFICATION_THRESHOLD", 4, 4 },
	{ 0x3a, "UVM_TOOLS_EVENT_QUEUE_ENABLE_EVENTS", 8, 8 },
	{ 0x3b, "UVM_TOOLS_EVENT_QUEUE_DISABLE_EVENTS", 8, 8 },
	{ 0x3c, "UVM_TOOLS_ENABLE_COUNTERS", 8, 8 },
	{ 0x3d, "UVM_TOOLS_DISABLE_COUNTERS", 8, 8 },
	{ 0x3e, "UVM_TOOLS_READ_PROCESS_MEMORY", 32, 32 },
	{ 0x3f, "UVM_TOOLS_WRITE_PROCESS_MEMORY", 32, 32 },
	{ 0x40, "UVM_TOOLS_GET_PROCESSOR_UUID_TABLE", 12, 12 },
	{ 0x41, "UVM_MAP_DYNAMIC_PARALLELISM_REGION", 32, 32 },
	{ 0x42, "UVM_UNMAP_EXTERNAL", 32, 32 },
	{ 0x43, "UVM_TOOLS_FLUSH_EVENTS", 0, 0 },
	{ 0x44, "UVM_ALLOC_SEMAPHORE_POOL", 1176, 9240 },
	{ 0x45, "UVM_CLEAN_UP_ZOMBIE_RESOURCES", 0, 0 },
	{ 0x46, "UVM_PAGEABLE_MEM_ACCESS_ON_GPU", 20, 20 },
	{ 0x47, "UVM_POPULATE_PAGEABLE", 20, 20 },
	{ 0x48, "UVM_VALIDATE_VA_RANGE", 16, 16 },
	{ 0x49, "UVM_CREATE_EXTERNAL_RANGE", 16, 16 },
	{ 0x4a, "UVM_MAP_EXTERNAL_SPARSE", 32, 32 },
	{ 0x4b, "UVM_MM_INITIALIZE", 4, 4 },
	{ 0x7ff, "UVM_IS_8_SUPPORTED", 4, 4 },
	{ 0x30000001, "UVM_INITIALIZE", 8, 8 },
	{ 0x30000002, "UVM_DEINITIALIZE", -1, -1 },
};

const char *nv_escape_name(__u32 esc)
{
	if (esc & NV_ESC_UVM)
		return nv_uvm_ioctl_name(esc & ~NV_ESC_UVM);
	return lookup(escapes, NR(escapes), esc);
}

const char *nv_escape_str(__u32 esc, char *buf, size_t size)
{
	const char *n = nv_escape_name(esc);

	if (n)
		return n;
	if (esc & NV_ESC_UVM)
		snprintf(buf, size, "UVM_0x%x", esc & ~NV_ESC_UVM);
	else
		snprintf(buf, size, "0x%x", esc);
	return buf;
}

__u32 nv_escape_nr(__u32 esc)
{
	return esc & ~NV_ESC_UVM;
}

int nv_escape_slot(__u32 esc)
{
	size_t i;

	if (!(esc & NV_ESC_UVM))
		return esc & 0xff;
	for (i = 0; i < NR(uvm_ioctls) && 256 + i < NR_ESC_SLOTS; i++)
		if (uvm_ioctls[i].cmd == (esc & ~NV_ESC_UVM))
			return 256 + i;
	return -1;
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

static const struct nv_uvm_ioctl *uvm_ioctl(__u32 cmd)
{
	size_t i;

	for (i = 0; i < NR(uvm_ioctls); i++)
		if (uvm_ioctls[i].cmd == cmd)
			return &uvm_ioctls[i];
	return NULL;
}

const char *nv_uvm_ioctl_name(__u32 cmd)
{
	const struct nv_uvm_ioctl *u = uvm_ioctl(cmd);

	return u ? u->name : NULL;
}

/*
 * 535's or 550's layout for those drivers (and the ones between: 545);
 * for any other, only where the two agree: a layout that did not change
 * between them is taken to hold.
 */
int nv_uvm_status_offset(__u32 cmd, unsigned int driver_major)
{
	const struct nv_uvm_ioctl *u = uvm_ioctl(cmd);

	if (!u)
		return -1;
	if (driver_major >= 535 && driver_major < 550)
		return u->status_535;
	if (driver_major == 550)
		return u->status_550;
	return u->status_535 == u->status_550 ? u->status_535 : -1;
}

size_t nv_uvm_ioctl_count(void)
{
	return NR(uvm_ioctls);
}

__u32 nv_uvm_ioctl_cmd(size_t i)
{
	return i < NR(uvm_ioctls) ? uvm_ioctls[i].cmd : 0;
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
