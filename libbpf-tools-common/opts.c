// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "opts.h"
#include "runtime.h"
#include "untrusted.h"

struct common_env common_env;

enum {
	OPT_MSECS = 'm', OPT_PID = 'p', OPT_COMM = 'c', OPT_TIMESTAMP = 'T', OPT_VERBOSE = 'v', OPT_JSON = 'j',
	OPT_SHOW_CGROUP = 'C', OPT_CGROUP = 0x100, OPT_PROMETHEUS, OPT_CONTAINER, OPT_POD,
};

static const struct argp_option common_options[] = {
	{ "milliseconds", OPT_MSECS, NULL, 0, "Times in milliseconds (default: microseconds)", 0 },
	{ "pid", OPT_PID, "PID", 0, "Trace this process only (one: a second -p is refused)", 0 },
	{ "comm", OPT_COMM, "COMM", 0, "Trace processes of this name only", 0 },
	{ "json", OPT_JSON, NULL, 0, "JSON lines: one object per event or table row", 0 },
	{ "cgroup", OPT_CGROUP, "PATH", 0,
	  "Trace only tasks in this cgroup v2 directory or below it", 0 },
	{ "container", OPT_CONTAINER, "ID", 0,
	  "Trace only this container (its id or the start of it, as docker ps or crictl ps shows it)", 0 },
	{ "pod", OPT_POD, "UID", 0, "Trace only this Kubernetes pod (its metadata.uid)", 0 },
	{ "show-cgroup", OPT_SHOW_CGROUP, NULL, 0,
	  "Show each process's container, pod and cgroup", 0 },
	{ "prometheus", OPT_PROMETHEUS, "FILE", 0,
	  "Write metrics to FILE in Prometheus' text format (node_exporter's textfile "
	  "collector), replaced every interval (default 10 s) and at exit", 0 },
	{ "timestamp", OPT_TIMESTAMP, NULL, 0, "Include wall-clock time on output", 0 },
	{ "verbose", OPT_VERBOSE, NULL, 0, "Verbose: libbpf's messages, start-up time per phase", 0 },
	{ NULL, 'h', NULL, OPTION_HIDDEN, "Show the full help", 0 },
	{},
};

const char *arg_shown(const char *arg)
{
	static char buf[96];

	if (strlen(arg) <= ARG_SHOWN_MAX)
		return text_safe(arg);
	snprintf(buf, sizeof(buf), "%.*s...", ARG_SHOWN_MAX, text_safe(arg));
	return buf;
}

void path_dir(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, size, ".");
	else if (slash == path)
		snprintf(dir, size, "/");
	else
		snprintf(dir, size, "%.*s", (int)(slash - path), path);
}

