/* SPDX-License-Identifier: GPL-2.0 */
/* vblanklat: records and map layouts shared by vblanklat.bpf.c and vblanklat.c */
#ifndef VBLANKLAT_H
#define VBLANKLAT_H

#include "histogram.h"

#define COMM_LEN	16
#define MAX_CRTCS	16	/* pipes per device; more are ignored */
#define CRTC_ROW_BITS	5	/* their rows: MAX_CRTCS, probes to spare */
#define MAX_FILES	1024	/* DRM clients (struct drm_file) over a run */
#define FILE_ROW_BITS	11	/* their rows */
#define MAX_PENDING	4096	/* queued vblank events not yet delivered */
#define MAX_LOOKBACK	8	/* vblanks a delivery may come after its request */

enum vblanklat_event_type {
	EV_VBLANK,	/* drm_vblank_event: a vblank on a CRTC */
	EV_QUEUED,	/* drm_vblank_event_queued: a client asked for an event */
	EV_DELIVERED,	/* drm_vblank_event_delivered: sent to the client's file */
	EV_MISSED,	/* sequence numbers skipped between two vblanks */
};

/* Per CRTC, kept for the whole session: the previous vblank. */
struct crtc_last {
	__u64 time;		/* vblank timestamp, CLOCK_MONOTONIC ns */
	__u32 seq;
	__u32 valid;
};

/* Per CRTC, per interval. */
struct crtc_stats {
	__u64 vblanks;
	__u64 missed;		/* sequence numbers skipped while interrupts ran */
	__u64 resumed;		/* skipped after the vblank interrupt was off (idle) */
	__u64 high_prec;	/* vblanks with a hardware-precise timestamp */
	__u64 first_time, last_time;
	__u32 first_seq, last_seq;
};

/*
 * A client: an open DRM file and the process that queued on it. The pid is
 * part of the key because the kernel reuses a closed file's memory for the
 * next open: keyed by the pointer alone, a new client's events would be
 * summed into the row of the process that closed it.
 */
struct client_key {
	__u64 file;
	__u32 pid;	/* 0: no owner seen (events the kernel sends itself) */
	__u32 pad;
};

/* Per client, per interval. */
struct file_stats {
	__u64 cgroup_id;	/* the process that queued events on it: its cgroup, */
	__u32 pid;		/* PID */
	char comm[COMM_LEN];	/* and name */
	__u64 queued;
	__u64 delivered;	/* of queued vblank events */
	__u64 other;		/* delivered without a queued event: page flips */
	__u64 late_flips;	/* flips that landed after the vblank they could have made */
	__u64 frames_missed;	/* the vblanks those flips missed */
	struct lat_hist queue_lat;	/* queued -> delivered */
	struct lat_hist vblank_lat;	/* vblank timestamp -> delivered */
	struct lat_hist flip_lat;	/* commit (page flip or atomic ioctl) -> flip delivered */
};

struct pending_key {
	__u64 file;
	__u32 crtc;
	__u32 seq;
};

/*
 * An open DRM file: the process that last queued or committed on it, and
 * its last commit that asked for a flip event - when, and the vblank each
 * CRTC was at then (commit_seq[i], valid where seq_valid[i] is set).
 */
struct file_owner {
	__u64 cgroup_id;
	__u64 commit_ns;	/* 0: no commit waiting for its event */
	__u32 pid;
	__u32 commit_seq[MAX_CRTCS];
	__u8 seq_valid[MAX_CRTCS];
	char comm[COMM_LEN];
};

struct vblanklat_event {
	__u64 ts_ns;		/* when it was traced */
	__u64 time;		/* EV_VBLANK, EV_MISSED: the vblank's timestamp */
	__u64 file;
	__u64 latency;		/* EV_DELIVERED: queued -> delivered, hist units (0: unknown) */
	__u64 vblank_latency;	/* EV_DELIVERED: vblank -> delivered, hist units (0: unknown) */
	__u64 flip_latency;	/* EV_DELIVERED: commit -> flip delivered, hist units */
	__u64 cgroup_id;	/* of pid */
	__u32 type;
	__s32 crtc;
	__u32 seq;
	__u32 seq_from;		/* EV_MISSED: the previous vblank's seq */
	__u32 frames_missed;	/* EV_DELIVERED, a flip: vblanks it landed after its first chance */
	__u32 pid;
	__u8 high_prec;
	__u8 known_latency;	/* bit 0: latency, 1: vblank_latency, 2: flip_latency, 3: frames_missed */
	char comm[COMM_LEN];
};

#endif /* VBLANKLAT_H */
