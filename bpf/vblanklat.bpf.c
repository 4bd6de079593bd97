// SPDX-License-Identifier: GPL-2.0
/*
 * vblanklat: display vblanks per CRTC, and the latency of vblank events to
 * the DRM clients that asked for them.
 *
 * The drm tracepoints (module drm) have had the same arguments from 5.5 to
 * 7.x. Two sets of programs handle them, one loaded: BTF-typed raw
 * tracepoints where drm has BTF, classic tracepoints reading the trace
 * records where it has none (Linux < 5.11, or --no-btf), both feeding the
 * same on_*() functions. A client's event is matched from queued to
 * delivered by (drm_file, crtc, seq). The vblank it was for is read from the
 * device's own vblank state (drm_file -> minor -> dev -> vblank[crtc]):
 * events are sent before the drm_vblank_event tracepoint of the same vblank
 * fires. That read needs drm's types: the record path has no
 * vblank -> delivered latency.
 *
 * A page flip's event (how compositors and games get their vblanks: an
 * atomic commit or a legacy page flip asking for DRM_MODE_PAGE_FLIP_EVENT)
 * is delivered with no queued event before it, from interrupt or worker
 * context. Its owner is the process that made the commit: kprobes on the
 * two commit ioctls (drm's own functions, on every kernel and path) note
 * the file, the time and the vblank each CRTC was at.
 */
#include "drm_types.bpf.h"
#include <asm/ptrace.h>	/* struct pt_regs: the registers at a kprobe */
#include "tool.bpf.h"
#include "tp_record.bpf.h"
#include "vblanklat.h"

const volatile int targ_crtc = -1;
/* Longer than this without a vblank, the interrupt was off (drm.vblankoffdelay). */
const volatile __u64 idle_ns = 5000000000ULL;

/* Events that found their tracking map full. */
__u64 dropped = 0;

/* The last vblank seen per CRTC (vblank_seen[i]: CRTC i had one), for commits. */
__u32 vblank_seq[MAX_CRTCS];
__u8 vblank_seen[MAX_CRTCS];

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, MAX_CRTCS);
	__type(key, __u32);
	__type(value, struct crtc_last);
} crtc_last SEC(".maps");

ROWS(crtc_stats, __u32, struct crtc_stats, CRTC_ROW_BITS);

/* A hash map: an event queued goes at its delivery. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_PENDING);
	__type(key, struct pending_key);
	__type(value, __u64);
} pending SEC(".maps");

/* An LRU: a file's owner, kept while it is used; closed files' fall out. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, MAX_FILES);
	__type(key, __u64);
	__type(value, struct file_owner);
} owners SEC(".maps");

ROWS(file_stats, struct client_key, struct file_stats, FILE_ROW_BITS);

static __always_inline struct vblanklat_event *new_event(__u32 type, int crtc, __u32 seq)
{
	struct vblanklat_event *e = event_reserve(sizeof(*e));

	if (!e)
		return NULL;
	__builtin_memset(e, 0, sizeof(*e));
	e->ts_ns = bpf_ktime_get_ns();
	e->type = type;
	e->crtc = crtc;
	e->seq = seq;
	return e;
}

static __always_inline int on_vblank(int crtc, __u32 seq, __u64 time, bool high_prec)
{
	__u32 key = crtc, idx;
	struct crtc_stats_row *r;
	struct crtc_stats *st;
	struct crtc_last *last;
	struct vblanklat_event *e;
	__u32 skipped = 0;
	bool idle = false, made;

	if (crtc < 0 || crtc >= MAX_CRTCS || (targ_crtc >= 0 && crtc != targ_crtc))
		return 0;
	last = bpf_map_lookup_elem(&crtc_last, &key);
	if (!last)
		return 0;
	if (last->valid && seq - last->seq > 1) {
		skipped = seq - last->seq - 1;
		idle = (__u64)time - last->time >= idle_ns;
	}

	/* A row per CRTC below MAX_CRTCS: never full. */
	r = ROWS_GET(crtc_stats, key, &idx, &made, &dropped);
	if (!r)
		return 0;
	st = &r->s;
	if (made) {
		st->first_time = time;
		st->first_seq = seq;
	}
	__sync_fetch_and_add(&st->vblanks, 1);
	if (high_prec)
		__sync_fetch_and_add(&st->high_prec, 1);
	if (skipped)
		__sync_fetch_and_add(idle ? &st->resumed : &st->missed, skipped);
	st->last_time = time;
	st->last_seq = seq;

	/* A drop is rare and is the point of the report: always sent. */
	if (skipped && !idle) {
		e = new_event(EV_MISSED, crtc, seq);
		if (e) {
			e->seq_from = last->seq;
			e->time = time;
			event_submit(e);
		}
	}
	last->time = time;
	last->seq = seq;
	last->valid = 1;
	vblank_seq[key & (MAX_CRTCS - 1)] = seq;
	vblank_seen[key & (MAX_CRTCS - 1)] = 1;	/* a plain store: 5.10 has no atomic OR */
	if (emit_events) {
		e = new_event(EV_VBLANK, crtc, seq);
		if (e) {
			e->time = time;
			e->high_prec = high_prec;
			event_submit(e);
		}
	}
	return 0;
}

