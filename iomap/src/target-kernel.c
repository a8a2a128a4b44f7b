/* target-kernel.c: a PCI BAR measured in the kernel by the regbench module (bench/kmod), through /dev/regbench */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "backends.h"
#include "iomap/io.h"
#include "iomap/strategies.h"
#include "../../bench/kmod/include/uapi/regbench.h"

/* The module reaches I/O BARs with the kernel's inX/outX where the architecture has port instructions. */
#ifdef IOMAP_HAVE_PORT_IO
#define PORT_BARS true
#define WHICH_BARS "memory and I/O BARs"
#else
#define PORT_BARS false
#define WHICH_BARS "memory BARs"
#endif

/*
 * Nothing is mapped in this process: the module maps the window with
 * pci_iomap (or pci_iomap_wc) and runs each access with the kernel's own
 * accessors.  So base stays NULL; the target's reads go through the module
 * (READ), and regbench runs its benchmarks there (iomap_target_kernel_fd).
 * The device is found with libpci as for pci:, so that a selector, a BAR
 * and a window mean the same and are refused with the same words; the
 * module checks them again, as it must for any caller.
 */
struct kernel_config {
	struct iomap_bar_spec bar;
	bool wc;
};

struct kernel_state {
	int fd;
	struct iomap_pci_dev *dev;
};

/* The module's lines as this program knows them: the fingerprint the loaded module must have. */
#define REGBENCH_BENCHMARK REGBENCH_IDENTITY
static const struct regbench_identity lines[] = {
#include "../../bench/kmod/include/uapi/regbench-benchmarks.h"
};
#undef REGBENCH_BENCHMARK

static unsigned int fingerprint(void)
{
	unsigned int hash = REGBENCH_FNV1A_START;

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		hash = regbench_fingerprint(hash, &lines[i]);
	return hash;
}

static int kernel_parse(void *config, const char *args, char *why, size_t whylen)
{
	struct kernel_config *c = config;

	return iomap_bar_spec_parse(&c->bar, "kernel", "wc", &c->wc, "", args, why, whylen);
}

static void kernel_format(const void *config, char *out, size_t outlen)
{
	const struct kernel_config *c = config;

	iomap_bar_spec_format(&c->bar, "kernel", c->wc ? "wc" : NULL, out, outlen);
}

/*
 * /dev/regbench opened and the module asked what it is: the fd, or -1 with
 * the reason (not loaded, not root, from another regbench).
 */
static int open_module(struct regbench_info *info, char *why, size_t whylen)
{
	int fd = open(REGBENCH_DEVICE, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		if (errno == EACCES || errno == EPERM)
			return iomap_fail(why, whylen, errno, "%s: permission denied (run as root)", REGBENCH_DEVICE);
		if (errno == ENOENT && !access("/sys/module/regbench", F_OK))
			return iomap_fail(why, whylen, ENOENT, "the regbench module is loaded but %s is missing "
					  "(is devtmpfs mounted on /dev?)", REGBENCH_DEVICE);
		return iomap_fail(why, whylen, ENOENT, "the regbench kernel module is not loaded (%s is missing: "
				  "insmod regbench.ko)", REGBENCH_DEVICE);
	}
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	if (ioctl(fd, REGBENCH_IOC_INFO, info)) {
		int e = errno;

		close(fd);
		return iomap_fail(why, whylen, e, "%s does not answer as the regbench module does (%s)",
				  REGBENCH_DEVICE, strerror(e));
	}
	if (info->abi != REGBENCH_ABI || info->fingerprint != fingerprint() ||
	    info->benchmarks != sizeof(lines) / sizeof(lines[0])) {
		close(fd);
		return iomap_fail(why, whylen, EPROTO, "the loaded regbench module (regbench %.31s, built for "
				  "kernel %.63s) has other benchmarks than this regbench (rmmod regbench, then "
				  "insmod the regbench.ko built with this regbench)", info->version, info->kernel);
	}
	return fd;
}

