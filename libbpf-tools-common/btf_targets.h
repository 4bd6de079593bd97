/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The targets of tp_btf and fentry programs in the kernel's BTF, found in
 * one read of /sys/kernel/btf for all of a tool's programs.
 *
 * libbpf (1.1) looks each program's target up by name in vmlinux BTF, a
 * scan of every type, before it tries the modules' (each of which it then
 * loads): under TCG 50 to 100 ms per program, most of a tool's start-up
 * when its events are a module's. Here each name is found in the BTF
 * files' string sections first, and only the one file that has it is
 * walked, comparing offsets.
 */
#ifndef GPU_BPF_BTF_TARGETS_H
#define GPU_BPF_BTF_TARGETS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

/*
 * The type NAME of BTF kind KIND (BTF_KIND_TYPEDEF, BTF_KIND_FUNC): the
 * BTF that defines it ("vmlinux" or a module) into module[len], its type
 * id in the kernel's numbering into *id. 0, or -ENOENT when no BTF has
 * it, or another negative errno.
 */
int btf_target_find(const char *name, int kind, char *module, size_t len, __u32 *id);

/*
 * How many parameters function FUNC takes, from the BTF of MODULE
 * ("vmlinux" or a module's name): for a prototype that changed between
 * versions of a driver. A negative errno when that BTF is not there
 * (-ENOENT: a module built without it) or lacks the function.
 */
int btf_func_params(const char *module, const char *func);

/*
 * The byte offset of MEMBER in struct TYPE, from the BTF of MODULE: for a
 * driver's struct whose layout changed. A negative errno when that BTF is
 * not there, or lacks the struct or the member (-ENOENT).
 */
int btf_member_offset(const char *module, const char *type, const char *member);

/*
 * The module whose BTF defines the trace event EVENT (its btf_trace_EVENT
 * typedef), into module[len]. false when no module's BTF has it (built
 * in, or a module without BTF).
 */
bool tracepoint_btf_module(const char *event, char *module, size_t len);

/*
 * Have libbpf load every tp_btf and fentry program with its target found
 * by btf_target_find() (section handlers: before any object is opened).
 * 0 or a negative errno.
 */
int btf_targets_register(void);

/*
 * Find the targets of OBJ's programs to load, then drop the files read:
 * before bpf_object__load(), so that they and libbpf's parse of vmlinux's
 * BTF (each some megabytes) are not in memory at once. Returns how many
 * were found; those not are looked up again at load, which reports them.
 */
struct bpf_object;
int btf_targets_resolve(struct bpf_object *obj);

/*
 * Forget what was read and found (after load; tests that change the files
 * under probe_set_root()).
 */
void btf_targets_reset(void);

#endif
