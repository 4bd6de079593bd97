/* SPDX-License-Identifier: GPL-2.0 */
/* What tests/tpformat's BPF program sends its frontend. */
#ifndef TPFORMAT_H
#define TPFORMAT_H

enum { TPF_RUN = 1, TPF_SWITCH = 2, TPF_RUN_COPY = 3 };

struct tpf_event {
	__u32 kind;
	__s32 name_len;		/* tp_read_str()'s return; TPF_SWITCH: tp_read_bytes()'s */
	char ring[32];		/* the ring's name; the comm for TPF_SWITCH */
	char dev[32];
	__u64 job_count;
	__s64 hw_job_count;
	__u64 id;
	__u64 fence_context;
	__u64 fence_seqno;
	__u64 client_id;
	__s64 pid;
	__s32 bytes_equal;	/* TPF_SWITCH: tp_read_bytes() of prev_comm == tp_read_str()'s */
	__s32 pad;
};

#endif
