// SPDX-License-Identifier: GPL-2.0
/* Attaching the uprobes (probes.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "apitrace/probes.h"
#include "apitrace/funcs.h"
#include "runtime.h"
#include "probe.h"
#include "uprobe_helpers.h"

static unsigned long long func_cookie(int i)
{
	const struct api_func *f = func_info(i);

	return COOKIE(i, f->cls, f->flags, f->stream_arg) |
	       COOKIE_ARGS(f->errcode_arg, f->size_arg, f->name_arg, f->ptr_arg);
}

/* No BPF cookies: load the programs of the functions some file has, and only those. */
static void init_cookieless(struct probes *p, struct bpf_object *obj, const struct api_libs *libs,
			    __u64 *fallback_cookies)
{
	char name[32];
	int i, t;

	p->cookieless = true;
	bpf_program__set_autoload(p->enter, false);
	bpf_program__set_autoload(p->exit, false);
	p->shared_enter = bpf_object__find_program_by_name(obj, "api_enter_shared");
	p->shared_exit = bpf_object__find_program_by_name(obj, "api_exit_shared");
	p->fallback_progs = bpf_object__find_map_by_name(obj, "fallback_progs");
	bpf_program__set_autoload(p->shared_enter, true);
	bpf_program__set_autoload(p->shared_exit, true);
	/* (The functions -f added past NR_FALLBACK have no program: attach_target skips them.) */
	for (i = 0; i < nr_funcs() && i < NR_FALLBACK; i++) {
		for (t = 0; t < libs->nr_targets && libs->targets[t].off[i] < 0; t++)
			;
		if (t == libs->nr_targets)
			continue;
		fallback_cookies[i] = func_cookie(i);
		snprintf(name, sizeof(name), "api_enter_%02o", i);
		p->fn_enter[i] = bpf_object__find_program_by_name(obj, name);
		snprintf(name, sizeof(name), "api_exit_%02o", i);
		p->fn_exit[i] = bpf_object__find_program_by_name(obj, name);
		if (p->fn_enter[i])
			bpf_program__set_autoload(p->fn_enter[i], true);
		if (p->fn_exit[i])
			bpf_program__set_autoload(p->fn_exit[i], true);
	}
}

void probes_init(struct probes *p, struct bpf_object *obj, struct bpf_program *enter,
		 struct bpf_program *exit, pid_t pid, const struct api_libs *libs,
		 __u64 *fallback_cookies)
{
	struct bpf_program *prog;

	p->enter = enter;
	p->exit = exit;
	p->pid = pid;
	bpf_object__for_each_program(prog, obj) {
		if (!strncmp(bpf_program__name(prog), "api_enter_", 10) ||
		    !strncmp(bpf_program__name(prog), "api_exit_", 9))
			bpf_program__set_autoload(prog, false);
	}
	if (!kernel_has_attach_cookie()) {
		init_cookieless(p, obj, libs, fallback_cookies);
		return;
	}
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
		fprintf(stderr, "%s: PID %d exited before tracing began\n", family->tool, p->pid);
		return err;
	}
	snprintf(what, sizeof(what), "attach uprobes to %s in %s", func, t->name);
	report_bpf_error(what, err);
	return err;
}

/* Every function found in t: entry and return probes, with the function's cookie. */
static int attach_target(struct probes *p, const struct target *t)
{
	static unsigned long offsets[MAX_FUNCS];
	static unsigned long long cookies[MAX_FUNCS];
	unsigned int n = 0;
	int i, ret, fd;

	for (i = 0; i < nr_funcs(); i++) {
		if (t->off[i] < 0 || (p->cookieless && i >= NR_FALLBACK))
			continue;
		offsets[n] = t->off[i];
		cookies[n++] = func_cookie(i);
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

			if (p->cookieless) {
				int f = COOKIE_FUNC(cookies[i]);

				prog = ret ? p->fn_exit[f] : p->fn_enter[f];
				uo.bpf_cookie = 0;
			}
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

/* The per-function programs' way into the shared ones. */
static int link_shared(const struct probes *p)
{
	int map = bpf_map__fd(p->fallback_progs);
	__u32 enter = FALLBACK_ENTER, exit = FALLBACK_EXIT;
	int fd, err;

	fd = bpf_program__fd(p->shared_enter);
	err = bpf_map_update_elem(map, &enter, &fd, BPF_ANY) ? -errno : 0;
	fd = bpf_program__fd(p->shared_exit);
	if (!err)
		err = bpf_map_update_elem(map, &exit, &fd, BPF_ANY) ? -errno : 0;
	if (err)
		report_bpf_error("link the per-function programs to the shared ones", err);
	return err;
}

int probes_attach(struct probes *p, const struct api_libs *libs)
{
	int i, err;

	p->links = calloc(MAX_TARGETS * MAX_FUNCS * 2, sizeof(*p->links));
	if (!p->links)
		return -ENOMEM;
	if (p->cookieless && (err = link_shared(p)))
		return err;
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