static int kernel_probe(char *why, size_t whylen)
{
	struct regbench_info info;
	int fd = open_module(&info, why, whylen);

	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static void kernel_describe(FILE *out)
{
	struct regbench_info info;
	char why[300];
	int fd = open_module(&info, why, sizeof(why));

	if (fd < 0)
		return;
	close(fd);
	fprintf(out, "      module: regbench %s, built for kernel %s, %u benchmarks, on the %s of pci:'s "
		"devices\n", info.version, info.kernel, info.benchmarks, WHICH_BARS);
}

/* What SELECT's errno means, for the one line (the module refuses what libpci's checks let through). */
static const char *select_refusal(int e)
{
	switch (e) {
	case ENODEV: return "the module finds no such device in that slot";
	case EBUSY: return "a driver is bound to it";
	case ENXIO: return "the module sees no such BAR";
	case EOPNOTSUPP: return "the module measures memory BARs only here";
	case EIO: return "the device does not decode the BAR's space";
	case ENOMEM: return "pci_iomap could not map the window";
	default: return strerror(e);
	}
}

static int kernel_open(struct iomap_target *t, const void *config, char *why, size_t whylen)
{
	const struct kernel_config *s = config;
	const struct iomap_bar_spec *c = &s->bar;
	struct iomap_pci_dev *d = iomap_pci_get(&c->sel, t->permit.force ? IOMAP_PCI_FORCE : 0, why, whylen);
	struct regbench_select q = { .size = sizeof(q), .abi = REGBENCH_ABI };
	struct regbench_info info;
	struct kernel_state *st;
	const struct iomap_pci_bar *b;
	unsigned int domain, bus, dev, fn;
	char size[32], chosen[120];
	uint64_t len;
	int fd;

	if (!d)
		return -1;
	if (iomap_bar_spec_window(c, d, &len, why, whylen))
		goto fail;
	b = &d->bar[c->bar];
	if (s->wc && (b->io || !b->prefetch)) {
		iomap_fail(why, whylen, EINVAL, "BAR %d of %s is %s: write-combining needs a prefetchable memory BAR "
			   "(drop ,wc)", c->bar, d->slot, b->io ? "an I/O BAR" : "not prefetchable");
		goto fail;
	}
	if (b->io && !PORT_BARS) {
		iomap_fail(why, whylen, EOPNOTSUPP, "BAR %d of %s is an I/O BAR: the module measures memory BARs only "
			   "on %s (pci:%s/%d reads it through its resource file)", c->bar, d->slot, IOMAP_ARCH_NAME,
			   d->slot, c->bar);
		goto fail;
	}
	if (d->driver[0] && !t->permit.force) {
		iomap_fail(why, whylen, EBUSY, "%s is bound to driver %s (unbind it first)", d->slot, d->driver);
		goto fail;
	}
	if (iomap_pci_decoding(d->slot, b->io, why, whylen))
		goto fail;
	if (sscanf(d->slot, "%x:%x:%x.%x", &domain, &bus, &dev, &fn) != 4) {
		iomap_fail(why, whylen, EINVAL, "cannot read the slot '%s'", d->slot);
		goto fail;
	}
	fd = open_module(&info, why, whylen);
	if (fd < 0)
		goto fail;
	q.flags = (s->wc ? REGBENCH_SELECT_WC : 0) | (t->permit.force ? REGBENCH_SELECT_FORCE : 0);
	q.domain = domain;
	q.bus = bus;
	q.devfn = dev << 3 | fn;
	q.vendor = d->vendor;
	q.device = d->device;
	q.bar = (unsigned int)c->bar;
	q.widths = c->widths;
	q.off = c->off;
	q.len = len;
	q.write_off = t->permit.write_len ? t->permit.write_off : 0;
	q.write_len = t->permit.write_len;
	if (ioctl(fd, REGBENCH_IOC_SELECT, &q)) {
		int e = errno;

		close(fd);
		iomap_fail(why, whylen, e, "the regbench module refused %s BAR %d: %s", d->slot, c->bar,
			   select_refusal(e));
		goto fail;
	}
	st = malloc(sizeof(*st));
	if (!st) {
		close(fd);
		iomap_fail(why, whylen, ENOMEM, "out of memory");
		goto fail;
	}
	st->fd = fd;
	st->dev = d;
	iomap_bar_spec_target(c, d, len, t);
	t->space = b->io ? IOMAP_SPACE_PIO : IOMAP_SPACE_MMIO;
	t->mapping = b->io ? IOMAP_MAP_PORT : s->wc ? IOMAP_MAP_WC : IOMAP_MAP_UC;
	t->priv = st;
	iomap_pci_chosen(c, d, chosen, sizeof(chosen));
	/* a long device name is cut short: the slot, the BAR and the window come first */
	if (snprintf(t->what, sizeof(t->what), "%s%s BAR%d: %s, %s, %s in the kernel (the regbench module), "
		 "%s 0x%llx-0x%llx (%.60s)", d->slot, chosen, c->bar, iomap_pci_bar_kind(b),
		 iomap_human_size(b->size, size, sizeof(size)), b->io ? "its ports" : s->wc ? "pci_iomap_wc" : "pci_iomap",
		 b->io ? "ports" : "bytes", (unsigned long long)(b->io ? b->start + c->off : c->off),
		 (unsigned long long)((b->io ? b->start + c->off : c->off) + len - 1), d->name) >= (int)sizeof(t->what))
		t->what[sizeof(t->what) - 2] = '.';
	return 0;
fail:
	iomap_pci_put(d);
	return -1;
}

static void kernel_close(struct iomap_target *t)
{
	struct kernel_state *st = t->priv;

	close(st->fd);
	iomap_pci_put(st->dev);
	free(st);
	t->priv = NULL;
}

static int kernel_decoding(const struct iomap_target *t, char *why, size_t whylen)
{
	const struct kernel_state *st = t->priv;

	return iomap_pci_decoding(st->dev->slot, st->dev->bar[t->bar].io, why, whylen);
}

/* One read through the module (the kernel's readX or inX); all-ones when the module refuses it. */
static uint64_t kernel_read(const struct iomap_target *t, size_t off, unsigned int bytes)
{
	const struct kernel_state *st = t->priv;
	struct regbench_read q = { .size = sizeof(q), .abi = REGBENCH_ABI, .off = off, .bytes = bytes };

	if (ioctl(st->fd, REGBENCH_IOC_READ, &q))
		return ~0ull >> (64 - 8 * bytes);
	return q.value;
}

int iomap_target_kernel_fd(const struct iomap_target *t)
{
	const struct kernel_state *st = t->kind == &iomap_target_kernel ? t->priv : NULL;

	return st ? st->fd : -1;
}

const struct iomap_target_kind iomap_target_kernel = {
	.name = "kernel",
	.grammar = "kernel:[s=]SLOT/BAR | kernel:[d=]VENDOR:DEVICE[:CLASS]/BAR, then [,wc][,off=N][,len=N][,widths=W]",
	.help = "a PCI BAR measured in the kernel by the regbench module (bench/kmod): the kernel's own readl, "
		"memcpy_toio, inl ... on pci_iomap's mapping",
	.config_size = sizeof(struct kernel_config),
	.parse = kernel_parse,
	.format = kernel_format,
	.probe = kernel_probe,
	.open = kernel_open,
	.close = kernel_close,
	.decoding = kernel_decoding,
	.read = kernel_read,
	.describe = kernel_describe,
};
