// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "timeline.h"

static FILE *out;
static const char *out_path;
static bool any;	/* an event written: the next one follows a comma */
static int write_error;	/* the errno that ended it (a full disk): said at once */
static unsigned long long not_written;	/* events since, said at the close */

/* An event can be written; one that cannot after a failure is counted. */
static bool writing(void)
{
	if (!out && write_error)
		not_written++;
	return out != NULL;
}

int timeline_open(const char *path)
{
	out = fopen(path, "w");
	if (!out) {
		fprintf(stderr, "%s: --timeline %s: %s\n", program_invocation_short_name, path,
			strerror(errno));
		return -errno;
	}
	out_path = path;
	fputs("[\n", out);
	any = false;
	return 0;
}

bool timeline_on(void)
{
	return out != NULL || write_error;	/* after a failure: its events counted as lost */
}

void timeline_flush(void)
{
	if (!out || (fflush(out) == 0 && !ferror(out)))
		return;
	write_error = errno ?: EIO;
	fprintf(stderr, "%s: --timeline %s: cannot write: %s: the timeline ends here\n",
		program_invocation_short_name, out_path, strerror(write_error));
	fclose(out);
	out = NULL;	/* every writer's test: no more events */
}

int timeline_close(void)
{
	int err = 0;

	if (write_error) {	/* said when it happened; now what it cost */
		fprintf(stderr, "%s: --timeline %s: %llu events not written\n",
			program_invocation_short_name, out_path, not_written);
		return -write_error;
	}
	if (!out)
		return 0;
	fputs("\n]\n", out);
	if (fflush(out) || ferror(out))
		err = -errno ?: -EIO;
	if (fclose(out) && !err)
		err = -errno;
	out = NULL;
	if (err)
		fprintf(stderr, "%s: --timeline %s: %s\n", program_invocation_short_name, out_path,
			strerror(-err));
	return err;
}

/* Timestamps in microseconds, exact to the nanosecond. */
static void put_ts(const char *key, __u64 ns)
{
	fprintf(out, ",\"%s\":%llu.%03llu", key, (unsigned long long)(ns / 1000),
		(unsigned long long)(ns % 1000));
}

static void begin(const char *ph, __u32 pid, __u32 tid, const char *name, const char *cat)
{
	fprintf(out, "%s{\"ph\":\"%s\",\"pid\":%u,\"tid\":%u,\"name\":", any ? ",\n" : "", ph,
		pid, tid);
	any = true;
	json_put_string(out, name, 256);
	if (cat) {
		fputs(",\"cat\":", out);
		json_put_string(out, cat, 64);
	}
}

static void put_args(struct timeline_args args)
{
	int i;

	if (!args.n)
		return;
	fputs(",\"args\":{", out);
	for (i = 0; i < args.n; i++) {
		if (i)
			fputc(',', out);
		json_put_string(out, args.keys[i], 64);
		fputc(':', out);
		json_put_cell(out, &args.vals[i]);
	}
	fputc('}', out);
}

static void end(void)
{
	fputc('}', out);
}

static void metadata(const char *what, __u32 pid, __u32 tid, const char *name, int sort)
{
	char sort_what[32];

	begin("M", pid, tid, what, NULL);
	fputs(",\"args\":{\"name\":", out);
	json_put_string(out, name, 256);
	fputc('}', out);
	end();
	snprintf(sort_what, sizeof(sort_what), "%s_sort_index", !strcmp(what, "process_name") ?
		 "process" : "thread");
	begin("M", pid, tid, sort_what, NULL);
	fprintf(out, ",\"args\":{\"sort_index\":%d}", sort);
	end();
}

void timeline_process(__u32 pid, const char *name, int sort)
{
	if (out)
		metadata("process_name", pid, pid, name, sort);
}

void timeline_thread(__u32 pid, __u32 tid, const char *name, int sort)
{
	if (out)
		metadata("thread_name", pid, tid, name, sort);
}

static char gpu_names[TIMELINE_MAX_GPUS][64];
static int nr_gpus;

/* This tool's byte of its GPU processes' pids: FNV-1a of its name, 1 to 255. */
static __u32 gpu_pid_base(void)
{
	const unsigned char *c = (const unsigned char *)program_invocation_short_name;
	__u32 h = 2166136261u;

	for (; *c; c++)
		h = (h ^ *c) * 16777619u;
	return 0x7f000000u | (h % 255 + 1) << 16;
}

