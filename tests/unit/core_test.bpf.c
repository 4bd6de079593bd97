// SPDX-License-Identifier: GPL-2.0
/*
 * test_core_btf: one of each CO-RE relocation the tools make, against the
 * kernel's task_struct: members by value and through anonymous unions, an
 * array, a bitfield, a pointer, a member and a type no kernel has, an enum
 * value, a type's size. Flavored names (___t), as a tool's own may be.
 */
#include "kernel_types.bpf.h"

struct list_head___t {
	struct list_head___t *next, *prev;
} __core;

struct sched_entity___t {
	u64 vruntime;
} __core;

struct mm_struct___t;

struct task_struct___t {
	int pid;
	int tgid;
	char comm[16];
	unsigned int flags;
	struct mm_struct___t *mm;
	struct list_head___t tasks;
	struct sched_entity___t se;
	unsigned sched_reset_on_fork:1;
	int gpu_bpf_no_such_member;
} __core;

struct gpu_bpf_no_such_type {
	int x;
} __core;

enum pid_type___t {
	PIDTYPE_TGID___t = 1,
};

__u64 out[16] = {};

SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch, bool preempt, struct task_struct___t *prev)
{
	out[0] = bpf_core_field_offset(prev->pid);
	out[1] = bpf_core_field_offset(prev->se.vruntime);
	out[2] = bpf_core_field_size(prev->comm);
	out[3] = bpf_core_field_offset(prev->tasks.prev);
	out[4] = bpf_core_field_exists(prev->gpu_bpf_no_such_member);
	out[5] = bpf_core_field_exists(prev->mm);
	out[6] = bpf_core_type_size(struct task_struct___t);
	out[7] = bpf_core_type_exists(struct gpu_bpf_no_such_type);
	out[8] = bpf_core_enum_value(enum pid_type___t, PIDTYPE_TGID___t);
	out[9] = BPF_CORE_READ_BITFIELD(prev, sched_reset_on_fork);
	out[10] = BPF_CORE_READ(prev, tgid) + prev->flags;
	return 0;
}

/*
 * Types of the made-up kernel in test_candidates() (a fake /sys/kernel/btf):
 * never loaded, their relocations only picked.
 */
struct gpu_bpf_shared___t {
	int a;
} __core;

struct gpu_bpf_modonly___t {
	struct gpu_bpf_shared___t s;
} __core;

SEC("tp_btf/gpu_bpf_no_such_event")
int BPF_PROG(on_fake, struct gpu_bpf_modonly___t *m, struct gpu_bpf_shared___t *s)
{
	out[11] = m->s.a + s->a;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
