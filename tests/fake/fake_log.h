/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fake libraries' call log: one line per call, appended whole, to the
 * file the environment variable FAKE_LOG_ENV names ("FAKE_CUDA_LOG",
 * "FAKE_HIP_LOG", "FAKE_ZE_LOG": each fake its own, so a process with two
 * fakes keeps two logs). Define FAKE_LOG_ENV before including this.
 */
#ifndef FAKE_LOG_H
#define FAKE_LOG_H

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifndef FAKE_LOG_ENV
#error "define FAKE_LOG_ENV, the variable naming the log file"
#endif

__attribute__((format(printf, 2, 3)))
static void fake_log(const char *func, const char *fmt, ...)
{
	static int fd = -2;
	char line[512];
	va_list ap;
	int n;

	if (fd == -2) {
		const char *path = getenv(FAKE_LOG_ENV);

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

#endif /* FAKE_LOG_H */
