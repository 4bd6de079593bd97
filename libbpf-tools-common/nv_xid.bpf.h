/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NVIDIA Xids, the kernel side (nv_xid.h): what each of the driver's
 * reports holds, read into the record a tool sends. nvidia.ko, built by
 * DKMS, usually has no BTF: nv_printf and nv_log_error are kprobes whose
 * arguments come from registers, nv_state_t is read at the offsets every
 * generation shares, and the tracepoint through its format (the tool's
 * frontend fills the TP_FIELDs, nv_xid_tracepoint()).
 *
 * Include after kernel_types.bpf.h, <asm/ptrace.h> and tp_record.bpf.h.
 */
#ifndef GPU_BPF_NV_XID_BPF_H
#define GPU_BPF_NV_XID_BPF_H

#include "nv_xid.h"

/* nv_state_t (nv.h): priv, os_state, flags, then nv_pci_info_t pci_info. */
#define NV_STATE_PCI_DOMAIN	20
#define NV_STATE_PCI_BUS	24
#define NV_STATE_PCI_SLOT	25

/* nv_printf's level of the RM's Xid reports. */
#define NV_XID_LEVEL 0xFFFFFFFFu

/* domain << 16 | bus << 8 | slot of an nv_state_t (or nv_linux_state_t, which starts with it). */
static __always_inline __u32 nv_gpu(void *nv)
{
	__u32 domain = 0;
	__u8 bus = 0, slot = 0;

	if (!nv)
		return 0;
	bpf_probe_read_kernel(&domain, sizeof(domain), nv + NV_STATE_PCI_DOMAIN);
	bpf_probe_read_kernel(&bus, sizeof(bus), nv + NV_STATE_PCI_BUS);
	bpf_probe_read_kernel(&slot, sizeof(slot), nv + NV_STATE_PCI_SLOT);
	return domain << 16 | (__u32)bus << 8 | slot;
}

/* Xids come from the driver's tracepoint: set by the frontend (nv_xid_tracepoint()). */
const volatile bool nv_xid_from_tracepoint = false;

/*
 * The thread's last nv_printf report of an Xid: the tracepoint's report of
 * it (575 and later) and nv_log_error's (before) follow, on the same thread.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct nv_xid);
} nv_xid_prints SEC(".maps");

/*
 * nv_printf's format as read, the state of its parse and the Xid it is
 * parsed into: too big for the stack, and the parse's state is kept here,
 * where the verifier does not follow its values (it would follow each
 * combination of them through every byte of the format).
 */
struct nv_xid_scratch {
	char fmt[XID_FMT_LEN];
	/* volatile: read back from the map each time, the verifier knows none of them */
	volatile __u64 window, before;	/* the bytes before the one parsed, before the last '%' */
	volatile __s32 pending;		/* the byte parsed follows a '%' */
	volatile __s32 conv;		/* conversions so far */
	volatile __s32 xid_arg, pid_arg, name_arg, msg_arg;
	struct nv_xid x;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct nv_xid_scratch);
} nv_xid_scratches SEC(".maps");

/* The CPU's scratch Xid, for a program to read a report into before it sends it. */
static __always_inline struct nv_xid *nv_xid_scratch(void)
{
	__u32 zero = 0;
	struct nv_xid_scratch *sc = bpf_map_lookup_elem(&nv_xid_scratches, &zero);

	return sc ? &sc->x : NULL;
}

/* nv_printf's arguments after the format: in registers, then on the stack. */
#define XID_ARGS (4 + XID_SLOTS)

/* The last bytes of the format before a conversion, as a number. */
#define TAG3(a, b, c) ((__u64)(a) << 16 | (__u64)(b) << 8 | (__u64)(c))
#define TAG4(a, b, c, d) ((__u64)TAG3(a, b, c) << 8 | (__u64)(d))
#define TAG5(a, b, c, d, e) ((__u64)TAG4(a, b, c, d) << 8 | (__u64)(e))

