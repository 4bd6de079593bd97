// SPDX-License-Identifier: GPL-2.0
/*
 * The classic-tracepoint path on a real kernel (tests/guest/tpformat.sh):
 * gpu_scheduler's run event read through descriptors the frontend loaded
 * from tracefs (tp_record.bpf.h), no module BTF involved; sched_switch's
 * fixed char array; and sign extension checked on the bytes of a real
 * 8-byte field (a kernel pointer on 6.1: its high bytes are 0xff).
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "tp_record.bpf.h"
#include "tpformat.h"

/* gpu_scheduler's run event: drm_run_job (<= 6.16), drm_sched_job_run (>= 6.17) */
TP_FIELD(f_name);
TP_FIELD(f_dev);
TP_FIELD(f_job_count);
TP_FIELD(f_hw_job_count);
TP_FIELD(f_id);
TP_FIELD(f_fence_context);
TP_FIELD(f_fence_seqno);
TP_FIELD(f_client_id);

/* the bytes of one 8-byte field read again as narrower integers */
TP_FIELD(f_wide);
TP_FIELD(f_s8);
TP_FIELD(f_u8);
TP_FIELD(f_s16);
TP_FIELD(f_s32);
TP_FIELD(f_u32);

/* the run event's fixed part: tp_record_copy()'s length (on_run_copy) */
const volatile __u32 run_len = 0;

/* sched/sched_switch */
TP_FIELD(f_prev_comm);
TP_FIELD(f_prev_pid);

__u32 targ_pid = 0;		/* set after load: the child whose switch-out is recorded */
__u64 sign_checks = 0;
__u64 sign_mismatches = 0;
__u64 sign_negative = 0;	/* checks where the top byte was negative as s8 */
__u64 lost = 0;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} events SEC(".maps");

TP_RECORD_BUF();

static __always_inline void check_sign(void *ctx)
{
	__u64 wide = tp_read_u64(ctx, &f_wide);
	__s64 s8 = tp_read_s64(ctx, &f_s8), s16 = tp_read_s64(ctx, &f_s16), s32 = tp_read_s64(ctx, &f_s32);
	__u64 u8 = tp_read_u64(ctx, &f_u8), u32 = tp_read_u64(ctx, &f_u32);

	if (!tp_has(&f_wide))
		return;
	__sync_fetch_and_add(&sign_checks, 1);
	if (s8 != (__s64)(__s8)(wide >> 56) || u8 != (wide >> 56) || s16 != (__s64)(__s16)(wide >> 48) ||
	    s32 != (__s64)(__s32)(wide >> 32) || u32 != (wide >> 32))
		__sync_fetch_and_add(&sign_mismatches, 1);
	if (s8 < 0)
		__sync_fetch_and_add(&sign_negative, 1);
}

SEC("tracepoint")
int on_run(void *ctx)
{
	struct tpf_event *e;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&lost, 1);
		return 0;
	}
	e->kind = TPF_RUN;
	e->name_len = tp_read_str(ctx, &f_name, e->ring, sizeof(e->ring));
	tp_read_str(ctx, &f_dev, e->dev, sizeof(e->dev));
	e->job_count = tp_read_u64(ctx, &f_job_count);
	e->hw_job_count = tp_read_s64(ctx, &f_hw_job_count);
	e->id = tp_read_u64(ctx, &f_id);
	e->fence_context = tp_read_u64(ctx, &f_fence_context);
	e->fence_seqno = tp_read_u64(ctx, &f_fence_seqno);
	e->client_id = tp_read_u64(ctx, &f_client_id);
	e->pid = (__u32)bpf_get_current_pid_tgid();	/* common_pid: not readable, see tp_field.h */
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/* The sign-extension checks, apart so that on_run's run time is a handler's. */
SEC("tracepoint")
int on_run_sign(void *ctx)
{
	check_sign(ctx);
	return 0;
}

/* The same event, its integers read from one copy of the record (tp_record_copy). */
SEC("tracepoint")
int on_run_copy(void *ctx)
{
	const void *rec = tp_record_copy(ctx, run_len);
	struct tpf_event *e;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&lost, 1);
		return 0;
	}
	e->kind = TPF_RUN_COPY;
	e->name_len = tp_read_str(ctx, &f_name, e->ring, sizeof(e->ring));
	tp_read_str(ctx, &f_dev, e->dev, sizeof(e->dev));
	e->job_count = tp_get_u64(rec, &f_job_count);
	e->hw_job_count = (__s64)tp_get_u64(rec, &f_hw_job_count);
	e->id = tp_get_u64(rec, &f_id);
	e->fence_context = tp_get_u64(rec, &f_fence_context);
	e->fence_seqno = tp_get_u64(rec, &f_fence_seqno);
	e->client_id = tp_get_u64(rec, &f_client_id);
	e->pid = (__u32)bpf_get_current_pid_tgid();
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/* Nothing: the baseline of the two above's run time (bpf_stats). */
SEC("tracepoint")
int on_run_empty(void *ctx)
{
	return 0;
}

SEC("tracepoint")
int on_switch(void *ctx)
{
	struct tpf_event *e;
	__s64 pid = tp_read_s64(ctx, &f_prev_pid);

	if (!targ_pid || pid != targ_pid)
		return 0;
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&lost, 1);
		return 0;
	}
	__builtin_memset(e, 0, sizeof(*e));
	e->kind = TPF_SWITCH;
	e->pid = pid;
	e->name_len = tp_read_str(ctx, &f_prev_comm, e->ring, sizeof(e->ring));
	/* the same array as bytes: all 16, NUL and what follows it included */
	if (tp_read_bytes(ctx, &f_prev_comm, e->dev, sizeof(e->dev)) == 16) {
		int i;

		e->bytes_equal = 1;
		for (i = 0; i < 16; i++) {
			if (e->ring[i] != e->dev[i])
				e->bytes_equal = 0;
			if (!e->ring[i])
				break;
		}
	}
	bpf_ringbuf_submit(e, 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
