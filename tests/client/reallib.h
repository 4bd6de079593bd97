/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the clients of the real libraries (hipreal, zereal) share.  The
 * library is opened with dlopen, so that nothing of it is needed to build
 * them, and its functions looked up: one missing exits 125.  A call that
 * dies of a signal (a runtime can, on a machine without the GPU it looks
 * for) prints "DIED FUNCTION SIGNAL" and exits 128 + the signal, so a test
 * still knows which call it was.  Define CLIENT_NAME, the program's name
 * for its messages, before including this.
 */
#ifndef CLIENT_REALLIB_H
#define CLIENT_REALLIB_H

#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef CLIENT_NAME
#error "define CLIENT_NAME, the program's name for its messages"
#endif

/* The function being called: set before each call, for died(). */
static const char *volatile current = "(none)";

/* A call that does not return: say which, with what, and die of it. */
static void died(int sig)
{
	const char *sig_name = sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" :
			       sig == SIGABRT ? "SIGABRT" : sig == SIGILL ? "SIGILL" : "SIGFPE";
	const char *parts[] = { "DIED ", current, " ", sig_name, "\n" };
	size_t i;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (write(1, parts[i], strlen(parts[i])) < 0)
			break;
	_exit(128 + sig);
}

/* From here on, a call that dies says so (died()). */
static void report_deaths(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE };
	size_t i;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], died);
}

/* The library at PATH (a file, or a name for ld.so to find), or exit 125. */
static void *open_lib(const char *path)
{
	void *lib = dlopen(path, RTLD_NOW);

	if (!lib) {
		fprintf(stderr, CLIENT_NAME ": %s\n", dlerror());
		exit(125);
	}
	return lib;
}

/* NAME in LIB; NULL, said, and *missing set when it has none. */
static void *sym(void *lib, const char *name, int *missing)
{
	void *p = dlsym(lib, name);

	if (!p) {
		fprintf(stderr, CLIENT_NAME ": no %s: %s\n", name, dlerror());
		*missing = 1;
	}
	return p;
}

#endif /* CLIENT_REALLIB_H */
