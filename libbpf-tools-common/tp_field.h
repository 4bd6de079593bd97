/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One field of a tracepoint's record, as the BPF side of a classic
 * tracepoint program reads it: where it is in the record, how wide, how to
 * extend it.  The frontend fills these in read-only data before load, from
 * tracefs events/SYS/EVENT/format (tp_format.h); the BPF side reads the
 * record through them (tp_record.bpf.h).  Shared by both sides.
 */
#ifndef GPU_BPF_TP_FIELD_H
#define GPU_BPF_TP_FIELD_H

#include <linux/types.h>

#define TP_FIELD_PRESENT	0x01	/* filled from the format: the record has it */
#define TP_FIELD_SIGNED		0x02	/* signed:1 - sign-extend */
#define TP_FIELD_DATA_LOC	0x04	/* __data_loc: a u32, low 16 bits the data's offset in the record, high 16 its length */
#define TP_FIELD_REL_LOC	0x08	/* __rel_loc: the same, the offset counted from the field's end */
#define TP_FIELD_ARRAY		0x10	/* a fixed array (char comm[16]): size is the whole array's */
#define TP_FIELD_CHAR		0x20	/* of char: a string (__data_loc char[], char name[N], const char *) */
#define TP_FIELD_PTR		0x40	/* a pointer (8 bytes): "const char *name" is a string elsewhere (5.10's ring names) */

/*
 * BPF programs cannot read a record's first 8 bytes (common_type, _flags,
 * _preempt_count, _pid): perf_trace_run_bpf_submit() stores a pt_regs
 * pointer there before the program runs.  tp_field_get() refuses them; use
 * bpf_get_current_pid_tgid() for the pid.
 */
#define TP_RECORD_FIRST		8

/* The slots of TP_RECORD_COUNTERS()'s per-CPU array (records.h). */
#define TP_RECORD_FIRED		0	/* firings of the classic events, counted by a raw tracepoint */
#define TP_RECORD_RAN_SLOT	1	/* runs of their SEC("tracepoint") programs */

struct tp_field {
	__u16 offset;		/* from the record's start (the common_type field) */
	__u16 size;		/* 1, 2, 4 or 8 for integers; 4 for __data_loc/__rel_loc; the array's bytes */
	__u8 flags;		/* TP_FIELD_*; 0: the record has no such field */
	__u8 pad[3];
};

#endif /* GPU_BPF_TP_FIELD_H */
