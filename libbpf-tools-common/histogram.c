// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "histogram.h"

#define STARS_MAX 40

void log2_slot_range(int slot, unsigned long long *lo, unsigned long long *hi)
{
	*lo = slot == 0 ? 0 : 1ULL << slot;
	*hi = slot == MAX_SLOTS - 1 ? ~0ULL : (2ULL << slot) - 1;
}

static void print_stars(FILE *f, unsigned int val, unsigned int val_max)
{
	int nr = val_max ? (int)((unsigned long long)val * STARS_MAX / val_max) : 0;
	int i;

	for (i = 0; i < STARS_MAX; i++)
		fputc(i < nr ? '*' : ' ', f);
}

void print_log2_hist(FILE *f, const __u32 *slots, int nr_slots, const char *unit)
{
	unsigned int val_max = 0;
	int i, first = -1, last = -1;

	for (i = 0; i < nr_slots; i++) {
		if (slots[i] > 0) {
			last = i;
			if (first < 0)
				first = i;
		}
		if (slots[i] > val_max)
			val_max = slots[i];
	}
	if (last < 0)
		return;

	fprintf(f, "%*s%-*s : count    distribution\n", 10, "", 14, unit);
	/* From the first non-empty slot: leading zero rows only push the data off screen. */
	for (i = first; i <= last; i++) {
		unsigned long long lo, hi;

		log2_slot_range(i, &lo, &hi);
		if (hi == ~0ULL)
			fprintf(f, "%10llu -> %-10s : %-8u |", lo, "...", slots[i]);
		else
			fprintf(f, "%10llu -> %-10llu : %-8u |", lo, hi, slots[i]);
		print_stars(f, slots[i], val_max);
		fputs("|\n", f);
	}
}

void print_lat_hist(FILE *f, const struct lat_hist *h, const char *unit)
{
	if (!h->count) {
		fprintf(f, "    count 0\n");
		return;
	}
	fprintf(f, "    count %llu  avg %llu  min %llu  max %llu  (%s)\n",
		(unsigned long long)h->count,
		(unsigned long long)(h->sum / h->count),
		(unsigned long long)h->min, (unsigned long long)h->max, unit);
	print_log2_hist(f, h->slots, MAX_SLOTS, unit);
}

void lat_hist_merge(struct lat_hist *into, const struct lat_hist *from)
{
	int i;

	if (!from->count)
		return;
	if (!into->count || from->min < into->min)
		into->min = from->min;
	if (!into->count || from->max > into->max)
		into->max = from->max;
	into->count += from->count;
	into->sum += from->sum;
	for (i = 0; i < MAX_SLOTS; i++)
		into->slots[i] += from->slots[i];
}

void lat_hist_reset(struct lat_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = ~0ULL;
}

void lat_hist_delta(struct lat_hist *out, const struct lat_hist *now, const struct lat_hist *was)
{
	unsigned long long lo, hi;
	int i, first = -1, last = -1;

	if (!was || !was->count) {
		*out = *now;
		return;
	}
	lat_hist_reset(out);
	out->count = now->count - was->count;
	out->sum = now->sum - was->sum;
	for (i = 0; i < MAX_SLOTS; i++) {
		out->slots[i] = now->slots[i] - was->slots[i];
		if (out->slots[i]) {
			if (first < 0)
				first = i;
			last = i;
		}
	}
	if (first < 0)
		return;
	/* Exact extremes are the session's: the interval's are its outer slots' bounds. */
	log2_slot_range(first, &lo, &hi);
	out->min = now->min > lo ? now->min : lo;
	log2_slot_range(last, &lo, &hi);
	out->max = now->max < hi ? now->max : hi;
}
