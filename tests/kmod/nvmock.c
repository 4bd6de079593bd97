// SPDX-License-Identifier: GPL-2.0
/*
 * nvmock: the parts of NVIDIA's driver that its real module cannot run
 * without a GPU - interrupts and their bottom halves, p2p, Xid reports,
 * mappings that succeed -
 * played with the real functions' names and prototypes (nv.c, nv-msi.h,
 * nv-p2p.h, os-interface.h, nv.h of 535/550), on request, so that nvdrv's
 * counts can be checked exactly. Built as nvidia.o: the module is named
 * "nvidia" (nvdrv resolves its hooks under [nvidia] in /proc/kallsyms);
 * tests/kmod/build installs it as nvmock.ko. Never load it with the real
 * driver.
 *
 * The structures nvdrv reads keep the real layouts' first members:
 * nv_state_t's PCI location (domain at 20, bus 24, slot 25; the
 * nv_linux_state_t the top half gets starts with it) and the p2p page table
 * (page_size at 4, entries at 16).
 *
 * Control: write one command to /proc/nvmock (tests/README.md):
 *   isr n=N [dev=D] [irq=I] [msix=1] [bh=1] [unlocked=1] [delay_us=U]
 *   p2p_get n=N length=L [persistent=1] [page=0|1|2]
 *   p2p_dma_map / p2p_dma_unmap / p2p_put
 *   xid xid=X pid=P name=NAME [mig=1|2] [dev=D] [n=N] [msg=TEXT...]
 *   log_error xid=X [dev=D] [n=N]
 *   print n=N
 *
 * The resource manager's allocations: char major 195's ioctl,
 * nvidia_unlocked_ioctl, plays RM_ALLOC and RM_FREE with the real argument
 * blocks and memory allocation parameters (see rm_alloc()); nvidia_close
 * is its release.
 *
 * Mappings: the module serves char major 195 (the real driver's; mknod
 * /dev/nvidiactl c 195 255) with an mmap, nvidia_mmap, that succeeds
 * (the real one needs a GPU's memory to map) and gives the vma the real
 * vm_operations' names, nvidia_vma_open and nvidia_vma_release. No page
 * is ever mapped: touching one is SIGBUS. An mmap at a nonzero offset is
 * refused, EINVAL.
 *
 * Built a second time with NVMOCK_XID_TRACEPOINT (tests/kmod/xidtp/Kbuild;
 * tests/kmod/build installs it as nvmock-xidtp.ko) it plays 575 and later:
 * nv_log_error also fires the driver's tracepoint, nvidia:nvidia_dev_xid
 * (nvmock_trace.h), as the real nv_report_error() does.
 */
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/version.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/slab.h>
#if __has_include(<linux/stdarg.h>)
#include <linux/stdarg.h>
#else
#include <stdarg.h>	/* before 5.15 (5.10): the compiler's */
#endif
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

/* ---- the driver's structures: the members nvdrv reads, at their offsets ---- */

typedef struct nv_pci_info {
	u32 domain;
	u8 bus;
	u8 slot;
	u8 function;
	u16 vendor_id;
	u16 device_id;
} nv_pci_info_t;

typedef struct nv_state_t {
	void *priv;
	void *os_state;
	int flags;
	nv_pci_info_t pci_info;
} nv_state_t;

/* nv_linux_state_t starts with its nv_state_t (NV_STATE_PTR is a cast). */
typedef struct nv_linux_state {
	nv_state_t nv_state;
	unsigned long isrs;	/* the mock's own */
} nv_linux_state_t;

static_assert(offsetof(nv_state_t, pci_info.domain) == 20);
static_assert(offsetof(nv_state_t, pci_info.bus) == 24);
static_assert(offsetof(nv_state_t, pci_info.slot) == 25);

enum nvidia_p2p_page_size_type {
	NVIDIA_P2P_PAGE_SIZE_4KB = 0,
	NVIDIA_P2P_PAGE_SIZE_64KB,
	NVIDIA_P2P_PAGE_SIZE_128KB,
	NVIDIA_P2P_PAGE_SIZE_COUNT
};