static __always_inline struct file_stats *stats_of(__u64 file, struct file_owner *owner)
{
	struct client_key key = { .file = file, .pid = owner ? owner->pid : 0 };
	struct file_stats_row *r;
	struct file_stats *fs;
	bool made;
	__u32 idx;

	r = ROWS_GET(file_stats, key, &idx, &made, &dropped);
	if (!r)
		return NULL;
	fs = &r->s;
	if (made) {
		fs->queue_lat.min = ~0ULL;
		fs->vblank_lat.min = ~0ULL;
		fs->flip_lat.min = ~0ULL;
		if (owner) {
			fs->pid = owner->pid;
			fs->cgroup_id = owner->cgroup_id;
			__builtin_memcpy(fs->comm, owner->comm, sizeof(fs->comm));
		}
	}
	return fs;
}

/*
 * The owner of `file`: the current process, which is using it (an ioctl).
 * Kept as it is while the same process uses it - its pending commit too.
 */
static __always_inline struct file_owner *owner_now(__u64 file, __u32 pid)
{
	struct file_owner *owner = bpf_map_lookup_elem(&owners, &file), fresh = {};

	if (owner && owner->pid == pid)
		return owner;
	fresh.pid = pid;
	bpf_get_current_comm(fresh.comm, sizeof(fresh.comm));
	fresh.cgroup_id = bpf_get_current_cgroup_id();
	bpf_map_update_elem(&owners, &file, &fresh, BPF_ANY);
	return bpf_map_lookup_elem(&owners, &file);
}

static __always_inline int on_queued(__u64 file, int crtc, __u32 seq)
{
	struct pending_key pk = { .file = file, .crtc = crtc, .seq = seq };
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	__u64 now = bpf_ktime_get_ns();
	struct vblanklat_event *e;
	struct file_owner *owner;
	struct file_stats *fs;

	if (targ_crtc >= 0 && crtc != targ_crtc)
		return 0;
	/* Queued from the client's ioctl: the current task owns the file. */
	if (!current_wanted(pid))
		return 0;
	owner = owner_now(pk.file, pid);
	if (!owner)
		return 0;
	if (bpf_map_update_elem(&pending, &pk, &now, BPF_ANY))
		__sync_fetch_and_add(&dropped, 1);
	fs = stats_of(pk.file, owner);
	if (fs)
		__sync_fetch_and_add(&fs->queued, 1);
	if (emit_events) {
		e = new_event(EV_QUEUED, crtc, seq);
		if (e) {
			e->file = pk.file;
			e->pid = owner->pid;
			e->cgroup_id = owner->cgroup_id;
			__builtin_memcpy(e->comm, owner->comm, sizeof(e->comm));
			event_submit(e);
		}
	}
	return 0;
}

/* A commit that asked for a flip event: its time, and each CRTC's last vblank. */
static __always_inline int on_commit(__u64 file)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	struct file_owner *owner;

	if (!file || !current_wanted(pid))
		return 0;
	owner = owner_now(file, pid);
	if (!owner)
		return 0;
	owner->commit_ns = bpf_ktime_get_ns();
	__builtin_memcpy(owner->commit_seq, vblank_seq, sizeof(owner->commit_seq));
	__builtin_memcpy(owner->seq_valid, vblank_seen, sizeof(owner->seq_valid));
	return 0;
}

/* uapi/drm/drm_mode.h */
#define DRM_MODE_PAGE_FLIP_EVENT	0x01
#define DRM_MODE_ATOMIC_TEST_ONLY	0x0100

/*
 * The ioctls' handlers get the argument already copied into the kernel:
 * struct drm_mode_crtc_page_flip has its flags at offset 8, struct
 * drm_mode_atomic at 0. The handlers' signatures have been the same since
 * Linux 4.x: (struct drm_device *, void *data, struct drm_file *).
 * Attached by name from user space (links.h), the kernel looking it up.
 */
