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
	/^void drm_sched_entity_push_job\(/ { in_pj = 1 }
	in_pj { pj = pj " " $0; if ($0 ~ /;/) in_pj = 0 }
	/^void drm_sched_start\(/ { in_st = 1 }
	in_st { st = st " " $0; if ($0 ~ /;/) in_st = 0 }
	/^void drm_sched_job_arm\(/ { arm = 1 }
	/^void drm_sched_wqueue_stop\(/ { wqueue = 1 }
	/^int drm_sched_job_add_dependency\(/ { add_dep = 1 }
	/enum drm_gpu_sched_stat \(\*timedout_job\)/ { timedout_stat = 1 }
	END {
		printf "-DSG_FEATURES=1"
		printf " -DSG_INIT_ARGS=%d", has_args
		printf " -DSG_INIT_ARGS_NUM_RQS=%d", args_num_rqs
		# Positional drm_sched_init(): 6.7 .. 6.14 added submit_wq, num_rqs, credit_limit.
		printf " -DSG_INIT_POS_NUM_RQS=%d", (si ~ /num_rqs/)
		printf " -DSG_JOB_INIT_CREDITS=%d", (ji ~ /credits/)
		printf " -DSG_JOB_INIT_CLIENT_ID=%d", (ji ~ /client_id/)
		printf " -DSG_STAT_NO_HANG=%d", no_hang
		# Older than upstream 5.16 (Debian 11 bullseye'"'"'s 5.10): no
		# drm_sched_job_arm() (drm_sched_job_init() arms), no
		# drm_sched_job_add_dependency() (the backend'"'"'s dependency()
		# callback hands them over), push_job(job, entity); timedout_job()
		# returns void before 5.13; drm_sched_init() without the score (5.11),
		# timeout_wq (5.17) and dev (6.0) arguments.
		printf " -DSG_JOB_ARM=%d", arm
		printf " -DSG_JOB_ADD_DEPENDENCY=%d", add_dep
		printf " -DSG_PUSH_JOB_ENTITY=%d", (pj ~ /struct drm_sched_entity \*/)
		printf " -DSG_TIMEDOUT_STAT=%d", timedout_stat
		printf " -DSG_INIT_POS_SCORE=%d", (si ~ /score/)
		printf " -DSG_INIT_POS_TIMEOUT_WQ=%d", (si ~ /timeout_wq/)
		printf " -DSG_INIT_POS_DEV=%d", (si ~ /struct device/)
		printf " -DSG_WQUEUE=%d", wqueue
		# drm_sched_start(sched, bool full_recovery) before 6.12, (sched)
		# in 6.12, (sched, int errno) from 6.13.
		printf " -DSG_START_ARG=%d\n", (st ~ /bool/) ? 1 : (st ~ /int/) ? 2 : 0
	}' "$h"
