/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Level Zero fake's call log ($FAKE_ZE_LOG): one line per call, appended
 * whole.  tests/cuda/fake_log.h with the variable's name changed: that one
 * reads $FAKE_CUDA_LOG by name, so a process with both fakes keeps two logs.
 */
#ifndef FAKE_ZE_LOG_H
#define FAKE_ZE_LOG_H

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((format(printf, 2, 3)))
static void fake_log(const char *func, const char *fmt, ...)
{
	static int fd = -2;
	char line[512];
	va_list ap;
	int n;

	if (fd == -2) {
		const char *path = getenv("FAKE_ZE_LOG");

		fd = path ? open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;
	}
	if (fd < 0)
		return;
	n = snprintf(line, sizeof(line), "%s ", func);
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	if (write(fd, line, n) != n)
		return;
}

#endif /* FAKE_ZE_LOG_H */
