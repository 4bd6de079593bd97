// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "probe.h"

static const char *root = "";

void probe_set_root(const char *r)
{
	root = r ? r : "";
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

/* Does a line of `path` (a symbol list) name `func` as a whole word? */
static bool symbol_listed(const char *path, const char *func, int field)
{
	char line[512], name[256];
	size_t len = strlen(func);
	bool found = false;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		/* available_filter_functions: "name [module]"; kallsyms: "addr t name [module]" */
		if (field == 0 ? sscanf(line, "%255s", name) != 1
			       : sscanf(line, "%*s %*s %255s", name) != 1)
			continue;
		found = strncmp(name, func, len) == 0 && name[len] == '\0';
	}
	fclose(f);
	return found;
}

bool kprobe_exists(const char *func)
{
	const char *tracefs = tracefs_path();
	char path[PATH_MAX];

	if (tracefs) {
		snprintf(path, sizeof(path), "%s/available_filter_functions", tracefs);
		if (access(path, R_OK) == 0)
			return symbol_listed(path, func, 0);
	}
	snprintf(path, sizeof(path), "%s/proc/kallsyms", root);
	return symbol_listed(path, func, 2);
}

bool module_loaded(const char *name)
{
	return path_exists("%s/sys/module/%s%s", name, "");
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
