// SPDX-License-Identifier: GPL-2.0
/* Kprobe links (links.h). */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>

#include "links.h"

struct bpf_link *attach_kprobe_first(struct bpf_program *prog, const char *const *fns, int n,
				     bool retprobe, __u64 cookie, int *which)
{
	LIBBPF_OPTS(bpf_kprobe_opts, o, .retprobe = retprobe, .bpf_cookie = cookie);
	struct bpf_link *link;
	int i;

	for (i = 0; i < n; i++) {
		link = bpf_program__attach_kprobe_opts(prog, fns[i], &o);
		if (link || errno != ENOENT) {
			*which = i;
			return link;
		}
	}
	errno = ENOENT;
	return NULL;
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

void links_parallel(int n, void (*fn)(int i, void *arg), void *arg)
{
	struct parallel_work work = { .fn = fn, .arg = arg, .n = n };
	pthread_t threads[MAX_THREADS];
	int nr_threads = 0, i;

	/* A thread that cannot start leaves its share to the others and to this one. */
	while (nr_threads < MAX_THREADS && nr_threads < n - 1 &&
	       !pthread_create(&threads[nr_threads], NULL, run_some, &work))
		nr_threads++;
	run_some(&work);
	for (i = 0; i < nr_threads; i++)
		pthread_join(threads[i], NULL);
}

static void destroy_one(int i, void *links)
{
	bpf_link__destroy(((struct bpf_link **)links)[i]);
}

void links_destroy_all(struct bpf_link **links, int n)
{
	links_parallel(n, destroy_one, links);
}
