/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The names nvdrv prints for NVIDIA's numbers: ioctl escapes, the resource
 * manager's statuses, classes and control commands; and for the
 * driver's device nodes, interrupt handlers and p2p functions. The
 * tables (nvidia_names.c) say which of NVIDIA's headers each comes from.
 */
#ifndef NVDRV_NVIDIA_NAMES_H
#define NVDRV_NVIDIA_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "nvdrv.h"

/* A kernel dev_t: major << 20 | minor. */
#define MAJOR(dev) ((dev) >> 20)
#define MINOR(dev) ((dev) & 0xfffff)

struct nv_name {
	unsigned int value;
	const char *name;
};

/*
 * "RM_CONTROL" (NV_ESC_ without the prefix), "UVM_INITIALIZE" for
 * NV_ESC_UVM | cmd, or NULL for one the tables lack.
 */
const char *nv_escape_name(__u32 esc);

/* The escape's name for printing: the table's, else "0x99" (or "UVM_0x99"). */
const char *nv_escape_str(__u32 esc, char *buf, size_t size);

/* The number an escape shows: its _IOC_NR, or a UVM command's own. */
__u32 nv_escape_nr(__u32 esc);

/*
 * An escape's place in per-escape arrays of NR_ESC_SLOTS (the latency
 * histograms): nvidia.ko's escapes by number, the known UVM commands after
 * them; -1 for a UVM command nvdrv does not know.
 */
#define NR_ESC_SLOTS 384
int nv_escape_slot(__u32 esc);

/* The escapes whose object (RM_ALLOC's class, RM_CONTROL's command) is shown. */
bool nv_escape_has_object(__u32 esc);

/* "NV_ERR_NOT_SUPPORTED", or NULL. */
const char *nv_status_name(__u32 status);

/* The name of an RM call's object: a class (RM_ALLOC) or control command (RM_CONTROL), or NULL. */
const char *nv_object_name(__u32 esc, __u32 obj);

/* A /dev/nvidia-uvm ioctl command: "UVM_INITIALIZE", or NULL. */
const char *nv_uvm_ioctl_name(__u32 cmd);

/* Where the command's parameters hold the RM's status for that driver, or -1. */
int nv_uvm_status_offset(__u32 cmd, unsigned int driver_major);

/* The known commands, by index (to fill the BPF side's table). */
size_t nv_uvm_ioctl_count(void);
__u32 nv_uvm_ioctl_cmd(size_t i);

/* A device node: "nvidiactl", "nvidia0", "nvidia-uvm", else NAME:MINOR or MAJOR:MINOR. */
const char *dev_name(__u32 dev, char *buf, size_t size);

/* The roles of the hooked functions (nvdrv.h's enums), or "?". */
const char *irq_kind_name(__u32 kind);
const char *bh_kind_name(__u32 kind);
const char *p2p_fn_name(__u32 fn);	/* "get_pages": nvidia_p2p_ without the prefix */

/* A power row (enum power_row): "hibernate", "suspend", "resume", "cycle", or "?". */
const char *power_row_name(__u32 row);
/* nv_pm_action_depth_t: "default", "modeset", "uvm", or "?". */
const char *pm_depth_name(__u32 depth);

#endif /* NVDRV_NVIDIA_NAMES_H */
