// SPDX-License-Identifier: GPL-2.0
/*
 * The regbench module: /dev/regbench, through which regbench times
 * the kernel's own accessors (readl, memcpy_toio, inl, ...) on a PCI BAR it
 * names.  The module binds to no device: each open file selects one device,
 * BAR and window, checked whole before the first access, and holds the
 * device's reference and mapping until it selects another or is closed.
 * Nothing is written outside the write window the caller gives.  An open
 * file holds the module (fops.owner), so rmmod waits for no lock: it is
 * refused while a run is open, and works once the file is closed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <generated/utsrelease.h>

#include "kmod.h"

#ifndef REGBENCH_VERSION
#define REGBENCH_VERSION "unknown"
#endif

/* What one open file measures. */
struct rbk_session {
	struct mutex lock;		/* one ioctl at a time on this file */
	struct pci_dev *pdev;		/* NULL until SELECT */
	void __iomem *cookie;		/* the window, from pci_iomap_range or pci_iomap_wc_range */
	unsigned long port;		/* an I/O BAR's window: its first port */
	u64 len;			/* the window's bytes or ports */
	u64 write_off, write_len;	/* where writes may go in the window; len 0: nowhere */
	u32 widths;			/* access widths allowed, as bytes */
	u32 space, mapping;
	u64 *samples;			/* REGBENCH_MAX_SAMPLES, for sampled benchmarks */
	void *buf;			/* a _rep's elements or a copy's bytes */
	size_t buflen;
};

/*
 * Copies the struct at the ioctl's argument into k (ksize bytes): its first
 * field is its size as the caller knows it, which may be larger when the
 * extra bytes are zero (copy_struct_from_user), never smaller; then the ABI.
 */
static int copy_in(void *k, size_t ksize, unsigned long arg)
{
	u32 __user *u = (u32 __user *)arg;
	u32 usize, abi;
	int err;

	if (get_user(usize, u))
		return -EFAULT;
	if (usize < ksize || usize > PAGE_SIZE)
		return -EINVAL;
	err = copy_struct_from_user(k, ksize, u, usize);
	if (err)
		return err;
	abi = ((u32 *)k)[1];
	return abi == REGBENCH_ABI ? 0 : -EPROTO;
}

static void unselect(struct rbk_session *s)
{
	if (s->cookie)
		pci_iounmap(s->pdev, s->cookie);
	pci_dev_put(s->pdev);
	s->cookie = NULL;
	s->pdev = NULL;
}

static long do_info(unsigned long arg)
{
	struct regbench_info info;
	u32 usize;

	if (get_user(usize, (u32 __user *)arg))
		return -EFAULT;
	if (usize < sizeof(info) || usize > PAGE_SIZE)
		return -EINVAL;
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	info.abi = REGBENCH_ABI;
	info.benchmarks = rbk_nr_benchmarks;
	info.fingerprint = rbk_fingerprint();
	info.timers = rbk_timers();
	info.tick_hz = rbk_tick_hz();
	strscpy(info.version, REGBENCH_VERSION, sizeof(info.version));
	strscpy(info.kernel, UTS_RELEASE, sizeof(info.kernel));
	return copy_to_user((void __user *)arg, &info, sizeof(info)) ? -EFAULT : 0;
}

/* The window's BAR: memory or ports, present and decoded; 0 or an errno. */
static int check_bar(struct pci_dev *pdev, const struct regbench_select *q, u32 *space)
{
	unsigned long flags = pci_resource_flags(pdev, q->bar);
	u64 barlen = pci_resource_len(pdev, q->bar);
	u16 cmd;

	if (!barlen || (flags & (IORESOURCE_UNSET | IORESOURCE_DISABLED)))
		return -ENXIO;
	if (flags & IORESOURCE_MEM)
		*space = REGBENCH_SPACE_MMIO;
	else if (IS_ENABLED(CONFIG_X86_64) && (flags & IORESOURCE_IO))
		*space = REGBENCH_SPACE_PIO;
	else
		return -EOPNOTSUPP;
	if ((q->flags & REGBENCH_SELECT_WC) &&
	    (*space != REGBENCH_SPACE_MMIO || !(flags & IORESOURCE_PREFETCH)))
		return -EINVAL;
	if (q->off >= barlen || q->len > barlen - q->off)
		return -EINVAL;
	/* the device must decode the BAR's space already: the module never enables a device */
	pci_read_config_word(pdev, PCI_COMMAND, &cmd);
	if (!(cmd & (*space == REGBENCH_SPACE_MMIO ? PCI_COMMAND_MEMORY : PCI_COMMAND_IO)))
		return -EIO;
	return 0;
}

