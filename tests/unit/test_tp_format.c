// SPDX-License-Identifier: GPL-2.0
/*
 * tp_format.c against real tracefs format files, copied from the Debian
 * kernels the VM tests boot (tests/unit/formats/KERNEL/events/SYS/EVENT/format:
 * 6.1.0 and sid's 7.2 with gpu-sched, amdgpu, i915 and drm loaded; 5.10
 * and 6.12's gpu_scheduler events), served
 * through a fake tracefs (probe_set_root); and malformed files.  Format
 * files dropped into /work/formats/KERNEL/events/... (5.10, 6.12) are
 * parsed too when present.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "probe.h"
#include "tp_format.h"

static char fixtures[PATH_MAX];
static char tmp[] = "/tmp/tp_format_test.XXXXXX";
static char roots[4][PATH_MAX];

/* A fake root whose tracefs' events/ is the fixture tree of `kernel`. */
static const char *fake_root(const char *kernel, const char *events_dir, int slot)
{
	char path[PATH_MAX * 2];
	FILE *f;

	snprintf(roots[slot], sizeof(roots[slot]), "%s/%s", tmp, kernel);
	snprintf(path, sizeof(path), "mkdir -p %s/sys/kernel/tracing", roots[slot]);
	if (system(path))
		return NULL;
	snprintf(path, sizeof(path), "%s/sys/kernel/tracing/available_events", roots[slot]);
	f = fopen(path, "w");
	if (!f)
		return NULL;
	fclose(f);
	snprintf(path, sizeof(path), "%s/sys/kernel/tracing/events", roots[slot]);
	if (symlink(events_dir, path) && errno != EEXIST)
		return NULL;
	return roots[slot];
}

static bool has_fixtures(const char *kernel)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/%s/events", fixtures, kernel);
	return access(path, F_OK) == 0;
}

static void use_kernel(const char *kernel, int slot)
{
	char events[PATH_MAX + 16];

	snprintf(events, sizeof(events), "%s/%s/events", fixtures, kernel);
	probe_set_root(fake_root(kernel, events, slot));
}

static struct tp_format fmt;

/* field NAME of the loaded format is at OFFSET, SIZE bytes, with FLAGS exactly. */
static void check_field(const char *what, const char *name, unsigned int offset, unsigned int size,
			unsigned int flags)
{
	const struct tp_format_field *f = tp_field_find(&fmt, name);
	char label[256];

	snprintf(label, sizeof(label), "%s: %s", what, name);
	if (!f) {
		CHECK(label, 0, "no field %s", name);
		return;
	}
	CHECK(label, f->offset == offset && f->size == size && f->flags == flags,
	      "got offset %u size %u flags %#x, want %u %u %#x (type \"%s\")", f->offset, f->size, f->flags,
	      offset, size, flags, f->type);
}

static bool load(const char *label, const char *sys, const char *event)
{
	int err = tp_format_load(sys, event, &fmt);

	CHECK(label, err == 0, "%s", fmt.error);
	return err == 0;
}

#define LOC (TP_FIELD_DATA_LOC | TP_FIELD_CHAR)
#define S TP_FIELD_SIGNED
#define P TP_FIELD_PTR

