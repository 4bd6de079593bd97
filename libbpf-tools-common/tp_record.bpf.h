/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a classic tracepoint's record (SEC("tracepoint"), ctx = the
 * record the kernel filled for perf/BPF) through field descriptors the
 * frontend loaded from tracefs before load (tp_format.h): for drivers whose
 * module has no BTF, where tp_btf programs and CO-RE reads of the module's
 * types cannot load.  vmlinux BTF is still there: CO-RE on task_struct and
 * friends works as usual.
 *
 *   TP_FIELD(f_ring);                          rodata, filled by tp_field_get()
 *   TP_FIELD(f_job_count);
 *
 *   SEC("tracepoint")                          attached by name at run time
 *   int on_run(void *ctx)
 *   {
 *           char ring[32];
 *           __u64 jobs = tp_read_u64(ctx, &f_job_count);
 *           tp_read_str(ctx, &f_ring, ring, sizeof(ring));
 *
 * The descriptors are in .rodata, frozen before the program is verified, so
 * the verifier knows each one's offset, size and flags as constants: a
 * switch on the size keeps one branch, an absent field's reads vanish.  The
 * offset cannot become part of a ctx load's instruction, though (the
 * verifier wants ctx loads at an offset fixed in the instruction), so every
 * read is one bpf_probe_read_kernel() from the record: see "the cost" in
 * tests/README.md.  Records live in the per-CPU perf trace buffer (8 KiB),
 * so a read past a short record's end stays in kernel memory the kernel
 * owns; probe reads cannot fault anyway.
 */
#ifndef GPU_BPF_TP_RECORD_BPF_H
#define GPU_BPF_TP_RECORD_BPF_H

#include <linux/types.h>
#include <stdbool.h>
#include <bpf/bpf_helpers.h>

#include "tp_field.h"

/* A field descriptor in .rodata, zero (absent) until the frontend fills it. */
#define TP_FIELD(name) const volatile struct tp_field name = {}

/* The largest record offset a __data_loc/__rel_loc may point at (PERF_MAX_TRACE_SIZE). */
#define TP_RECORD_MAX 8192

static __always_inline bool tp_has(const volatile struct tp_field *f)
{
	return f->flags & TP_FIELD_PRESENT;
}

/*
 * The integer field `f` of the record: 1, 2, 4 or 8 bytes, sign-extended
 * when the format says signed:1, else zero-extended.  0 when the record
 * has no such field (tp_has() tells which), or the read failed.
 */
static __always_inline __u64 tp_read_u64(void *ctx, const volatile struct tp_field *f)
{
	const void *p = (const char *)ctx + f->offset;
	bool sign = f->flags & TP_FIELD_SIGNED;

	if (!(f->flags & TP_FIELD_PRESENT))
		return 0;
	switch (f->size) {
	case 1: {
		__u8 v = 0;

		bpf_probe_read_kernel(&v, 1, p);
		return sign ? (__u64)(__s64)(__s8)v : v;
	}
	case 2: {
		__u16 v = 0;

		bpf_probe_read_kernel(&v, 2, p);
		return sign ? (__u64)(__s64)(__s16)v : v;
	}
	case 4: {
		__u32 v = 0;

		bpf_probe_read_kernel(&v, 4, p);
		return sign ? (__u64)(__s64)(__s32)v : v;
	}
	case 8: {
		__u64 v = 0;

		bpf_probe_read_kernel(&v, 8, p);
		return v;
	}
	}
	return 0;
}

/* Signed fields as s64: the same bits, for readability at the call site. */
static __always_inline __s64 tp_read_s64(void *ctx, const volatile struct tp_field *f)
{
	return (__s64)tp_read_u64(ctx, f);
}

/*
 * Where a __data_loc/__rel_loc field's data is (offset from the record's
 * start) and how long it is; the offset and size of a fixed array; -1 if
 * the field is absent or unreadable.
 */
static __always_inline int tp_locate(void *ctx, const volatile struct tp_field *f, __u32 *len)
{
	__u32 loc = 0, off;

	if (!(f->flags & TP_FIELD_PRESENT))
		return -1;
	if (!(f->flags & (TP_FIELD_DATA_LOC | TP_FIELD_REL_LOC))) {
		*len = f->size;
		return f->offset;
	}
	if (bpf_probe_read_kernel(&loc, 4, (const char *)ctx + f->offset))
		return -1;
	off = loc & 0xffff;
	*len = loc >> 16;
	if (f->flags & TP_FIELD_REL_LOC)
		off += f->offset + 4;	/* counted from the field's end */
	if (off >= TP_RECORD_MAX)
		return -1;
	return off;
}

/*
 * The string field `f` (__data_loc char[], __rel_loc char[], char name[N],
 * or const char *name: the string it points at)
 * into buf[size], always NUL-terminated: "" when absent.  Returns what
 * bpf_probe_read_kernel_str() does: the bytes copied with the NUL, or < 0.
 * A fixed array is read no further than its own size (a name filling all
 * of it loses its last character to the NUL).
 */