struct nvidia_p2p_page {
	u64 physical_address;
	u32 registers[6];
};

struct nvidia_p2p_page_table {
	u32 version;
	u32 page_size;	/* enum nvidia_p2p_page_size_type */
	struct nvidia_p2p_page **pages;
	u32 entries;
	u8 *gpu_uuid;
};

static_assert(offsetof(struct nvidia_p2p_page_table, page_size) == 4);
static_assert(offsetof(struct nvidia_p2p_page_table, entries) == 16);

struct nvidia_p2p_dma_mapping {
	u32 version;
	enum nvidia_p2p_page_size_type page_size_type;
	u32 entries;
	u64 *dma_addresses;
	void *private;
	struct pci_dev *pci_dev;
};

#define NVIDIA_P2P_PAGE_TABLE_VERSION	0x00010002
#define NVIDIA_P2P_DMA_MAPPING_VERSION	0x00020003
#define NV_DBG_ERRORS	4

/* Two GPUs: 0000:3b:00 and 0001:af:02 (a domain and a slot that are not 0). */
#define NR_DEVS 2
static nv_linux_state_t devs[NR_DEVS] = {
	{ .nv_state.pci_info = { .domain = 0, .bus = 0x3b, .slot = 0, .vendor_id = 0x10de } },
	{ .nv_state.pci_info = { .domain = 1, .bus = 0xaf, .slot = 2, .vendor_id = 0x10de } },
};

static struct workqueue_struct *bh_wq;

/*
 * The driver's functions: never inlined, and never cloned (a .constprop or
 * .isra copy would take the calls, and the kprobe on the real name would
 * not fire).
 */
#define NV_FN noinline __noclone

int nv_printf(u32 debuglevel, const char *printf_format, ...);
u32 nv_log_error(nv_state_t *nv, u32 num, const char *format, va_list ap);
irqreturn_t nvidia_isr(int irq, void *arg);
irqreturn_t nvidia_isr_msix(int irq, void *arg);
irqreturn_t nvidia_isr_kthread_bh(int irq, void *data);
irqreturn_t nvidia_isr_msix_kthread_bh(int irq, void *data);
void nvidia_isr_bh_unlocked(void *args);
int nvidia_p2p_get_pages(u64 p2p_token, u32 va_space, u64 virtual_address, u64 length,
			 struct nvidia_p2p_page_table **page_table,
			 void (*free_callback)(void *data), void *data);
int nvidia_p2p_get_pages_persistent(u64 virtual_address, u64 length,
				    struct nvidia_p2p_page_table **page_table, u32 flags);
int nvidia_p2p_put_pages(u64 p2p_token, u32 va_space, u64 virtual_address,
			 struct nvidia_p2p_page_table *page_table);
int nvidia_p2p_put_pages_persistent(u64 virtual_address, struct nvidia_p2p_page_table *page_table,
				    u32 flags);
int nvidia_p2p_dma_map_pages(struct pci_dev *peer, struct nvidia_p2p_page_table *page_table,
			     struct nvidia_p2p_dma_mapping **dma_mapping);
int nvidia_mmap(struct file *file, struct vm_area_struct *vma);
long nvidia_unlocked_ioctl(struct file *file, unsigned int cmd, unsigned long arg);
int nvidia_close(struct inode *inode, struct file *file);
int nvidia_p2p_dma_unmap_pages(struct pci_dev *peer, struct nvidia_p2p_page_table *page_table,
			       struct nvidia_p2p_dma_mapping *dma_mapping);

/* ---- messages: nv_printf, nv_log_error (os-interface.h, nv.h) ---------------- */

#ifdef NVMOCK_XID_TRACEPOINT
/*
 * 575 and later: nv_log_error() -> nv_report_error() fires the driver's
 * tracepoint with the GPU's struct pci_dev (tests/kmod/xidtp builds it).
 * Each mock GPU's pci_dev has only its name, for pci_name().
 */
