// SPDX-License-Identifier: GPL-2.0
/*
 * kfdclient: a client of AMD's real KFD (/dev/kfd, amdgpu's compute
 * interface) without ROCm, for the amdkfd tests. The real amdgpu creates
 * /dev/kfd with no AMD GPU at all (its topology then has the CPU alone), so
 * what can be asked of it is what a GPU-less KFD answers: versions, events,
 * clocks, and calls on GPUs that do not exist. Each round opens /dev/kfd,
 * makes these 19 ioctls in this order, and closes it. What the real KFD
 * answered (-p's lines; strace agreed with each), Debian 12's 6.1:
 *
 *   call                        arguments                       6.1's answer
 *   GET_VERSION x3                                              0, version 1.11
 *   GET_PROCESS_APERTURES_NEW   num_of_nodes 0 (the count)      0, num_of_nodes 0
 *   GET_PROCESS_APERTURES_NEW   num_of_nodes 4                  EINVAL
 *   GET_CLOCK_COUNTERS          gpu_id 0                        0, gpu_clock_counter 0,
 *                                                               system_clock_freq 1000000000
 *   CREATE_EVENT x2             SIGNAL, auto_reset              0, event_id 1 and 2
 *   SET_EVENT                   the first                       0
 *   WAIT_EVENTS                 the first, 1 s timeout          0, wait_result 0 (COMPLETE)
 *   WAIT_EVENTS                 the second, 10 ms timeout       0, wait_result 1 (TIMEOUT)
 *   RESET_EVENT                 the first                       0
 *   DESTROY_EVENT x2                                            0
 *   ALLOC_MEMORY_OF_GPU         gpu_id 0x1234, 1 MiB,           EINVAL
 *                               VRAM|WRITABLE
 *   FREE_MEMORY_OF_GPU          handle 0x123400000001           EINVAL
 *   CREATE_QUEUE                gpu_id 0x1234, COMPUTE,         EINVAL ("Process device
 *                               ring 4096                       data doesn't exist")
 *   DESTROY_QUEUE               queue_id 7                      EINVAL ("Queue id does not
 *                                                               match any known queue")
 *   0x7f                        an ioctl KFD does not have      ENOTTY
 *
 * Trixie's 6.12 answers the same (version 1.17); bullseye's 5.10 (version
 * 1.3) too but for GET_PROCESS_APERTURES_NEW of 4 nodes, 0 with
 * num_of_nodes 0, and event ids from 0 (0 and 1). On sid (7.2) the open
 * itself fails, EINVAL ("no gpu node! Cannot create KFD process"). The
 * event ids are the same in every round (-n 3 on 6.1: 1 and 2 each time).
 *
 * The calls are made whatever the earlier ones answered (an event that was
 * not created is still set, waited on and destroyed, as event 0), so a
 * tracer always sees 19 per round, 19 * N in all.
 *
 * Usage: kfdclient [-p] [-n N] | kfdclient -b N | kfdclient -w N
 *   -b N  a burst instead: open, N GET_VERSION, close (tests/bench)
 *   -w N  waiters instead: open, N CREATE_EVENT, then N threads each in a
 *         WAIT_EVENTS on its own event (never set) at once, all timing out
 *         after 2 s, close: N threads inside kfd_ioctl together
 *   -n N  N rounds (default 1)
 *   -p    one line per call on stdout: NAME RET ERRNO [OUTPUTS], RET what
 *         ioctl() returned, ERRNO its errno's name ("0" when it succeeded),
 *         OUTPUTS what the call wrote back, when it succeeded
 *         (version=1.11, num_of_nodes=N, event_id=N, wait_result=N...)
 * Exit status 0 when /dev/kfd opened (the calls' results are for the test
 * to judge), 1 when it did not (one line on stderr), 2 for bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/kfd_ioctl.h>

#define KFD_DEVICE "/dev/kfd"
#define NO_GPU 0x1234	/* a gpu_id no KFD has: real ones are hashes of the GPU's properties */

static int print;
static const char *last_name;
static int last_ret, last_errno;

/* The ioctl, remembered for report(). */
static int call(int fd, const char *name, unsigned long req, void *arg)
{
	last_name = name;
	last_ret = ioctl(fd, req, arg);
	last_errno = last_ret < 0 ? errno : 0;
	return last_ret;
}

#define CALL(fd, x, arg) call(fd, #x, AMDKFD_IOC_##x, arg)

static const char *errno_name(int err)
{
	static char buf[16];
	const char *name = err ? strerrorname_np(err) : "0";

	if (name)
		return name;
	snprintf(buf, sizeof(buf), "%d", err);
	return buf;
}

