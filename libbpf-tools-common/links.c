// SPDX-License-Identifier: GPL-2.0
/* Kprobes of a tool's roles (links.h). */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "links.h"
#include "table.h"

/* The kprobe PMU's type and its retprobe bit (sysfs), read once: -errno when absent. */
static int kprobe_type = -ENOENT, retprobe_bit = -ENOENT;
static pthread_once_t kprobe_pmu_once = PTHREAD_ONCE_INIT;

static int read_value(const char *path, const char *fmt)
{
	FILE *f = fopen(path, "re");
	int v, got;

	if (!f)
		return -errno;
	got = fscanf(f, fmt, &v);
	fclose(f);
	return got == 1 ? v : -EINVAL;
}

static void read_kprobe_pmu(void)
{
	kprobe_type = read_value("/sys/bus/event_source/devices/kprobe/type", "%d");
	retprobe_bit = read_value("/sys/bus/event_source/devices/kprobe/format/retprobe",
				      "config:%d");
}

static int kprobe_open(const char *fn, bool retprobe)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	int pfd;

	pthread_once(&kprobe_pmu_once, read_kprobe_pmu);
	if (kprobe_type < 0)
		return kprobe_type;
	if (retprobe && retprobe_bit < 0)
		return retprobe_bit;
	attr.type = kprobe_type;
	attr.config = retprobe ? 1ULL << retprobe_bit : 0;
	attr.config1 = (__u64)(unsigned long)fn;	/* the kernel looks the name up */
	pfd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	return pfd >= 0 ? pfd : -errno;
}

/* ---- kretprobes through tracefs, sized (links.h) ---------------------------- */

/* The events' group; each is "r" PID "_" N, so that a dead tool's are known. */
#define KRETPROBE_GROUP "gpubpf"

static const char *tracefs(void)
{
	return access("/sys/kernel/tracing/kprobe_events", W_OK) ? "/sys/kernel/debug/tracing"
								  : "/sys/kernel/tracing";
}

static int kprobe_events_write(const char *line)
{
	char path[64];
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/kprobe_events", tracefs());
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, line, strlen(line)) < 0)
		err = -errno;
	close(fd);
	return err;
}

static void kretprobe_remove(const char *event)
{
	char line[80];

	snprintf(line, sizeof(line), "-:" KRETPROBE_GROUP "/%s", event);
	kprobe_events_write(line);
}

static int kretprobe_instances(void)
{
	const char *env = getenv("GPU_BPF_KRETPROBE_INSTANCES");
	long cpus = sysconf(_SC_NPROCESSORS_CONF), n = KRETPROBE_INSTANCES;

	if (env && atoi(env) > 0)
		return atoi(env);
	if (2 * cpus > n)
		n = 2 * cpus;
	return n < 4096 ? n : 4096;	/* the kernel's most (KRETPROBE_MAXACTIVE_MAX) */
}

/* Events of this group left by tools that died before removing them. */
static void remove_dead_kretprobes(void)
{
	char path[64], line[512], event[64];
	FILE *f;
	int pid;

	snprintf(path, sizeof(path), "%s/kprobe_events", tracefs());
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "r%*d:" KRETPROBE_GROUP "/%63s", event) == 1 &&
		    sscanf(event, "r%d_", &pid) == 1 && kill(pid, 0) && errno == ESRCH)
			kretprobe_remove(event);
	fclose(f);
}

/* A kretprobe on fn of kretprobe_instances() as event `event` (set): its perf event, or -errno. */
static int kretprobe_open_sized(const char *fn, char *event, size_t size)
{
	static atomic_int seq;
	struct perf_event_attr attr = { .size = sizeof(attr), .type = PERF_TYPE_TRACEPOINT };
	char line[256], path[160];
	int id, pfd, err;

	snprintf(event, size, "r%d_%d", getpid(), atomic_fetch_add(&seq, 1));
	snprintf(line, sizeof(line), "r%d:" KRETPROBE_GROUP "/%s %s", kretprobe_instances(), event,
		 fn);
	err = kprobe_events_write(line);
	if (err) {
		event[0] = 0;
		return err;
	}
	snprintf(path, sizeof(path), "%s/events/" KRETPROBE_GROUP "/%s/id", tracefs(), event);
	id = read_value(path, "%d");
	attr.config = id;
	pfd = id < 0 ? id : syscall(__NR_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0) {
		err = id < 0 ? id : -errno;
		kretprobe_remove(event);
		event[0] = 0;
		return err;
	}
	return pfd;
}

/* The returns event `event` missed (kprobe_profile's third column), or -1. */
static long long kretprobe_missed(const char *event)
{
	char path[64], name[64];
	unsigned long long hit, missed;
	long long found = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/kprobe_profile", tracefs());
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (found < 0 && fscanf(f, "%63s %llu %llu", name, &hit, &missed) == 3)
		if (!strcmp(name, event))
			found = missed;
	fclose(f);
	return found;
}

/*
 * A kprobe (retprobe: a kretprobe) on the first of fns[0..n) that the
 * kernel has, tried in order, with no program yet: its perf event's file
 * descriptor, and in *which the index of its function; -ENOENT when the
 * kernel has none of them, else -errno of the first one it refused.
 */
static int kprobe_open_first(const char *const *fns, int n, bool retprobe, int *which)
{
	int i, pfd;

	for (i = 0; i < n; i++) {
		pfd = kprobe_open(fns[i], retprobe);
		if (pfd != -ENOENT) {
			*which = i;
			return pfd;
		}
	}
	return -ENOENT;
}