#define CREATE_TRACE_POINTS
#include "nvmock_trace.h"

static struct pci_dev pdevs[NR_DEVS];
static char pdev_names[NR_DEVS][16];

static void report_error(nv_state_t *nv, u32 num, const char *format, va_list ap)
{
	int dev = container_of(nv, nv_linux_state_t, nv_state) - devs;
	char *msg = kvasprintf(GFP_ATOMIC, format, ap);

	if (!msg)
		return;
	trace_nvidia_dev_xid(&pdevs[dev], num, msg);
	kfree(msg);
}

static void name_pdevs(void)
{
	int i;

	for (i = 0; i < NR_DEVS; i++) {
		const nv_pci_info_t *pci = &devs[i].nv_state.pci_info;

		snprintf(pdev_names[i], sizeof(pdev_names[i]), "%04x:%02x:%02x.0", pci->domain,
			 pci->bus, pci->slot);
		pdevs[i].dev.init_name = pdev_names[i];
	}
}
#define NVMOCK_VERSION "0.0-nvmock-xid-tracepoint"
#else
static void report_error(nv_state_t *nv, u32 num, const char *format, va_list ap)
{
	vsnprintf(NULL, 0, format, ap);	/* 535, 550: formatted for the log only */
}

static void name_pdevs(void)
{
}
#define NVMOCK_VERSION "0.0-nvmock"
#endif

static unsigned long printed;

NV_FN int nv_printf(u32 debuglevel, const char *printf_format, ...)
{
	va_list ap;
	int n;

	va_start(ap, printf_format);
	n = vsnprintf(NULL, 0, printf_format, ap);	/* formatted, not logged */
	va_end(ap);
	printed++;
	return n;
}

NV_FN u32 nv_log_error(nv_state_t *nv, u32 num, const char *format, va_list ap)
{
	va_list aq;

	va_copy(aq, ap);
	report_error(nv, num, format, aq);
	va_end(aq);
	return 0;	/* NV_OK */
}

static void log_error(nv_state_t *nv, u32 num, const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	nv_log_error(nv, num, format, ap);
	va_end(ap);
}

/* ---- interrupts (nv.c, nv-msi.h) ------------------------------------------------- */

NV_FN irqreturn_t nvidia_isr(int irq, void *arg)
{
	nv_linux_state_t *nvl = arg;

	WRITE_ONCE(nvl->isrs, nvl->isrs + 1);
	return IRQ_WAKE_THREAD;
}

/* Serialises the vectors and calls nvidia_isr, as the real one does. */
NV_FN irqreturn_t nvidia_isr_msix(int irq, void *arg)
{
	irqreturn_t ret;

	ret = nvidia_isr(irq, arg);
	barrier();	/* not a tail call: nvidia_isr returns here */
	return ret;
}

static NV_FN irqreturn_t nvidia_isr_common_bh(void *data)
{
	barrier();
	return IRQ_HANDLED;
}

NV_FN irqreturn_t nvidia_isr_kthread_bh(int irq, void *data)
{
	irqreturn_t ret = nvidia_isr_common_bh(data);

	barrier();
	return ret;
}

NV_FN irqreturn_t nvidia_isr_msix_kthread_bh(int irq, void *data)
{
	irqreturn_t ret = nvidia_isr_common_bh(data);

	barrier();
	return ret;
}

/* static in the real driver: a kthread queue item's function (nv_state_t *). */
NV_FN void nvidia_isr_bh_unlocked(void *args)
{
	barrier();
}

/* One interrupt: the top half with interrupts off, its bottom half in a worker. */
struct irq_req {
	struct work_struct work;
	nv_linux_state_t *nvl;
	int irq;
	bool msix, bh, unlocked;
	unsigned int delay_us;
};