static void test_61(void)
{
	struct tp_field out;

	if (!has_fixtures("6.1")) {
		printf("SKIP tp_format 6.1: no fixtures\n");
		return;
	}
	use_kernel("6.1", 0);
	if (load("6.1 drm_run_job loads", "gpu_scheduler", "drm_run_job")) {
		CHECK_U64("6.1 drm_run_job: ID", fmt.id, 1364);
		CHECK_U64("6.1 drm_run_job: 10 fields", fmt.nr_fields, 10);
		CHECK_U64("6.1 drm_run_job: fixed part 48 bytes", tp_format_fixed_size(&fmt), 48);
		CHECK_STR("6.1 drm_run_job: event name", fmt.event, "drm_run_job");
		check_field("6.1 drm_run_job", "common_type", 0, 2, 0);
		check_field("6.1 drm_run_job", "common_pid", 4, 4, S);
		check_field("6.1 drm_run_job", "entity", 8, 8, P);
		check_field("6.1 drm_run_job", "fence", 16, 8, P);
		/* signed:1 on 6.1's __data_loc: dropped, meaningless for a location */
		check_field("6.1 drm_run_job", "name", 24, 4, LOC);
		check_field("6.1 drm_run_job", "id", 32, 8, 0);
		check_field("6.1 drm_run_job", "job_count", 40, 4, 0);
		check_field("6.1 drm_run_job", "hw_job_count", 44, 4, S);
		CHECK("6.1 drm_run_job: common_pid is common", tp_field_find(&fmt, "common_pid")->common, "not");
		CHECK("6.1 drm_run_job: id is not common", !tp_field_find(&fmt, "id")->common, "is");
		CHECK_STR("6.1 drm_run_job: entity's type", tp_field_find(&fmt, "entity")->type,
			  "struct drm_sched_entity *");
		CHECK_STR("6.1 drm_run_job: name's type", tp_field_find(&fmt, "name")->type, "__data_loc char[]");

		CHECK("6.1 fence_context|id falls back to id",
		      tp_field_get(&fmt, "fence_context|id", TP_WANT_INT, &out) == 0 && out.offset == 32 &&
			      out.size == 8 && out.flags == TP_FIELD_PRESENT,
		      "%s; offset %u size %u flags %#x", fmt.error, out.offset, out.size, out.flags);
		CHECK("6.1 hw_job_count: present and signed",
		      tp_field_get(&fmt, "hw_job_count", TP_WANT_INT, &out) == 0 &&
			      out.flags == (TP_FIELD_PRESENT | TP_FIELD_SIGNED) && out.offset == 44 && out.size == 4,
		      "%s", fmt.error);
		CHECK("6.1 name as a string",
		      tp_field_get(&fmt, "name", TP_WANT_STR, &out) == 0 &&
			      out.flags == (TP_FIELD_PRESENT | LOC) && out.offset == 24 && out.size == 4,
		      "%s", fmt.error);
		CHECK("6.1 client_id missing: -ENOENT, zeroed",
		      tp_field_get(&fmt, "client_id", TP_WANT_INT, &out) == -ENOENT && out.flags == 0 &&
			      out.offset == 0,
		      "flags %#x", out.flags);
		{
			char want[PATH_MAX + 200];

			snprintf(want, sizeof(want),
				 "gpu_scheduler/drm_run_job has no field client_id (%s/sys/kernel/tracing/events/gpu_scheduler/drm_run_job/format)",
				 roots[0]);
			CHECK_STR("6.1 client_id missing: the message", fmt.error, want);
		}
		tp_field_get(&fmt, "fence_context|client_id", TP_WANT_INT, &out);
		CHECK("6.1 alternatives missing: the message names them all",
		      strstr(fmt.error, "has none of the fields fence_context/client_id (") != NULL, "%s",
		      fmt.error);
		CHECK("6.1 name is not an integer",
		      tp_field_get(&fmt, "name", TP_WANT_INT, &out) == -EINVAL && out.flags == 0 &&
			      strstr(fmt.error, "field name is \"__data_loc char[]\" (4 bytes), not an integer"),
		      "%s", fmt.error);
		CHECK("6.1 id is not a string",
		      tp_field_get(&fmt, "id", TP_WANT_STR, &out) == -EINVAL &&
			      strstr(fmt.error, "field id is \"uint64_t\", not a string"),
		      "%s", fmt.error);
		CHECK("6.1 common_pid refused (the kernel's pt_regs pointer is there)",
		      tp_field_get(&fmt, "common_pid", TP_WANT_INT, &out) == -EINVAL &&
			      strstr(fmt.error, "first 8 bytes"),
		      "%s", fmt.error);
	}
	if (load("6.1 drm_sched_job_wait_dep loads", "gpu_scheduler", "drm_sched_job_wait_dep")) {
		check_field("6.1 wait_dep", "name", 8, 4, LOC);
		check_field("6.1 wait_dep", "ctx", 32, 8, 0);
		check_field("6.1 wait_dep", "seqno", 40, 4, 0);
	}
	if (load("6.1 drm_sched_process_job loads", "gpu_scheduler", "drm_sched_process_job")) {
		CHECK_U64("6.1 process_job: 5 fields", fmt.nr_fields, 5);
		check_field("6.1 process_job", "fence", 8, 8, P);
	}
	if (load("6.1 amdgpu_cs_ioctl loads", "amdgpu", "amdgpu_cs_ioctl")) {
		check_field("6.1 amdgpu_cs_ioctl", "sched_job_id", 8, 8, 0);
		check_field("6.1 amdgpu_cs_ioctl", "timeline", 16, 4, LOC);
		check_field("6.1 amdgpu_cs_ioctl", "context", 20, 4, 0);	/* u64 at 16 on sid */
		check_field("6.1 amdgpu_cs_ioctl", "seqno", 24, 4, 0);
		check_field("6.1 amdgpu_cs_ioctl", "ring", 40, 4, LOC);
		check_field("6.1 amdgpu_cs_ioctl", "num_ibs", 44, 4, 0);
	}
	if (load("6.1 amdgpu_iv loads", "amdgpu", "amdgpu_iv")) {
		const struct tp_format_field *f = tp_field_find(&fmt, "src_data");

		check_field("6.1 amdgpu_iv", "src_data", 48, 16, TP_FIELD_ARRAY);
		CHECK("6.1 amdgpu_iv: src_data[4]", f && f->array_len == 4 && !strcmp(f->type, "unsigned"),
		      "len %u type %s", f ? f->array_len : 0, f ? f->type : "-");
		check_field("6.1 amdgpu_iv", "timestamp", 32, 8, 0);
		check_field("6.1 amdgpu_iv", "pasid", 44, 4, 0);
		CHECK("6.1 amdgpu_iv: an array is not an integer",
		      tp_field_get(&fmt, "src_data", TP_WANT_INT, &out) == -EINVAL, "accepted");
		CHECK("6.1 amdgpu_iv: nor a string", tp_field_get(&fmt, "src_data", TP_WANT_STR, &out) == -EINVAL,
		      "accepted");
		CHECK("6.1 amdgpu_iv: but anything",
		      tp_field_get(&fmt, "src_data", TP_WANT_ANY, &out) == 0 &&
			      out.flags == (TP_FIELD_PRESENT | TP_FIELD_ARRAY) && out.size == 16,
		      "%s", fmt.error);
	}
	if (load("6.1 amdgpu_vm_update_ptes loads", "amdgpu", "amdgpu_vm_update_ptes")) {
		CHECK_U64("6.1 amdgpu_vm_update_ptes: fixed part 68 bytes", tp_format_fixed_size(&fmt), 68);
		check_field("6.1 amdgpu_vm_update_ptes (__data_loc u64[])", "dst", 64, 4, TP_FIELD_DATA_LOC);
	}
	if (load("6.1 amdgpu_bo_create loads", "amdgpu", "amdgpu_bo_create")) {
		check_field("6.1 amdgpu_bo_create", "bo", 8, 8, P);
		check_field("6.1 amdgpu_bo_create", "pages", 16, 4, 0);
		check_field("6.1 amdgpu_bo_create", "visible", 32, 4, 0);
	}
	if (load("6.1 drm_vblank_event loads", "drm", "drm_vblank_event")) {
		check_field("6.1 drm_vblank_event", "crtc", 8, 4, S);
		check_field("6.1 drm_vblank_event", "seq", 12, 4, 0);
		check_field("6.1 drm_vblank_event", "time", 16, 8, S);
		check_field("6.1 drm_vblank_event", "high_prec", 24, 1, 0);
	}
	if (load("6.1 i915_vma_bind loads", "i915", "i915_vma_bind")) {
		check_field("6.1 i915_vma_bind", "obj", 8, 8, P);
		check_field("6.1 i915_vma_bind", "vm", 16, 8, P);
		check_field("6.1 i915_vma_bind", "offset", 24, 8, 0);
		check_field("6.1 i915_vma_bind", "size", 32, 8, 0);
		check_field("6.1 i915_vma_bind", "flags", 40, 4, 0);
	}
	if (load("6.1 i915_gem_object_create loads", "i915", "i915_gem_object_create"))
		check_field("6.1 i915_gem_object_create", "size", 16, 8, 0);
	if (load("6.1 sched_switch loads", "sched", "sched_switch")) {
		const struct tp_format_field *f = tp_field_find(&fmt, "prev_comm");

		/* char is signed on x86: signed:1 here, signed:0 on sid */
		check_field("6.1 sched_switch", "prev_comm", 8, 16, TP_FIELD_ARRAY | TP_FIELD_CHAR | S);
		CHECK_U64("6.1 sched_switch: prev_comm[16]", f ? f->array_len : 0, 16);
		check_field("6.1 sched_switch", "prev_pid", 24, 4, S);
		check_field("6.1 sched_switch", "prev_state", 32, 8, S);
		check_field("6.1 sched_switch", "next_comm", 40, 16, TP_FIELD_ARRAY | TP_FIELD_CHAR | S);
		CHECK("6.1 sched_switch: prev_comm is a string",
		      tp_field_get(&fmt, "prev_comm", TP_WANT_STR, &out) == 0 && out.size == 16, "%s", fmt.error);
	}
}

