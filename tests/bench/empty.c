// SPDX-License-Identifier: GPL-2.0
/*
 * empty: the limit of what tracing a hook can cost - programs that do
 * nothing, attached to the same hooks a tool uses.
 *
 *   empty OBJ PROG[=BINARY:FUNCTION]...
 *
 * Loads the named programs of the BPF object OBJ (the others are not
 * loaded: an object may hold programs for hooks this kernel lacks) and
 * attaches each: tracepoints and tp_btf by their section, uprobes and
 * uretprobes at BINARY:FUNCTION, kprobes and kretprobes at =FUNCTION (a
 * module's function whose name depends on its version). Prints "ready"
 * once all are attached and waits for SIGINT or SIGTERM. tp_btf and
 * fentry programs find their targets as the tools' do (btf_targets.h), not
 * by libbpf's scan of the kernel's BTF for each: the limit is what the
 * hooks cost, not how a loader finds them.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "btf_targets.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int attach(struct bpf_program *prog, const char *target)
{
	LIBBPF_OPTS(bpf_uprobe_opts, uopts);
	char binary[4096], *func;
	struct bpf_link *link;

	if (!target) {
		link = bpf_program__attach(prog);
		return link ? 0 : -errno;
	}
	if (!strncmp(bpf_program__section_name(prog), "kprobe", 6) ||
	    !strncmp(bpf_program__section_name(prog), "kretprobe", 9)) {
		link = bpf_program__attach_kprobe(prog, bpf_program__section_name(prog)[1] == 'r',
						  target);
		return link ? 0 : -errno;
	}
	snprintf(binary, sizeof(binary), "%s", target);
	func = strrchr(binary, ':');
	if (!func)
		return -EINVAL;
	*func++ = '\0';
	uopts.func_name = func;
	uopts.retprobe = strstr(bpf_program__section_name(prog), "uretprobe") != NULL;
	link = bpf_program__attach_uprobe_opts(prog, -1, binary, 0, &uopts);
	return link ? 0 : -errno;
}

int main(int argc, char **argv)
{
	struct bpf_program *prog;
	struct bpf_object *obj;
	int i, err;

	if (argc < 3) {
		fprintf(stderr, "usage: empty OBJ PROG[=BINARY:FUNCTION]...\n");
		return 2;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (btf_targets_register()) {
		fprintf(stderr, "empty: cannot register libbpf's section handlers\n");
		return 1;
	}
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "empty: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	bpf_object__for_each_program(prog, obj)
		bpf_program__set_autoload(prog, false);
	for (i = 2; i < argc; i++) {
		char name[256], *eq;

		snprintf(name, sizeof(name), "%s", argv[i]);
		eq = strchr(name, '=');
		if (eq)
			*eq = '\0';
		prog = bpf_object__find_program_by_name(obj, name);
		if (!prog) {
			fprintf(stderr, "empty: no program %s in %s\n", name, argv[1]);
			return 1;
		}
		bpf_program__set_autoload(prog, true);
	}
	btf_targets_resolve(obj);
	err = bpf_object__load(obj);
	btf_targets_reset();
	if (err) {
		fprintf(stderr, "empty: load %s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	for (i = 2; i < argc; i++) {
		char name[256], *eq;

		snprintf(name, sizeof(name), "%s", argv[i]);
		eq = strchr(name, '=');
		if (eq)
			*eq = '\0';
		err = attach(bpf_object__find_program_by_name(obj, name), eq ? eq + 1 : NULL);
		if (err) {
			fprintf(stderr, "empty: attach %s: %s\n", argv[i], strerror(-err));
			return 1;
		}
	}
	printf("ready\n");
	fflush(stdout);
	while (!stop)
		pause();
	bpf_object__close(obj);
	return 0;
}
