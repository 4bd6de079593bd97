/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A process's PID inside its own PID namespace (a container's), beside the
 * host PID that BPF records: what `ps` shows inside the container.
 */
#ifndef GPU_BPF_PIDNS_H
#define GPU_BPF_PIDNS_H

/*
 * The PID of host process `pid` in its innermost PID namespace (the last
 * of /proc/PID/status's NSpid), or 0 when it is the same number, or the
 * process is gone. Looked up again after a second: a PID may be reused.
 */
unsigned int ns_pid(unsigned int pid);

#endif /* GPU_BPF_PIDNS_H */
