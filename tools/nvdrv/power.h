/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The driver's power management: nv_set_system_power_state's transitions
 * (into standby or hibernation and back, as nvidia-suspend.service and
 * /proc/driver/nvidia/suspend ask), each counted with its errors and
 * latency, and the cycles, each from a suspend's entry to the return of
 * the resume that ended it. The kernel side's power_rows, by enum power_row.
 */
#ifndef NVDRV_POWER_H
#define NVDRV_POWER_H

#include <stdio.h>

#include "maps.h"
#include "metrics.h"

/* The rows that changed since `prev` (NULL: none before). */
void print_power(FILE *f, const struct map_snapshot *now, const struct map_snapshot *prev);

/* The families gpubpf_nvdrv_power_*: transitions, their errors, and their latency. */
void power_metrics(struct metrics *m, const struct map_snapshot *now, double unit);

#endif /* NVDRV_POWER_H */