static long do_select(struct rbk_session *s, unsigned long arg)
{
	struct regbench_select q;
	struct pci_dev *pdev;
	void __iomem *cookie;
	u32 space;
	int err;

	err = copy_in(&q, sizeof(q), arg);
	if (err)
		return err;
	if (q.flags & ~(REGBENCH_SELECT_WC | REGBENCH_SELECT_FORCE) || q.bar >= PCI_STD_NUM_BARS ||
	    (q.widths & ~0xfu) || q.domain > 0xffff || q.bus > 0xff || q.devfn > 0xff ||
	    q.space || q.mapping || !q.len)
		return -EINVAL;
	if (q.write_len && (q.write_off < q.off || q.write_off - q.off > q.len ||
			    q.write_len > q.len - (q.write_off - q.off)))
		return -EINVAL;

	pdev = pci_get_domain_bus_and_slot(q.domain, q.bus, q.devfn);
	if (!pdev)
		return -ENODEV;
	err = -ENODEV;
	if (pdev->vendor != q.vendor || pdev->device != q.device)
		goto put;
	/* a bound driver owns the device's registers: measuring beside it needs the caller's say */
	err = -EBUSY;
	if (READ_ONCE(pdev->dev.driver) && !(q.flags & REGBENCH_SELECT_FORCE))
		goto put;
	err = check_bar(pdev, &q, &space);
	if (err)
		goto put;
	err = -ENOMEM;
	if (q.flags & REGBENCH_SELECT_WC)
		cookie = pci_iomap_wc_range(pdev, q.bar, q.off, q.len);
	else
		cookie = pci_iomap_range(pdev, q.bar, q.off, q.len);
	if (!cookie)
		goto put;

	unselect(s);
	s->pdev = pdev;
	s->cookie = cookie;
	if (space == REGBENCH_SPACE_PIO)
		s->port = (unsigned long)(pci_resource_start(pdev, q.bar) + q.off);
	else
		s->port = 0;
	s->len = q.len;
	s->write_off = q.write_len ? q.write_off - q.off : 0;
	s->write_len = q.write_len;
	s->widths = q.widths ? q.widths : 0xf;
	s->space = space;
	s->mapping = space == REGBENCH_SPACE_PIO ? REGBENCH_MAP_PORT :
		     (q.flags & REGBENCH_SELECT_WC) ? REGBENCH_MAP_WC : REGBENCH_MAP_UC;
	q.space = s->space;
	q.mapping = s->mapping;
	return copy_to_user((void __user *)arg, &q, sizeof(q)) ? -EFAULT : 0;
put:
	pci_dev_put(pdev);
	return err;
}

/* Whether bytes [off, off + n) lie in the window, and for writes in the write window. */
static bool inside(const struct rbk_session *s, u64 off, u64 n, bool writes)
{
	if (off > s->len || n > s->len - off)
		return false;
	if (!writes)
		return true;
	return s->write_len && off >= s->write_off && off - s->write_off <= s->write_len &&
	       n <= s->write_len - (off - s->write_off);
}

