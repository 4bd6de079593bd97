// SPDX-License-Identifier: GPL-2.0
/*
 * container.c's reading of cgroup paths: the paths each runtime and cgroup
 * driver makes, as their documentation and source name them, and paths
 * that name none.
 */
#include "check.h"
#include "container.h"

#define ID "3f1c0a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a3928170615f4e3d2c1b0a9f8e7"
#define UID "1e0d3a8e-7c3f-4b8a-9f0e-6b2e5a4c3d21"
#define UID_ "1e0d3a8e_7c3f_4b8a_9f0e_6b2e5a4c3d21"

/* "RUNTIME ID POD UNIT" of a path, "-" for each it lacks; "none" if it names nothing. */
static const char *said(const char *path)
{
	static char buf[512];
	struct container c;

	if (!container_of_cgroup(path, &c))
		return "none";
	snprintf(buf, sizeof(buf), "%s %s %s %s",
		 c.runtime == RUNTIME_UNKNOWN ? "?" : c.runtime ? container_runtime_name(c.runtime) : "-",
		 c.id[0] ? c.id : "-", c.pod[0] ? c.pod : "-", c.unit[0] ? c.unit : "-");
	return buf;
}

int main(void)
{
	char uid[POD_UID_LEN + 1] = "";

	/* Kubernetes, systemd cgroup driver: the kubelet's slices, the runtime's scope. */
	CHECK_STR("containerd, burstable pod", said("/kubepods.slice/kubepods-burstable.slice/"
		  "kubepods-burstable-pod" UID_ ".slice/cri-containerd-" ID ".scope"),
		  "containerd " ID " " UID " -");
	CHECK_STR("containerd, guaranteed pod (no QoS slice)", said("/kubepods.slice/kubepods-pod"
		  UID_ ".slice/cri-containerd-" ID ".scope"), "containerd " ID " " UID " -");
	CHECK_STR("cri-o, besteffort pod", said("/kubepods.slice/kubepods-besteffort.slice/"
		  "kubepods-besteffort-pod" UID_ ".slice/crio-" ID ".scope"), "cri-o " ID " " UID " -");
	CHECK_STR("cri-o's monitor: the pod, no container", said("/kubepods.slice/kubepods-besteffort.slice/"
		  "kubepods-besteffort-pod" UID_ ".slice/crio-conmon-" ID ".scope"), "- - " UID " -");
	CHECK_STR("docker under the kubelet (cri-dockerd)", said("/kubepods.slice/kubepods-burstable.slice/"
		  "kubepods-burstable-pod" UID_ ".slice/docker-" ID ".scope"), "docker " ID " " UID " -");
	CHECK_STR("a pod's own cgroup", said("/kubepods.slice/kubepods-burstable.slice/"
		  "kubepods-burstable-pod" UID_ ".slice"), "- - " UID " -");
	CHECK_STR("a QoS slice: nothing", said("/kubepods.slice/kubepods-burstable.slice"), "none");
	/* Kubernetes, cgroupfs driver: no runtime in the name. */
	CHECK_STR("cgroupfs: burstable pod's container", said("/kubepods/burstable/pod" UID "/" ID),
		  "? " ID " " UID " -");
	CHECK_STR("cgroupfs: guaranteed pod's container", said("/kubepods/pod" UID "/" ID),
		  "? " ID " " UID " -");
	CHECK_STR("cgroupfs: a pod", said("/kubepods/besteffort/pod" UID), "- - " UID " -");
	/* docker and podman on their own. */
	CHECK_STR("docker, systemd driver", said("/system.slice/docker-" ID ".scope"),
		  "docker " ID " - -");
	CHECK_STR("docker, cgroupfs driver", said("/docker/" ID), "docker " ID " - -");
	CHECK_STR("podman, rootful", said("/machine.slice/libpod-" ID ".scope"), "podman " ID " - -");
	CHECK_STR("podman, its container's own cgroup below", said("/machine.slice/libpod-" ID
		  ".scope/container"), "podman " ID " - -");
	CHECK_STR("podman, rootless: no service", said("/user.slice/user-1000.slice/user@1000.service/"
		  "user.slice/libpod-" ID ".scope"), "podman " ID " - -");
	CHECK_STR("podman's monitor: nothing", said("/machine.slice/libpod-conmon-" ID ".scope"),
		  "none");
	CHECK_STR("podman, cgroupfs driver", said("/libpod_parent/libpod-" ID), "podman " ID " - -");
	/* Services. */
	CHECK_STR("a system service", said("/system.slice/nginx.service"), "- - - nginx.service");
	CHECK_STR("the runtime's own service", said("/system.slice/containerd.service"),
		  "- - - containerd.service");
	CHECK_STR("a user's service", said("/user.slice/user-1000.slice/user@1000.service/app.slice/"
		  "trainer.service"), "- - - trainer.service");
	/* Nothing. */
	CHECK_STR("the root", said("/"), "none");
	CHECK_STR("a login session", said("/user.slice/user-1000.slice/session-3.scope"), "none");
	CHECK_STR("an id of 63 digits", said("/docker/" "3f1c0a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a3928170615f4e3d2c1b0a9f8e"),
		  "none");
	CHECK_STR("an id in capitals", said("/system.slice/docker-3F1C0A9E8B7D6C5F4E3D2C1B0A9F8E7D"
		  "6C5B4A3928170615F4E3D2C1B0A9F8E7.scope"), "none");
	CHECK_STR("a scope with more after it", said("/system.slice/docker-" ID ".scope.old"), "none");
	CHECK_STR("a pod UID with a bad dash", said("/kubepods/pod1e0d3a8e_7c3f-4b8a-9f0e-6b2e5a4c3d21/" ID),
		  "none");
	CHECK_STR("'pod' outside the kubelet's tree", said("/pod" UID "/" ID), "none");
	CHECK_STR("a hostile name", said("/system.slice/a\"b\nc.service"), "- - - a\"b\nc.service");

	/* --container and --pod's arguments. */
	CHECK("--container: a whole id", container_id_arg(ID), "refused");
	CHECK("--container: its start, as docker ps shows it", container_id_arg("3f1c0a9e8b7d"), "refused");
	CHECK("--container: one digit", container_id_arg("3"), "refused");
	CHECK("--container: nothing is no id", !container_id_arg(""), "taken");
	CHECK("--container: 65 digits are no id", !container_id_arg(ID "0"), "taken");
	CHECK("--container: capitals are no id", !container_id_arg("3F1C"), "taken");
	CHECK("--container: a name is no id", !container_id_arg("trainer"), "taken");
	CHECK("--pod: dashed", pod_uid_arg(UID, uid) && !strcmp(uid, UID), "got %s", uid);
	CHECK("--pod: as a slice writes it, dashed after",
	      pod_uid_arg(UID_, uid) && !strcmp(uid, UID), "got %s", uid);
	CHECK("--pod: a UID cut short", !pod_uid_arg("1e0d3a8e-7c3f-4b8a-9f0e-6b2e5a4c3d2", uid), "taken");
	CHECK("--pod: a pod's name is no UID", !pod_uid_arg("trainer-0", uid), "taken");
	return check_failures;
}
