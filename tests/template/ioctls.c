// SPDX-License-Identifier: GPL-2.0
/*
 * ioctls N [GATE]: exactly N ioctl(FIONREAD) calls on a pipe, then exit
 * 0: the workload of tests/host/template.sh. With GATE (a FIFO), read it
 * to its end first, so that a tracer started on this process's PID (-p)
 * attaches before the first call. Prints nothing: a terminal's ioctls
 * would be other commands, but none are wanted.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fds[2], avail, gate;
	char buf[64];
	long i, n;

	if (argc < 2 || (n = atol(argv[1])) < 0) {
		fprintf(stderr, "usage: ioctls N [GATE]\n");
		return 2;
	}
	if (argc > 2) {
		gate = open(argv[2], O_RDONLY);
		if (gate < 0) {
			perror(argv[2]);
			return 1;
		}
		while (read(gate, buf, sizeof(buf)) > 0)
			;
		close(gate);
	}
	if (pipe(fds)) {
		perror("pipe");
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (ioctl(fds[0], FIONREAD, &avail)) {
			perror("ioctl");
			return 1;
		}
	}
	return 0;
}
