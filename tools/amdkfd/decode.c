// SPDX-License-Identifier: GPL-2.0
/* amdkfd -e: what a call asked of the KFD and what it answered (decode.h). */
#include <stdio.h>
#include <string.h>
#include <linux/ioctl.h>
#include <linux/types.h>

#include "amdkfd.h"
#include "decode.h"
#include "kfd_names.h"

const char *kfd_call_name(char *buf, size_t size, unsigned int op, unsigned int cmd,
			  unsigned int raw)
{
	const char *name;

	if (op == OP_OPEN)
		return "open";
	if (op == OP_CLOSE)
		return "close";
	name = raw ? NULL : kfd_ioctl_name(cmd);
	if (name)
		return name;
	snprintf(buf, size, raw ? "0x%x" : "nr_0x%02x", cmd);
	return buf;
}

const char *kfd_name_or_number(const char *name, unsigned int v, char *buf, size_t size)
{
	if (name)
		return name;
	snprintf(buf, size, "%u", v);
	return buf;
}

const char *kfd_mem_kind_name(unsigned int kind)
{
	static const char *const names[NR_KINDS] = {
		"VRAM", "GTT", "USERPTR", "DOORBELL", "MMIO_REMAP", "OTHER",
	};

	return names[kind < NR_KINDS ? kind : KIND_OTHER];
}

void kfd_call_detail(char *buf, size_t size, unsigned int cmd, const void *args,
		     unsigned int len, long ret)
{
	static const char *const wait_results[] = { "complete", "timeout", "fail" };
	char n[64], flags[128];
	const struct kfd_alloc_args *alloc = args;
	const struct kfd_handle_args *handle = args;
	const struct kfd_map_args *map = args;
	const struct kfd_create_queue_args *cq = args;
	const struct kfd_id_args *id = args;
	const struct kfd_create_event_args *ce = args;
	const struct kfd_wait_events_args *wait = args;
	const struct kfd_version_args *ver = args;
	const struct kfd_import_dmabuf_args *import = args;
	const struct kfd_svm_args *svm = args;
	const int *xnack = args;

	buf[0] = 0;
	if (_IOC_TYPE(cmd) != KFD_IOCTL_TYPE)
		return;
#define HAS(type) (len >= sizeof(type))
	switch (_IOC_NR(cmd)) {
	case KFD_NR_GET_VERSION:
		if (HAS(*ver) && ret == 0)
			snprintf(buf, size, "version=%u.%u", ver->major_version, ver->minor_version);
		break;
	case KFD_NR_ALLOC_MEMORY:
		if (!HAS(*alloc))
			break;
		kfd_alloc_flags_str(flags, sizeof(flags), alloc->flags);
		snprintf(buf, size, "gpu=%u size=%llu flags=%s", alloc->gpu_id,
			 (unsigned long long)alloc->size, flags);
		if (ret == 0)
			snprintf(buf + strlen(buf), size - strlen(buf), " handle=0x%llx",
				 (unsigned long long)alloc->handle);
		break;
	case KFD_NR_FREE_MEMORY:
		if (HAS(*handle))
			snprintf(buf, size, "handle=0x%llx", (unsigned long long)handle->handle);
		break;
	case KFD_NR_MAP_MEMORY:
	case KFD_NR_UNMAP_MEMORY:
		if (HAS(*map))
			snprintf(buf, size, "handle=0x%llx devices=%u done=%u",
				 (unsigned long long)map->handle, map->n_devices, map->n_success);
		break;
	case KFD_NR_IMPORT_DMABUF:
		if (!HAS(*import))
			break;
		snprintf(buf, size, "gpu=%u fd=%d", import->gpu_id, (int)import->dmabuf_fd);
		if (ret == 0)
			snprintf(buf + strlen(buf), size - strlen(buf), " handle=0x%llx",
				 (unsigned long long)import->handle);
		break;
	case KFD_NR_CREATE_QUEUE:
		if (!HAS(*cq))
			break;
		snprintf(buf, size, "gpu=%u type=%s ring=%u", cq->gpu_id,
			 kfd_name_or_number(kfd_queue_type_name(cq->queue_type), cq->queue_type, n, sizeof(n)),
			 cq->ring_size);
		if (ret == 0)
			snprintf(buf + strlen(buf), size - strlen(buf), " queue=%u", cq->queue_id);
		break;
	case KFD_NR_DESTROY_QUEUE:
		if (HAS(*id))
			snprintf(buf, size, "queue=%u", id->id);
		break;
	case KFD_NR_CREATE_EVENT:
		if (!HAS(*ce))
			break;
		snprintf(buf, size, "type=%s auto_reset=%u",
			 kfd_name_or_number(kfd_event_type_name(ce->event_type), ce->event_type, n, sizeof(n)),
			 ce->auto_reset);
		if (ret == 0)
			snprintf(buf + strlen(buf), size - strlen(buf), " event=%u", ce->event_id);
		break;
	case KFD_NR_DESTROY_EVENT:
	case KFD_NR_SET_EVENT:
	case KFD_NR_RESET_EVENT:
		if (HAS(*id))
			snprintf(buf, size, "event=%u", id->id);
		break;
	case KFD_NR_WAIT_EVENTS:
		if (!HAS(*wait))
			break;
		snprintf(buf, size, "events=%u all=%u timeout_ms=%u", wait->num_events,
			 wait->wait_for_all, wait->timeout);
		if (ret == 0)
			snprintf(buf + strlen(buf), size - strlen(buf), " result=%s",
				 wait->wait_result < 3 ? wait_results[wait->wait_result] : "?");
		break;
	case KFD_NR_SVM:
		if (HAS(*svm))
			snprintf(buf, size, "start=0x%llx size=%llu op=%s attrs=%u",
				 (unsigned long long)svm->start_addr, (unsigned long long)svm->size,
				 svm->op == 0 ? "SET_ATTR" : svm->op == 1 ? "GET_ATTR" : "?",
				 svm->nattr);
		break;
	case KFD_NR_SET_XNACK_MODE:
		if (len >= sizeof(*xnack))
			snprintf(buf, size, "xnack=%d", *xnack);
		break;
	}
#undef HAS
}