__u32 timeline_gpu(const char *name)
{
	char process[80];
	int i;

	for (i = 0; i < nr_gpus; i++)
		if (!strcmp(gpu_names[i], name))
			return gpu_pid_base() + i;
	if (nr_gpus == TIMELINE_MAX_GPUS)
		return gpu_pid_base() + TIMELINE_MAX_GPUS - 1;
	snprintf(gpu_names[nr_gpus], sizeof(gpu_names[0]), "%s", name);
	snprintf(process, sizeof(process), "GPU %s", name);
	timeline_process(gpu_pid_base() + nr_gpus, process, -1);
	return gpu_pid_base() + nr_gpus++;
}

/* Tasks named so far: an open-addressed set of (pid, tid), tid 0 for the process. */
#define NAMED_BITS 12
static __u64 named[1 << NAMED_BITS];

/* true the first time (pid, tid) is asked about, and past the set's room. */
static bool first_sight(__u32 pid, __u32 tid)
{
	__u64 key = (__u64)pid << 32 | tid | 1ULL << 63;	/* never 0, the empty slot */
	unsigned int i, h = (pid * 0x9e3779b1u) ^ (tid * 0x85ebca6bu);

	for (i = 0; i < 64; i++) {
		__u64 *slot = &named[(h + i) & ((1 << NAMED_BITS) - 1)];

		if (*slot == key)
			return false;
		if (!*slot) {
			*slot = key;
			return true;
		}
	}
	return true;
}

void timeline_track(__u32 pid, __u32 tid, const char *name, int sort)
{
	if (out && first_sight(pid, tid))
		timeline_thread(pid, tid, name, sort);
}

void timeline_task(__u32 pid, const char *comm, __u32 tid, const char *thread_comm)
{
	if (!out)
		return;
	if (first_sight(pid, 0))
		timeline_process(pid, comm, 0);
	timeline_track(pid, tid, thread_comm, tid == pid ? 0 : 1);
}

void timeline_slice(__u32 pid, __u32 tid, const char *name, const char *cat, __u64 ts_ns,
		    __u64 dur_ns, struct timeline_args args)
{
	if (!writing())
		return;
	begin("X", pid, tid, name, cat);
	put_ts("ts", ts_ns);
	put_ts("dur", dur_ns);
	put_args(args);
	end();
}

void timeline_instant(__u32 pid, __u32 tid, const char *name, const char *cat, __u64 ts_ns,
		      struct timeline_args args)
{
	if (!writing())
		return;
	begin("i", pid, tid, name, cat);
	fputs(",\"s\":\"t\"", out);
	put_ts("ts", ts_ns);
	put_args(args);
	end();
}

void timeline_counter(__u32 pid, const char *name, __u64 ts_ns, long long value)
{
	if (!writing())
		return;
	begin("C", pid, pid, name, NULL);
	put_ts("ts", ts_ns);
	fprintf(out, ",\"args\":{\"value\":%lld}", value);
	end();
}

void timeline_flow(__u64 id, __u32 pid, __u32 tid, __u64 ts_ns, __u32 to_pid, __u32 to_tid,
		   __u64 to_ns)
{
	if (!writing())
		return;
	begin("s", pid, tid, "flow", "flow");
	fprintf(out, ",\"id\":%llu", (unsigned long long)id);
	put_ts("ts", ts_ns);
	end();
	/* bp "e": bound to the slice that encloses (starts at) to_ns. */
	begin("f", to_pid, to_tid, "flow", "flow");
	fprintf(out, ",\"id\":%llu,\"bp\":\"e\"", (unsigned long long)id);
	put_ts("ts", to_ns);
	end();
}

int timeline_lane(struct timeline_lanes *l, __u64 start, __u64 end, bool *overlapped)
{
	int i;

	for (i = 0; i < TIMELINE_MAX_LANES; i++) {
		if (i >= l->used || l->end[i] <= start) {
			if (i >= l->used)
				l->used = i + 1;
			l->end[i] = end;
			return i;
		}
	}
	*overlapped = true;
	i = TIMELINE_MAX_LANES - 1;
	if (end > l->end[i])
		l->end[i] = end;
	return i;
}
