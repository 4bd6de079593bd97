#!/bin/sh
# features.sh HEADER: the drm_sched API of the kernel being built against, as
# -D flags for schedgen.c, read from that kernel's include/drm/gpu_scheduler.h.
# Kbuild runs it. A feature test rather than LINUX_VERSION_CODE alone, because
# distributions backport API changes: Debian's 6.1.0-N kernels (6.1.1xx) have
# the struct drm_sched_init_args of upstream 6.15 (without num_rqs), while
# upstream 6.1 takes positional arguments. Prints nothing when the header is
# missing: schedgen.c then falls back to version checks.
h=$1
[ -r "$h" ] || exit 0
awk '
	# The body of struct drm_sched_init_args, and the prototype of
	# drm_sched_job_init() up to its ";".
	/^struct drm_sched_init_args \{/ { in_args = 1; has_args = 1; next }
	in_args && /^\};/ { in_args = 0 }
	in_args && /[ \t*]num_rqs;/ { args_num_rqs = 1 }
	/^int drm_sched_job_init\(/ { in_ji = 1 }
	in_ji { ji = ji " " $0; if ($0 ~ /;/) in_ji = 0 }
	/DRM_GPU_SCHED_STAT_NO_HANG/ { no_hang = 1 }
	/^int drm_sched_init\(/ { in_si = 1 }
	in_si { si = si " " $0; if ($0 ~ /;/) in_si = 0 }
	END {
		printf "-DSG_FEATURES=1"
		printf " -DSG_INIT_ARGS=%d", has_args
		printf " -DSG_INIT_ARGS_NUM_RQS=%d", args_num_rqs
		# Positional drm_sched_init(): 6.7 .. 6.14 added submit_wq, num_rqs, credit_limit.
		printf " -DSG_INIT_POS_NUM_RQS=%d", (si ~ /num_rqs/)
		printf " -DSG_JOB_INIT_CREDITS=%d", (ji ~ /credits/)
		printf " -DSG_JOB_INIT_CLIENT_ID=%d", (ji ~ /client_id/)
		printf " -DSG_STAT_NO_HANG=%d\n", no_hang
	}' "$h"
