/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal test harness: each CHECK prints "PASS name" or "FAIL name: why"
 * (the lines tests/run counts), and the exit status is the number of failures.
 */
#ifndef GPU_BPF_CHECK_H
#define GPU_BPF_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures;

#define CHECK(name, cond, ...)                                               \
	do {                                                                 \
		if (cond) {                                                  \
			printf("PASS %s\n", name);                           \
		} else {                                                     \
			printf("FAIL %s: ", name);                           \
			printf(__VA_ARGS__);                                 \
			printf("\n");                                        \
			check_failures++;                                    \
		}                                                            \
	} while (0)

#define CHECK_STR(name, got, want)                                           \
	CHECK(name, strcmp((got), (want)) == 0, "got\n%s\nwant\n%s", (got), (want))

#define CHECK_U64(name, got, want)                                           \
	CHECK(name, (unsigned long long)(got) == (unsigned long long)(want), \
	      "got %llu, want %llu", (unsigned long long)(got),              \
	      (unsigned long long)(want))

#endif
