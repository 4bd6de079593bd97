// SPDX-License-Identifier: GPL-2.0
/*
 * stall: freeze every CPU for a while, on request - the induced stall of
 * vblanklat's tests. Writing N to /proc/stall runs stop_machine() with a
 * callback that spins N milliseconds with interrupts off on all CPUs, so
 * the vblank interrupt (or timer) cannot run and vblanks are missed.
 */
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/stop_machine.h>
#include <linux/uaccess.h>

static int stall_fn(void *data)
{
	/* stop_machine runs this on one CPU while the others spin with irqs off. */
	mdelay(*(unsigned int *)data);
	return 0;
}

static ssize_t stall_write(struct file *file, const char __user *ubuf, size_t len, loff_t *ppos)
{
	unsigned int ms;
	int err;

	err = kstrtouint_from_user(ubuf, len, 10, &ms);
	if (err)
		return err;
	if (ms > 5000)
		return -EINVAL;
	err = stop_machine(stall_fn, &ms, NULL);
	return err ? err : len;
}

static const struct proc_ops stall_ops = {
	.proc_write = stall_write,
};

static struct proc_dir_entry *stall_proc;

static int __init stall_init(void)
{
	stall_proc = proc_create("stall", 0200, NULL, &stall_ops);
	return stall_proc ? 0 : -ENOMEM;
}

static void __exit stall_exit(void)
{
	proc_remove(stall_proc);
}

module_init(stall_init);
module_exit(stall_exit);
MODULE_DESCRIPTION("Freeze all CPUs on request, for gpu-bpf-tools tests");
MODULE_LICENSE("GPL");
