/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NVIDIA Xids as nvidia.ko reports them, for every tool that reads them
 * (nvdrv, gpuhang): the record the kernel side sends (nv_xid.bpf.h) and,
 * in user space, its names (nv_xid.c).
 *
 * The resource manager (RM) reports an Xid with nv_printf(0xFFFFFFFF,
 * "NVRM: Xid (PCI:%04x:%02x:%02x): %d, pid=%s, name=%s, %s\n", ...) (MIG
 * variants put one or two more numbers before the Xid), then the same Xid
 * to nv_log_error(nv, xid, ...), which from 575 on fires the driver's
 * tracepoint nvidia:nvidia_dev_xid (the GPU's PCI name, the Xid, the
 * message: no pid or name). Each report of the RM is one Xid: from the
 * tracepoint where the driver has it, else from nv_printf's arguments, or
 * nv_log_error's where no nv_printf of it came before; the thread's
 * nv_printf of the same Xid just before lends it the pid and name.
 */
#ifndef GPU_BPF_NV_XID_H
#define GPU_BPF_NV_XID_H

#ifndef __bpf__
#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#endif

#define XID_STR_LEN	48	/* pid, name, message strings of an Xid report */
#define XID_FMT_LEN	96
#define XID_SLOTS	5	/* nv_printf's stack arguments read */
#define XID_DEV_LEN	16	/* the tracepoint's dev: pci_name(), "0000:3b:00.0" */
#define XID_MSG_LEN	128	/* the tracepoint's msg, the Xid's whole message */

/* What an Xid's reports gave beside the GPU and the Xid. */
enum nv_xid_has {
	NV_XID_PID = 1,
	NV_XID_NAME = 2,
	NV_XID_MSG = 4,
};

/* One Xid as the kernel side read it from the driver's reports (nv_xid.bpf.h). */
struct nv_xid {
	__u32 gpu;		/* domain << 16 | bus << 8 | slot */
	__u32 xid;
	__u32 has;		/* enum nv_xid_has */
	__u32 pad;
	char pid[XID_STR_LEN];	/* as the RM wrote them */
	char name[XID_STR_LEN];
	char msg[XID_MSG_LEN];
};

#ifndef __bpf__
struct tp_field;

/* One Xid, its strings NULL where its reports had none, else pointing into the record. */
struct xid_report {
	__u32 gpu, xid;
	const char *pid, *name, *msg;
};

/*
 * Where the loaded driver's Xids come from: its tracepoint, with each
 * field's place in the record filled in (dev, error_code, msg), if it has
 * one whose format reads; else false and `why` says why not ("" when the
 * driver has no such tracepoint: before 575).
 */
bool nv_xid_tracepoint(struct tp_field *dev, struct tp_field *code, struct tp_field *msg,
		       char *why, size_t size);

/* A record's Xid as a report. */
void nv_xid_report(const struct nv_xid *x, struct xid_report *r);

/* What an Xid means ("GPU has fallen off the bus"), or NULL. */
const char *nv_xid_meaning(__u32 xid);

/* A GPU by its PCI address, domain << 16 | bus << 8 | slot: "0000:01:00". */
const char *nv_gpu_name(__u32 gpu, char *buf, size_t size);
#endif

#endif /* GPU_BPF_NV_XID_H */
