// SPDX-License-Identifier: GPL-2.0

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <bpf/bpf.h>

#include "cgroup.h"
#include "container.h"

int cgroup_open(const char *path, char *why, size_t size)
{
	struct statfs fs;
	int fd;

	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, size, "%s", strerror(errno));
		return -1;
	}
	if (fstatfs(fd, &fs) == 0 && fs.f_type == CGROUP2_SUPER_MAGIC)
		return fd;
	if (fs.f_type == CGROUP_SUPER_MAGIC || fs.f_type == TMPFS_MAGIC)
		snprintf(why, size, "a cgroup v1 hierarchy: only cgroup v2 (a unified hierarchy, "
			 "e.g. /sys/fs/cgroup/...) can be filtered on");
	else
		snprintf(why, size, "not a cgroup v2 directory (e.g. /sys/fs/cgroup/...)");
	close(fd);
	return -1;
}

bool cgroup_filter_apply(struct bpf_map *cgroup_map, const char *path, int fd)
{
	__u32 key = 0;

	if (!path)
		return true;
	if (bpf_map__update_elem(cgroup_map, &key, sizeof(key), &fd, sizeof(fd), 0)) {
		fprintf(stderr, "%s: --cgroup %s: cannot filter on it: %s\n",
			program_invocation_short_name, path, strerror(errno));
		return false;
	}
	return true;
}

static bool v2_mounted;

/* Where the cgroup v2 hierarchy is mounted (usually /sys/fs/cgroup). */
static const char *cgroup_root(void)
{
	static char root[256];
	char line[1024], mnt[256], fstype[64];
	FILE *f;

	if (root[0])
		return root;
	snprintf(root, sizeof(root), "/sys/fs/cgroup");
	f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return root;
	while (fgets(line, sizeof(line), f)) {
		const char *sep = strstr(line, " - ");

		/* "ID PARENT MAJ:MIN ROOT MOUNTPOINT ... - FSTYPE SOURCE OPTS" */
		if (sep && sscanf(line, "%*s %*s %*s %*s %255s", mnt) == 1 &&
		    sscanf(sep, " - %63s", fstype) == 1 && !strcmp(fstype, "cgroup2")) {
			snprintf(root, sizeof(root), "%s", mnt);
			v2_mounted = true;
			break;
		}
	}
	fclose(f);
	return root;
}

bool cgroup_v2_mounted(void)
{
	cgroup_root();
	return v2_mounted;
}

#define MAX_CGROUPS 8192	/* names remembered; beyond: shown as "#ID" */

static struct cgroup_entry {
	__u64 id;
	char *name;
} *cgroups;
static size_t nr_cgroups;
static size_t root_len;

static struct cgroup_entry *find_cgroup(__u64 id)
{
	size_t i;

	for (i = 0; i < nr_cgroups; i++)
		if (cgroups[i].id == id)
			return &cgroups[i];
	return NULL;
}

static const char *remember(__u64 id, const char *name)
{
	struct cgroup_entry *e = find_cgroup(id);

	if (e)
		return e->name;
	if (nr_cgroups == MAX_CGROUPS)
		return NULL;
	if (!cgroups && !(cgroups = calloc(MAX_CGROUPS, sizeof(*cgroups))))
		return NULL;
	e = &cgroups[nr_cgroups];
	e->name = strdup(name);
	if (!e->name)
		return NULL;
	e->id = id;
	nr_cgroups++;
	return e->name;
}

/* A cgroup's id is its directory's inode number in cgroup2fs. */
static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	if (type == FTW_D)
		remember(st->st_ino, path[root_len] ? path + root_len : "/");
	return 0;
}

const char *cgroup_name(__u64 id)
{
	static char unknown[32];
	const char *root = cgroup_root();
	struct cgroup_entry *e = find_cgroup(id);

	if (e)
		return e->name;
	/* Not seen yet: a cgroup made since the last walk. Walk again. */
	root_len = strlen(root);
	nftw(root, visit, 16, FTW_PHYS | FTW_MOUNT);
	e = find_cgroup(id);
	if (e)
		return e->name;
	/* Gone (or beyond what we remember): the id, and no second walk for it. */
	snprintf(unknown, sizeof(unknown), "#%llu", (unsigned long long)id);
	return remember(id, unknown) ?: unknown;
}

/* The walk of cgroup_of_container(): what is asked, what was found. */
static struct {
	const char *id;		/* a prefix of a container's id, or NULL */
	char pod[POD_UID_LEN + 1];	/* a pod's UID, or "" */
	char path[4096];	/* the shallowest cgroup that is it */
	char match[CONTAINER_ID_LEN + 1];	/* the container it is */
	bool ambiguous;
} wanted;

static int visit_container(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	struct container c;
	bool is;

	(void)st;
	(void)ftw;
	if (type != FTW_D || !container_of_cgroup(path + root_len, &c))
		return 0;
	if (wanted.id)
		is = c.id[0] && !strncmp(c.id, wanted.id, strlen(wanted.id));
	else
		is = !strcmp(c.pod, wanted.pod);
	if (!is)
		return 0;
	if (wanted.id && wanted.match[0] && strcmp(wanted.match, c.id))
		wanted.ambiguous = true;	/* two containers' ids begin so */
	/* Below a container or pod are cgroups of its own: the shallowest is it. */
	if (!wanted.path[0] || strlen(path) < strlen(wanted.path)) {
		snprintf(wanted.path, sizeof(wanted.path), "%s", path);
		snprintf(wanted.match, sizeof(wanted.match), "%s", c.id);
	}
	return 0;
}

const char *cgroup_of_container(const char *id, const char *pod, char *why, size_t size)
{
	const char *root = cgroup_root();

	memset(&wanted, 0, sizeof(wanted));
	if (id && !container_id_arg(id)) {
		snprintf(why, size, "not a container id (1 to 64 lowercase hex digits)");
		return NULL;
	}
	if (pod && !pod_uid_arg(pod, wanted.pod)) {
		snprintf(why, size, "not a pod UID (8-4-4-4-12 lowercase hex digits)");
		return NULL;
	}
	wanted.id = id;
	root_len = strlen(root);
	nftw(root, visit_container, 16, FTW_PHYS | FTW_MOUNT);
	if (wanted.ambiguous) {
		snprintf(why, size, "more than one container's id begins so: give more of it");
		return NULL;
	}
	if (!wanted.path[0]) {
		snprintf(why, size, "no cgroup of it under %s", root);
		return NULL;
	}
	return strdup(wanted.path);
}
