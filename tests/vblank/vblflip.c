// SPDX-License-Identifier: GPL-2.0
/*
 * vblflip: a DRM master that page-flips N times with a completion event
 * and reads each - vblanklat's workload where the display has no vblanks.
 * The kernel still sends a flip's event (the atomic helpers fake the
 * vblank), and traces it as drm_vblank_event_delivered for this client's
 * file, so the tool's delivered path is exercised on kernels where vblwait
 * is refused (bochs before the vblank timer).
 *
 *   vblflip [-a] [-d DEV] [-n N]
 *
 * Sets the first connected connector's first mode on a CRTC with a dumb
 * buffer, then flips between two buffers: with legacy page flips
 * (DRM_IOCTL_MODE_PAGE_FLIP), or with -a atomic commits of the CRTC's
 * primary plane's FB_ID (DRM_IOCTL_MODE_ATOMIC, nonblocking), as
 * compositors do. Prints the events received.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <drm.h>
#include <drm_mode.h>

/* The "type" property of a primary plane (the kernel's enum drm_plane_type). */
#define PLANE_TYPE_PRIMARY 1

static int fd;

static void die(const char *what)
{
	fprintf(stderr, "vblflip: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void xioctl(unsigned long req, void *arg, const char *what)
{
	while (ioctl(fd, req, arg)) {
		if (errno != EINTR && errno != EAGAIN)
			die(what);
	}
}

/* A connected connector, its first mode and a CRTC for it. */
static void find_output(__u32 *conn_id, __u32 *crtc_id, struct drm_mode_modeinfo *mode)
{
	struct drm_mode_card_res res = {};
	__u32 conns[16], crtcs[16], i;

	xioctl(DRM_IOCTL_MODE_GETRESOURCES, &res, "GETRESOURCES");
	if (res.count_connectors > 16 || res.count_crtcs > 16 || !res.count_crtcs) {
		fprintf(stderr, "vblflip: %u connectors, %u CRTCs: not handled\n",
			res.count_connectors, res.count_crtcs);
		exit(1);
	}
	res = (struct drm_mode_card_res){ .connector_id_ptr = (uintptr_t)conns,
					  .crtc_id_ptr = (uintptr_t)crtcs,
					  .count_connectors = res.count_connectors,
					  .count_crtcs = res.count_crtcs };
	xioctl(DRM_IOCTL_MODE_GETRESOURCES, &res, "GETRESOURCES");
	for (i = 0; i < res.count_connectors; i++) {
		struct drm_mode_get_connector c = { .connector_id = conns[i] };
		struct drm_mode_modeinfo modes[64];

		xioctl(DRM_IOCTL_MODE_GETCONNECTOR, &c, "GETCONNECTOR");
		if (c.connection != 1 || !c.count_modes)
			continue;
		c = (struct drm_mode_get_connector){ .connector_id = conns[i],
						     .modes_ptr = (uintptr_t)modes,
						     .count_modes = c.count_modes < 64 ? c.count_modes : 64 };
		xioctl(DRM_IOCTL_MODE_GETCONNECTOR, &c, "GETCONNECTOR");
		*conn_id = conns[i];
		*crtc_id = crtcs[0];
		*mode = modes[0];
		return;
	}
	fprintf(stderr, "vblflip: no connected connector\n");
	exit(1);
}

/* A dumb buffer of the mode's size as a framebuffer. */
static __u32 new_fb(const struct drm_mode_modeinfo *mode)
{
	struct drm_mode_create_dumb dumb = { .width = mode->hdisplay, .height = mode->vdisplay,
					     .bpp = 32 };
	struct drm_mode_fb_cmd fb = { .width = mode->hdisplay, .height = mode->vdisplay,
				      .bpp = 32, .depth = 24 };

	xioctl(DRM_IOCTL_MODE_CREATE_DUMB, &dumb, "CREATE_DUMB");
	fb.pitch = dumb.pitch;
	fb.handle = dumb.handle;
	xioctl(DRM_IOCTL_MODE_ADDFB, &fb, "ADDFB");
	return fb.fb_id;
}

/* -a: the primary plane of CRTC index 0 and its FB_ID property. */
static void find_plane(__u32 *plane_id, __u32 *fb_prop)
{
	struct drm_mode_get_plane_res res = {};
	__u32 planes[32], i, j;

	xioctl(DRM_IOCTL_MODE_GETPLANERESOURCES, &res, "GETPLANERESOURCES");
	if (res.count_planes > 32) {
		fprintf(stderr, "vblflip: %u planes: not handled\n", res.count_planes);
		exit(1);
	}
	res.plane_id_ptr = (uintptr_t)planes;
	xioctl(DRM_IOCTL_MODE_GETPLANERESOURCES, &res, "GETPLANERESOURCES");
	for (i = 0; i < res.count_planes; i++) {
		struct drm_mode_get_plane p = { .plane_id = planes[i] };
		struct drm_mode_obj_get_properties op = { .obj_id = planes[i],
							  .obj_type = DRM_MODE_OBJECT_PLANE };
		__u32 ids[64];
		__u64 vals[64];
		bool primary = false;

		xioctl(DRM_IOCTL_MODE_GETPLANE, &p, "GETPLANE");
		if (!(p.possible_crtcs & 1))
			continue;
		xioctl(DRM_IOCTL_MODE_OBJ_GETPROPERTIES, &op, "OBJ_GETPROPERTIES");
		if (op.count_props > 64)
			continue;
		op.props_ptr = (uintptr_t)ids;
		op.prop_values_ptr = (uintptr_t)vals;
		xioctl(DRM_IOCTL_MODE_OBJ_GETPROPERTIES, &op, "OBJ_GETPROPERTIES");
		*fb_prop = 0;
		for (j = 0; j < op.count_props; j++) {
			struct drm_mode_get_property prop = { .prop_id = ids[j] };

			xioctl(DRM_IOCTL_MODE_GETPROPERTY, &prop, "GETPROPERTY");
			if (!strcmp(prop.name, "type"))
				primary = vals[j] == PLANE_TYPE_PRIMARY;
			else if (!strcmp(prop.name, "FB_ID"))
				*fb_prop = ids[j];
		}
		if (primary && *fb_prop) {
			*plane_id = planes[i];
			return;
		}
	}
	fprintf(stderr, "vblflip: no primary plane for the CRTC\n");
	exit(1);
}

/* Show framebuffer fb on the plane at the next vblank, with an event. */
static void atomic_flip(__u32 plane_id, __u32 fb_prop, __u32 fb, __u64 user_data)
{
	__u32 count = 1;
	__u64 value = fb;
	struct drm_mode_atomic req = {
		.flags = DRM_MODE_PAGE_FLIP_EVENT | DRM_MODE_ATOMIC_NONBLOCK,
		.count_objs = 1, .objs_ptr = (uintptr_t)&plane_id,
		.count_props_ptr = (uintptr_t)&count, .props_ptr = (uintptr_t)&fb_prop,
		.prop_values_ptr = (uintptr_t)&value, .user_data = user_data,
	};

	xioctl(DRM_IOCTL_MODE_ATOMIC, &req, "ATOMIC");
}

int main(int argc, char **argv)
{
	const char *dev = "/dev/dri/card0";
	unsigned long n = 10, got = 0;
	struct drm_mode_modeinfo mode;
	struct drm_mode_crtc crtc = {};
	__u32 conn_id, crtc_id, fbs[2], plane_id = 0, fb_prop = 0;
	bool atomic = false;
	char buf[1024];
	int opt;

	while ((opt = getopt(argc, argv, "ad:n:")) != -1) {
		switch (opt) {
		case 'a': atomic = true; break;
		case 'd': dev = optarg; break;
		case 'n': n = strtoul(optarg, NULL, 10); break;
		default:
			fprintf(stderr, "usage: vblflip [-a] [-d DEV] [-n N]\n");
			return 2;
		}
	}
	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		die(dev);
	/* The first opener is master already; without a master the mode ioctls fail anyway. */
	ioctl(fd, DRM_IOCTL_SET_MASTER, 0);
	find_output(&conn_id, &crtc_id, &mode);
	fbs[0] = new_fb(&mode);
	fbs[1] = new_fb(&mode);
	crtc.crtc_id = crtc_id;
	crtc.fb_id = fbs[0];
	crtc.set_connectors_ptr = (uintptr_t)&conn_id;
	crtc.count_connectors = 1;
	crtc.mode = mode;
	crtc.mode_valid = 1;
	xioctl(DRM_IOCTL_MODE_SETCRTC, &crtc, "SETCRTC");
	if (atomic) {
		struct drm_set_client_cap cap = { .capability = DRM_CLIENT_CAP_ATOMIC, .value = 1 };

		xioctl(DRM_IOCTL_SET_CLIENT_CAP, &cap, "SET_CLIENT_CAP ATOMIC");
		find_plane(&plane_id, &fb_prop);
	}

	while (got < n) {
		struct drm_mode_crtc_page_flip flip = { .crtc_id = crtc_id, .fb_id = fbs[(got + 1) % 2],
							 .flags = DRM_MODE_PAGE_FLIP_EVENT,
							 .user_data = got };
		ssize_t len, off;

		if (atomic)
			atomic_flip(plane_id, fb_prop, fbs[(got + 1) % 2], got);
		else
			xioctl(DRM_IOCTL_MODE_PAGE_FLIP, &flip, "PAGE_FLIP");
		len = read(fd, buf, sizeof(buf));
		if (len < 0)
			die("read");
		for (off = 0; off + (ssize_t)sizeof(struct drm_event) <= len;) {
			struct drm_event *ev = (struct drm_event *)(buf + off);

			got += ev->type == DRM_EVENT_FLIP_COMPLETE;
			off += ev->length;
		}
	}
	printf("flipped %lu times\n", got);
	return 0;
}
