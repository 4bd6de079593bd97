/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel types the tools read, declared by hand instead of a
 * multi-megabyte vmlinux.h: each with preserve_access_index, so libbpf
 * relocates every field access against the running kernel's (and its
 * modules') BTF.  Only the fields a tool reads are listed; a field that
 * some kernels lack is read behind bpf_core_field_exists().
 */
#ifndef GPU_BPF_KERNEL_TYPES_BPF_H
#define GPU_BPF_KERNEL_TYPES_BPF_H

#include <linux/types.h>
#include <linux/bpf.h>
#include <stdbool.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

typedef __u8 u8;
typedef __u32 u32;
typedef __s32 s32;
typedef __u64 u64;
typedef __s64 s64;

#define __core __attribute__((preserve_access_index))

#define TASK_COMM_LEN 16

typedef struct {
	int counter;
} atomic_t;

struct kobject {
	const char *name;
} __core;

struct device {
	struct kobject kobj;
	const char *init_name;
} __core;

/* include/linux/dma-fence.h */
struct dma_fence {
	u64 context;
	u64 seqno;
	unsigned long flags;
	int error;
} __core;

#endif /* GPU_BPF_KERNEL_TYPES_BPF_H */
