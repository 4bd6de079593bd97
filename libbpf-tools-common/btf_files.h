/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's BTF files in /sys/kernel/btf, read (mapped where the kernel
 * allows) once for btf_targets.c and core_btf.c, and dropped after load
 * (btf_targets_resolve()).
 */
#ifndef GPU_BPF_BTF_FILES_H
#define GPU_BPF_BTF_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/btf.h>

struct btf_file {
	char name[64];
	char *data;
	size_t size;
	bool mapped;		/* data mmap()ed, not read */
	const struct btf_header *hdr;
	const char *strs;
	int kernel_fd;		/* 0: not looked up yet */
	__u32 *type_off;	/* where each type starts in the type section (btf_file_index()) */
	__u32 nr_types;
};

/* vmlinux's BTF; NULL with errno set when it cannot be read. */
struct btf_file *btf_file_vmlinux(void);

/* Every module's BTF (split on vmlinux's), how many in *n. */
struct btf_file *btf_file_modules(int *n);

/*
 * Where F's types start (f->type_off, f->nr_types), found once. 0,
 * -EPROTO for a kind not known here (a kernel newer than this code), or
 * -ENOMEM.
 */
int btf_file_index(struct btf_file *f);

/* The bytes type T takes in the type section, or -1 for a kind not known here. */
long btf_file_type_size(const struct btf_type *t);

#endif
