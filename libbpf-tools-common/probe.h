/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the running kernel offers: tracefs, tracepoints, kprobe targets,
 * modules and their BTF.  Tools ask before they load, so a missing driver
 * becomes a sentence naming the module rather than a libbpf error.
 */
#ifndef GPU_BPF_PROBE_H
#define GPU_BPF_PROBE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Look up kernel files under `root` instead of "/" (unit tests point it at
 * a fake tree).  NULL restores "/".
 */
void probe_set_root(const char *root);

/* What probe_set_root() set: "" for "/". */
const char *probe_root(void);

/*
 * The tracefs directory: /sys/kernel/tracing, else the old debugfs
 * location; mounts tracefs at /sys/kernel/tracing when neither is
 * mounted.  NULL (errno set) if tracefs is not available.
 */
const char *tracefs_path(void);

/* events/CATEGORY/EVENT exists in tracefs. */
bool tracepoint_exists(const char *category, const char *event);

/* /sys/module/NAME exists: loaded as a module or built in with parameters. */
bool module_loaded(const char *name);

/*
 * Whether the PCI driver NAME drives a device: 1 when one is bound to it,
 * 0 when it is a PCI driver with none (udev loads every module whose ID
 * table names a device, so a driver may sit beside the one that took the
 * GPU), -1 when no PCI driver has that name.
 */
int pci_driver_bound(const char *name);

/* /sys/kernel/btf/NAME exists ("vmlinux" for the kernel itself). */
bool btf_exists(const char *name);

/*
 * NAME is a loaded module (not built in) without BTF of its own, so CO-RE
 * reads of its types cannot work: the kernel lacks CONFIG_DEBUG_INFO_BTF_MODULES.
 */
bool module_lacks_btf(const char *name);

/*
 * The module that defines the trace event EVENT (its __tracepoint_EVENT in
 * /proc/kallsyms), into module[len]: a driver's events may come from a
 * module of another name (a renamed DKMS build, a test module playing the
 * driver), whose BTF is the one that counts. false when built in or not
 * found.
 */
bool tracepoint_module(const char *event, char *module, size_t len);

/*
 * The kernel's BPF offers atomic fetch-and-add with a result and
 * compare-and-swap (BPF_FETCH, BPF_CMPXCHG: 5.12), probed once by loading a
 * tiny program that uses them.
 */
bool kernel_has_atomic_fetch(void);

/*
 * The running kernel's release is at least MAJOR.MINOR (uname(2); "7.2.13+deb14-amd64"
 * is 7.2), for behaviour no BTF type or probe shows.
 */
bool kernel_release_at_least(unsigned int major, unsigned int minor);

/*
 * bpf_get_attach_cookie() in kprobe and uprobe programs (5.15), probed once.
 * Both probes answer no for what GPU_BPF_PRETEND_MISSING names
 * ("atomic_fetch", "attach_cookie"): tests run the fallbacks on new kernels.
 */
bool kernel_has_attach_cookie(void);

/*
 * bpf_get_current_task_btf() in kprobe programs (5.11): the task's fields
 * read as memory, not one helper call each. GPU_BPF_PRETEND_MISSING
 * "current_task_btf" answers no.
 */
bool kernel_has_current_task_btf(void);

/*
 * Task local storage for tracing programs (BPF_MAP_TYPE_TASK_STORAGE,
 * bpf_task_storage_get(), bpf_get_current_task_btf(): 5.11), probed once
 * (GPU_BPF_PRETEND_MISSING: "task_storage").
 */
bool kernel_has_task_storage(void);

/*
 * GPU_BPF_PRETEND_MISSING="atomic_fetch,attach_cookie,task_storage,uprobe_multi" (any of
 * them; "spares" for tool_choose_spares(), "syscalls" for the template's
 * raw_syscalls path) makes the probes of those features say no: the
 * fallbacks of older kernels, tested on a new one.
 */
bool pretend_missing(const char *feature);

#endif /* GPU_BPF_PROBE_H */