static void bh_work(struct work_struct *w)
{
	struct irq_req *r = container_of(w, struct irq_req, work);

	if (r->delay_us)
		usleep_range(r->delay_us, r->delay_us + 10);
	if (r->unlocked)
		nvidia_isr_bh_unlocked(&r->nvl->nv_state);
	else if (r->msix)
		nvidia_isr_msix_kthread_bh(r->irq, &r->nvl->nv_state);
	else
		nvidia_isr_kthread_bh(r->irq, &r->nvl->nv_state);
}

static void fire_irq(struct irq_req *r)
{
	unsigned long flags;
	irqreturn_t ret;

	local_irq_save(flags);
	ret = r->msix ? nvidia_isr_msix(r->irq, r->nvl) : nvidia_isr(r->irq, r->nvl);
	local_irq_restore(flags);
	if (ret == IRQ_WAKE_THREAD && (r->bh || r->unlocked)) {
		INIT_WORK(&r->work, bh_work);
		queue_work(bh_wq, &r->work);
		flush_work(&r->work);
	}
}

/* ---- p2p (nv-p2p.h; exported by the real driver) ---------------------------------- */

static struct nvidia_p2p_page_table *new_page_table(u64 length, u32 page_size)
{
	struct nvidia_p2p_page_table *pt = kzalloc(sizeof(*pt), GFP_KERNEL);

	if (!pt)
		return NULL;
	pt->version = NVIDIA_P2P_PAGE_TABLE_VERSION;
	pt->page_size = page_size;
	pt->entries = length >> (page_size == 1 ? 16 : page_size == 2 ? 17 : 12);
	return pt;
}

/* The mock's page size for the next get_pages (the real one is the GPU's). */
static u32 next_page_size = NVIDIA_P2P_PAGE_SIZE_64KB;

NV_FN int nvidia_p2p_get_pages(u64 p2p_token, u32 va_space, u64 virtual_address, u64 length,
				  struct nvidia_p2p_page_table **page_table,
				  void (*free_callback)(void *data), void *data)
{
	/* Length and address: multiples of 64 KiB, as the real one wants. */
	if (!length || (length & 0xffff) || (virtual_address & 0xffff) || !page_table)
		return -EINVAL;
	*page_table = new_page_table(length, next_page_size);
	return *page_table ? 0 : -ENOMEM;
}
EXPORT_SYMBOL(nvidia_p2p_get_pages);

NV_FN int nvidia_p2p_get_pages_persistent(u64 virtual_address, u64 length,
					     struct nvidia_p2p_page_table **page_table, u32 flags)
{
	if (!length || (length & 0xffff) || (virtual_address & 0xffff) || !page_table)
		return -EINVAL;
	*page_table = new_page_table(length, next_page_size);
	return *page_table ? 0 : -ENOMEM;
}
EXPORT_SYMBOL(nvidia_p2p_get_pages_persistent);

NV_FN int nvidia_p2p_put_pages(u64 p2p_token, u32 va_space, u64 virtual_address,
				  struct nvidia_p2p_page_table *page_table)
{
	if (!page_table)
		return -EINVAL;
	kfree(page_table);
	return 0;
}
EXPORT_SYMBOL(nvidia_p2p_put_pages);

NV_FN int nvidia_p2p_put_pages_persistent(u64 virtual_address,
					     struct nvidia_p2p_page_table *page_table, u32 flags)
{
	if (!page_table)
		return -EINVAL;
	kfree(page_table);
	return 0;
}
EXPORT_SYMBOL(nvidia_p2p_put_pages_persistent);

NV_FN int nvidia_p2p_dma_map_pages(struct pci_dev *peer, struct nvidia_p2p_page_table *page_table,
				      struct nvidia_p2p_dma_mapping **dma_mapping)
{
	struct nvidia_p2p_dma_mapping *m;

	if (!page_table || !dma_mapping)
		return -EINVAL;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	m->version = NVIDIA_P2P_DMA_MAPPING_VERSION;
	m->page_size_type = page_table->page_size;
	m->entries = page_table->entries;
	m->pci_dev = peer;
	*dma_mapping = m;
	return 0;
}
EXPORT_SYMBOL(nvidia_p2p_dma_map_pages);

