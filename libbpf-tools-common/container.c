// SPDX-License-Identifier: GPL-2.0
/*
 * Container identity from a cgroup path (container.h). The names, by
 * runtime and cgroup driver:
 *   systemd driver: a scope per container, its runtime's prefix and the
 *     id: cri-containerd-ID.scope, crio-ID.scope, docker-ID.scope,
 *     libpod-ID.scope (the monitors, crio-conmon-ID.scope and
 *     libpod-conmon-ID.scope, are not the container); the kubelet's pods
 *     slices kubepods[-QOS]-podUID.slice, the UID's dashes as '_';
 *   cgroupfs driver: /docker/ID, /libpod_parent/libpod-ID, and the
 *     kubelet's /kubepods[/QOS]/podUID/ID, which names no runtime.
 * A service is the deepest NAME.service above no container. IDs are 64
 * lowercase hex digits, UIDs 8-4-4-4-12 of them: anything else is neither.
 */
#include <stdio.h>
#include <string.h>

#include "container.h"

static bool is_hex(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

static bool is_id(const char *s, size_t len)
{
	return len == CONTAINER_ID_LEN && is_hex(s, len);
}

/* A component [s, s + len) that is PREFIX + ID + SUFFIX: the id into c. */
static bool id_between(const char *s, size_t len, const char *prefix, const char *suffix,
		       struct container *c, enum container_runtime r)
{
	size_t pl = strlen(prefix), sl = strlen(suffix);

	if (len != pl + CONTAINER_ID_LEN + sl || strncmp(s, prefix, pl) ||
	    strncmp(s + len - sl, suffix, sl) || !is_id(s + pl, CONTAINER_ID_LEN))
		return false;
	memcpy(c->id, s + pl, CONTAINER_ID_LEN);
	c->id[CONTAINER_ID_LEN] = '\0';
	c->runtime = r;
	return true;
}

/*
 * A pod's UID, 36 characters of hex and `sep` at the dashes' places, into
 * c->pod with dashes.
 */
static bool pod_uid(const char *s, size_t len, char sep, struct container *c)
{
	char uid[POD_UID_LEN + 1];
	size_t i;

	if (len != POD_UID_LEN)
		return false;
	for (i = 0; i < len; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? s[i] != sep : !is_hex(s + i, 1))
			return false;
		uid[i] = dash ? '-' : s[i];
	}
	uid[len] = '\0';
	memcpy(c->pod, uid, sizeof(uid));
	return true;
}

/* A kubelet pod cgroup: kubepods[-QOS]-podUID.slice (systemd), podUID (cgroupfs). */
static bool pod_of(const char *s, size_t len, bool under_kubepods, struct container *c)
{
	const char *p;
	size_t n;

	if (len > 6 && !strncmp(s, "kubepods", 8) && !strncmp(s + len - 6, ".slice", 6)) {
		for (p = s; p + 3 <= s + len - 6; p++)
			if (!strncmp(p, "-pod", 4))
				break;
		if (p + 4 > s + len - 6)
			return false;
		n = s + len - 6 - (p + 4);
		return pod_uid(p + 4, n, '_', c);
	}
	return under_kubepods && len > 3 && !strncmp(s, "pod", 3) && pod_uid(s + 3, len - 3, '-', c);
}

bool container_of_cgroup(const char *path, struct container *c)
{
	const char *s = path, *end;
	bool kubepods = false, docker = false, libpod = false;
	size_t len;

	memset(c, 0, sizeof(*c));
	for (; *s; s = *end ? end + 1 : end) {
		end = strchr(s, '/');
		if (!end)
			end = s + strlen(s);
		len = end - s;
		if (!len)
			continue;
		if (!strncmp(s, "kubepods", 8))
			kubepods = true;
		if (pod_of(s, len, kubepods, c))
			continue;
		if (id_between(s, len, "cri-containerd-", ".scope", c, RUNTIME_CONTAINERD) ||
		    id_between(s, len, "crio-", ".scope", c, RUNTIME_CRIO) ||
		    id_between(s, len, "docker-", ".scope", c, RUNTIME_DOCKER) ||
		    id_between(s, len, "libpod-", ".scope", c, RUNTIME_PODMAN) ||
		    (libpod && id_between(s, len, "libpod-", "", c, RUNTIME_PODMAN)) ||
		    (docker && id_between(s, len, "", "", c, RUNTIME_DOCKER)) ||
		    (c->pod[0] && id_between(s, len, "", "", c, RUNTIME_UNKNOWN))) {
			/* A container is no service (rootless podman's is under user@UID.service). */
			c->unit[0] = '\0';
			break;	/* below it: its own cgroups */
		}
		docker = len == 6 && !strncmp(s, "docker", 6);
		libpod = len == 13 && !strncmp(s, "libpod_parent", 13);
		if (len > 8 && !strncmp(end - 8, ".service", 8) && len < UNIT_NAME_LEN) {
			memcpy(c->unit, s, len);
			c->unit[len] = '\0';
		}
	}
	return c->runtime != RUNTIME_NONE || c->pod[0] || c->unit[0];
}

const char *container_runtime_name(enum container_runtime r)
{
	static const char *const names[] = {
		[RUNTIME_CONTAINERD] = "containerd", [RUNTIME_CRIO] = "cri-o",
		[RUNTIME_DOCKER] = "docker", [RUNTIME_PODMAN] = "podman",
	};

	return r < sizeof(names) / sizeof(names[0]) && names[r] ? names[r] : "";
}

bool container_id_arg(const char *s)
{
	size_t len = strlen(s);

	return len && len <= CONTAINER_ID_LEN && is_hex(s, len);
}

bool pod_uid_arg(const char *s, char uid[POD_UID_LEN + 1])
{
	struct container c;
	size_t len = strlen(s);

	if (!pod_uid(s, len, '-', &c) && !pod_uid(s, len, '_', &c))
		return false;
	memcpy(uid, c.pod, POD_UID_LEN + 1);
	return true;
}
