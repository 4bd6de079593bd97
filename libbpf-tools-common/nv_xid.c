// SPDX-License-Identifier: GPL-2.0
/* NVIDIA Xids: the source chosen, a record read, the names (nv_xid.h). */
#include <stdio.h>
#include <string.h>

#include "nv_xid.h"
#include "tp_format.h"

bool nv_xid_tracepoint(struct tp_field *dev, struct tp_field *code, struct tp_field *msg,
		       char *why, size_t size)
{
	struct tp_format fmt;
	int err;

	err = tp_format_load("nvidia", "nvidia_dev_xid", &fmt);
	if (!err)
		err = tp_field_get(&fmt, "dev", TP_WANT_STR, dev) ?:
		      tp_field_get(&fmt, "error_code", TP_WANT_INT, code) ?:
		      tp_field_get(&fmt, "msg", TP_WANT_STR, msg);
	/* No fields: no such event, or its format unreadable. */
	snprintf(why, size, "%s", err && fmt.nr_fields ? fmt.error : "");
	return !err;
}

void nv_xid_report(const struct nv_xid *x, struct xid_report *r)
{
	r->gpu = x->gpu;
	r->xid = x->xid;
	r->pid = x->has & NV_XID_PID ? x->pid : NULL;
	r->name = x->has & NV_XID_NAME ? x->name : NULL;
	r->msg = x->has & NV_XID_MSG ? x->msg : NULL;
}

/* Xid meanings: NVIDIA's Xid catalog (the "Xid Errors" document), no header. */
static const struct {
	__u32 xid;
	const char *meaning;
} meanings[] = {
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

const char *nv_xid_meaning(__u32 xid)
{
	size_t i;

	for (i = 0; i < sizeof(meanings) / sizeof(meanings[0]); i++)
		if (meanings[i].xid == xid)
			return meanings[i].meaning;
	return NULL;
}

const char *nv_gpu_name(__u32 gpu, char *buf, size_t size)
{
	snprintf(buf, size, "%04x:%02x:%02x", gpu >> 16, (gpu >> 8) & 0xff, gpu & 0xff);
	return buf;
}