NV_FN int nvidia_p2p_dma_unmap_pages(struct pci_dev *peer, struct nvidia_p2p_page_table *page_table,
					struct nvidia_p2p_dma_mapping *dma_mapping)
{
	if (!page_table || !dma_mapping)
		return -EINVAL;
	kfree(dma_mapping);
	return 0;
}
EXPORT_SYMBOL(nvidia_p2p_dma_unmap_pages);

/* The tables and mappings the control file holds between its commands. */
#define MAX_TABLES 64
static struct {
	struct nvidia_p2p_page_table *pt;
	struct nvidia_p2p_dma_mapping *map;
	u64 va;
	bool persistent;
} tables[MAX_TABLES];
static DEFINE_MUTEX(lock);

/* ---- the control file -------------------------------------------------------------- */

#define XID_FMT "NVRM: Xid (PCI:%04x:%02x:%02x): %d, pid=%s, name=%s, %s\n"
#define XID_FMT_GI "NVRM: Xid (PCI:%04x:%02x:%02x GPU-I:%02u): %d, pid=%s, name=%s, %s\n"
#define XID_FMT_CI "NVRM: Xid (PCI:%04x:%02x:%02x GPU-I:%02u GPU-CI:%02u): %d, pid=%s, name=%s, %s\n"

struct cmd {
	char verb[16];
	unsigned int n, dev, irq, msix, bh, unlocked, delay_us, persistent, page, mig, xid;
	u64 length;
	char pid[24], name[24], msg[64];
};

static int parse(char *line, struct cmd *c)
{
	char *tok, *val;
	int err = 0;

	memset(c, 0, sizeof(*c));
	c->n = 1;
	c->irq = 16;
	strscpy(c->msg, "mock", sizeof(c->msg));
	strscpy(c->pid, "'<unknown>'", sizeof(c->pid));
	strscpy(c->name, "'<unknown>'", sizeof(c->name));
	line = strim(line);
	tok = strsep(&line, " ");
	if (!tok || !*tok)
		return -EINVAL;
	strscpy(c->verb, tok, sizeof(c->verb));
	while (!err && line && (tok = strsep(&line, " "))) {
		if (!*tok)
			continue;
		val = strchr(tok, '=');
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		if (!strcmp(tok, "msg")) {	/* the rest of the line */
			if (line)
				val[strlen(val)] = ' ';
			strscpy(c->msg, val, sizeof(c->msg));
			break;
		}
#define U(key) if (!strcmp(tok, #key)) { err = kstrtouint(val, 0, &c->key); continue; }
#define S(key) if (!strcmp(tok, #key)) { strscpy(c->key, val, sizeof(c->key)); continue; }
		U(n) U(dev) U(irq) U(msix) U(bh) U(unlocked) U(delay_us) U(persistent) U(page)
		U(mig) U(xid) S(pid) S(name)
#undef U
#undef S
		if (!strcmp(tok, "length")) {
			err = kstrtou64(val, 0, &c->length);
			continue;
		}
		return -EINVAL;
	}
	if (err)
		return err;
	if (c->dev >= NR_DEVS || c->n > 100000 || c->delay_us > 1000000 || c->page > 2 || c->mig > 2)
		return -EINVAL;
	return 0;
}

