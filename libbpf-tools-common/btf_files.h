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
};

/* vmlinux's BTF; NULL with errno set when it cannot be read. */
const struct btf_file *btf_file_vmlinux(void);

/* Every module's BTF (split on vmlinux's), how many in *n. */
const struct btf_file *btf_file_modules(int *n);

/* The bytes type T takes in the type section, or -1 for a kind not known here. */
long btf_file_type_size(const struct btf_type *t);

#endif
