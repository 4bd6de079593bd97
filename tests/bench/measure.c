// SPDX-License-Identifier: GPL-2.0
/*
 * measure: run a tracer the way a user pipes it (`tracer | grep`) and report
 * what it cost, as the kernel counts it for the process:
 *
 *   measure -o OUT [-r READY] -- CMD [ARGS...]
 *
 * CMD's stdout and stderr go through a pipe into OUT. When a line containing
 * READY appears (default: the first line), OUT.ready is written with the
 * milliseconds since the start: the start-to-attached time, for tracers that
 * print their banner once their probes are attached. SIGINT and SIGTERM are
 * passed on to CMD. Once CMD has exited and its output is drained, OUT.stats
 * gets one line:
 *
 *   pid=P cpu_ms=C maxrss_kb=K attach_ms=A status=S
 *
 * cpu_ms is CMD's user + system time and maxrss_kb its peak resident set
 * (getrusage of the reaped child: exact, whatever else the machine does).
 * OUT.pid holds CMD's pid while it runs (to find its BPF programs).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t child;

static void forward(int sig)
{
	(void)sig;
	if (child > 0)
		kill(child, SIGINT);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void write_file(const char *base, const char *suffix, const char *fmt, double v)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", base, suffix);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(2);
	}
	fprintf(f, fmt, v);
	fclose(f);
}

int main(int argc, char **argv)
{
	const char *out_path = NULL, *ready = NULL;
	char buf[65536], line_tail[256] = "", path[4096];
	double t0, attach_ms = -1;
	struct sigaction sa = { .sa_handler = forward };
	struct rusage ru;
	int pipefd[2], opt, status;
	FILE *out, *stats;
	ssize_t n;

	while ((opt = getopt(argc, argv, "+o:r:")) != -1) {
		switch (opt) {
		case 'o': out_path = optarg; break;
		case 'r': ready = optarg; break;
		default: goto usage;
		}
	}
	if (!out_path || optind >= argc)
		goto usage;
	if (!strcmp(argv[optind], "--") && ++optind >= argc)
		goto usage;

	out = fopen(out_path, "w");
	if (!out || pipe(pipefd)) {
		perror(out_path);
		return 2;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	t0 = now_ms();
	child = fork();
	if (child < 0) {
		perror("fork");
		return 2;
	}
	if (child == 0) {
		dup2(pipefd[1], STDOUT_FILENO);
		dup2(pipefd[1], STDERR_FILENO);
		close(pipefd[0]);
		close(pipefd[1]);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "measure: %s: %s\n", argv[optind], strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	write_file(out_path, ".pid", "%.0f\n", child);

	for (;;) {
		n = read(pipefd[0], buf, sizeof(buf) - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		fwrite(buf, 1, n, out);
		if (attach_ms < 0) {
			/* READY may straddle two reads: search the tail of the last one too. */
			char probe[sizeof(line_tail) + sizeof(buf)];

			buf[n] = '\0';
			snprintf(probe, sizeof(probe), "%s%s", line_tail, buf);
			if (ready ? strstr(probe, ready) != NULL : strchr(probe, '\n') != NULL) {
				attach_ms = now_ms() - t0;
				fflush(out);
				write_file(out_path, ".ready", "%.0f\n", attach_ms);
			}
			size_t keep = (size_t)n < sizeof(line_tail) ? (size_t)n : sizeof(line_tail) - 1;

			memcpy(line_tail, buf + n - keep, keep);
			line_tail[keep] = '\0';
		}
	}
	fclose(out);
	while (wait4(child, &status, 0, &ru) < 0 && errno == EINTR)
		;

	snprintf(path, sizeof(path), "%s.stats", out_path);
	stats = fopen(path, "w");
	if (!stats) {
		perror(path);
		return 2;
	}
	fprintf(stats, "pid=%d cpu_ms=%.0f maxrss_kb=%ld attach_ms=%.0f status=%d\n", (int)child,
		(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
			(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3,
		ru.ru_maxrss, attach_ms, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	fclose(stats);
	return 0;
usage:
	fprintf(stderr, "usage: measure -o OUT [-r READY] -- CMD [ARGS...]\n");
	return 2;
}
