/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's command line and main loop: a tool on it (cudatrace.c) is
 * its family's description (api.h) and the options that are its own; the
 * BPF object, bpf/apitrace.bpf.c, is the same for every tool.
 */
#ifndef APITRACE_RUN_H
#define APITRACE_RUN_H

#include <argp.h>
#include <stdbool.h>
#include <bpf/libbpf.h>

#include "apitrace/api.h"
#include "apitrace/libs.h"

/* The engine's options, every tool's: -e -E -l -s -L -f --timeline. */
struct apitrace_env {
	bool events;
	bool errors;
	bool leaks;
	bool stacks;
	bool secondary;		/* the tool's -R (cudatrace: the runtime API too) */
	const char *timeline;	/* --timeline FILE */
	const char *libs[MAX_LIBS];
	int nr_libs;
	const char *patterns[MAX_PATTERNS];	/* -f */
	int nr_patterns;
};

extern struct apitrace_env apitrace_env;

/* The engine's options, then the common ones, as a tool's argp children. */
extern const struct argp_child apitrace_argp_children[];

#define APITRACE_ARGP(options_, parser_, doc_)						\
	{ .options = (options_), .parser = (parser_), .args_doc = "[interval [count]]",	\
	  .doc = (doc_), .children = apitrace_argp_children }

/*
 * A tool on the engine, whole: its command line, then bpf/apitrace.bpf.c
 * opened, loaded and attached to the family's functions, the tracing until
 * the end and its report. main()'s exit status.
 */
int apitrace_main(const struct argp *argp, int argc, char **argv, const struct api_desc *desc);

#endif /* APITRACE_RUN_H */
