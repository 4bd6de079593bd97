// SPDX-License-Identifier: GPL-2.0
/*
 * amdkfd's name tables (tools/amdkfd/kfd_names.c, generated from the newest
 * kfd_ioctl.h) against the one this machine's headers have, an older KFD's
 * (Debian 12: 1.11): every ioctl it defines is named as its macro is, and
 * its flags, queue and event types and triggers, through its own macros.
 * Both are the same ABI, so the newer tables must name every older value.
 */
#include <stddef.h>
#include <linux/kfd_ioctl.h>

#include "amdkfd.h"
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

/*
 * amdkfd.h's copies of the argument structs, field by field against the
 * header's: the same offset and size, and the same struct size.
 */
#define SAME_FIELD(ours, theirs, field, theirs_field)					\
	CHECK("kfd_names: " #ours "." #field " is " #theirs "." #theirs_field,		\
	      offsetof(struct ours, field) == offsetof(struct theirs, theirs_field) &&	\
	      sizeof(((struct ours *)0)->field) == sizeof(((struct theirs *)0)->theirs_field), \
	      "offset %zu size %zu, header's %zu %zu", offsetof(struct ours, field),	\
	      sizeof(((struct ours *)0)->field), offsetof(struct theirs, theirs_field),	\
	      sizeof(((struct theirs *)0)->theirs_field))
#define SAME_SIZE(ours, theirs)								\
	CHECK_U64("kfd_names: struct " #ours " is the size of " #theirs,		\
		  sizeof(struct ours), sizeof(struct theirs))
