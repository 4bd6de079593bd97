// SPDX-License-Identifier: GPL-2.0
/*
 * vblwait: a DRM client that asks for N vblank events, one at a time, and
 * reads each - the controlled workload of vblanklat's tests.
 *
 *   vblwait [-d DEV] [-c CRTC] [-n N] [-a AHEAD]
 *
 * Each request is DRM_IOCTL_WAIT_VBLANK with _DRM_VBLANK_EVENT for the
 * vblank AHEAD after the current one (default 1). Prints the number of
 * events received and the sequence numbers of the first and last.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <drm.h>

static int queue_event(int fd, int crtc, unsigned int ahead, unsigned long cookie)
{
	union drm_wait_vblank vbl;

	memset(&vbl, 0, sizeof(vbl));
	vbl.request.type = _DRM_VBLANK_RELATIVE | _DRM_VBLANK_EVENT;
	if (crtc > 1)
		vbl.request.type |= (crtc << _DRM_VBLANK_HIGH_CRTC_SHIFT) & _DRM_VBLANK_HIGH_CRTC_MASK;
	else if (crtc == 1)
		vbl.request.type |= _DRM_VBLANK_SECONDARY;
	vbl.request.sequence = ahead;
	vbl.request.signal = cookie;
	return ioctl(fd, DRM_IOCTL_WAIT_VBLANK, &vbl);
}

int main(int argc, char **argv)
{
	const char *dev = "/dev/dri/card0";
	unsigned long n = 10, ahead = 1, got = 0, first = 0, last = 0;
	int crtc = 0, opt, fd;
	char buf[1024];

	while ((opt = getopt(argc, argv, "d:c:n:a:")) != -1) {
		switch (opt) {
		case 'd': dev = optarg; break;
		case 'c': crtc = atoi(optarg); break;
		case 'n': n = strtoul(optarg, NULL, 10); break;
		case 'a': ahead = strtoul(optarg, NULL, 10); break;
		default:
			fprintf(stderr, "usage: vblwait [-d DEV] [-c CRTC] [-n N] [-a AHEAD]\n");
			return 2;
		}
	}
	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "vblwait: %s: %s\n", dev, strerror(errno));
		return 1;
	}
	while (got < n) {
		ssize_t len, off;

		if (queue_event(fd, crtc, ahead, got)) {
			fprintf(stderr, "vblwait: DRM_IOCTL_WAIT_VBLANK: %s\n", strerror(errno));
			return 1;
		}
		len = read(fd, buf, sizeof(buf));
		if (len < 0) {
			fprintf(stderr, "vblwait: read: %s\n", strerror(errno));
			return 1;
		}
		for (off = 0; off + (ssize_t)sizeof(struct drm_event) <= len;) {
			struct drm_event *ev = (struct drm_event *)(buf + off);

			if (ev->type == DRM_EVENT_VBLANK) {
				struct drm_event_vblank *vb = (struct drm_event_vblank *)ev;

				if (!got++)
					first = vb->sequence;
				last = vb->sequence;
			}
			off += ev->length;
		}
	}
	printf("received %lu events, seq %lu..%lu\n", got, first, last);
	return 0;
}