static void test_sid(void)
{
	struct tp_field out;

	if (!has_fixtures("sid")) {
		printf("SKIP tp_format sid: no fixtures\n");
		return;
	}
	use_kernel("sid", 1);
	if (load("sid drm_sched_job_run loads", "gpu_scheduler", "drm_sched_job_run")) {
		CHECK_U64("sid drm_sched_job_run: ID", fmt.id, 1631);
		CHECK_U64("sid drm_sched_job_run: 11 fields", fmt.nr_fields, 11);
		CHECK_U64("sid drm_sched_job_run: fixed part 48 bytes", tp_format_fixed_size(&fmt), 48);
		check_field("sid drm_sched_job_run", "name", 8, 4, LOC);
		check_field("sid drm_sched_job_run", "job_count", 12, 4, 0);
		check_field("sid drm_sched_job_run", "hw_job_count", 16, 4, S);
		check_field("sid drm_sched_job_run", "dev", 20, 4, LOC);
		check_field("sid drm_sched_job_run", "fence_context", 24, 8, 0);
		check_field("sid drm_sched_job_run", "fence_seqno", 32, 8, 0);
		check_field("sid drm_sched_job_run", "client_id", 40, 8, 0);
		CHECK("sid fence_context|id takes fence_context",
		      tp_field_get(&fmt, "fence_context|id", TP_WANT_INT, &out) == 0 && out.offset == 24,
		      "%s offset %u", fmt.error, out.offset);
		CHECK("sid drm_sched_job_run has no id", tp_field_get(&fmt, "id", TP_WANT_INT, &out) == -ENOENT,
		      "found");
	}
	if (load("sid drm_sched_job_queue loads", "gpu_scheduler", "drm_sched_job_queue"))
		check_field("sid drm_sched_job_queue", "client_id", 40, 8, 0);
	if (load("sid drm_sched_job_add_dep loads", "gpu_scheduler", "drm_sched_job_add_dep")) {
		check_field("sid add_dep", "fence_context", 8, 8, 0);
		check_field("sid add_dep", "ctx", 24, 8, 0);
		check_field("sid add_dep", "seqno", 32, 8, 0);	/* u32 at 40 on 6.1's wait_dep */
	}
	if (load("sid drm_sched_job_done loads", "gpu_scheduler", "drm_sched_job_done"))
		check_field("sid drm_sched_job_done", "fence_seqno", 16, 8, 0);
	if (load("sid amdgpu_cs_ioctl loads", "amdgpu", "amdgpu_cs_ioctl")) {
		check_field("sid amdgpu_cs_ioctl", "timeline", 8, 4, LOC);
		check_field("sid amdgpu_cs_ioctl", "context", 16, 8, 0);
		check_field("sid amdgpu_cs_ioctl", "seqno", 24, 8, 0);
		check_field("sid amdgpu_cs_ioctl", "ring", 40, 4, LOC);
		CHECK("sid amdgpu_cs_ioctl has no sched_job_id (6.1's first field)",
		      !tp_field_find(&fmt, "sched_job_id"), "found");
	}
	if (load("sid amdgpu_vm_update_ptes loads", "amdgpu", "amdgpu_vm_update_ptes"))
		check_field("sid amdgpu_vm_update_ptes (__data_loc u64[])", "dst", 64, 4, TP_FIELD_DATA_LOC);
	if (load("sid sched_switch loads", "sched", "sched_switch"))
		check_field("sid sched_switch", "prev_comm", 8, 16, TP_FIELD_ARRAY | TP_FIELD_CHAR);
	if (load("sid i915_vma_bind loads", "i915", "i915_vma_bind"))
		check_field("sid i915_vma_bind", "flags", 40, 4, 0);
	if (load("sid drm_vblank_event_queued loads", "drm", "drm_vblank_event_queued"))
		CHECK("sid drm_vblank_event_queued has fields", fmt.nr_fields > 4, "%u", fmt.nr_fields);
}