/* Argument k (-1: none) of args. */
static __always_inline __u64 nv_arg(const __u64 *args, int k)
{
	__u64 v = 0;
	int j;

	for (j = 0; j < XID_ARGS; j++)
		if (j == k)
			v = args[j];
	return v;
}

/* Argument k read as a string into out, and `bit` set in *has, if it is a kernel address. */
static __always_inline void nv_arg_str(const __u64 *args, int k, char *out, __u32 size,
				       __u32 *has, __u32 bit)
{
	__u64 v = nv_arg(args, k);

	out[0] = '\0';
	if (k >= 0 && v >> 47 && bpf_probe_read_kernel_str(out, size, (void *)v) > 0)
		*has |= bit;
}

/*
 * nv_printf(level, fmt, ...) at its entry, if it reports an Xid (it runs
 * on every ioctl too: the level is tested first): the Xid, read into the
 * CPU's scratch record. Which argument is which the format says: the
 * first three conversions are the PCI domain, bus and device, the one
 * after "): " the Xid, those after "pid=" and "name=" the process, the
 * one after those the message. NULL if it is no Xid.
 */
static __always_inline struct nv_xid *nv_printf_xid(struct pt_regs *ctx, __u32 level,
						    const char *fmt)
{
	static const char prefix[] = "NVRM: Xid";
	struct nv_xid_scratch *sc;
	__u64 args[XID_ARGS];
	__u32 zero = 0;
	int i;
	char c;

	if (level != NV_XID_LEVEL || !fmt)
		return NULL;
	sc = bpf_map_lookup_elem(&nv_xid_scratches, &zero);
	if (!sc || bpf_probe_read_kernel_str(sc->fmt, sizeof(sc->fmt), fmt) < 0)
		return NULL;
	for (i = 0; i < sizeof(prefix) - 1; i++)
		if (sc->fmt[i] != prefix[i])
			return NULL;
	args[0] = PT_REGS_PARM3(ctx);
	args[1] = PT_REGS_PARM4(ctx);
	args[2] = PT_REGS_PARM5(ctx);
	args[3] = ctx->r9;	/* PT_REGS_PARM6: libbpf >= 1.2 */
	/* At entry the stack pointer is at the return address: arguments follow. */
	if (bpf_probe_read_kernel(&args[4], XID_SLOTS * sizeof(__u64), (void *)PT_REGS_SP(ctx) + 8))
		__builtin_memset(&args[4], 0, XID_SLOTS * sizeof(__u64));
	sc->window = sc->before = 0;
	sc->pending = sc->conv = 0;
	sc->xid_arg = sc->pid_arg = sc->name_arg = sc->msg_arg = -1;
	for (i = 0; i < XID_FMT_LEN; i++) {
		c = sc->fmt[i];
		if (!c)
			break;
		/* The byte after a '%' that starts a conversion ("%%" is a '%'). */
		if (sc->pending) {
			sc->pending = 0;
			if (c == '%')
				continue;
			if ((sc->before & 0xffffff) == TAG3(')', ':', ' '))
				sc->xid_arg = sc->conv;
			else if ((sc->before & 0xffffffff) == TAG4('p', 'i', 'd', '='))
				sc->pid_arg = sc->conv;
			else if ((sc->before & 0xffffffffffULL) == TAG5('n', 'a', 'm', 'e', '='))
				sc->name_arg = sc->conv;
			else if (sc->name_arg >= 0 && sc->msg_arg < 0)
				sc->msg_arg = sc->conv;
			sc->conv++;
		}
		if (c == '%') {
			sc->pending = 1;
			sc->before = sc->window;
		}
		sc->window = sc->window << 8 | (__u8)c;
	}
	if (sc->xid_arg < 3)
		return NULL;
	sc->x.gpu = ((__u32)args[0] & 0xffff) << 16 | ((__u32)args[1] & 0xff) << 8 |
		    ((__u32)args[2] & 0xff);
	sc->x.xid = nv_arg(args, sc->xid_arg);
	sc->x.has = 0;
	nv_arg_str(args, sc->pid_arg, sc->x.pid, sizeof(sc->x.pid), &sc->x.has, NV_XID_PID);
	nv_arg_str(args, sc->name_arg, sc->x.name, sizeof(sc->x.name), &sc->x.has, NV_XID_NAME);
	nv_arg_str(args, sc->msg_arg, sc->x.msg, sizeof(sc->x.msg), &sc->x.has, NV_XID_MSG);
	return &sc->x;
}

