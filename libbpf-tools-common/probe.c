// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "probe.h"

static const char *root = "";

void probe_set_root(const char *r)
{
	root = r ? r : "";
}

const char *probe_root(void)
{
	return root;
}

static bool path_exists(const char *fmt, const char *a, const char *b)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), fmt, root, a, b);
	return access(path, F_OK) == 0;
}

const char *tracefs_path(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	static char found[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if (path_exists("%s%s/%savailable_events", dirs[i], "")) {
			snprintf(found, sizeof(found), "%s%s", root, dirs[i]);
			return found;
		}
	}
	/* Not mounted: mount it where current kernels expect it. */
	snprintf(found, sizeof(found), "%s%s", root, dirs[0]);
	if (mount("nodev", found, "tracefs", 0, NULL) == 0 &&
	    path_exists("%s%s/%savailable_events", dirs[0], ""))
		return found;
	if (!errno)
		errno = ENOENT;
	return NULL;
}

bool tracepoint_exists(const char *category, const char *event)
{
	const char *tracefs = tracefs_path();
	char path[PATH_MAX];

	if (!tracefs)
		return false;
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", tracefs, category, event);
	return access(path, F_OK) == 0;
}

/*
 * The symbol's name in a line of kallsyms ("ADDR TYPE NAME\t[MODULE]"),
 * ended in place; NULL if the line has fewer fields. Found with strchr:
 * sscanf on every line doubles a scan's time (0.8 s instead of 0.4 under
 * qemu's TCG).
 */
static char *kallsyms_name(char *line)
{
	int skip;

	for (skip = 0; skip < 2; skip++) {
		line = strchr(line, ' ');
		if (!line)
			return NULL;
		line++;
	}
	line[strcspn(line, " \t\n")] = '\0';
	return line;
}

bool module_loaded(const char *name)
{
	return path_exists("%s/sys/module/%s%s", name, "");
}

int pci_driver_bound(const char *name)
{
	char path[PATH_MAX];
	struct dirent *e;
	int bound = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/sys/bus/pci/drivers/%s", root, name);
	dir = opendir(path);
	if (!dir)
		return -1;
	/* Beside bind, unbind, new_id and module: a device, named DOMAIN:BUS:SLOT.FN. */
	while (!bound && (e = readdir(dir)))
		bound = strchr(e->d_name, ':') != NULL;
	closedir(dir);
	return bound;
}

bool btf_exists(const char *name)
{
	return path_exists("%s/sys/kernel/btf/%s%s", name, "");
}

bool module_lacks_btf(const char *name)
{
	/* initstate exists for loadable modules only; built-in code is in vmlinux BTF. */
	return path_exists("%s/sys/module/%s/initstate%s", name, "") && !btf_exists(name);
}

bool tracepoint_module(const char *event, char *module, size_t len)
{
	char path[PATH_MAX], line[512], want[256], *mod, *name;
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/kallsyms", root);
	snprintf(want, sizeof(want), "__tracepoint_%s", event);
	f = fopen(path, "r");
	if (!f)
		return false;
	/* "ADDR TYPE NAME\t[MODULE]": only module symbols have the fourth column */
	while (!found && fgets(line, sizeof(line), f)) {
		if (!(mod = strrchr(line, '[')) || !(name = kallsyms_name(line)))
			continue;
		found = !strcmp(name, want);
	}
	fclose(f);
	if (found)
		snprintf(module, len, "%.*s", (int)strcspn(mod + 1, "]"), mod + 1);
	return found;
}

bool pretend_missing(const char *feature)
{
	const char *s = getenv("GPU_BPF_PRETEND_MISSING");

	return s && strstr(s, feature);
}

bool kernel_release_at_least(unsigned int major, unsigned int minor)
{
	unsigned int have_major, have_minor;
	struct utsname u;

	if (uname(&u) || sscanf(u.release, "%u.%u", &have_major, &have_minor) != 2)
		return true;	/* unknown: assume a new kernel */
	return have_major > major || (have_major == major && have_minor >= minor);
}

bool kernel_has_atomic_fetch(void)
{
	/* A 64-bit slot on the stack, fetch-and-added, then compare-and-swapped. */
	static const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_STX | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_10, .src_reg = BPF_REG_0,
		  .off = -8 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_1, .imm = 1 },
		{ .code = BPF_STX | BPF_ATOMIC | BPF_DW, .dst_reg = BPF_REG_10, .src_reg = BPF_REG_1,
		  .off = -8, .imm = BPF_ADD | BPF_FETCH },
		{ .code = BPF_STX | BPF_ATOMIC | BPF_DW, .dst_reg = BPF_REG_10, .src_reg = BPF_REG_1,
		  .off = -8, .imm = BPF_CMPXCHG },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	static int known = -1;
	int fd;

	if (known < 0 && pretend_missing("atomic_fetch"))
		known = 0;
	if (known < 0) {
		fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, NULL, "GPL", insns,
				   sizeof(insns) / sizeof(insns[0]), NULL);
		known = fd >= 0;
		if (fd >= 0)
			close(fd);
	}
	return known;
}

bool kernel_has_task_storage(void)
{
	static int known = -1;

	if (known < 0 && pretend_missing("task_storage"))
		known = 0;
	if (known < 0)
		known = libbpf_probe_bpf_map_type(BPF_MAP_TYPE_TASK_STORAGE, NULL) == 1 &&
			libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE, BPF_FUNC_task_storage_get, NULL) == 1 &&
			libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE, BPF_FUNC_get_current_task_btf,
						NULL) == 1;
	return known;
}

/* A helper of kprobe programs, probed once into *known (-1: not yet). */
static bool kprobe_helper(int *known, const char *feature, enum bpf_func_id helper)
{
	if (*known < 0 && pretend_missing(feature))
		*known = 0;
	if (*known < 0)
		*known = libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE, helper, NULL) == 1;
	return *known;
}

bool kernel_has_current_task_btf(void)
{
	static int known = -1;

	return kprobe_helper(&known, "current_task_btf", BPF_FUNC_get_current_task_btf);
}

bool kernel_has_attach_cookie(void)
{
	static int known = -1;

	return kprobe_helper(&known, "attach_cookie", BPF_FUNC_get_attach_cookie);
}
