// SPDX-License-Identifier: GPL-2.0
/* Naming processes and their kernels, remembering their exits (procs.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cgroup.h"
#include "apitrace/funcs.h"
#include "apitrace/procs.h"
#include "maps.h"
#include "opts.h"
#include "untrusted.h"

int procs_init(struct procs *p, struct bpf_map *procs, struct bpf_map *knames)
{
	p->procs = procs;
	p->knames = knames;
	p->nr_exited = 0;
	p->syms = syms_cache_new();
	return p->syms ? 0 : -ENOMEM;
}

void procs_free(struct procs *p)
{
	syms_cache_free(p->syms);
	p->syms = NULL;
}

void proc_new(struct procs *p, __u32 pid)
{
	syms_cache_load(p->syms, pid);
}

int proc_watch(struct procs *p, __u32 pid)
{
	struct proc_info pi = {};

	proc_comm_read(pid, pi.comm, sizeof(pi.comm));
	syms_cache_load(p->syms, pid);
	return bpf_map__update_elem(p->procs, &pid, sizeof(pid), &pi, sizeof(pi), BPF_ANY);
}

void proc_exited(struct procs *p, __u32 pid, __u64 cgroup_id)
{
	if (p->nr_exited < MAX_PROCS)
		p->exited[p->nr_exited++] = (struct exited_proc){ pid, cgroup_id };
}

bool proc_has_exited(const struct procs *p, __u32 pid)
{
	int i;

	for (i = 0; i < p->nr_exited; i++)
		if (p->exited[i].pid == pid)
			return true;
	return false;
}

const char *proc_comm(const struct procs *p, __u32 pid, char *buf)
{
	struct proc_info pi;

	if (bpf_map__lookup_elem(p->procs, &pid, sizeof(pid), &pi, sizeof(pi), 0))
		return "?";
	snprintf(buf, COMM_LEN, "%.*s", COMM_LEN - 1, pi.comm);
	return buf;
}

/* While it lives (the kernel side's map), or until the summary after its exit. */
const char *proc_cgroup(const struct procs *p, __u32 pid)
{
	struct proc_info pi;
	int i;

	if (!common_env.show_cgroup || !cgroup_v2_mounted())
		return NULL;
	if (!bpf_map__lookup_elem(p->procs, &pid, sizeof(pid), &pi, sizeof(pi), 0) &&
	    pi.cgroup_id)
		return cgroup_name(pi.cgroup_id);
	for (i = p->nr_exited - 1; i >= 0; i--)
		if (p->exited[i].pid == pid && p->exited[i].cgroup_id)
			return cgroup_name(p->exited[i].cgroup_id);
	return NULL;
}

/* Its name from cuModuleGetFunction, or the host stub's symbol, or the handle. */
const char *kernel_name(const struct procs *p, __u32 pid, __u32 func, __u64 handle, char *buf,
			size_t size)
{
	struct kname_key k = { .pid = pid, .handle = handle };
	unsigned long delta = 0;
	struct kname kn;
	const char *sym;

	if (!bpf_map__lookup_elem(p->knames, &k, sizeof(k), &kn, sizeof(kn), 0) && kn.name[0]) {
		snprintf(buf, size, "%.*s", KNAME_LEN, kn.name);
		return buf;
	}
	if (func_class(func) == CL_RT_LAUNCH && handle) {
		sym = syms_cache_resolve(p->syms, pid, handle, &delta, NULL);
		if (sym && !delta)
			snprintf(buf, size, "%s", sym);
		else if (sym)
			snprintf(buf, size, "%s+0x%lx", sym, delta);
		if (sym)
			return buf;
	}
	snprintf(buf, size, "0x%llx", (unsigned long long)handle);
	return buf;
}

/* Delete the entries of `map` (keys starting with a PID) of the processes that exited. */
static void delete_exited(const struct procs *p, struct bpf_map *map)
{
	struct map_snapshot s;
	size_t i;

	if (map_snapshot(map, &s))
		return;
	for (i = 0; i < s.n; i++)
		if (proc_has_exited(p, *(__u32 *)snapshot_key(&s, i)))
			bpf_map__delete_elem(map, snapshot_key(&s, i), s.key_size, 0);
	map_snapshot_free(&s);
}

void procs_forget_exited(struct procs *p, struct bpf_map *const *maps, size_t n)
{
	size_t i;
	int j;

	if (!p->nr_exited)
		return;
	delete_exited(p, p->knames);
	for (i = 0; i < n; i++)
		delete_exited(p, maps[i]);
	for (j = 0; j < p->nr_exited; j++)
		syms_cache_forget(p->syms, p->exited[j].pid);
	p->nr_exited = 0;
}