static int run(struct cmd *c)
{
	nv_linux_state_t *nvl = &devs[c->dev];
	nv_pci_info_t *pci = &nvl->nv_state.pci_info;
	unsigned int i, j;
	int err = 0;

	if (!strcmp(c->verb, "isr")) {
		struct irq_req r = { .nvl = nvl, .irq = c->irq, .msix = c->msix, .bh = c->bh,
				     .unlocked = c->unlocked, .delay_us = c->delay_us };

		for (i = 0; i < c->n; i++)
			fire_irq(&r);
	} else if (!strcmp(c->verb, "p2p_get")) {
		next_page_size = c->page;
		for (i = 0, j = 0; i < c->n; i++) {
			while (j < MAX_TABLES && tables[j].pt)
				j++;
			if (j == MAX_TABLES)
				return -ENOSPC;
			tables[j].va = 0x100000000ULL + (u64)j * 0x10000000ULL;
			tables[j].persistent = c->persistent;
			err = c->persistent ?
				nvidia_p2p_get_pages_persistent(tables[j].va, c->length, &tables[j].pt, 0) :
				nvidia_p2p_get_pages(0x1234, 0, tables[j].va, c->length, &tables[j].pt,
						     NULL, NULL);
			if (err)
				tables[j].pt = NULL;
		}
		err = 0;	/* failures are asked for (length=0): nvdrv counts them */
	} else if (!strcmp(c->verb, "p2p_dma_map")) {
		for (j = 0; j < MAX_TABLES; j++)
			if (tables[j].pt && !tables[j].map)
				nvidia_p2p_dma_map_pages(NULL, tables[j].pt, &tables[j].map);
	} else if (!strcmp(c->verb, "p2p_dma_unmap")) {
		for (j = 0; j < MAX_TABLES; j++)
			if (tables[j].map) {
				nvidia_p2p_dma_unmap_pages(NULL, tables[j].pt, tables[j].map);
				tables[j].map = NULL;
			}
	} else if (!strcmp(c->verb, "p2p_put")) {
		for (j = 0; j < MAX_TABLES; j++) {
			if (!tables[j].pt)
				continue;
			if (tables[j].map)
				nvidia_p2p_dma_unmap_pages(NULL, tables[j].pt, tables[j].map);
			if (tables[j].persistent)
				nvidia_p2p_put_pages_persistent(tables[j].va, tables[j].pt, 0);
			else
				nvidia_p2p_put_pages(0x1234, 0, tables[j].va, tables[j].pt);
			tables[j].pt = NULL;
			tables[j].map = NULL;
		}
	} else if (!strcmp(c->verb, "xid")) {
		/* krcReportXid: the line, then the same Xid to nv_log_error. */
		for (i = 0; i < c->n; i++) {
			if (c->mig == 2)
				nv_printf(0xFFFFFFFF, XID_FMT_CI, pci->domain, pci->bus, pci->slot, 1, 2,
					  c->xid, c->pid, c->name, c->msg);
			else if (c->mig == 1)
				nv_printf(0xFFFFFFFF, XID_FMT_GI, pci->domain, pci->bus, pci->slot, 1,
					  c->xid, c->pid, c->name, c->msg);
			else
				nv_printf(0xFFFFFFFF, XID_FMT, pci->domain, pci->bus, pci->slot, c->xid,
					  c->pid, c->name, c->msg);
			log_error(&nvl->nv_state, c->xid, "%s", c->msg);
		}
	} else if (!strcmp(c->verb, "log_error")) {
		for (i = 0; i < c->n; i++)
			log_error(&nvl->nv_state, c->xid, "%s", c->msg);
	} else if (!strcmp(c->verb, "print")) {
		/* What runs on every ioctl: not an Xid. */
		for (i = 0; i < c->n; i++)
			nv_printf(NV_DBG_ERRORS, "NVRM: mock message %u\n", i);
	} else {
		err = -EINVAL;
	}
	return err;
}

static ssize_t nvmock_write(struct file *file, const char __user *ubuf, size_t len, loff_t *ppos)
{
	char buf[256];
	struct cmd c;
	int err;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	err = parse(buf, &c);
	if (err)
		return err;
	mutex_lock(&lock);
	err = run(&c);
	mutex_unlock(&lock);
	return err ? err : len;
}

/* ---- mappings: nv-mmap.c's names ---------------------------------------------- */

#define NV_MAJOR 195
static atomic_t vma_opens, vma_releases;

/* Copies of a mapping (fork, split, mremap): the real one counts its users. */
static NV_FN void nvidia_vma_open(struct vm_area_struct *vma)
{
	atomic_inc(&vma_opens);
}