SEC("kprobe")
int BPF_KPROBE(page_flip_ioctl, void *dev, void *data, void *file)
{
	__u32 flags = 0;

	bpf_probe_read_kernel(&flags, sizeof(flags), data + 8);
	return flags & DRM_MODE_PAGE_FLIP_EVENT ? on_commit((__u64)file) : 0;
}

SEC("kprobe")
int BPF_KPROBE(atomic_ioctl, void *dev, void *data, void *file)
{
	__u32 flags = 0;

	bpf_probe_read_kernel(&flags, sizeof(flags), data);
	if (!(flags & DRM_MODE_PAGE_FLIP_EVENT) || (flags & DRM_MODE_ATOMIC_TEST_ONLY))
		return 0;
	return on_commit((__u64)file);
}

/* The timestamp of vblank `seq` on the file's device, if it is the latest. */
static __always_inline bool vblank_time(struct drm_file *file, int crtc, __u32 seq, __u64 *time)
{
	struct drm_vblank_crtc *vblank;
	struct drm_device *dev;

	if (!file)
		return false;
	dev = BPF_CORE_READ(file, minor, dev);
	if (!dev || crtc < 0 || crtc >= BPF_CORE_READ(dev, num_crtcs))
		return false;
	vblank = BPF_CORE_READ(dev, vblank);
	if (!vblank)
		return false;
	vblank = (void *)vblank + crtc * bpf_core_type_size(struct drm_vblank_crtc);
	if ((__u32)BPF_CORE_READ(vblank, count.counter) != seq)
		return false;
	*time = BPF_CORE_READ(vblank, time);
	return true;
}

/*
 * The queued event a delivery of vblank `seq` answers. An event is sent
 * with the sequence number of the vblank that sends it, which is later than
 * the one it asked for when vblanks were missed (the counter jumped) or when
 * it asked for one that had passed. Deliveries run before this vblank's own
 * drm_vblank_event, so the previous vblank we saw bounds the request from
 * below: try the exact number, the few before it, then the ones right after
 * the previous vblank.
 */
static __always_inline __u64 *find_pending(struct pending_key *pk, int crtc, __u32 seq)
{
	__u32 key = crtc;
	struct crtc_last *last;
	__u64 *queued_ns;
	int i;

	for (i = 0; i < MAX_LOOKBACK; i++) {
		pk->seq = seq - i;
		queued_ns = bpf_map_lookup_elem(&pending, pk);
		if (queued_ns)
			return queued_ns;
	}
	last = bpf_map_lookup_elem(&crtc_last, &key);
	if (!last || !last->valid)
		return NULL;
	for (i = 1; i <= 2; i++) {
		pk->seq = last->seq + i;
		queued_ns = bpf_map_lookup_elem(&pending, pk);
		if (queued_ns)
			return queued_ns;
	}
	return NULL;
}

/*
 * A delivery at `now`; `vtime`: the timestamp of the vblank it was sent at,
 * 0 when unknown (the record path).
 */
static __always_inline int on_delivered(__u64 file, int crtc, __u32 seq, __u64 now, __u64 vtime)
{
	struct pending_key pk = { .file = file, .crtc = crtc, .seq = seq };
	__u64 qlat = 0, vlat = 0, flat = 0;
	struct file_owner *owner;
	__u32 missed = 0, idx;
	struct vblanklat_event *e;
	struct file_stats *fs;
	__u64 *queued_ns = NULL;
	__u8 known = 0;

	if (targ_crtc >= 0 && crtc != targ_crtc)
		return 0;
	/*
	 * Delivered in interrupt context: the owner is whoever queued on this
	 * file, and with -p, -c or --cgroup only wanted processes are owners.
	 */
	owner = bpf_map_lookup_elem(&owners, &pk.file);
	if (!owner && process_filtered())
		return 0;
	fs = stats_of(pk.file, owner);
	if (!fs)
		return 0;

	queued_ns = find_pending(&pk, crtc, seq);
	if (queued_ns) {
		qlat = to_units(now - *queued_ns);
		known |= 1;
		bpf_map_delete_elem(&pending, &pk);
		__sync_fetch_and_add(&fs->delivered, 1);
		lat_hist_add(&fs->queue_lat, qlat);
	} else {
		__sync_fetch_and_add(&fs->other, 1);
		/* A flip: its commit's, once (a commit on two CRTCs sends two). */
		if (owner && owner->commit_ns && now >= owner->commit_ns) {
			flat = to_units(now - owner->commit_ns);
			known |= 4;
			lat_hist_add(&fs->flip_lat, flat);
			/* It could have made the vblank after the one the CRTC was at. */
			idx = crtc;
			/* clang drops a mask it can prove redundant, the verifier needs it: keep it. */
			barrier_var(idx);
			idx &= MAX_CRTCS - 1;
			if (crtc >= 0 && crtc < MAX_CRTCS && owner->seq_valid[idx]) {
				missed = seq - owner->commit_seq[idx] - 1;
				if ((__s32)missed < 0)
					missed = 0;
				known |= 8;
				if (missed) {
					__sync_fetch_and_add(&fs->late_flips, 1);
					__sync_fetch_and_add(&fs->frames_missed, missed);
				}
			}
			owner->commit_ns = 0;
		}
	}
	if (vtime && now >= vtime) {
		vlat = to_units(now - vtime);
		known |= 2;
		lat_hist_add(&fs->vblank_lat, vlat);
	}
	if (emit_events) {
		e = new_event(EV_DELIVERED, crtc, seq);
		if (e) {
			e->file = pk.file;
			e->latency = qlat;
			e->vblank_latency = vlat;
			e->flip_latency = flat;
			e->frames_missed = missed;
			e->known_latency = known;
			if (owner) {
				e->pid = owner->pid;
				e->cgroup_id = owner->cgroup_id;
				__builtin_memcpy(e->comm, owner->comm, sizeof(e->comm));
			}
			event_submit(e);
		}
	}
	return 0;
}

