/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Options every tool shares, and number parsing with range checks.
 *
 * Every tool has them (tool_init() adds `common_argp_child` to its argp):
 * -v, -T, -m, -p PID, -c COMM, -j, --cgroup PATH, --container ID, --pod UID,
 * -C, --prometheus, -h
 * and the positional `interval [count]`; -e and --timeline where its
 * description asks (tool.h). A letter means the same in every tool.
 */
#ifndef GPU_BPF_OPTS_H
#define GPU_BPF_OPTS_H

#include <argp.h>
#include <stdbool.h>
#include <sys/types.h>

struct common_env {
	bool verbose;		/* -v: libbpf debug output on stderr */
	bool timestamp;		/* -T: wall-clock time column */
	bool msecs;		/* -m: times in milliseconds, not microseconds */
	pid_t pid;		/* -p: only this process (0: all) */
	char comm[16];		/* -c: only processes of this name ("": all) */
	bool json;		/* -j: JSON lines (table.h) */
	const char *cgroup;	/* --cgroup (--container, --pod: theirs): only tasks in it or below */
	int cgroup_fd;		/* ... opened (valid when cgroup is set) */
	bool show_cgroup;	/* -C: CONTAINER, POD and CGROUP columns where work is per process */
	const char *prometheus;	/* --prometheus: the metrics file (metrics.h) */
	bool events;		/* -e: a line per event (the tools that have it: tool.h) */
	const char *timeline;	/* --timeline FILE (the tools that draw one: tool.h) */
	long interval;		/* seconds between summaries (0: at exit) */
	long count;		/* summaries to print (0: until Ctrl-C) */
	int nr_positional;	/* positional args seen so far */
};

extern struct common_env common_env;
extern const struct argp_child common_argp_child[];

/*
 * A command-line argument as an error line quotes it: escaped, cut to
 * ARG_SHOWN_MAX characters and "..." (a 100 KB argument is not echoed).
 */
#define ARG_SHOWN_MAX 64
const char *arg_shown(const char *arg);

/* The directory of a FILE argument, as open() would look it up: "." for a bare name. */
void path_dir(const char *path, char *dir, size_t size);

/*
 * Parse `arg` as a whole decimal integer in [min, max] into *out.
 * Returns 0, or -EINVAL (and *out untouched) for anything else: empty,
 * a sign or space before the digits, trailing junk, out of range.
 */
int parse_long(const char *arg, long min, long max, long *out);

/*
 * parse_long() for an option argument: on failure argp prints one line,
 * "TOOL: invalid WHAT 'ARG' (expected MIN..MAX)", and exits with
 * argp_err_exit_status.
 */
long parse_long_arg(struct argp_state *state, const char *arg, const char *what,
		    long min, long max);

/*
 * A name option (-c COMM, -r RING) into `out`: 1 to size - 1 characters,
 * as the kernel keeps it; else argp prints "TOOL: invalid WHAT 'ARG' (1 to
 * N characters)" and exits with argp_err_exit_status.
 */
void parse_name_arg(struct argp_state *state, const char *arg, const char *what, char *out,
		    size_t size);

/*
 * The unit of times (-m): as histograms name it, "usecs" or "msecs", and
 * as column headers and JSON field names end, "us" or "ms".
 */
const char *time_unit(void);
const char *time_unit_short(void);

/* A duration in nanoseconds in that unit, with its fraction. */
double ns_in_time_unit(unsigned long long ns);

/*
 * Handle one positional argument: the first is the interval in seconds,
 * the second the count (the common child does this for ARGP_KEY_ARG);
 * errors end the program as parse_long_arg() does.
 */
void parse_interval_args(struct argp_state *state, const char *arg);

#endif /* GPU_BPF_OPTS_H */