#define SAME_NR(ours, ioc)								\
	CHECK_U64("kfd_names: " #ours " is AMDKFD_IOC_" #ioc, ours, _IOC_NR(AMDKFD_IOC_##ioc))

static void check_mirror(void)
{
	SAME_SIZE(kfd_alloc_args, kfd_ioctl_alloc_memory_of_gpu_args);
	SAME_FIELD(kfd_alloc_args, kfd_ioctl_alloc_memory_of_gpu_args, va_addr, va_addr);
	SAME_FIELD(kfd_alloc_args, kfd_ioctl_alloc_memory_of_gpu_args, size, size);
	SAME_FIELD(kfd_alloc_args, kfd_ioctl_alloc_memory_of_gpu_args, handle, handle);
	SAME_FIELD(kfd_alloc_args, kfd_ioctl_alloc_memory_of_gpu_args, mmap_offset, mmap_offset);
	SAME_FIELD(kfd_alloc_args, kfd_ioctl_alloc_memory_of_gpu_args, gpu_id, gpu_id);
	SAME_FIELD(kfd_alloc_args, kfd_ioctl_alloc_memory_of_gpu_args, flags, flags);
	SAME_SIZE(kfd_handle_args, kfd_ioctl_free_memory_of_gpu_args);
	SAME_FIELD(kfd_handle_args, kfd_ioctl_free_memory_of_gpu_args, handle, handle);
	SAME_SIZE(kfd_map_args, kfd_ioctl_map_memory_to_gpu_args);
	SAME_FIELD(kfd_map_args, kfd_ioctl_map_memory_to_gpu_args, handle, handle);
	SAME_FIELD(kfd_map_args, kfd_ioctl_map_memory_to_gpu_args, n_devices, n_devices);
	SAME_FIELD(kfd_map_args, kfd_ioctl_map_memory_to_gpu_args, n_success, n_success);
	SAME_SIZE(kfd_map_args, kfd_ioctl_unmap_memory_from_gpu_args);
	SAME_FIELD(kfd_map_args, kfd_ioctl_unmap_memory_from_gpu_args, n_success, n_success);
	SAME_SIZE(kfd_create_queue_args, kfd_ioctl_create_queue_args);
	SAME_FIELD(kfd_create_queue_args, kfd_ioctl_create_queue_args, ring_size, ring_size);
	SAME_FIELD(kfd_create_queue_args, kfd_ioctl_create_queue_args, gpu_id, gpu_id);
	SAME_FIELD(kfd_create_queue_args, kfd_ioctl_create_queue_args, queue_type, queue_type);
	SAME_FIELD(kfd_create_queue_args, kfd_ioctl_create_queue_args, queue_id, queue_id);
	SAME_FIELD(kfd_create_queue_args, kfd_ioctl_create_queue_args, ctl_stack_size,
		   ctl_stack_size);
	SAME_SIZE(kfd_id_args, kfd_ioctl_destroy_queue_args);
	SAME_FIELD(kfd_id_args, kfd_ioctl_destroy_queue_args, id, queue_id);
	SAME_SIZE(kfd_id_args, kfd_ioctl_destroy_event_args);
	SAME_FIELD(kfd_id_args, kfd_ioctl_destroy_event_args, id, event_id);
	SAME_FIELD(kfd_id_args, kfd_ioctl_set_event_args, id, event_id);
	SAME_FIELD(kfd_id_args, kfd_ioctl_reset_event_args, id, event_id);
	SAME_SIZE(kfd_create_event_args, kfd_ioctl_create_event_args);
	SAME_FIELD(kfd_create_event_args, kfd_ioctl_create_event_args, event_type, event_type);
	SAME_FIELD(kfd_create_event_args, kfd_ioctl_create_event_args, auto_reset, auto_reset);
	SAME_FIELD(kfd_create_event_args, kfd_ioctl_create_event_args, event_id, event_id);
	SAME_SIZE(kfd_wait_events_args, kfd_ioctl_wait_events_args);
	SAME_FIELD(kfd_wait_events_args, kfd_ioctl_wait_events_args, num_events, num_events);
	SAME_FIELD(kfd_wait_events_args, kfd_ioctl_wait_events_args, timeout, timeout);
	SAME_FIELD(kfd_wait_events_args, kfd_ioctl_wait_events_args, wait_result, wait_result);
	SAME_SIZE(kfd_version_args, kfd_ioctl_get_version_args);
	SAME_FIELD(kfd_version_args, kfd_ioctl_get_version_args, minor_version, minor_version);
	SAME_SIZE(kfd_import_dmabuf_args, kfd_ioctl_import_dmabuf_args);
	SAME_FIELD(kfd_import_dmabuf_args, kfd_ioctl_import_dmabuf_args, handle, handle);
	SAME_FIELD(kfd_import_dmabuf_args, kfd_ioctl_import_dmabuf_args, gpu_id, gpu_id);
	SAME_FIELD(kfd_import_dmabuf_args, kfd_ioctl_import_dmabuf_args, dmabuf_fd, dmabuf_fd);
	SAME_SIZE(kfd_svm_args, kfd_ioctl_svm_args);
	SAME_FIELD(kfd_svm_args, kfd_ioctl_svm_args, op, op);
	SAME_FIELD(kfd_svm_args, kfd_ioctl_svm_args, nattr, nattr);
	CHECK_U64("kfd_names: the args copied hold the largest decoded struct",
		  ARGS_MAX >= sizeof(struct kfd_ioctl_create_queue_args), 1);

	CHECK_U64("kfd_names: KFD_IOCTL_TYPE", KFD_IOCTL_TYPE, AMDKFD_IOCTL_BASE);
	SAME_NR(KFD_NR_GET_VERSION, GET_VERSION);
	SAME_NR(KFD_NR_CREATE_QUEUE, CREATE_QUEUE);
	SAME_NR(KFD_NR_DESTROY_QUEUE, DESTROY_QUEUE);
	SAME_NR(KFD_NR_CREATE_EVENT, CREATE_EVENT);
	SAME_NR(KFD_NR_DESTROY_EVENT, DESTROY_EVENT);
	SAME_NR(KFD_NR_SET_EVENT, SET_EVENT);
	SAME_NR(KFD_NR_RESET_EVENT, RESET_EVENT);
	SAME_NR(KFD_NR_WAIT_EVENTS, WAIT_EVENTS);
	SAME_NR(KFD_NR_ALLOC_MEMORY, ALLOC_MEMORY_OF_GPU);
	SAME_NR(KFD_NR_FREE_MEMORY, FREE_MEMORY_OF_GPU);
	SAME_NR(KFD_NR_MAP_MEMORY, MAP_MEMORY_TO_GPU);
	SAME_NR(KFD_NR_UNMAP_MEMORY, UNMAP_MEMORY_FROM_GPU);
	SAME_NR(KFD_NR_IMPORT_DMABUF, IMPORT_DMABUF);
	SAME_NR(KFD_NR_SVM, SVM);
	SAME_NR(KFD_NR_SET_XNACK_MODE, SET_XNACK_MODE);

	CHECK_U64("kfd_names: KFD_MEM_FLAG_VRAM", KFD_MEM_FLAG_VRAM, F(VRAM));
	CHECK_U64("kfd_names: KFD_MEM_FLAG_GTT", KFD_MEM_FLAG_GTT, F(GTT));
	CHECK_U64("kfd_names: KFD_MEM_FLAG_USERPTR", KFD_MEM_FLAG_USERPTR, F(USERPTR));
	CHECK_U64("kfd_names: KFD_MEM_FLAG_DOORBELL", KFD_MEM_FLAG_DOORBELL, F(DOORBELL));
	CHECK_U64("kfd_names: KFD_MEM_FLAG_MMIO_REMAP", KFD_MEM_FLAG_MMIO_REMAP, F(MMIO_REMAP));
}

int main(void)
{
	char buf[8];
	int n;

	check_mirror();

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