/* The BTF path: the tracepoints' typed arguments, and drm's structs. */
SEC("tp_btf/drm_vblank_event")
int BPF_PROG(vblank, int crtc, unsigned int seq, s64 time, bool high_prec)
{
	return on_vblank(crtc, seq, time, high_prec);
}

SEC("tp_btf/drm_vblank_event_queued")
int BPF_PROG(queued, struct drm_file *file, int crtc, unsigned int seq)
{
	return on_queued((__u64)file, crtc, seq);
}

SEC("tp_btf/drm_vblank_event_delivered")
int BPF_PROG(delivered, struct drm_file *file, int crtc, unsigned int seq)
{
	__u64 now = bpf_ktime_get_ns(), vtime = 0;

	/* left 0 unless the device's latest vblank is this one */
	vblank_time(file, crtc, seq, &vtime);
	return on_delivered((__u64)file, crtc, seq, now, vtime);
}

/*
 * The record path: the same arguments from the trace records, at the
 * offsets tracefs gives (the frontend fills these before load). The
 * drm_file pointer is only a key here: drm's types are not known.
 */
TP_FIELD(f_vbl_crtc);
TP_FIELD(f_vbl_seq);
TP_FIELD(f_vbl_time);
TP_FIELD(f_vbl_high_prec);
TP_FIELD(f_queued_file);
TP_FIELD(f_queued_crtc);
TP_FIELD(f_queued_seq);
TP_FIELD(f_deliv_file);
TP_FIELD(f_deliv_crtc);
TP_FIELD(f_deliv_seq);
/* The longest fixed part of the three records: one copy of it per event. */
const volatile __u32 rec_size = 0;

TP_RECORD_BUF();
TP_RECORD_COUNTERS();

SEC("tracepoint")
int tp_vblank(void *ctx)
{
	TP_RECORD_RAN();
	const void *rec = tp_record_copy(ctx, rec_size);

	if (!rec)
		return 0;
	return on_vblank((int)tp_get_u64(rec, &f_vbl_crtc), tp_get_u64(rec, &f_vbl_seq),
			 tp_get_u64(rec, &f_vbl_time), tp_get_u64(rec, &f_vbl_high_prec));
}

SEC("tracepoint")
int tp_queued(void *ctx)
{
	TP_RECORD_RAN();
	const void *rec = tp_record_copy(ctx, rec_size);

	if (!rec)
		return 0;
	return on_queued(tp_get_u64(rec, &f_queued_file), (int)tp_get_u64(rec, &f_queued_crtc),
			 tp_get_u64(rec, &f_queued_seq));
}

SEC("tracepoint")
int tp_delivered(void *ctx)
{
	__u64 now = bpf_ktime_get_ns();

	TP_RECORD_RAN();
	const void *rec = tp_record_copy(ctx, rec_size);

	if (!rec)
		return 0;
	return on_delivered(tp_get_u64(rec, &f_deliv_file), (int)tp_get_u64(rec, &f_deliv_crtc),
			    tp_get_u64(rec, &f_deliv_seq), now, 0);
}

char LICENSE[] SEC("license") = "GPL";