/* Debian 11's 5.10 and 13's 6.12 (gpu_scheduler only, from tests/guest/tpformat.sh's runs) */
static void test_510_612(void)
{
	struct tp_field out;

	if (has_fixtures("5.10")) {
		use_kernel("5.10", 2);
		if (load("5.10 drm_run_job loads", "gpu_scheduler", "drm_run_job")) {
			/* the ring name as a pointer in the record, not a __data_loc */
			check_field("5.10 drm_run_job", "name", 24, 8, P | TP_FIELD_CHAR);
			CHECK_STR("5.10 drm_run_job: name's type", tp_field_find(&fmt, "name")->type, "const char *");
			check_field("5.10 drm_run_job", "id", 32, 8, 0);
			check_field("5.10 drm_run_job", "hw_job_count", 44, 4, S);
			CHECK("5.10 name is a string (a char pointer)",
			      tp_field_get(&fmt, "name", TP_WANT_STR, &out) == 0 &&
				      out.flags == (TP_FIELD_PRESENT | P | TP_FIELD_CHAR) && out.size == 8,
			      "%s", fmt.error);
			CHECK("5.10 entity is no string",
			      tp_field_get(&fmt, "entity", TP_WANT_STR, &out) == -EINVAL, "accepted");
			CHECK("5.10 entity is an integer (a pointer)",
			      tp_field_get(&fmt, "entity", TP_WANT_INT, &out) == 0 && out.size == 8, "%s", fmt.error);
		}
		if (load("5.10 drm_sched_job_wait_dep loads", "gpu_scheduler", "drm_sched_job_wait_dep"))
			check_field("5.10 wait_dep", "name", 8, 8, P | TP_FIELD_CHAR);
	} else {
		printf("SKIP tp_format 5.10: no fixtures\n");
	}
	if (has_fixtures("6.12")) {
		use_kernel("6.12", 3);
		if (load("6.12 drm_run_job loads", "gpu_scheduler", "drm_run_job")) {
			check_field("6.12 drm_run_job", "name", 24, 4, LOC);
			check_field("6.12 drm_run_job", "job_count", 40, 4, 0);
		}
		if (load("6.12 drm_sched_job_wait_dep loads", "gpu_scheduler", "drm_sched_job_wait_dep"))
			check_field("6.12 wait_dep", "name", 8, 4, LOC);
	} else {
		printf("SKIP tp_format 6.12: no fixtures\n");
	}
}

