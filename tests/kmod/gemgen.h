/* SPDX-License-Identifier: GPL-2.0 */
/* gemgen: what its i915 part (gemgen_main.c) and xe part (gemgen_xe.c) share. */
#ifndef _GEMGEN_H
#define _GEMGEN_H

/* A command's key=value arguments; -1: not given. */
struct gg_args {
	long n, first, size, vm, gtt, write, bytes, pages, async, placement;
};

#ifdef GEMGEN_XE
/* The xe_* commands (gemgen_xe.c); called with gemgen's lock held. */
int gg_xe_command(const char *verb, const struct gg_args *a);
void gg_xe_exit(void);
int gg_xe_show(int *alive);
#endif

#endif /* _GEMGEN_H */