/* -p's line for the last call; fmt (NULL for none) its outputs, shown when it succeeded. */
static void report(const char *fmt, ...)
{
	va_list ap;

	if (!print)
		return;
	printf("%s %d %s", last_name, last_ret, errno_name(last_errno));
	if (fmt && last_ret == 0) {
		putchar(' ');
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	putchar('\n');
}

static void versions(int fd)
{
	struct kfd_ioctl_get_version_args v;
	int i;

	for (i = 0; i < 3; i++) {
		memset(&v, 0, sizeof(v));
		CALL(fd, GET_VERSION, &v);
		report("version=%u.%u", v.major_version, v.minor_version);
	}
}

static void apertures(int fd)
{
	struct kfd_process_device_apertures pa[4];
	struct kfd_ioctl_get_process_apertures_new_args a;

	/* How many nodes: what rocminfo asks first. */
	memset(&a, 0, sizeof(a));
	CALL(fd, GET_PROCESS_APERTURES_NEW, &a);
	report("num_of_nodes=%u", a.num_of_nodes);

	memset(&a, 0, sizeof(a));
	memset(pa, 0, sizeof(pa));
	a.kfd_process_device_apertures_ptr = (uintptr_t)pa;
	a.num_of_nodes = 4;
	CALL(fd, GET_PROCESS_APERTURES_NEW, &a);
	report("num_of_nodes=%u", a.num_of_nodes);
}

static void clocks(int fd)
{
	struct kfd_ioctl_get_clock_counters_args c;

	memset(&c, 0, sizeof(c));
	c.gpu_id = 0;
	CALL(fd, GET_CLOCK_COUNTERS, &c);
	report("gpu_clock_counter=%llu system_clock_freq=%llu",
	       (unsigned long long)c.gpu_clock_counter, (unsigned long long)c.system_clock_freq);
}

static __u32 create_event(int fd)
{
	struct kfd_ioctl_create_event_args e;

	memset(&e, 0, sizeof(e));
	e.event_type = KFD_IOC_EVENT_SIGNAL;
	e.auto_reset = 1;
	CALL(fd, CREATE_EVENT, &e);
	report("event_id=%u", e.event_id);
	return last_ret == 0 ? e.event_id : 0;
}

static void wait_event(int fd, __u32 id, __u32 timeout_ms)
{
	struct kfd_ioctl_wait_events_args w;
	struct kfd_event_data d;

	memset(&d, 0, sizeof(d));
	d.event_id = id;
	memset(&w, 0, sizeof(w));
	w.events_ptr = (uintptr_t)&d;
	w.num_events = 1;
	w.wait_for_all = 1;
	w.timeout = timeout_ms;
	CALL(fd, WAIT_EVENTS, &w);
	report("wait_result=%u", w.wait_result);
}

static void events(int fd)
{
	struct kfd_ioctl_destroy_event_args d;
	struct kfd_ioctl_set_event_args s;
	struct kfd_ioctl_reset_event_args r;
	__u32 first, second;

	first = create_event(fd);
	second = create_event(fd);

	memset(&s, 0, sizeof(s));
	s.event_id = first;
	CALL(fd, SET_EVENT, &s);
	report(NULL);

	/* Set: complete at once (and, auto_reset, reset by the wait). */
	wait_event(fd, first, 1000);
	/* Never set: times out. */
	wait_event(fd, second, 10);

	memset(&r, 0, sizeof(r));
	r.event_id = first;
	CALL(fd, RESET_EVENT, &r);
	report(NULL);

	memset(&d, 0, sizeof(d));
	d.event_id = first;
	CALL(fd, DESTROY_EVENT, &d);
	report(NULL);
	d.event_id = second;
	CALL(fd, DESTROY_EVENT, &d);
	report(NULL);
}

static void memory(int fd)
{
	struct kfd_ioctl_alloc_memory_of_gpu_args a;
	struct kfd_ioctl_free_memory_of_gpu_args f;

	memset(&a, 0, sizeof(a));
	a.va_addr = 0x7f0000000000ull;
	a.size = 1 << 20;
	a.gpu_id = NO_GPU;
	a.flags = KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE;
	CALL(fd, ALLOC_MEMORY_OF_GPU, &a);
	report("handle=0x%llx", (unsigned long long)a.handle);

	/* A handle is gpu_id << 32 | the buffer's IDR index. */
	memset(&f, 0, sizeof(f));
	f.handle = (__u64)NO_GPU << 32 | 1;
	CALL(fd, FREE_MEMORY_OF_GPU, &f);
	report(NULL);
}

static void queues(int fd)
{
	static __u64 rptr, wptr;
	struct kfd_ioctl_create_queue_args q;
	struct kfd_ioctl_destroy_queue_args d;
	void *ring = aligned_alloc(4096, 4096);

	/*
	 * Valid ring and pointers, so that the answer is about the GPU (KFD
	 * checks the queue's properties first).
	 */
	memset(&q, 0, sizeof(q));
	q.ring_base_address = (uintptr_t)ring;
	q.ring_size = 4096;
	q.write_pointer_address = (uintptr_t)&wptr;
	q.read_pointer_address = (uintptr_t)&rptr;
	q.gpu_id = NO_GPU;
	q.queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE;
	q.queue_percentage = KFD_MAX_QUEUE_PERCENTAGE;
	q.queue_priority = 7;
	CALL(fd, CREATE_QUEUE, &q);
	report("queue_id=%u", q.queue_id);

	memset(&d, 0, sizeof(d));
	d.queue_id = 7;
	CALL(fd, DESTROY_QUEUE, &d);
	report(NULL);
	free(ring);
}

static void unknown(int fd)
{
	struct kfd_ioctl_get_version_args v;

	memset(&v, 0, sizeof(v));
	call(fd, "0x7f", AMDKFD_IOWR(0x7f, struct kfd_ioctl_get_version_args), &v);
	report(NULL);
}

static pthread_barrier_t all_waiting;
static int waiters_fd;

/* One waiter: its event's WAIT_EVENTS, entered with the others; NULL when it timed out. */
static void *wait_together(void *event)
{
	struct kfd_event_data d = { .event_id = (__u32)(uintptr_t)event };
	struct kfd_ioctl_wait_events_args w = {
		.events_ptr = (uintptr_t)&d, .num_events = 1, .wait_for_all = 1, .timeout = 2000,
	};

	pthread_barrier_wait(&all_waiting);
	if (ioctl(waiters_fd, AMDKFD_IOC_WAIT_EVENTS, &w) || w.wait_result != KFD_IOC_WAIT_RESULT_TIMEOUT)
		return "WAIT_EVENTS did not time out";
	return NULL;
}

static int waiters(long n)
{
	pthread_t *threads = calloc(n, sizeof(*threads));
	const char *why = NULL;
	void *res;
	long i;

	waiters_fd = open(KFD_DEVICE, O_RDWR | O_CLOEXEC);
	if (waiters_fd < 0 || !threads) {
		fprintf(stderr, "kfdclient: %s: %s\n", KFD_DEVICE, strerror(errno));
		return 1;
	}
	pthread_barrier_init(&all_waiting, NULL, n);
	for (i = 0; i < n; i++) {
		__u32 id = create_event(waiters_fd);

		if (last_ret || pthread_create(&threads[i], NULL, wait_together, (void *)(uintptr_t)id)) {
			fprintf(stderr, "kfdclient: waiter %ld: no event or thread\n", i);
			return 1;
		}
	}
	for (i = 0; i < n; i++)
		if (!pthread_join(threads[i], &res) && res)
			why = res;
	close(waiters_fd);
	free(threads);
	if (why)
		fprintf(stderr, "kfdclient: %s\n", why);
	return why != NULL;
}

int main(int argc, char **argv)
{
	long rounds = 1, burst = 0, nwait = 0, i;
	char *end;
	int opt, fd;

	while ((opt = getopt(argc, argv, "b:n:pw:")) != -1) {
		switch (opt) {
		case 'b':
			burst = strtol(optarg, &end, 10);
			if (*end || burst < 1) {
				fprintf(stderr, "kfdclient: -b %s: not a count\n", optarg);
				return 2;
			}
			break;
		case 'n':
			rounds = strtol(optarg, &end, 10);
			if (*end || rounds < 1) {
				fprintf(stderr, "kfdclient: -n %s: not a count\n", optarg);
				return 2;
			}
			break;
		case 'p':
			print = 1;
			break;
		case 'w':
			nwait = strtol(optarg, &end, 10);
			if (*end || nwait < 1) {
				fprintf(stderr, "kfdclient: -w %s: not a count\n", optarg);
				return 2;
			}
			break;
		default:
			fprintf(stderr, "usage: kfdclient [-p] [-n N] | kfdclient -b N | kfdclient -w N\n");
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "usage: kfdclient [-p] [-n N] | kfdclient -b N | kfdclient -w N\n");
		return 2;
	}
	if (nwait)
		return waiters(nwait);

	if (burst) {
		struct kfd_ioctl_get_version_args v;

		fd = open(KFD_DEVICE, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr, "kfdclient: %s: %s\n", KFD_DEVICE, strerror(errno));
			return 1;
		}
		for (i = 0; i < burst; i++)
			if (ioctl(fd, AMDKFD_IOC_GET_VERSION, &v)) {
				fprintf(stderr, "kfdclient: GET_VERSION: %s\n", strerror(errno));
				return 1;
			}
		close(fd);
		return 0;
	}
	for (i = 0; i < rounds; i++) {
		fd = open(KFD_DEVICE, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr, "kfdclient: %s: %s\n", KFD_DEVICE, strerror(errno));
			return 1;
		}
		versions(fd);
		apertures(fd);
		clocks(fd);
		events(fd);
		memory(fd);
		queues(fd);
		unknown(fd);
		close(fd);
	}
	return 0;
}