static NV_FN void nvidia_vma_release(struct vm_area_struct *vma)
{
	atomic_inc(&vma_releases);
}

static const struct vm_operations_struct nv_vm_ops = {
	.open = nvidia_vma_open,
	.close = nvidia_vma_release,
};

NV_FN int nvidia_mmap(struct file *file, struct vm_area_struct *vma)
{
	if (vma->vm_pgoff)
		return -EINVAL;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	vm_flags_set(vma, VM_IO | VM_DONTEXPAND | VM_DONTDUMP);
#else
	vma->vm_flags |= VM_IO | VM_DONTEXPAND | VM_DONTDUMP;
#endif
	vma->vm_ops = &nv_vm_ops;
	return 0;
}

/* ---- the resource manager's allocations (nvos.h, nv_escape.h, class headers) ---- */

/*
 * NVOS21_PARAMETERS and NVOS64_PARAMETERS (RM_ALLOC), NVOS00_PARAMETERS
 * (RM_FREE), and the allocation parameters of the memory classes, at the
 * offsets of 535 and 550 (nvos.h; nvdrv reads them at those offsets).
 */
#define NV_ESC_RM_FREE		0x29
#define NV_ESC_RM_ALLOC		0x2b
#define NV_OK			0
#define NV_ERR_INVALID_ARGUMENT	0x1f

struct nvos21 {
	u32 hRoot, hObjectParent, hObjectNew, hClass;
	u64 pAllocParms;
	u32 paramsSize, status;
};
struct nvos64 {
	u32 hRoot, hObjectParent, hObjectNew, hClass;
	u64 pAllocParms, pRightsRequested;
	u32 paramsSize, flags, status;
};
struct nvos00 {
	u32 hRoot, hObjectParent, hObjectOld, status;
};
/* NV_MEMORY_ALLOCATION_PARAMS up to size (NV01_MEMORY_SYSTEM, _LOCAL_USER, NV50_MEMORY_VIRTUAL) */
struct nv_memory_allocation_params {
	u32 owner, type, flags, width, height;
	s32 pitch;
	u32 attr, attr2, format, comprCovg, zcullCovg;
	u64 rangeLo __aligned(8), rangeHi __aligned(8), size __aligned(8);
};
/* NV_OS_DESC_MEMORY_ALLOCATION_PARAMS up to limit (NV01_MEMORY_SYSTEM_OS_DESCRIPTOR) */
struct nv_os_desc_memory_allocation_params {
	u32 type, flags, attr, attr2;
	u64 descriptor __aligned(8), limit __aligned(8);
};

static_assert(offsetof(struct nvos21, status) == 28 && sizeof(struct nvos21) == 32);
static_assert(offsetof(struct nvos64, status) == 40 && sizeof(struct nvos64) == 48);
static_assert(offsetof(struct nvos00, status) == 12 && sizeof(struct nvos00) == 16);
static_assert(offsetof(struct nv_memory_allocation_params, size) == 64);
static_assert(offsetof(struct nv_os_desc_memory_allocation_params, limit) == 24);

static atomic_t next_client = ATOMIC_INIT(0);

/*
 * What the RM would answer, without keeping anything: a client gets a
 * handle when it asks for none; a memory object of size 0 is refused
 * (NV_ERR_INVALID_ARGUMENT); the memory classes' sizes are rounded up to
 * 4 KiB and written back, as the RM writes the size it allocated; every
 * other object and every free succeeds.
 */
