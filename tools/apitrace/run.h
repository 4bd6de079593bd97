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
#include "tool.h"

/* The engine's options, every tool's: -E -l -s -L -f (and the library's -e, --timeline). */
struct apitrace_env {
	bool errors;
	bool leaks;
	bool stacks;
	bool secondary;		/* the tool's -R (cudatrace: the runtime API too) */
	const char *libs[MAX_LIBS];
	int nr_libs;
	const char *patterns[MAX_PATTERNS];	/* -f */
	int nr_patterns;
};

extern struct apitrace_env apitrace_env;

/* The engine's options: the engine of a tool's description. */
extern const struct argp apitrace_argp;

/*
 * A tool on the engine: its doc, its own options and parser (NULL: none);
 * -e and --timeline. A program can make 100000 calls a second: a ring for
 * a burst of 20000 (21000 records of 192 bytes) even if the reader fell
 * behind (1 MiB lost some under qemu; 8 MiB cost 20 MB more of RSS than
 * this).
 */
#define APITRACE_TOOL(options_, parser_, doc_)						\
	{ .doc = (doc_), .options = (options_), .parser = (parser_),			\
	  .engine = &apitrace_argp, .events = "Print one line per call",		\
	  .timeline = "Write the calls to FILE as a timeline (Trace Event Format: "	\
		      "ui.perfetto.dev opens it)",					\
	  .ring_bytes = 4 << 20, .quiet_ring_bytes = 4096 }

/*
 * A tool on the engine, whole: its command line, then bpf/apitrace.bpf.c
 * opened, loaded and attached to the family's functions, the tracing until
 * the end and its report. main()'s exit status.
 */
int apitrace_main(const struct tool_desc *tool, int argc, char **argv, const struct api_desc *desc);

#endif /* APITRACE_RUN_H */
