// SPDX-License-Identifier: GPL-2.0
/* Attaching the uprobes (probes.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cudatrace/probes.h"
#include "runtime.h"
#include "uprobe_helpers.h"

void probes_init(struct probes *p, struct bpf_program *enter, struct bpf_program *exit, pid_t pid)
{
	p->enter = enter;
	p->exit = exit;
	p->pid = pid;
	/* Where the kernel can: two links per file instead of two per function. */
	p->multi = uprobe_multi_supported();
	if (p->multi) {
		bpf_program__set_expected_attach_type(enter, UPROBE_MULTI_ATTACH_TYPE);
		bpf_program__set_expected_attach_type(exit, UPROBE_MULTI_ATTACH_TYPE);
	}
}

static int report_attach_error(const struct probes *p, const struct target *t, const char *func,
			       int err)
{
	char what[PATH_MAX + 64];

	if (err == -ESRCH) {
		fprintf(stderr, "cudatrace: PID %d exited before tracing began\n", p->pid);
		return err;
	}
	snprintf(what, sizeof(what), "attach uprobes to %s in %s", func, t->name);
	report_bpf_error(what, err);
	return err;
}

/* Every function found in t: entry and return probes, with the function's cookie. */
static int attach_target(struct probes *p, const struct target *t)
{
	unsigned long offsets[NR_FUNCS];
	unsigned long long cookies[NR_FUNCS];
	unsigned int n = 0;
	int i, ret, fd;

	for (i = 0; i < NR_FUNCS; i++) {
		if (t->off[i] < 0)
			continue;
		offsets[n] = t->off[i];
		cookies[n++] = COOKIE(i, cuda_funcs[i].cls, cuda_funcs[i].flags,
				      cuda_funcs[i].stream_arg);
	}
	for (ret = 0; ret < 2 && n; ret++) {
		struct bpf_program *prog = ret ? p->exit : p->enter;

		if (p->multi) {
			fd = uprobe_multi_attach(bpf_program__fd(prog), t->path, offsets, cookies, n,
						 ret, p->pid);
			if (fd < 0)
				return report_attach_error(p, t, "its functions", fd);
			p->link_fds[p->nr_link_fds++] = fd;
			continue;
		}
		for (i = 0; i < (int)n; i++) {
			LIBBPF_OPTS(bpf_uprobe_opts, uo, .bpf_cookie = cookies[i], .retprobe = ret);
			struct bpf_link *link;

			link = bpf_program__attach_uprobe_opts(prog, p->pid ? p->pid : -1, t->path,
							       offsets[i], &uo);
			if (!link)
				return report_attach_error(p, t, func_name(COOKIE_FUNC(cookies[i])),
							   -errno);
			p->links[p->nr_links++] = link;
		}
	}
	return 0;
}

int probes_attach(struct probes *p, const struct cuda_libs *libs)
{
	int i, err;

	p->links = calloc(MAX_TARGETS * NR_FUNCS * 2, sizeof(*p->links));
	if (!p->links)
		return -ENOMEM;
	for (i = 0; i < libs->nr_targets; i++) {
		err = attach_target(p, &libs->targets[i]);
		if (err)
			return err;
	}
	return 0;
}

void probes_detach(struct probes *p)
{
	while (p->nr_link_fds)
		close(p->link_fds[--p->nr_link_fds]);
	while (p->nr_links)
		bpf_link__destroy(p->links[--p->nr_links]);
	free(p->links);
	p->links = NULL;
}
