/* SPDX-License-Identifier: GPL-2.0 */
/* A made-up /sys/kernel/btf under a temporary root, for probe_set_root(). */
#ifndef GPU_BPF_FAKE_BTF_H
#define GPU_BPF_FAKE_BTF_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <bpf/btf.h>

/* ROOT (a mkdtemp() template, made a directory) with an empty sys/kernel/btf. 0 or -1. */
static int fake_btf_root(char *root)
{
	char cmd[PATH_MAX];

	if (!mkdtemp(root))
		return -1;
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/sys/kernel/btf", root);
	return system(cmd) ? -1 : 0;
}

/* BTF as ROOT/sys/kernel/btf/NAME. 0 or -1. */
static int fake_btf_write(const char *root, const struct btf *btf, const char *name)
{
	char path[PATH_MAX];
	const void *data;
	__u32 size;
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/kernel/btf/%s", root, name);
	data = btf__raw_data(btf, &size);
	f = fopen(path, "w");
	if (!data || !f || fwrite(data, 1, size, f) != size)
		return -1;
	return fclose(f);
}

static void fake_btf_remove(const char *root)
{
	char cmd[PATH_MAX];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		fprintf(stderr, "warning: could not remove %s\n", root);
}

#endif