static u32 rm_alloc(u32 cls, u32 *handle, u64 params)
{
	void __user *p = u64_to_user_ptr(params);
	u64 size;

	switch (cls) {
	case 0x0000: case 0x0001: case 0x0041:	/* NV01_ROOT, _NON_PRIV, _CLIENT */
		if (!*handle)
			*handle = 0xc1d00000 + atomic_inc_return(&next_client);
		return NV_OK;
	case 0x003e: case 0x0040: case 0x50a0: {	/* the NV_MEMORY_ALLOCATION_PARAMS classes */
		struct nv_memory_allocation_params a;

		if (copy_from_user(&a, p, sizeof(a)))
			return NV_ERR_INVALID_ARGUMENT;
		if (!a.size)
			return NV_ERR_INVALID_ARGUMENT;
		size = round_up(a.size, 4096);
		if (copy_to_user(p + offsetof(typeof(a), size), &size, sizeof(size)))
			return NV_ERR_INVALID_ARGUMENT;
		return NV_OK;
	}
	case 0x0071: {				/* NV01_MEMORY_SYSTEM_OS_DESCRIPTOR */
		struct nv_os_desc_memory_allocation_params d;

		if (copy_from_user(&d, p, sizeof(d)) || d.limit == ~0ULL)
			return NV_ERR_INVALID_ARGUMENT;
		return NV_OK;
	}
	}
	return NV_OK;
}

/* nvidia_unlocked_ioctl (550's name): RM_ALLOC and RM_FREE with the real blocks. */
NV_FN long nvidia_unlocked_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *p = (void __user *)arg;
	union { struct nvos21 a21; struct nvos64 a64; struct nvos00 f; } b;
	u32 size = _IOC_SIZE(cmd);

	switch (_IOC_NR(cmd)) {
	case NV_ESC_RM_ALLOC:
		if (size != sizeof(b.a21) && size != sizeof(b.a64))
			return -EINVAL;
		if (copy_from_user(&b, p, size))
			return -EFAULT;
		if (size == sizeof(b.a21))
			b.a21.status = rm_alloc(b.a21.hClass, &b.a21.hObjectNew, b.a21.pAllocParms);
		else
			b.a64.status = rm_alloc(b.a64.hClass, &b.a64.hObjectNew, b.a64.pAllocParms);
		break;
	case NV_ESC_RM_FREE:
		if (size != sizeof(b.f))
			return -EINVAL;
		if (copy_from_user(&b, p, size))
			return -EFAULT;
		b.f.status = NV_OK;
		break;
	default:
		return -EINVAL;
	}
	return copy_to_user(p, &b, size) ? -EFAULT : 0;
}

/* nvidia_close (550's name): the RM frees the file's clients; here nothing is kept. */
NV_FN int nvidia_close(struct inode *inode, struct file *file)
{
	return 0;
}

static const struct file_operations nv_fops = {
	.owner = THIS_MODULE,
	.mmap = nvidia_mmap,
	.unlocked_ioctl = nvidia_unlocked_ioctl,
	.release = nvidia_close,
};

static const struct proc_ops nvmock_ops = {
	.proc_write = nvmock_write,
};

static struct proc_dir_entry *nvmock_proc;

static int __init nvmock_init(void)
{
	name_pdevs();
	bh_wq = alloc_workqueue("nvmock_bh", WQ_UNBOUND | WQ_HIGHPRI, 1);
	if (!bh_wq)
		return -ENOMEM;
	nvmock_proc = proc_create("nvmock", 0200, NULL, &nvmock_ops);
	if (!nvmock_proc) {
		destroy_workqueue(bh_wq);
		return -ENOMEM;
	}
	if (register_chrdev(NV_MAJOR, "nvidia-frontend", &nv_fops) < 0) {
		proc_remove(nvmock_proc);
		destroy_workqueue(bh_wq);
		return -EBUSY;
	}
	return 0;
}

static void __exit nvmock_exit(void)
{
	struct cmd c = { .verb = "p2p_put" };

	unregister_chrdev(NV_MAJOR, "nvidia-frontend");
	proc_remove(nvmock_proc);
	mutex_lock(&lock);
	run(&c);
	mutex_unlock(&lock);
	destroy_workqueue(bh_wq);
}

module_init(nvmock_init);
module_exit(nvmock_exit);
MODULE_VERSION(NVMOCK_VERSION);
MODULE_DESCRIPTION("NVIDIA driver mock (interrupts, p2p, Xids) for gpu-bpf-tools tests");
MODULE_LICENSE("GPL");