static long do_read(struct rbk_session *s, unsigned long arg)
{
	struct regbench_read q;
	unsigned long port;
	void __iomem *at;
	int err;

	err = copy_in(&q, sizeof(q), arg);
	if (err)
		return err;
	if (!s->pdev)
		return -ENXIO;
	if (q.pad || q.value || !is_power_of_2(q.bytes) || q.bytes > 8 || !(s->widths & q.bytes) ||
	    (s->space == REGBENCH_SPACE_PIO && q.bytes == 8) || q.off % q.bytes ||
	    !inside(s, q.off, q.bytes, false))
		return -EINVAL;
	at = s->cookie + q.off;
	port = s->port + q.off;
	switch (q.bytes) {
	case 1:
		q.value = s->space == REGBENCH_SPACE_PIO ? inb(port) : readb(at);
		break;
	case 2:
		q.value = s->space == REGBENCH_SPACE_PIO ? inw(port) : readw(at);
		break;
	case 4:
		q.value = s->space == REGBENCH_SPACE_PIO ? inl(port) : readl(at);
		break;
	default:
		q.value = readq(at);
	}
	return copy_to_user((void __user *)arg, &q, sizeof(q)) ? -EFAULT : 0;
}

/* The kernel buffer a _rep or copy of need bytes works on, grown as needed: 0 or -ENOMEM. */
static int buffer(struct rbk_session *s, size_t need)
{
	void *buf;

	if (need <= s->buflen)
		return 0;
	buf = kvmalloc(need, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	/* what _rep writes and copies store: regbench's user-space code stores the same */
	memset(buf, 0x3c, need);
	kvfree(s->buf);
	s->buf = buf;
	s->buflen = need;
	return 0;
}

/* Whether the flags, place, iters and n of a RUN are ones benchmark b takes: 0 or an errno. */
static int check_run(const struct rbk_session *s, const struct rbk_benchmark *b,
		     const struct regbench_run *q)
{
	unsigned int shape_flags = b->shape == RBK_CHAIN ? REGBENCH_RUN_TWICE | REGBENCH_RUN_BASE :
				   b->shape == RBK_UNROLLED ? REGBENCH_RUN_TWICE :
				   b->shape == RBK_SAMPLED ? REGBENCH_RUN_BASE : 0;
	u64 extent = b->shape == RBK_BATCH_COPY ? q->n : b->bytes;
	u64 align = b->word ? b->word : b->bytes ? b->bytes : 1;

	if (q->flags & ~(shape_flags | REGBENCH_RUN_RDTSCP))
		return -EINVAL;
	if (b->space != s->space || (b->bytes && !(s->widths & b->bytes)))
		return -EINVAL;
	if ((b->shape == RBK_BATCH_REP || b->shape == RBK_BATCH_COPY) ? !q->n : q->n)
		return -EINVAL;
	if (b->shape == RBK_SAMPLED && (!q->samples || q->iters > REGBENCH_MAX_SAMPLES))
		return -EINVAL;
	if (b->shape != RBK_SAMPLED && (q->samples || q->dither_seed || q->dither_range))
		return -EINVAL;
	if (b->word && q->n % b->word)
		return -EINVAL;
	if (b->at_register && (q->off % align || !inside(s, q->off, extent, b->writes)))
		return -EINVAL;
	if (!b->at_register && q->off)
		return -EINVAL;
	if (q->iters > REGBENCH_MAX_UNITS / max_t(u64, 1, rbk_units(b, q->n, q->flags)))
		return -E2BIG;
	return 0;
}

static long do_run(struct rbk_session *s, unsigned long arg)
{
	struct regbench_run q;
	const struct rbk_benchmark *b = NULL;
	struct rbk_args a = { .zero = 0 };
	bool irqs_off;
	int err;

	err = copy_in(&q, sizeof(q), arg);
	if (err)
		return err;
	if (q.pad || q.pad2 || q.ticks || q.irqs_off || !q.iters)
		return -EINVAL;
	if (q.dither_range > REGBENCH_MAX_DITHER)
		return -EINVAL;
	if ((q.flags & REGBENCH_RUN_RDTSCP) && !(rbk_timers() & REGBENCH_TIMER_RDTSCP))
		return -EOPNOTSUPP;
	if (q.flags & REGBENCH_RUN_EMPTY) {
		/* the timer alone touches nothing: it needs no device */
		if ((q.flags & ~(REGBENCH_RUN_EMPTY | REGBENCH_RUN_RDTSCP)) || q.benchmark ||
		    q.off || q.n || !q.samples || q.iters > REGBENCH_MAX_SAMPLES)
			return -EINVAL;
	} else {
		if (!s->pdev)
			return -ENXIO;
		if (q.benchmark >= rbk_nr_benchmarks)
			return -EINVAL;
		b = &rbk_benchmarks[q.benchmark];
		err = check_run(s, b, &q);
		if (err)
			return err;
		if (b->shape == RBK_BATCH_REP || b->shape == RBK_BATCH_COPY) {
			size_t need;

			if (check_mul_overflow((size_t)q.n, (size_t)max(b->bytes, 1u), &need) ||
			    need > REGBENCH_MAX_BUFFER)
				return -E2BIG;
			err = buffer(s, need);
			if (err)
				return err;
		}
		a.io = s->cookie + q.off;
		a.port = s->port + q.off;
	}
	a.buf = s->buf;
	a.samples = s->samples;
	a.n = q.n;
	a.value = q.value;
	a.dither = &q.dither_seed;
	a.dither_range = q.dither_range;
	err = rbk_run(b, &a, q.iters, q.flags, &q.ticks, &irqs_off);
	if (err)
		return err;
	if (q.samples &&
	    copy_to_user(u64_to_user_ptr(q.samples), s->samples, q.iters * sizeof(u64)))
		return -EFAULT;
	q.irqs_off = irqs_off;
	return copy_to_user((void __user *)arg, &q, sizeof(q)) ? -EFAULT : 0;
}

static long rbk_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct rbk_session *s = file->private_data;
	long ret;

	if (_IOC_TYPE(cmd) != REGBENCH_IOC_MAGIC)
		return -ENOTTY;
	if (_IOC_NR(cmd) == _IOC_NR(REGBENCH_IOC_INFO))
		return do_info(arg);
	mutex_lock(&s->lock);
	switch (_IOC_NR(cmd)) {
	case _IOC_NR(REGBENCH_IOC_SELECT):
		ret = do_select(s, arg);
		break;
	case _IOC_NR(REGBENCH_IOC_READ):
		ret = do_read(s, arg);
		break;
	case _IOC_NR(REGBENCH_IOC_RUN):
		ret = do_run(s, arg);
		break;
	default:
		ret = -ENOTTY;
	}
	mutex_unlock(&s->lock);
	return ret;
}

static int rbk_open(struct inode *inode, struct file *file)
{
	struct rbk_session *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return -ENOMEM;
	s->samples = kvmalloc_array(REGBENCH_MAX_SAMPLES, sizeof(u64), GFP_KERNEL);
	if (!s->samples) {
		kfree(s);
		return -ENOMEM;
	}
	mutex_init(&s->lock);
	file->private_data = s;
	return nonseekable_open(inode, file);
}

static int rbk_release(struct inode *inode, struct file *file)
{
	struct rbk_session *s = file->private_data;

	unselect(s);
	kvfree(s->buf);
	kvfree(s->samples);
	mutex_destroy(&s->lock);
	kfree(s);
	return 0;
}

static const struct file_operations rbk_fops = {
	.owner = THIS_MODULE,
	.open = rbk_open,
	.release = rbk_release,
	.unlocked_ioctl = rbk_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = no_llseek,
};

static struct miscdevice rbk_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "regbench",
	.fops = &rbk_fops,
	.mode = 0600,
};

module_misc_device(rbk_misc);

MODULE_DESCRIPTION("regbench: the kernel's own MMIO and port accessors, timed on a PCI BAR user space names");
MODULE_LICENSE("GPL");
MODULE_VERSION(REGBENCH_VERSION);
