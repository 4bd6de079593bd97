/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's BTF cut to the types an object's CO-RE relocations can
 * match, for libbpf to relocate against (its btf_custom_path).
 *
 * libbpf (1.1) reads vmlinux's BTF a page per read() and parses it, 150 to
 * 200 ms under TCG, then scans every type of it once per type relocated
 * (15 to 30 ms each), and loads every module's BTF when a type is not
 * vmlinux's. Here the candidates are picked by libbpf's rule (a type of the
 * relocated type's name and kind: vmlinux's if it has one, else every
 * module's) in one walk of the files btf_targets.c reads anyway, and copied
 * with what they hold by value into a BTF of a few hundred types. Types
 * only pointed to become empty anonymous ones, and only the candidates keep
 * their names: libbpf finds the same candidates, compares the same members,
 * and computes the same offsets.
 */
#ifndef GPU_BPF_CORE_BTF_H
#define GPU_BPF_CORE_BTF_H

#include <bpf/libbpf.h>

/*
 * Options for NAME_bpf__open_opts(): libbpf takes CO-RE's target BTF from
 * a file that core_btf_write() fills before load. NULL (libbpf's own
 * search) if that file cannot be made, or vmlinux's BTF has a kind of
 * type this code does not know (a newer libbpf may).
 */
const struct bpf_object_open_opts *core_btf_open_opts(void);

/*
 * Write the BTF that skeleton S's relocations need, before its load (when
 * it was opened with core_btf_open_opts()). 0 or a negative errno:
 * -EOPNOTSUPP for an object that asks for the kernel's type ids or whether
 * a type matches (bpf_core_type_id_kernel(), bpf_core_type_matches()),
 * which only the whole BTF answers.
 */
int core_btf_write(const struct bpf_object_skeleton *s);

#endif