/*
 * What vblanklat's record path reads (tools/vblanklat.c, set_record_fields)
 * in each kernel's drm events: the same integers at the same offsets from
 * 5.10 to sid.
 */
static void test_vblank_fields(void)
{
	static const char *const kernels[] = { "6.1", "sid", "5.10", "6.12" };
	static const char *const delivery[] = { "drm_vblank_event_queued", "drm_vblank_event_delivered" };
	struct tp_field out;
	char what[96];
	int i, j;

	for (i = 0; i < 4; i++) {
		if (!has_fixtures(kernels[i])) {
			printf("SKIP tp_format %s vblank events: no fixtures\n", kernels[i]);
			continue;
		}
		use_kernel(kernels[i], i);
		snprintf(what, sizeof(what), "%s drm_vblank_event", kernels[i]);
		if (load(what, "drm", "drm_vblank_event")) {
			check_field(what, "crtc", 8, 4, S);
			check_field(what, "seq", 12, 4, 0);
			check_field(what, "time", 16, 8, S);
			check_field(what, "high_prec", 24, 1, 0);
			CHECK(what, tp_field_get(&fmt, "high_prec", TP_WANT_INT, &out) == 0 &&
			      tp_format_fixed_size(&fmt) == 25, "%s, fixed size %u", fmt.error,
			      tp_format_fixed_size(&fmt));
		}
		for (j = 0; j < 2; j++) {
			snprintf(what, sizeof(what), "%s %s", kernels[i], delivery[j]);
			if (!load(what, "drm", delivery[j]))
				continue;
			check_field(what, "file", 8, 8, P);
			check_field(what, "crtc", 16, 4, S);
			check_field(what, "seq", 20, 4, 0);
			CHECK(what, tp_field_get(&fmt, "file", TP_WANT_INT, &out) == 0 && out.size == 8,
			      "%s", fmt.error);
		}
	}
}

