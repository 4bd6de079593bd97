// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "output.h"

static bool broken;
static int write_error;	/* stdout's errno, when not a reader gone */

/*
 * Not a terminal: one write(2) per buffer, not per line. At thousands of
 * events a second a write per line costs more than the event itself and
 * the ring buffer overflows; the tracing loop flushes after every drained
 * batch (trace_loop.c), so a reader of a pipe still sees each line within a
 * poll interval.
 */
#define PIPE_BUFFER_BYTES (64 * 1024)

void output_init(void)
{
	static char buffer[PIPE_BUFFER_BYTES];

	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, buffer, _IOFBF, sizeof(buffer));
	/* A closed pipe must show up as EPIPE, not kill us mid-summary. */
	signal(SIGPIPE, SIG_IGN);
}

/* A pipe whose reader is gone reports POLLERR on its write end. */
static bool reader_gone(void)
{
	struct pollfd p = { .fd = STDOUT_FILENO, .events = 0 };

	return poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP));
}

/*
 * stdout failed with `err`: a reader gone (EPIPE) ends tracing quietly;
 * anything else (a full disk, EIO) is output lost, said at once with
 * what the buffer held, and the tool's exit status (output_error()).
 */
static void stdout_failed(int err, size_t pending)
{
	broken = true;
	if (err == EPIPE || reader_gone())
		return;
	write_error = err ?: EIO;
	fprintf(stderr, "%s: stdout: cannot write: %s: %zu bytes of output lost; tracing ends, "
		"the summary on stderr\n", program_invocation_short_name, strerror(write_error),
		pending);
	__fpurge(stdout);
}

bool output_broken(void)
{
	if (!broken && ferror(stdout)) {
		size_t pending = __fpending(stdout);

		errno = 0;
		fflush(stdout);		/* again, for the error's errno */
		stdout_failed(errno, pending);
	} else if (!broken && reader_gone()) {
		broken = true;
	}
	return broken;
}

bool output_flush(void)
{
	size_t pending = __fpending(stdout);

	if (!broken && fflush(stdout) == EOF)
		stdout_failed(errno, pending);
	return output_broken();
}

int output_error(void)
{
	return write_error;
}

static FILE *capture;
static char *captured;
static size_t captured_len;

FILE *summary_stream(void)
{
	if (capture)
		return capture;
	return output_broken() ? stderr : stdout;
}

void summary_capture_begin(void)
{
	/* The events before it written first: a failure there is theirs. */
	output_flush();
	if (!output_broken())
		capture = open_memstream(&captured, &captured_len);
}

void summary_capture_end(void)
{
	FILE *c = capture;

	if (!c)
		return;
	capture = NULL;
	if (!fclose(c) && captured_len) {
		fwrite(captured, 1, captured_len, stdout);
		if (output_flush())
			fwrite(captured, 1, captured_len, stderr);
	}
	free(captured);
	captured = NULL;
}

void print_wallclock(FILE *f)
{
	char buf[16];
	time_t t = time(NULL);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%H:%M:%S", &tm);
	fprintf(f, "%-8s ", buf);
}

unsigned long long monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static unsigned long long trace_start_ns;

void trace_clock_start(void)
{
	trace_start_ns = monotonic_ns();
}

double seconds_since(unsigned long long ts_ns, unsigned long long now_ns)
{
	return now_ns > ts_ns ? (now_ns - ts_ns) / 1e9 : 0.0;
}

double trace_seconds(unsigned long long ts_ns)
{
	return seconds_since(trace_start_ns, ts_ns);
}

const char *errno_name(int err, char *buf, size_t size)
{
	const char *n = strerrorname_np(err);

	if (n)
		return n;
	snprintf(buf, size, "%d", err);
	return buf;
}
