/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The container a cgroup v2 path is, as the container runtimes and the
 * kubelet name their cgroups: the runtime and the container's id, the
 * Kubernetes pod's UID, or the systemd unit of a service. From the path
 * alone (cgroup.h's cgroup_name()): nothing is asked of a runtime.
 */
#ifndef GPU_BPF_CONTAINER_H
#define GPU_BPF_CONTAINER_H

#include <stdbool.h>

enum container_runtime {
	RUNTIME_NONE,
	RUNTIME_CONTAINERD,
	RUNTIME_CRIO,
	RUNTIME_DOCKER,
	RUNTIME_PODMAN,
	RUNTIME_UNKNOWN,	/* the kubelet's cgroupfs driver names no runtime */
};

#define CONTAINER_ID_LEN 64	/* hex digits: docker prints the first 12 */
#define POD_UID_LEN 36		/* 8-4-4-4-12 */
#define UNIT_NAME_LEN 256	/* systemd's limit */

struct container {
	enum container_runtime runtime;		/* RUNTIME_NONE: no container */
	char id[CONTAINER_ID_LEN + 1];		/* "" when none */
	char pod[POD_UID_LEN + 1];		/* the pod's UID, dashed; "" when none */
	char unit[UNIT_NAME_LEN];		/* a service's unit ("nginx.service"); "" when none */
};

/*
 * What `path` (a cgroup v2 path, "/kubepods.slice/.../cri-containerd-ID.scope")
 * says: true if it names a container, a pod or a unit (*c filled), false
 * if it names none (*c zeroed).
 */
bool container_of_cgroup(const char *path, struct container *c);

/* "containerd", "cri-o", "docker", "podman", "" (none or not known). */
const char *container_runtime_name(enum container_runtime r);

/* --container's ID: 1 to 64 lowercase hex digits, an id or its start. */
bool container_id_arg(const char *s);

/* --pod's UID, dashed or, as the kubelet's slices write it, with '_': dashed into uid. */
bool pod_uid_arg(const char *s, char uid[POD_UID_LEN + 1]);

#endif /* GPU_BPF_CONTAINER_H */