/*
 * An Xid nv_printf reported, kept for the thread's report of it that
 * follows; true if it is the Xid's report of its own (nv_log_error's after
 * it is not), false where the tracepoint reports Xids.
 */
static __always_inline bool nv_xid_printed(const struct nv_xid *x)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();

	bpf_map_update_elem(&nv_xid_prints, &tid, x, BPF_ANY);
	return !nv_xid_from_tracepoint;
}

/*
 * The thread's nv_printf of Xid `xid`, just before, taken: its pid, name
 * (and message, where x has none) into *x unless x is NULL. False if there
 * was none.
 */
static __always_inline bool nv_xid_take_print(__u32 xid, struct nv_xid *x)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct nv_xid *p = bpf_map_lookup_elem(&nv_xid_prints, &tid);

	if (!p || p->xid != xid)
		return false;
	if (!x)
		goto taken;
	__builtin_memcpy(x->pid, p->pid, sizeof(x->pid));
	__builtin_memcpy(x->name, p->name, sizeof(x->name));
	if (!(x->has & NV_XID_MSG))
		__builtin_memcpy(x->msg, p->msg, sizeof(x->msg));
	x->has |= p->has;
taken:
	bpf_map_delete_elem(&nv_xid_prints, &tid);
	return true;
}

/*
 * nv_log_error(nv_state_t *nv, u32 xid, const char *fmt, va_list), before
 * 575, for an Xid nv_printf did not report (nv_xid_take_print(xid, NULL)
 * false): the Xid into *x.
 */
static __always_inline void nv_log_error_read(void *nv, __u32 xid, struct nv_xid *x)
{
	x->gpu = nv_gpu(nv);
	x->xid = xid;
	x->has = 0;
	x->pid[0] = x->name[0] = x->msg[0] = '\0';
}

/*
 * nvidia:nvidia_dev_xid (575 and later; nv_report_error(), from
 * nv_log_error): the GPU's PCI name, the Xid and the RM's message, the
 * pid and name from the thread's nv_printf of it. A classic tracepoint:
 * DKMS builds have no BTF for a tp_btf.
 */
TP_FIELD(f_xid_dev);
TP_FIELD(f_xid_code);
TP_FIELD(f_xid_msg);

/* pci_name()'s "DDDD:BB:SS.F" as domain << 16 | bus << 8 | slot. */
static __always_inline __u32 nv_gpu_of_pci_name(const char *name)
{
	__u32 gpu = 0, part = 0, field = 0;
	int i;
	char c;

	for (i = 0; i < XID_DEV_LEN && field < 3; i++) {
		c = name[i];
		if (c == ':' || c == '.' || !c) {
			gpu |= field == 0 ? (part & 0xffff) << 16 : field == 1 ? (part & 0xff) << 8 :
			       part & 0xff;
			field++;
			part = 0;
			if (!c)
				break;
		} else {
			part = part << 4 | (c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
		}
	}
	return gpu;
}

/* The tracepoint's report, into *x. */
static __always_inline void nv_xid_tp_read(void *ctx, struct nv_xid *x)
{
	char dev[XID_DEV_LEN];

	tp_read_str(ctx, &f_xid_dev, dev, sizeof(dev));
	x->gpu = nv_gpu_of_pci_name(dev);
	x->xid = tp_read_u64(ctx, &f_xid_code);
	x->has = NV_XID_MSG;
	x->pid[0] = x->name[0] = '\0';
	tp_read_str(ctx, &f_xid_msg, x->msg, sizeof(x->msg));
	nv_xid_take_print(x->xid, x);
}

#endif /* GPU_BPF_NV_XID_BPF_H */
