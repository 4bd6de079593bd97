/* SPDX-License-Identifier: GPL-2.0 */
/* gemgen: what its i915 part (gemgen_main.c) and xe part (gemgen_xe.c) share. */
#ifndef _GEMGEN_H
#define _GEMGEN_H

/* A command's key=value arguments; -1: not given. */
struct gg_args {
	long n, first, size, vm, gtt, write, bytes, pages, async, placement;
};

struct drm_i915_private;

/*
 * "hang", "gt_reset", "gt_reset_fail", "gt_wedge" (gemgen_hang.c): the
 * writer's request hangs an engine; i915 resets the engine, or the GT
 * (which may fail: the GT wedged); or a GT wedged with no hang.
 */
enum gg_hang_how { GG_ENGINE_RESET, GG_GT_RESET, GG_GT_RESET_FAILS, GG_WEDGE };

int gg_hang(struct drm_i915_private *i915, enum gg_hang_how how);
void gg_hang_exit(void);

#ifdef GEMGEN_XE
/* The xe_* commands (gemgen_xe.c); called with gemgen's lock held. */
int gg_xe_command(const char *verb, const struct gg_args *a);
void gg_xe_exit(void);
int gg_xe_show(int *alive);
#endif

#endif /* _GEMGEN_H */
