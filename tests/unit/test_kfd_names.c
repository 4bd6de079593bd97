// SPDX-License-Identifier: GPL-2.0
/*
 * amdkfd's name tables (tools/amdkfd/kfd_names.c, generated from the newest
 * kfd_ioctl.h) against the one this machine's headers have, an older KFD's
 * (Debian 12: 1.11): every ioctl it defines is named as its macro is, and
 * its flags, queue and event types and triggers, through its own macros.
 * Both are the same ABI, so the newer tables must name every older value.
 */
#include <linux/kfd_ioctl.h>

#include "amdkfd/kfd_names.h"
#include "check.h"

#define NAME_OF(s) ((s) ? (s) : "(null)")

static int ioctls_checked;

/* The header's AMDKFD_IOC_##x, by its _IOC_NR, is named #x. */
#define CHECK_IOC(x)                                                               \
	do {                                                                       \
		const char *name = kfd_ioctl_name(_IOC_NR(AMDKFD_IOC_##x));        \
                                                                                   \
		CHECK_STR("kfd_names: ioctl " #x, NAME_OF(name), #x);              \
		ioctls_checked++;                                                  \
	} while (0)

#define CHECK_NAME(fn, prefix, x) \
	CHECK_STR("kfd_names: " #fn " " #x, NAME_OF(fn(prefix##x)), #x)

#define F(x) KFD_IOC_ALLOC_MEM_FLAGS_##x

static void check_flags(const char *label, unsigned int flags, const char *want)
{
	char buf[256], name[128];

	snprintf(name, sizeof(name), "kfd_names: flags %s", label);
	CHECK_U64(name, kfd_alloc_flags_str(buf, sizeof(buf), flags), strlen(want));
	CHECK_STR(name, buf, want);
}

int main(void)
{
	char buf[8];
	int n;

	/* Every AMDKFD_IOC_* of the host's header, in its order. */
	CHECK_IOC(GET_VERSION);
	CHECK_IOC(CREATE_QUEUE);
	CHECK_IOC(DESTROY_QUEUE);
	CHECK_IOC(SET_MEMORY_POLICY);
	CHECK_IOC(GET_CLOCK_COUNTERS);
	CHECK_IOC(GET_PROCESS_APERTURES);
	CHECK_IOC(UPDATE_QUEUE);
	CHECK_IOC(CREATE_EVENT);
	CHECK_IOC(DESTROY_EVENT);
	CHECK_IOC(SET_EVENT);
	CHECK_IOC(RESET_EVENT);
	CHECK_IOC(WAIT_EVENTS);
	CHECK_IOC(DBG_REGISTER_DEPRECATED);
	CHECK_IOC(DBG_UNREGISTER_DEPRECATED);
	CHECK_IOC(DBG_ADDRESS_WATCH_DEPRECATED);
	CHECK_IOC(DBG_WAVE_CONTROL_DEPRECATED);
	CHECK_IOC(SET_SCRATCH_BACKING_VA);
	CHECK_IOC(GET_TILE_CONFIG);
	CHECK_IOC(SET_TRAP_HANDLER);
	CHECK_IOC(GET_PROCESS_APERTURES_NEW);
	CHECK_IOC(ACQUIRE_VM);
	CHECK_IOC(ALLOC_MEMORY_OF_GPU);
	CHECK_IOC(FREE_MEMORY_OF_GPU);
	CHECK_IOC(MAP_MEMORY_TO_GPU);
	CHECK_IOC(UNMAP_MEMORY_FROM_GPU);
	CHECK_IOC(SET_CU_MASK);
	CHECK_IOC(GET_QUEUE_WAVE_STATE);
	CHECK_IOC(GET_DMABUF_INFO);
	CHECK_IOC(IMPORT_DMABUF);
	CHECK_IOC(ALLOC_QUEUE_GWS);
	CHECK_IOC(SMI_EVENTS);
	CHECK_IOC(SVM);
	CHECK_IOC(SET_XNACK_MODE);
	CHECK_IOC(CRIU_OP);
	CHECK_IOC(AVAILABLE_MEMORY);
	/* The list above is the header's whole range, none left out. */
	CHECK_U64("kfd_names: every ioctl of the host's header checked", ioctls_checked,
		  AMDKFD_COMMAND_END - AMDKFD_COMMAND_START);
	CHECK("kfd_names: kfd_ioctl_nr_max covers the host's header",
	      kfd_ioctl_nr_max >= AMDKFD_COMMAND_END - 1, "%u < %d", kfd_ioctl_nr_max,
	      AMDKFD_COMMAND_END - 1);
	CHECK("kfd_names: the highest ioctl is named", kfd_ioctl_name(kfd_ioctl_nr_max) != NULL,
	      "unnamed");
	CHECK("kfd_names: ioctl 0 unknown", kfd_ioctl_name(0) == NULL, "named");
	CHECK("kfd_names: ioctl past the highest unknown",
	      kfd_ioctl_name(kfd_ioctl_nr_max + 1) == NULL, "named");
	CHECK("kfd_names: ioctl 0x7f unknown", kfd_ioctl_name(0x7f) == NULL, "named");

	check_flags("none", 0, "0");
	check_flags("VRAM|WRITABLE", F(VRAM) | F(WRITABLE), "VRAM|WRITABLE");
	check_flags("GTT, every attribute", F(GTT) | F(WRITABLE) | F(EXECUTABLE) | F(PUBLIC) |
		    F(NO_SUBSTITUTE) | F(AQL_QUEUE_MEM) | F(COHERENT) | F(UNCACHED),
		    "GTT|WRITABLE|EXECUTABLE|PUBLIC|NO_SUBSTITUTE|AQL_QUEUE_MEM|COHERENT|UNCACHED");
	check_flags("USERPTR|DOORBELL|MMIO_REMAP", F(USERPTR) | F(DOORBELL) | F(MMIO_REMAP),
		    "USERPTR|DOORBELL|MMIO_REMAP");
	check_flags("an unknown bit", F(VRAM) | 1u << 10, "VRAM|0x400");
	check_flags("unknown bits alone", 0x600, "0x600");

	n = kfd_alloc_flags_str(buf, sizeof(buf), F(VRAM) | F(WRITABLE));
	CHECK_U64("kfd_names: flags truncated: whole length", n, strlen("VRAM|WRITABLE"));
	CHECK_STR("kfd_names: flags truncated: terminated", buf, "VRAM|WR");
	CHECK_U64("kfd_names: flags into no buffer: length",
		  kfd_alloc_flags_str(NULL, 0, F(GTT)), 3);

	CHECK_STR("kfd_names: kind VRAM", kfd_alloc_kind(F(VRAM) | F(WRITABLE)), "VRAM");
	CHECK_STR("kfd_names: kind GTT before USERPTR", kfd_alloc_kind(F(USERPTR) | F(GTT)), "GTT");
	CHECK_STR("kfd_names: kind USERPTR", kfd_alloc_kind(F(USERPTR) | F(COHERENT)), "USERPTR");
	CHECK_STR("kfd_names: kind DOORBELL", kfd_alloc_kind(F(DOORBELL)), "DOORBELL");
	CHECK_STR("kfd_names: kind MMIO_REMAP", kfd_alloc_kind(F(MMIO_REMAP) | F(PUBLIC)),
		  "MMIO_REMAP");
	CHECK_STR("kfd_names: kind none", kfd_alloc_kind(F(WRITABLE)), "OTHER");
	CHECK_STR("kfd_names: one flag's name", NAME_OF(kfd_alloc_flags_name(F(NO_SUBSTITUTE))),
		  "NO_SUBSTITUTE");
	CHECK("kfd_names: two bits are no flag's name",
	      kfd_alloc_flags_name(F(VRAM) | F(GTT)) == NULL, "named");

	CHECK_NAME(kfd_queue_type_name, KFD_IOC_QUEUE_TYPE_, COMPUTE);
	CHECK_NAME(kfd_queue_type_name, KFD_IOC_QUEUE_TYPE_, SDMA);
	CHECK_NAME(kfd_queue_type_name, KFD_IOC_QUEUE_TYPE_, COMPUTE_AQL);
	CHECK_NAME(kfd_queue_type_name, KFD_IOC_QUEUE_TYPE_, SDMA_XGMI);
	CHECK("kfd_names: queue type 99 unknown", kfd_queue_type_name(99) == NULL, "named");

	CHECK_NAME(kfd_event_type_name, KFD_IOC_EVENT_, SIGNAL);
	CHECK_NAME(kfd_event_type_name, KFD_IOC_EVENT_, NODECHANGE);
	CHECK_NAME(kfd_event_type_name, KFD_IOC_EVENT_, DEVICESTATECHANGE);
	CHECK_NAME(kfd_event_type_name, KFD_IOC_EVENT_, HW_EXCEPTION);
	CHECK_NAME(kfd_event_type_name, KFD_IOC_EVENT_, SYSTEM_EVENT);
	CHECK_NAME(kfd_event_type_name, KFD_IOC_EVENT_, DEBUG_EVENT);
	CHECK_NAME(kfd_event_type_name, KFD_IOC_EVENT_, PROFILE_EVENT);
	CHECK_NAME(kfd_event_type_name, KFD_IOC_EVENT_, QUEUE_EVENT);
	CHECK_NAME(kfd_event_type_name, KFD_IOC_EVENT_, MEMORY);
	CHECK("kfd_names: event type 99 unknown", kfd_event_type_name(99) == NULL, "named");

	/* The last two of the enum lack _TRIGGER_ in their names. */
	CHECK_NAME(kfd_eviction_trigger_name, KFD_QUEUE_EVICTION_TRIGGER_, SVM);
	CHECK_NAME(kfd_eviction_trigger_name, KFD_QUEUE_EVICTION_TRIGGER_, USERPTR);
	CHECK_NAME(kfd_eviction_trigger_name, KFD_QUEUE_EVICTION_TRIGGER_, TTM);
	CHECK_NAME(kfd_eviction_trigger_name, KFD_QUEUE_EVICTION_TRIGGER_, SUSPEND);
	CHECK_NAME(kfd_eviction_trigger_name, KFD_QUEUE_EVICTION_, CRIU_CHECKPOINT);
	CHECK_NAME(kfd_eviction_trigger_name, KFD_QUEUE_EVICTION_, CRIU_RESTORE);
	CHECK("kfd_names: eviction trigger 99 unknown", kfd_eviction_trigger_name(99) == NULL,
	      "named");

	CHECK_NAME(kfd_migrate_trigger_name, KFD_MIGRATE_TRIGGER_, PREFETCH);
	CHECK_NAME(kfd_migrate_trigger_name, KFD_MIGRATE_TRIGGER_, PAGEFAULT_GPU);
	CHECK_NAME(kfd_migrate_trigger_name, KFD_MIGRATE_TRIGGER_, PAGEFAULT_CPU);
	CHECK_NAME(kfd_migrate_trigger_name, KFD_MIGRATE_TRIGGER_, TTM_EVICTION);
	CHECK("kfd_names: migrate trigger 99 unknown", kfd_migrate_trigger_name(99) == NULL,
	      "named");
	return check_failures;
}
