// SPDX-License-Identifier: GPL-2.0
/*
 * nvdrv's name tables (tools/nvdrv/nvidia_names.c, included: its tables are
 * static): each sorted by value with no value twice, as tests/nvidia/
 * gen-rm-names and gen-nvidia-names make them; and the names real clients
 * meet on a machine without a GPU (nvidia-smi, libcuda: issue 22), as
 * NVIDIA's headers give them.
 */
#include "nvdrv/nvidia_names.c"
#include "check.h"

static void check_sorted(const char *name, const struct nv_name *t, size_t n)
{
	char label[96];
	size_t i, bad = 0;

	for (i = 1; i < n; i++)
		if (t[i].value <= t[i - 1].value)
			bad++;
	snprintf(label, sizeof(label), "nvidia_names: %s sorted by value, none twice (%zu)", name, n);
	CHECK(label, bad == 0, "%zu out of order", bad);
}

#define NAME_OF(fn, value) ((fn) ? (fn) : "(null)")

int main(void)
{
	check_sorted("escapes", escapes, NR(escapes));
	check_sorted("statuses", statuses, NR(statuses));
	check_sorted("classes", classes, NR(classes));
	check_sorted("controls", controls, NR(controls));
	{
		size_t i, bad = 0;

		for (i = 1; i < NR(uvm_ioctls); i++)
			if (uvm_ioctls[i].cmd <= uvm_ioctls[i - 1].cmd)
				bad++;
		CHECK("nvidia_names: uvm_ioctls sorted by command, none twice", bad == 0, "%zu out of order", bad);
	}

	CHECK_STR("nvidia_names: class 0x41", NAME_OF(nv_object_name(NV_ESC_RM_ALLOC, 0x41), 0), "NV01_ROOT_CLIENT");
	CHECK_STR("nvidia_names: class 0x5", NAME_OF(nv_object_name(NV_ESC_RM_ALLOC, 0x5), 0), "NV01_EVENT");
	CHECK_STR("nvidia_names: class 0xcb33 (libcuda's first allocation)",
		  NAME_OF(nv_object_name(NV_ESC_RM_ALLOC, 0xcb33), 0), "NV_CONFIDENTIAL_COMPUTE");
	CHECK_STR("nvidia_names: control 0xd04", NAME_OF(nv_object_name(NV_ESC_RM_CONTROL, 0xd04), 0),
		  "CLIENT_SET_INHERITED_SHARE_POLICY");
	CHECK_STR("nvidia_names: control 0x101", NAME_OF(nv_object_name(NV_ESC_RM_CONTROL, 0x101), 0),
		  "SYSTEM_GET_BUILD_VERSION");
	CHECK_STR("nvidia_names: control 0x102", NAME_OF(nv_object_name(NV_ESC_RM_CONTROL, 0x102), 0),
		  "SYSTEM_GET_CPU_INFO");
	CHECK_STR("nvidia_names: control 0x274", NAME_OF(nv_object_name(NV_ESC_RM_CONTROL, 0x274), 0),
		  "GPU_GET_UUID_INFO");
	CHECK("nvidia_names: a class number is not a control", nv_object_name(NV_ESC_RM_CONTROL, 0xcb33) == NULL,
	      "named");
	CHECK("nvidia_names: other escapes have no object", nv_object_name(0xd2, 0x41) == NULL, "named");
	CHECK_STR("nvidia_names: UVM_INITIALIZE", NAME_OF(nv_uvm_ioctl_name(0x30000001), 0), "UVM_INITIALIZE");
	CHECK_STR("nvidia_names: UVM_PAGEABLE_MEM_ACCESS", NAME_OF(nv_uvm_ioctl_name(0x27), 0),
		  "UVM_PAGEABLE_MEM_ACCESS");
	CHECK("nvidia_names: an unknown UVM command", nv_uvm_ioctl_name(0x8) == NULL, "named");
	/* UVM_SET_PREFERRED_LOCATION's rmStatus moved between 535 (32) and 550 (36). */
	CHECK_U64("nvidia_names: UVM status offset by driver: 535", nv_uvm_status_offset(0x2a, 535) + 1, 33);
	CHECK_U64("nvidia_names: ... 545 as 535", nv_uvm_status_offset(0x2a, 545) + 1, 33);
	CHECK_U64("nvidia_names: ... 550", nv_uvm_status_offset(0x2a, 550) + 1, 37);
	CHECK_U64("nvidia_names: ... another driver: none where they differ", nv_uvm_status_offset(0x2a, 575) + 1, 0);
	CHECK_U64("nvidia_names: ... another driver: where they agree (UVM_INITIALIZE 8)",
		  nv_uvm_status_offset(0x30000001, 575), 8);
	CHECK_U64("nvidia_names: ... UVM_DEINITIALIZE has none", nv_uvm_status_offset(0x30000002, 535) + 1, 0);
	return check_failures;
}
