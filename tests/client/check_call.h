/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CHECK(call, want): a workload's call and the result it must return.  Any
 * other ends the workload (exit 1), saying the call and both results, so
 * that a test's counts are never taken from a run that went otherwise.
 * Results are said in decimal, or in hex where CHECK_HEX is defined (Level
 * Zero's ze_result_t: 0x78000001 is how its header writes that value).
 * Define CLIENT_NAME, the program's name for its messages, before including
 * this.
 */
#ifndef CLIENT_CHECK_CALL_H
#define CLIENT_CHECK_CALL_H

#include <stdio.h>
#include <stdlib.h>

#ifndef CLIENT_NAME
#error "define CLIENT_NAME, the program's name for its messages"
#endif

#ifdef CHECK_HEX
#define CHECK_FORMAT "0x%llx"
#else
#define CHECK_FORMAT "%lld"
#endif

#define CHECK(call, want)                                                            \
	do {                                                                         \
		long long r_ = (call), want_ = (want);                               \
		if (r_ != want_) {                                                   \
			fprintf(stderr, CLIENT_NAME ": %s returned " CHECK_FORMAT    \
				", want " CHECK_FORMAT "\n", #call, r_, want_);      \
			exit(1);                                                     \
		}                                                                    \
	} while (0)

#endif /* CLIENT_CHECK_CALL_H */
