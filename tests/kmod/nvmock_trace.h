/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one tracepoint of NVIDIA's driver, nvidia:nvidia_dev_xid, for nvmock
 * built as a 575-or-later driver (NVMOCK_XID_TRACEPOINT: tests/kmod/xidtp).
 * The driver defines it from 575.51.02 on (kernel-open/nvidia/
 * nv-tracepoint.h, unchanged to 595.45.04; 570.133.20 and Debian's 535,
 * 550 and 555 have none) and fires it from nv_report_error(), which
 * nv_log_error() calls with every Xid: the PCI device, the Xid, and the
 * message the RM formatted. The same prototype and the same record - a
 * string dev (pci_name), u32 error_code, a string msg, in that order - so
 * the tracefs format nvdrv reads is the real one's; nvmock.sh checks it
 * field by field.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM nvidia

#if !defined(_NVMOCK_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _NVMOCK_TRACE_H

#include <linux/pci.h>
#include <linux/tracepoint.h>
#include <linux/version.h>

/* __assign_str() lost its second argument in 6.10. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define nvmock_assign_str(dst, src) __assign_str(dst)
#else
#define nvmock_assign_str(dst, src) __assign_str(dst, src)
#endif

TRACE_EVENT(nvidia_dev_xid,
	TP_PROTO(const struct pci_dev *pdev, uint32_t error_code, const char *msg),
	TP_ARGS(pdev, error_code, msg),
	TP_STRUCT__entry(
		__string(dev, pci_name(pdev))
		__field(u32, error_code)
		__string(msg, msg)
	),
	TP_fast_assign(
		nvmock_assign_str(dev, pci_name(pdev));
		nvmock_assign_str(msg, msg);
		__entry->error_code = error_code;
	),
	TP_printk("Xid (PCI:%s): %u, %s", __get_str(dev), __entry->error_code, __get_str(msg))
);

#endif /* _NVMOCK_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE nvmock_trace
#include <trace/define_trace.h>
