// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "opts.h"
#include "output.h"
#include "probe.h"
#include "runtime.h"

volatile sig_atomic_t exiting;
static bool libbpf_verbose;

static void on_signal(int sig)
{
	(void)sig;
	exiting = 1;
}

static int libbpf_print_fn(enum libbpf_print_level level, const char *fmt, va_list args)
{
	(void)level;
	/* Even warnings stay quiet unless -v: every failure is reported by
	 * the tool itself in one line; libbpf's dump is for debugging. */
	if (!libbpf_verbose)
		return 0;
	return vfprintf(stderr, fmt, args);
}

void runtime_init(bool verbose)
{
	struct sigaction sa = { .sa_handler = on_signal };

	/* No SA_RESTART: a signal must interrupt sleep() and ring buffer polls. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* A closed terminal or a lost ssh session: the summary, the files closed. */
	sigaction(SIGHUP, &sa, NULL);

	libbpf_verbose = verbose;
	libbpf_set_print(libbpf_print_fn);
	/*
	 * No setrlimit(RLIMIT_MEMLOCK): kernels >= 5.11 charge BPF memory to
	 * the memory cgroup, libbpf >= 1.0 knows it, and unprivileged
	 * containers refuse the call anyway.
	 */
	output_init();
}

/* Effective capability set, from /proc/self/status (no libcap needed). */
static unsigned long long effective_caps(void)
{
	unsigned long long caps = 0;
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return ~0ULL;	/* cannot tell: let the kernel decide */
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	fclose(f);
	return caps;
}

#define CAP_SYS_ADMIN	21
#define CAP_PERFMON	38
#define CAP_BPF		39
#define HAS_CAP(caps, c) (((caps) >> (c)) & 1)

bool runtime_preflight(void)
{
	unsigned long long caps = effective_caps();

	if (!HAS_CAP(caps, CAP_SYS_ADMIN) && !(HAS_CAP(caps, CAP_BPF) && HAS_CAP(caps, CAP_PERFMON))) {
		fprintf(stderr, "%s: permission denied: run as root (needs CAP_BPF and "
			"CAP_PERFMON, or CAP_SYS_ADMIN)\n", program_invocation_short_name);
		return false;
	}
	if (!btf_exists("vmlinux")) {
		fprintf(stderr, "%s: this kernel has no BTF (/sys/kernel/btf/vmlinux): "
			"it needs CONFIG_DEBUG_INFO_BTF=y\n", program_invocation_short_name);
		return false;
	}
	return true;
}

void report_bpf_error(const char *what, int err)
{
	const char *hint = "";

	err = err < 0 ? -err : err;
	switch (err) {
	case EPERM:
	case EACCES:
		hint = geteuid() ? " (run as root: needs CAP_BPF and CAP_PERFMON)"
				 : " (is BPF restricted here? check kernel.unprivileged_bpf_disabled, lockdown, seccomp)";
		break;
	case ESRCH:
	case ENOENT:
		hint = " (a kernel function, tracepoint or BTF type is missing; -v shows which)";
		break;
	case EINVAL:
	case ENOTSUP:
		hint = " (the kernel rejected the program; -v shows the verifier log)";
		break;
	case EFBIG:
		hint = " (the shell's file size limit, ulimit -f, is too small)";
		break;
	}
	fprintf(stderr, "%s: failed to %s: %s%s\n", program_invocation_short_name, what,
		strerror(err), hint);
}

#define PF_KTHREAD 0x00200000	/* include/linux/sched.h */

/* /proc/PID/stat's state and flags; false when it cannot be read. */
static bool pid_stat(pid_t pid, char *state, unsigned long *flags)
{
	char path[32], buf[1024], *p;
	bool ok = false;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	/* "PID (COMM) STATE PPID PGRP SESSION TTY TPGID FLAGS ...": COMM may hold ") " and newlines. */
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if ((p = strrchr(buf, ')')))
		ok = sscanf(p + 1, " %c %*d %*d %*d %*d %*d %lu", state, flags) == 2;
	return ok;
}

bool pid_running(pid_t pid)
{
	unsigned long flags;
	char state;

	return pid_stat(pid, &state, &flags) && state != 'Z' && state != 'X';
}

const char *pid_untraceable(pid_t pid)
{
	unsigned long flags;
	char state;

	if (!pid_stat(pid, &state, &flags))
		return NULL;
	if (state == 'Z' || state == 'X')
		return "a zombie (it has exited)";
	if (flags & PF_KTHREAD)
		return "a kernel thread";
	return NULL;
}