/* prog attached, with `cookie`, to the kprobe pfd, which the link then owns (closed on failure). */
static struct bpf_link *kprobe_attach_fd(struct bpf_program *prog, int pfd, __u64 cookie)
{
	LIBBPF_OPTS(bpf_perf_event_opts, o, .bpf_cookie = cookie);
	struct bpf_link *link = bpf_program__attach_perf_event_opts(prog, pfd, &o);
	int err = errno;

	if (!link) {
		close(pfd);
		errno = err;
	}
	return link;
}

/* Enough to overlap the grace periods; each thread costs a stack. */
#define MAX_THREADS 16

struct parallel_work {
	void (*fn)(int i, void *arg);
	void *arg;
	int n;
	atomic_int next;
};

static void *run_some(void *arg)
{
	struct parallel_work *w = arg;
	int i;

	while ((i = atomic_fetch_add(&w->next, 1)) < w->n)
		w->fn(i, w->arg);
	return NULL;
}

struct parallel_run {
	struct parallel_work work;
	pthread_t threads[MAX_THREADS];
	int nr_threads;
};

/*
 * fn(i, arg) for each i in [0, n), from several threads at once, left
 * running while the caller goes on (NULL: it already ran here);
 * links_parallel_wait() helps them finish and joins them.
 */
static struct parallel_run *links_parallel_start(int n, void (*fn)(int i, void *arg), void *arg)
{
	struct parallel_run *run = calloc(1, sizeof(*run));

	if (!run) {
		struct parallel_work work = { .fn = fn, .arg = arg, .n = n };

		run_some(&work);
		return NULL;
	}
	run->work = (struct parallel_work){ .fn = fn, .arg = arg, .n = n };
	/* A thread that cannot start leaves its share to the others and to the waiter. */
	while (run->nr_threads < MAX_THREADS && run->nr_threads < n &&
	       !pthread_create(&run->threads[run->nr_threads], NULL, run_some, &run->work))
		run->nr_threads++;
	return run;
}

static void links_parallel_wait(struct parallel_run *run)
{
	int i;

	if (!run)
		return;
	run_some(&run->work);
	for (i = 0; i < run->nr_threads; i++)
		pthread_join(run->threads[i], NULL);
	free(run);
}

/* fn(i, arg) for each i in [0, n), from several threads: for kprobe detaches, whose waits overlap. */
static void links_parallel(int n, void (*fn)(int i, void *arg), void *arg)
{
	links_parallel_wait(links_parallel_start(n, fn, arg));
}

/* Role i's kprobe and kretprobe (from several threads: no libbpf here). */
static void open_role(int i, void *roles)
{
	struct kprobe_role *r = &((struct kprobe_role *)roles)[i];
	int which, pfd;

	r->err = -ENOENT;
	if (!r->entry)
		return;
	pfd = kprobe_open_first(r->fns, r->nr_fns, false, &which);
	if (pfd == -ENOENT)
		return;
	r->found = r->fns[which];
	r->err = pfd < 0 ? pfd : 0;
	if (pfd < 0)
		return;
	r->pfd[0] = pfd;
	if (!r->ret)
		return;
	pfd = kretprobe_open_sized(r->found, r->ret_event, sizeof(r->ret_event));
	if (pfd < 0)
		pfd = kprobe_open(r->found, true);
	r->err = pfd < 0 ? pfd : 0;
	r->pfd[1] = pfd;
}

void kprobe_roles_open(struct kprobe_roles *r)
{
	int i;

	for (i = 0; i < r->n; i++) {
		r->role[i].pfd[0] = r->role[i].pfd[1] = -1;
		r->role[i].link[0] = r->role[i].link[1] = NULL;
		r->role[i].ret_event[0] = 0;
	}
	remove_dead_kretprobes();
	r->opened = true;
	r->opening = links_parallel_start(r->n, open_role, r->role);
}

int kprobe_roles_attach(struct kprobe_roles *r)
{
	int i, k, attached = 0;

	links_parallel_wait(r->opening);
	r->opening = NULL;
	for (i = 0; i < r->n; i++) {
		struct kprobe_role *role = &r->role[i];

		for (k = 0; k < 2; k++) {
			if (role->pfd[k] < 0)
				continue;
			role->link[k] = kprobe_attach_fd(k ? role->ret : role->entry, role->pfd[k],
							 role->cookie);
			role->pfd[k] = -1;
			if (!role->link[k] && !role->err)
				role->err = -errno;
		}
		attached += role->entry && !role->err;
	}
	return attached;
}

static void destroy_role(int i, void *roles)
{
	struct kprobe_role *r = &((struct kprobe_role *)roles)[i];
	int k;

	for (k = 0; k < 2; k++) {
		if (r->pfd[k] >= 0)
			close(r->pfd[k]);
		r->pfd[k] = -1;
		bpf_link__destroy(r->link[k]);
		r->link[k] = NULL;
	}
	if (r->ret_event[0]) {
		kretprobe_remove(r->ret_event);
		r->ret_event[0] = 0;
	}
}

void kprobe_roles_report_missed(const struct kprobe_roles *r)
{
	int i, instances = kretprobe_instances();

	for (i = 0; i < r->n; i++) {
		const struct kprobe_role *role = &r->role[i];
		long long missed = role->ret_event[0] ? kretprobe_missed(role->ret_event) : -1;

		if (missed > 0)
			report_lost("returns", missed, instances,
				    "%lld returns of %s missed (more than %d threads inside it at "
				    "once): not counted", missed, role->found, instances);
	}
}

void kprobe_roles_destroy(struct kprobe_roles *r)
{
	if (!r->opened)
		return;
	r->opened = false;
	links_parallel_wait(r->opening);
	r->opening = NULL;
	links_parallel(r->n, destroy_role, r->role);
}