/*
 * Every format under DIR/events parses, its fields within 65535 bytes and
 * not overlapping (a parser that misread one would likely collide).
 */
static void test_all_under(const char *label, const char *kernel, const char *events_dir, int slot)
{
	DIR *sd, *ed;
	struct dirent *s, *e;
	char path[PATH_MAX * 2];
	unsigned int files = 0, bad = 0;
	char first_bad[600] = "";

	sd = opendir(events_dir);
	if (!sd)
		return;
	probe_set_root(fake_root(kernel, events_dir, slot));
	while ((s = readdir(sd))) {
		if (s->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", events_dir, s->d_name);
		ed = opendir(path);
		if (!ed)
			continue;
		while ((e = readdir(ed))) {
			unsigned int i, j;
			bool ok;

			if (e->d_name[0] == '.')
				continue;
			files++;
			ok = tp_format_load(s->d_name, e->d_name, &fmt) == 0;
			for (i = 0; ok && i < fmt.nr_fields; i++)
				for (j = i + 1; j < fmt.nr_fields; j++)
					if (fmt.fields[i].offset < fmt.fields[j].offset + fmt.fields[j].size &&
					    fmt.fields[j].offset < fmt.fields[i].offset + fmt.fields[i].size) {
						snprintf(fmt.error, sizeof(fmt.error), "%.64s/%.64s: %s and %s overlap",
							 s->d_name, e->d_name, fmt.fields[i].name, fmt.fields[j].name);
						ok = false;
					}
			if (!ok && !bad++)
				snprintf(first_bad, sizeof(first_bad), "%s", fmt.error);
		}
		closedir(ed);
	}
	closedir(sd);
	snprintf(path, sizeof(path), "%s: all %u formats parse, fields apart", label, files);
	CHECK(path, files > 0 && bad == 0, "%u bad; first: %s", bad, first_bad);
}

static void test_all(void)
{
	static const char *const dropped[] = { "5.10", "6.12", "6.1", "sid" };
	char dir[PATH_MAX + 32], label[64];
	size_t i;

	snprintf(dir, sizeof(dir), "%s/6.1/events", fixtures);
	test_all_under("fixtures 6.1", "all-6.1", dir, 2);
	snprintf(dir, sizeof(dir), "%s/sid/events", fixtures);
	test_all_under("fixtures sid", "all-sid", dir, 2);
	snprintf(dir, sizeof(dir), "%s/5.10/events", fixtures);
	test_all_under("fixtures 5.10", "all-5.10", dir, 2);
	snprintf(dir, sizeof(dir), "%s/6.12/events", fixtures);
	test_all_under("fixtures 6.12", "all-6.12", dir, 2);
	/* another engineer's drop of more kernels' formats, when there */
	for (i = 0; i < sizeof(dropped) / sizeof(dropped[0]); i++) {
		snprintf(dir, sizeof(dir), "/work/formats/%s/events", dropped[i]);
		snprintf(label, sizeof(label), "/work/formats/%s", dropped[i]);
		if (access(dir, F_OK) == 0)
			test_all_under(label, label + 14, dir, 2);
	}
}

/* Parse `text`; expect failure with a one-line message containing `want`. */
static void bad(const char *label, const char *text, const char *want)
{
	int err = tp_format_parse(text, "bad/format", &fmt);

	CHECK(label,
	      err == -EINVAL && strstr(fmt.error, want) && !strchr(fmt.error, '\n') && fmt.nr_fields == 0,
	      "err %d, message \"%s\", want \"%s\"", err, fmt.error, want);
}

#define HDR "name: ev\nID: 7\nformat:\n\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\n"

static void test_malformed(void)
{
	bad("empty file", "", "bad/format: not a tracepoint format: no \"format:\" line");
	bad("not a format", "hello world\n", "bad/format:1: not a tracepoint format (expected name:, ID:, format:)");
	bad("ID not a number", "name: ev\nID: x1\nformat:\n", "bad/format:2: ID is not a number");
	bad("no fields", "name: ev\nID: 7\nformat:\n\nprint fmt: \"\"\n", "bad/format: ev has no fields");
	bad("garbage among fields", HDR "\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n\tjunk here\n",
	    "bad/format:7: expected a field: \"junk here\"");
	bad("no offset", HDR "\tfield:int a;\tsize:4;\tsigned:1;\n", "bad/format:6: cannot parse field (no offset)");
	bad("no size", HDR "\tfield:int a;\toffset:8;\n", "cannot parse field (no size)");
	bad("size 0", HDR "\tfield:int a;\toffset:8;\tsize:0;\n", "(size 0)");
	bad("size not a number", HDR "\tfield:int a;\toffset:8;\tsize:four;\n",
	    "(an attribute that is not a number up to 65535)");
	bad("negative offset", HDR "\tfield:int a;\toffset:-8;\tsize:4;\n", "not a number");
	bad("offset beyond 65535", HDR "\tfield:int a;\toffset:65534;\tsize:4;\n", "(offset + size beyond 65535)");
	bad("no ';' after the declaration", HDR "\tfield:int a\toffset:8\n", "(no ';' after the declaration)");
	bad("no field name", HDR "\tfield:int *;\toffset:8;\tsize:8;\n", "(no field name)");
	bad("no type", HDR "\tfield:a;\toffset:8;\tsize:8;\n", "(no type before the field name)");
	bad("attribute without ':'", HDR "\tfield:int a;\toffset 8;\tsize:4;\n", "(an attribute without ':')");
	bad("signed 2", HDR "\tfield:int a;\toffset:8;\tsize:4;\tsigned:2;\n", "(signed is neither 0 nor 1)");
	bad("__data_loc of 8 bytes", HDR "\tfield:__data_loc char[] s;\toffset:8;\tsize:8;\tsigned:0;\n",
	    "(a __data_loc field not 4 bytes)");
	bad("unbalanced ]", HDR "\tfield:char a];\toffset:8;\tsize:4;\n", "(unbalanced [)");
	bad("a message quotes at most 63 bytes of the line",
	    HDR "\tfield:int a;\toffset:8;\tsize:4;\n\tXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX\n",
	    "expected a field: \"XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX\"");

	/* accepted oddities */
	CHECK("__rel_loc char[]",
	      tp_format_parse(HDR "\tfield:__rel_loc char[] foo;\toffset:8;\tsize:4;\tsigned:0;\n", "x", &fmt) == 0 &&
		      tp_field_find(&fmt, "foo")->flags == (TP_FIELD_REL_LOC | TP_FIELD_CHAR),
	      "%s", fmt.error);
	CHECK("an array length the kernel left as a macro",
	      tp_format_parse(HDR "\tfield:char comm[TASK_COMM_LEN];\toffset:8;\tsize:16;\tsigned:0;\n", "x",
			      &fmt) == 0 &&
		      tp_field_find(&fmt, "comm")->flags == (TP_FIELD_ARRAY | TP_FIELD_CHAR) &&
		      tp_field_find(&fmt, "comm")->array_len == 0 && tp_field_find(&fmt, "comm")->size == 16,
	      "%s", fmt.error);
	CHECK("no signed: attribute (old kernels): unsigned",
	      tp_format_parse(HDR "\tfield:int a;\toffset:8;\tsize:4;\n", "x", &fmt) == 0 &&
		      tp_field_find(&fmt, "a")->flags == 0,
	      "%s", fmt.error);
	CHECK("no print fmt line, CRLF-free trailing spaces",
	      tp_format_parse(HDR "\tfield:u64 b ;  offset:8 ;\tsize:8 ;\tsigned:0;   \n", "x", &fmt) == 0 &&
		      tp_field_find(&fmt, "b") && tp_field_find(&fmt, "b")->size == 8,
	      "%s", fmt.error);
	CHECK("the text after print fmt is not parsed",
	      tp_format_parse(HDR "\tfield:int a;\toffset:8;\tsize:4;\n\nprint fmt: \"x\"\nwhatever: junk\n", "x",
			      &fmt) == 0 && fmt.nr_fields == 2,
	      "%s", fmt.error);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_load_errors(void)
{
	char path[PATH_MAX * 2], want[PATH_MAX * 3];
	const char *root;
	int err;

	/* a root with no sys/: tracefs cannot be found nor mounted */
	snprintf(path, sizeof(path), "%s/empty", tmp);
	mkdir(path, 0755);
	probe_set_root(path);
	err = tp_format_load("gpu_scheduler", "drm_run_job", &fmt);
	CHECK("no tracefs: one line", err < 0 && !strncmp(fmt.error, "tracefs is not mounted", 22) &&
					      !strchr(fmt.error, '\n'),
	      "err %d: %s", err, fmt.error);

	snprintf(path, sizeof(path), "%s/fake/events", tmp);
	root = fake_root("fake", path, 3);
	snprintf(path, sizeof(path), "mkdir -p %s/fake/events/x/renamed %s/fake/events/x/dir/format %s/fake/events/x/empty "
		 "%s/fake/events/x/bad",
		 tmp, tmp, tmp, tmp);
	if (!root || system(path)) {
		CHECK("fake tracefs", 0, "cannot make it");
		return;
	}
	probe_set_root(root);
	err = tp_format_load("gpu_scheduler", "drm_run_job", &fmt);
	snprintf(want, sizeof(want),
		 "no tracepoint gpu_scheduler/drm_run_job: %s/sys/kernel/tracing/events/gpu_scheduler/drm_run_job/format does not exist",
		 root);
	CHECK("no such event: -ENOENT", err == -ENOENT, "err %d", err);
	CHECK_STR("no such event: the message", fmt.error, want);

	err = tp_format_load("x", "dir", &fmt);
	CHECK("format is a directory: cannot read", err == -EISDIR && strstr(fmt.error, "cannot read ") &&
							    strstr(fmt.error, ": Is a directory"),
	      "err %d: %s", err, fmt.error);

	snprintf(path, sizeof(path), "%s/fake/events/x/empty/format", tmp);
	write_file(path, "");
	err = tp_format_load("x", "empty", &fmt);
	CHECK("empty format file", err == -EINVAL && strstr(fmt.error, "/x/empty/format is empty"), "err %d: %s",
	      err, fmt.error);

	snprintf(path, sizeof(path), "%s/fake/events/x/bad/format", tmp);
	write_file(path, "name: bad\nID: 3\nformat:\n\tfield:int a;\toffset:8;\n");
	err = tp_format_load("x", "bad", &fmt);
	CHECK("unparsable: names the file and line",
	      err == -EINVAL && strstr(fmt.error, "/events/x/bad/format:4: cannot parse field (no size)"), "err %d: %s",
	      err, fmt.error);

	snprintf(path, sizeof(path), "%s/fake/events/x/renamed/format", tmp);
	write_file(path, "name: other\nID: 3\nformat:\n\tfield:int a;\toffset:8;\tsize:4;\n");
	err = tp_format_load("x", "renamed", &fmt);
	CHECK("a format naming another event", err == -EINVAL && strstr(fmt.error, "names event \"other\", not renamed"),
	      "err %d: %s", err, fmt.error);
}

int main(void)
{
	char cmd[64];

	if (!realpath("tests/unit/formats", fixtures)) {
		printf("FAIL tp_format: run from the repository's top (no tests/unit/formats)\n");
		return 1;
	}
	if (!mkdtemp(tmp)) {
		printf("FAIL tp_format: mkdtemp\n");
		return 1;
	}
	test_61();
	test_sid();
	test_510_612();
	test_vblank_fields();
	test_all();
	test_malformed();
	test_load_errors();
	probe_set_root(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	if (system(cmd))
		printf("could not remove %s\n", tmp);
	return check_failures;
}
