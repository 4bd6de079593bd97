/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fake libraries' memory: what is live, on the device and on the host,
 * so that a free is checked against it, and a device allocator with a
 * capacity ($FAKE_MEM_ENV bytes, 16 GiB by default) that hands out
 * distinct addresses, MEM_ALIGN (2 MiB) apart at least, as a tracer's
 * leak check needs them.  The device side is imaginary: only addresses
 * and sizes.  Each fake turns the outcomes into its API's results.
 * Define FAKE_MEM_ENV ("FAKE_CUDA_MEM", ...) before including this.
 */
#ifndef FAKE_MEM_H
#define FAKE_MEM_H

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#ifndef FAKE_MEM_ENV
#error "define FAKE_MEM_ENV, the variable giving the device's capacity"
#endif

#define MAX_ALLOCS	256
#define MEM_ALIGN	0x200000ULL

static struct alloc {
	unsigned long long addr, size;
	int host;
} live[MAX_ALLOCS];
static int nr_live;
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned long long capacity(void)
{
	const char *s = getenv(FAKE_MEM_ENV);

	return s ? strtoull(s, NULL, 0) : 16ULL << 30;
}

static unsigned long long span_of(unsigned long long size)
{
	return (size + MEM_ALIGN - 1) & ~(MEM_ALIGN - 1);
}

/*
 * SIZE bytes of the device: first fit from BASE, in address order, at
 * ALIGN (MEM_ALIGN at least), so a freed range is handed out again.  0 and
 * the address in *at_out, or -1: what is left of the capacity (or of the
 * table) is too small.
 */
static int mem_alloc(unsigned long long base, unsigned long long size, unsigned long long align,
		     unsigned long long *at_out)
{
	unsigned long long used = 0, at = base, span = span_of(size);
	int i, again = 1;

	if (align < MEM_ALIGN)
		align = MEM_ALIGN;
	pthread_mutex_lock(&live_lock);
	for (i = 0; i < nr_live; i++)
		if (!live[i].host)
			used += live[i].size;
	if (used + size > capacity() || used + size < used || nr_live == MAX_ALLOCS) {
		pthread_mutex_unlock(&live_lock);
		return -1;
	}
	while (again) {
		again = 0;
		at = (at + align - 1) & ~(align - 1);
		for (i = 0; i < nr_live; i++) {
			unsigned long long end = live[i].addr + span_of(live[i].size);

			if (!live[i].host && at < end && live[i].addr < at + span) {
				at = end;
				again = 1;
			}
		}
	}
	live[nr_live++] = (struct alloc){ at, size, 0 };
	pthread_mutex_unlock(&live_lock);
	*at_out = at;
	return 0;
}

/* Host memory the fake allocated (malloc): live until freed, as a leak. */
static void mem_track_host(void *p, unsigned long long size)
{
	pthread_mutex_lock(&live_lock);
	if (nr_live < MAX_ALLOCS)
		live[nr_live++] = (struct alloc){ (uintptr_t)p, size, 1 };
	pthread_mutex_unlock(&live_lock);
}

/*
 * Forget the live allocation at ADDR: a host one (HOST 1), a device one
 * (0), or either (-1).  Which it was (1 host, 0 device), or -1: none.
 */
static int mem_forget(unsigned long long addr, int host)
{
	int i, was = -1;

	pthread_mutex_lock(&live_lock);
	for (i = 0; i < nr_live; i++) {
		if (live[i].addr == addr && (host < 0 || live[i].host == host)) {
			was = live[i].host;
			live[i] = live[--nr_live];
			break;
		}
	}
	pthread_mutex_unlock(&live_lock);
	return was;
}

#endif /* FAKE_MEM_H */
