// SPDX-License-Identifier: GPL-2.0
/*
 * records_count_skipped() against the host's real kernel: a classic
 * tracepoint's program that the kernel skips (its event fired inside
 * another BPF program, records_test.bpf.c) must be counted, exactly, and
 * one it runs must not. Needs root; serialised with other runs of itself,
 * since every bpf_trace_printk on the machine fires the event it counts.
 */
#include <fcntl.h>
#include <sys/file.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"
#include "probe.h"
#include "records.h"
#include "runtime.h"
#include "records_test.skel.h"

#define NESTED 37	/* getppid() calls: printks inside a classic tracepoint's program */
#define FREE 23		/* getpid() calls: printks inside a raw tracepoint's program */

int main(void)
{
	struct records_test_bpf *skel;
	int lock = open("/tmp/gpu-bpf-tools-test_records.lock", O_CREAT | O_RDWR, 0600);
	int i, err;

	if (lock < 0 || flock(lock, LOCK_EX)) {
		printf("FAIL test_records: cannot take its lock\n");
		return 1;
	}
	runtime_init(false);
	/* libbpf attaches classic tracepoints through tracefs, which a fresh
	 * machine may not have mounted yet: mount it as the tools do. */
	CHECK("tracefs found or mounted", tracefs_path() != NULL, "%m");
	skel = records_test_bpf__open();
	CHECK("records_test: opens", skel != NULL, "%m");
	if (!skel)
		return 1;
	skel->rodata->targ_tgid = getpid();
	err = records_test_bpf__load(skel);
	CHECK("records_test: loads", err == 0, "%d", err);
	if (err)
		goto out;
	err = records_test_bpf__attach(skel);	/* the two printing programs; not on_printk */
	CHECK("records_test: printers attach", err == 0, "%d", err);
	if (err)
		goto out;
	{
		const struct record_tp tps[] = {
			{ skel->progs.on_printk, "bpf_trace", "bpf_trace_printk" },
		};

		err = records_attach(tps, 1);
		CHECK("records_attach: the classic program on bpf_trace_printk", err == 0, "%d", err);
		err = err ?: records_count_skipped(skel->obj);
		CHECK("records_count_skipped: the raw counter attached", err == 0, "%d", err);
	}
	if (err)
		goto out;
	CHECK_U64("nothing skipped yet", records_skipped(), 0);
	for (i = 0; i < FREE; i++)
		syscall(SYS_getpid);	/* not glibc's getpid(): a real system call each time */
	CHECK_U64("printks from a raw tracepoint's program: none skipped", records_skipped(), 0);
	for (i = 0; i < NESTED; i++)
		getppid();
	CHECK_U64("printks from a classic tracepoint's program: each one skipped, counted",
		  records_skipped(), NESTED);
out:
	records_detach();
	records_test_bpf__destroy(skel);
	return check_failures != 0;
}