static __always_inline int tp_read_str(void *ctx, const volatile struct tp_field *f, char *buf, __u32 size)
{
	__u32 len = 0;
	int off;

	buf[0] = '\0';
	if ((f->flags & (TP_FIELD_PRESENT | TP_FIELD_PTR)) == (TP_FIELD_PRESENT | TP_FIELD_PTR)) {
		/* "const char *name" (5.10): the record holds the string's address */
		const char *str = NULL;

		if (f->size != 8 || bpf_probe_read_kernel(&str, 8, (const char *)ctx + f->offset) || !str)
			return -1;
		return bpf_probe_read_kernel_str(buf, size, str);
	}
	off = tp_locate(ctx, f, &len);
	if (off < 0)
		return -1;
	if ((f->flags & (TP_FIELD_DATA_LOC | TP_FIELD_REL_LOC)) && !len)
		return 0;	/* an empty dynamic array: nothing of it in the record */
	if (!(f->flags & (TP_FIELD_DATA_LOC | TP_FIELD_REL_LOC)) && f->size < size)
		size = f->size;	/* a constant: f is in frozen rodata */
	return bpf_probe_read_kernel_str(buf, size, (const char *)ctx + off);
}

/*
 * The bytes of an array field (a __data_loc of any type, u64 dst[]; or a
 * fixed array, u32 src_data[4]) into buf[size]: how many were copied, at
 * most size, 0 when absent or empty, < 0 on a failed read.
 */
static __always_inline int tp_read_bytes(void *ctx, const volatile struct tp_field *f, void *buf, __u32 size)
{
	__u32 len = 0;
	int off = tp_locate(ctx, f, &len);

	if (off < 0)
		return 0;
	if (len > size)
		len = size;
	if (len == 0)
		return 0;
	/* bounds the verifier can see for a length read from the record */
	len &= 0xffff;
	if (len > size)
		return -1;
	if (bpf_probe_read_kernel(buf, len, (const char *)ctx + off))
		return -1;
	return len;
}

/*
 * The record copied once, read many: for handlers reading several fields,
 * one bpf_probe_read_kernel() of the record's first `len` bytes (the
 * frontend's tp_format_fixed_size(), in rodata) into a per-CPU buffer,
 * then tp_get_u64() per field, a plain load at an offset the verifier
 * knows (rodata): one helper call per event instead of one per field.
 * A tool that uses it puts TP_RECORD_BUF() at file scope once.
 */
#define TP_COPY_MAX 256

struct tp_record_buf {
	__u8 b[TP_COPY_MAX];
};

#define TP_RECORD_BUF()                                                      \
	struct {                                                             \
		__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);                     \
		__uint(max_entries, 1);                                      \
		__type(key, __u32);                                          \
		__type(value, struct tp_record_buf);                         \
	} tp_record_bufs SEC(".maps")

/* This CPU's copy of the record's first len bytes (at most TP_COPY_MAX); NULL if it failed. */
#define tp_record_copy(ctx, len)                                             \
	({                                                                   \
		__u32 __zero = 0, __len = (len);                             \
		struct tp_record_buf *__r = bpf_map_lookup_elem(&tp_record_bufs, &__zero); \
		if (__len > TP_COPY_MAX)                                     \
			__len = TP_COPY_MAX;                                 \
		if (__r && bpf_probe_read_kernel(__r->b, __len, (ctx)))      \
			__r = NULL;                                          \
		(const void *)__r;                                           \
	})

/* tp_read_u64() on a copy: 0 when absent or beyond the copy. */
static __always_inline __u64 tp_get_u64(const void *rec, const volatile struct tp_field *f)
{
	const __u8 *p = (const __u8 *)rec + f->offset;
	bool sign = f->flags & TP_FIELD_SIGNED;

	if (!rec || !(f->flags & TP_FIELD_PRESENT) || f->offset + f->size > TP_COPY_MAX)
		return 0;
	switch (f->size) {
	case 1:
		return sign ? (__u64)(__s64) * (const __s8 *)p : *p;
	case 2:
		return sign ? (__u64)(__s64) * (const __s16 *)p : *(const __u16 *)p;
	case 4:
		return sign ? (__u64)(__s64) * (const __s32 *)p : *(const __u32 *)p;
	case 8:
		return *(const __u64 *)p;
	}
	return 0;
}

/*
 * What the kernel skipped (records.h, records_count_skipped()): at file
 * scope once, TP_RECORD_COUNTERS(); first in every SEC("tracepoint")
 * program, before any filter, TP_RECORD_RAN().  records_fired is attached
 * by the frontend as a raw tracepoint to each classic event, after the
 * classic program: fired - ran is what was skipped.
 */
#define TP_RECORD_COUNTERS()                                                 \
	struct {                                                             \
		__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);                     \
		__uint(max_entries, 2);                                      \
		__type(key, __u32);                                          \
		__type(value, __u64);                                        \
	} records_counts SEC(".maps");                                      \
	SEC("raw_tp")                                                        \
	int records_fired(void *ctx)                                         \
	{                                                                    \
		tp_record_count(&records_counts, TP_RECORD_FIRED);           \
		return 0;                                                    \
	}

static __always_inline void tp_record_count(void *map, __u32 slot)
{
	__u64 *n = bpf_map_lookup_elem(map, &slot);

	if (n)
		*n += 1;	/* per CPU, and no program of this object nests in itself here */
}

#define TP_RECORD_RAN() tp_record_count(&records_counts, TP_RECORD_RAN_SLOT)

#endif /* GPU_BPF_TP_RECORD_BPF_H */
