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

struct destroy_work {
	struct bpf_link **links;
	int n;
	atomic_int next;
};

static void *destroy_some(void *arg)
{
	struct destroy_work *w = arg;
	int i;

	while ((i = atomic_fetch_add(&w->next, 1)) < w->n)
		bpf_link__destroy(w->links[i]);
	return NULL;
}

void links_destroy_all(struct bpf_link **links, int n)
{
	struct destroy_work work = { .links = links, .n = n };
	pthread_t threads[MAX_THREADS];
	int nr_threads = 0, i;

	/* A thread that cannot start leaves its share to the others and to this one. */
	while (nr_threads < MAX_THREADS && nr_threads < n - 1 &&
	       !pthread_create(&threads[nr_threads], NULL, destroy_some, &work))
		nr_threads++;
	destroy_some(&work);
	for (i = 0; i < nr_threads; i++)
		pthread_join(threads[i], NULL);
}