int parse_long(const char *arg, long min, long max, long *out)
{
	char *end;
	long v;

	/* Digits (a '-' first where negatives are taken): no "+5", no " 5", no "0x5". */
	if (!isdigit((unsigned char)arg[0]) &&
	    !(arg[0] == '-' && min < 0 && isdigit((unsigned char)arg[1])))
		return -EINVAL;
	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

long parse_long_arg(struct argp_state *state, const char *arg, const char *what,
		    long min, long max)
{
	long v = 0;

	if (parse_long(arg, min, max, &v))
		argp_failure(state, argp_err_exit_status, 0,
			     "invalid %s '%s' (expected %ld..%ld)", what, arg_shown(arg), min, max);
	return v;
}

void parse_name_arg(struct argp_state *state, const char *arg, const char *what, char *out,
		    size_t size)
{
	if (!arg[0] || strlen(arg) >= size)
		argp_failure(state, argp_err_exit_status, 0, "invalid %s '%s' (1 to %zu characters)",
			     what, arg_shown(arg), size - 1);
	snprintf(out, size, "%s", arg);
}

/*
 * `a` and `b` name one file: the same inode, or, before they exist, the
 * same name in the same directory.
 */
static bool same_file(const char *a, const char *b)
{
	char da[PATH_MAX], db[PATH_MAX], ra[PATH_MAX], rb[PATH_MAX];
	struct stat sa, sb;

	if (!stat(a, &sa) && !stat(b, &sb))
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	path_dir(a, da, sizeof(da));
	path_dir(b, db, sizeof(db));
	return realpath(da, ra) && realpath(db, rb) && !strcmp(ra, rb) &&
	       !strcmp(basename(a), basename(b));
}

/* FILE is stdout's file (`tool --timeline x > x`). */
static bool is_stdout(const char *file)
{
	struct stat so, sf;

	return !fstat(STDOUT_FILENO, &so) && S_ISREG(so.st_mode) && !stat(file, &sf) &&
	       so.st_dev == sf.st_dev && so.st_ino == sf.st_ino;
}

/* Two outputs on one file: each would overwrite the other. */
static void outputs_apart(struct argp_state *state)
{
	const char *tl = common_env.timeline, *prom = common_env.prometheus;

	if (tl && prom && same_file(tl, prom))
		argp_failure(state, argp_err_exit_status, 0,
			     "--timeline and --prometheus name one file, %s: give each its own",
			     arg_shown(tl));
	if (tl && is_stdout(tl))
		argp_failure(state, argp_err_exit_status, 0,
			     "--timeline %s is also stdout: give each its own", arg_shown(tl));
	if (prom && is_stdout(prom))
		argp_failure(state, argp_err_exit_status, 0,
			     "--prometheus %s is also stdout: give each its own", arg_shown(prom));
}

static error_t common_parse(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case OPT_MSECS:
		common_env.msecs = true;
		break;
	case OPT_PID: {
		const char *why;

		if (common_env.pid)
			argp_failure(state, argp_err_exit_status, 0,
				     "-p %s: one process at a time (-c traces all of one name)", arg_shown(arg));
		common_env.pid = parse_long_arg(state, arg, "PID", 1, INT_MAX);
		why = pid_untraceable(common_env.pid);
		if (why)
			argp_failure(state, argp_err_exit_status, 0, "-p %d: %s", common_env.pid, why);
		break;
	}
	case OPT_COMM:
		/* libbpf-tools' -c is a cgroup path: say where that went here. */
		if (arg[0] == '/')
			argp_failure(state, argp_err_exit_status, 0,
				     "-c takes a process name, not a path: for a cgroup use --cgroup %s",
				     arg_shown(arg));
		parse_name_arg(state, arg, "COMM", common_env.comm, sizeof(common_env.comm));
		break;
	case OPT_JSON:
		common_env.json = true;
		break;
	case OPT_CGROUP:
	case OPT_CONTAINER:
	case OPT_POD: {
		const char *opt = key == OPT_CGROUP ? "--cgroup" : key == OPT_CONTAINER ? "--container" : "--pod";
		const char *path = arg;
		char why[128];

		/* One cgroup to filter on (filter.bpf.h): a container and its pod are in one. */
		if (common_env.cgroup)
			argp_failure(state, argp_err_exit_status, 0,
				     "%s %s: only one of --cgroup, --container and --pod", opt, arg_shown(arg));
		if (key != OPT_CGROUP)
			path = cgroup_of_container(key == OPT_CONTAINER ? arg : NULL,
						   key == OPT_POD ? arg : NULL, why, sizeof(why));
		if (path)
			common_env.cgroup_fd = cgroup_open(path, why, sizeof(why));
		if (!path || common_env.cgroup_fd < 0)
			argp_failure(state, argp_err_exit_status, 0, "%s %s: %s", opt, arg_shown(arg), why);
		common_env.cgroup = path;
		break;
	}
	case OPT_PROMETHEUS:
		if (!arg[0])
			argp_failure(state, argp_err_exit_status, 0, "--prometheus: empty FILE");
		common_env.prometheus = arg;
		break;
	case OPT_SHOW_CGROUP:
		common_env.show_cgroup = true;
		break;
	case OPT_TIMESTAMP:
		common_env.timestamp = true;
		break;
	case OPT_VERBOSE:
		common_env.verbose = true;
		break;
	case 'h':	/* libbpf-tools users type -h; argp's own is -? */
		argp_state_help(state, stdout, ARGP_HELP_STD_HELP);
		break;
	case ARGP_KEY_ARG:
		parse_interval_args(state, arg);
		break;
	case ARGP_KEY_END:
		outputs_apart(state);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp common_argp = {
	.options = common_options,
	.parser = common_parse,
};

const struct argp_child common_argp_child[] = {
	{ &common_argp, 0, "Common options:", 0 },
	{},
};

const char *time_unit(void)
{
	return common_env.msecs ? "msecs" : "usecs";
}

const char *time_unit_short(void)
{
	return common_env.msecs ? "ms" : "us";
}

double ns_in_time_unit(unsigned long long ns)
{
	return common_env.msecs ? ns / 1e6 : ns / 1e3;
}

void parse_interval_args(struct argp_state *state, const char *arg)
{
	switch (common_env.nr_positional++) {
	case 0:
		common_env.interval = parse_long_arg(state, arg, "interval", 1, INT_MAX);
		break;
	case 1:
		common_env.count = parse_long_arg(state, arg, "count", 1, INT_MAX);
		break;
	default:
		argp_failure(state, argp_err_exit_status, 0, "unexpected argument '%s'", arg_shown(arg));
	}
}
