/* pci-guest.c: the QEMU guest's devices through pci_iomap cookies, every strategy and the string forms */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iomap/io.h"
#include "iomap/pci.h"
#include "iomap/region.h"
#include "iomap/strategy.h"
#include "iomap/target.h"

/*
 * Runs only inside the guest of scripts/guest, where these QEMU devices are
 * (facts from QEMU's documentation and observed behaviour):
 *   edu 1234:11e8          BAR0: 0x00 reads 0x010000ed, 0x04 reads back the
 *                          inverse of what was written; 32-bit accesses only
 *                          below 0x80.  Only 0x04 is ever written here.
 *   pci-testdev 1b36:0005  BAR0 MMIO, BAR1 ports, each starting with a header:
 *                          u8 test (write: select a test), u8 width, u16 pad,
 *                          u32 offset, u32 data, u32 count, name; a write of
 *                          `data` at `offset` with `width` bytes counts.
 *   ivshmem-plain 1af4:1110  BAR2: prefetchable shared memory.
 * Usage: pci-guest             every check, "ok: ..." / "FAIL: ..." lines
 *        pci-guest peek VEN:DEV BAR OFF   one 32-bit read, printed in hex
 *        pci-guest target SPEC...  opens each target: "SPEC: device DEVICE: WHAT"
 *                              or "SPEC: error WHY", one line each
 *        pci-guest vfio SLOT   an edu bound to vfio-pci through the vfio target,
 *                              mmapped and through pread/pwrite; leaves 0x04
 *                              holding 0x0f0f0f0f (reading 0xf0f0f0f0)
 */

static int failures, passes;

static void check(int ok, const char *what, ...)
{
	va_list ap;

	printf("%s: ", ok ? "ok" : "FAIL");
	va_start(ap, what);
	vprintf(what, ap);
	va_end(ap);
	printf("\n");
	if (ok)
		passes++;
	else
		failures++;
}

static struct iomap_pci_dev *get(unsigned int ven, unsigned int dev)
{
	char why[200];
	struct iomap_pci_dev *d = iomap_pci_get_device(ven, dev, 0, why, sizeof(why));

	if (!d) {
		fprintf(stderr, "pci-guest: %s\n", why);
		exit(2);
	}
	return d;
}

static void __iomem *map(struct iomap_pci_dev *d, int bar, bool wc)
{
	void __iomem *c = wc ? pci_iomap_wc(d, bar, 0) : pci_iomap(d, bar, 0);

	if (!c) {
		fprintf(stderr, "pci-guest: pci_iomap%s(%s, %d): %s\n", wc ? "_wc" : "", d->slot, bar, d->error);
		exit(2);
	}
	return c;
}

/*
 * Every 32-bit read strategy, inline (those both architectures have) and through the strategy table
 * (with each architecture's own: locked on x86-64, acquire on arm64), and the generic cookie ioread32.
 */
static void edu_reads(void __iomem *c)
{
#define EDU_READ(s) check(iomap_read32_##s(c) == 0x010000ed, "edu: iomap_read32_" #s " of 0x00 is 0x010000ed");
	EDU_READ(ordered) EDU_READ(volatile) EDU_READ(relaxed) EDU_READ(barriered) EDU_READ(fenced)
#undef EDU_READ
	for (size_t i = 0; i < iomap_nr_strategies; i++)
		if (iomap_strategies[i].read32)
			check(iomap_strategies[i].read32(c) == 0x010000ed, "edu: strategy %s read32 of 0x00 is 0x010000ed",
			      iomap_strategies[i].name);
	check(readl(c) == 0x010000ed, "edu: readl of 0x00 is 0x010000ed");
	check(ioread32(c) == 0x010000ed, "edu: the cookie ioread32 of 0x00 is 0x010000ed");
	check(ioread32be(c) == 0xed000001, "edu: ioread32be of 0x00 is 0xed000001");
}

/* The liveness register at 0x04 returns the inverse of each value written, through every write strategy. */
static void edu_liveness(void __iomem *c)
{
	static const uint32_t values[] = { 0, 0x12345678, 0xffffffff, 0xa5a5a5a5 };
	void __iomem *live = (char __iomem *)c + 4;

	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		iowrite32(values[i], live);
		check(ioread32(live) == ~values[i], "edu: iowrite32 0x%08x to 0x04 reads back 0x%08x", values[i],
		      ~values[i]);
	}
	for (size_t i = 0; i < iomap_nr_strategies; i++) {
		const struct iomap_strategy *s = &iomap_strategies[i];
		uint32_t v = 0x01020304u * (uint32_t)(i + 1);

		if (!s->write32)
			continue;
		s->write32(v, live);
		check(s->read32(live) == ~v, "edu: strategy %s write32 then read32 of 0x04 is the inverse", s->name);
	}
}

struct testdev_test {
	unsigned int width, offset, data;
	char name[32];
};

/*
 * A BAR's header is read through the cookie (ioread8/ioread32), or where the cookie is a region's
 * (an I/O BAR without I/O instructions: its sysfs resource file) through the region's pread.
 */
static uint32_t rd(void __iomem *c, bool region, size_t off, unsigned int bytes)
{
	char __iomem *p = (char __iomem *)c + off;

	if (region)
		return (uint32_t)iomap_region_read(p, bytes);
	return bytes == 1 ? ioread8(p) : ioread32(p);
}

/* Select test n on the BAR behind cookie c and read its header back, byte by byte. */
static void testdev_select(void __iomem *c, bool region, unsigned int n, struct testdev_test *t)
{
	size_t i;

	if (region)
		iomap_region_write(n, c, 1);
	else
		iowrite8((uint8_t)n, c);
	t->width = rd(c, region, 1, 1);
	t->offset = rd(c, region, 4, 4);
	t->data = rd(c, region, 8, 4);
	for (i = 0; i + 1 < sizeof(t->name) && (t->name[i] = (char)rd(c, region, 16 + i, 1)); i++)
		;
	t->name[i] = '\0';
}

/* The first test on this BAR that counts plain writes (no eventfd swallows them), or -1. */
static int testdev_counting(void __iomem *c, bool region, struct testdev_test *t)
{
	for (unsigned int n = 0; n < 16; n++) {
		testdev_select(c, region, n, t);
		if (t->width != 1 && t->width != 2 && t->width != 4)
			return -1;
		if (!strstr(t->name, "eventfd") || strstr(t->name, "no-eventfd") || strstr(t->name, "noeventfd"))
			return (int)n;
	}
	return -1;
}

static unsigned int testdev_count(void __iomem *c, bool region)
{
	return rd(c, region, 12, 4);
}

#ifdef IOMAP_HAVE_PORT_IO
/* The I/O BAR through its port cookie: ioread against in, the string instructions, iowrite_rep. */
static void testdev_ports(struct iomap_pci_dev *d)
{
	void __iomem *pio = map(d, 1, false);
	uint16_t port = (uint16_t)d->bar[1].start;
	struct testdev_test t;
	uint32_t buf32[8];
	uint16_t buf16[8];
	uint8_t buf8[8];
	unsigned int before;
	int n;

	check(iomap_cookie_kind(pio) == IOMAP_COOKIE_PIO, "testdev: pci_iomap of BAR1 is a port cookie");
	n = testdev_counting(pio, false, &t);
	check(n >= 0, "testdev: port BAR: a write-counting test (%s, width %u, offset 0x%x)", t.name, t.width, t.offset);
	if (n >= 0) {
		check(ioread32((char __iomem *)pio + 4) == inl(port + 4), "testdev: port BAR: ioread32 cookie == inl");
		check(ioread8((char __iomem *)pio + 16) == inb(port + 16), "testdev: port BAR: ioread8 cookie == inb");
		insl(port + 4, buf32, 8);
		insw(port + 4, buf16, 8);
		insb(port + 16, buf8, 8);
		int same = 1;
		for (int i = 0; i < 8; i++)
			same &= buf32[i] == t.offset && buf16[i] == (uint16_t)t.offset && buf8[i] == (uint8_t)t.name[0];
		check(same, "testdev: port BAR: rep insl/insw/insb repeat the one port 8 times");

		/* rep outsX writes the one port count times: the device counts each. */
		for (int i = 0; i < 8; i++)
			buf32[i] = t.data, buf16[i] = (uint16_t)t.data, buf8[i] = (uint8_t)t.data;
		before = testdev_count(pio, false);
		if (t.width == 4)
			outsl(port + t.offset, buf32, 8);
		else if (t.width == 2)
			outsw(port + t.offset, buf16, 8);
		else
			outsb(port + t.offset, buf8, 8);
		check(testdev_count(pio, false) - before == 8, "testdev: port BAR: rep outs%c of 8 counted 8 writes (%u)",
		      t.width == 4 ? 'l' : t.width == 2 ? 'w' : 'b', testdev_count(pio, false) - before);
		before = testdev_count(pio, false);
		if (t.width == 4)
			iowrite32_rep((char __iomem *)pio + t.offset, buf32, 5);
		else if (t.width == 2)
			iowrite16_rep((char __iomem *)pio + t.offset, buf16, 5);
		else
			iowrite8_rep((char __iomem *)pio + t.offset, buf8, 5);
		check(testdev_count(pio, false) - before == 5, "testdev: port BAR: iowrite_rep on the port cookie counted 5");
	}

	pci_iounmap(d, pio);
}
#else
/*
 * Without I/O instructions the kernel alone reaches the I/O space: pci_iomap of the I/O BAR is a
 * region of its sysfs resource file, each access a pread/pwrite in which Linux makes the in/out.
 */
static void testdev_ports(struct iomap_pci_dev *d)
{
	void __iomem *pio = map(d, 1, false);
	struct testdev_test t;
	unsigned int before;
	int n;

	n = testdev_counting(pio, true, &t);
	check(n >= 0, "testdev: port BAR through resource1: a write-counting test (%s, width %u, offset 0x%x)", t.name,
	      t.width, t.offset);
	if (n >= 0) {
		before = testdev_count(pio, true);
		for (int i = 0; i < 3; i++)
			iomap_region_write(t.data, (char __iomem *)pio + t.offset, t.width);
		check(testdev_count(pio, true) - before == 3, "testdev: port BAR through resource1: 3 pwrites counted 3");
	}
	pci_iounmap(d, pio);
}
#endif

static void testdev(struct iomap_pci_dev *d)
{
	void __iomem *mem = map(d, 0, false);
	struct testdev_test t;
	unsigned int before;
	int n;

	check(iomap_cookie_kind(mem) == IOMAP_COOKIE_MMIO, "testdev: pci_iomap of BAR0 is an MMIO cookie");
	testdev_ports(d);

	n = testdev_counting(mem, false, &t);
	check(n >= 0, "testdev: memory BAR: a write-counting test (%s, width %u, offset 0x%x)", t.name, t.width,
	      t.offset);
	if (n >= 0) {
		check(ioread32((char __iomem *)mem + 4) == readl((char __iomem *)mem + 4),
		      "testdev: memory BAR: ioread32 cookie == readl");
		before = testdev_count(mem, false);
		if (t.width == 4)
			iowrite32_rep((char __iomem *)mem + t.offset, (uint32_t[]){ t.data, t.data, t.data }, 3);
		else if (t.width == 2)
			iowrite16_rep((char __iomem *)mem + t.offset,
				      (uint16_t[]){ (uint16_t)t.data, (uint16_t)t.data, (uint16_t)t.data }, 3);
		else
			iowrite8_rep((char __iomem *)mem + t.offset,
				     (uint8_t[]){ (uint8_t)t.data, (uint8_t)t.data, (uint8_t)t.data }, 3);
		check(testdev_count(mem, false) - before == 3, "testdev: memory BAR: iowrite_rep (an MMIO loop) counted 3");
	}
	pci_iounmap(d, mem);
}

/*
 * ivshmem BAR2: written through the WC mapping by every copy strategy this
 * CPU runs, read back through the UC one.  A marker stays at 1 MiB, beyond
 * the window regbench's copy benchmarks overwrite, for the host to find in
 * the backing file.
 */
static void ivshmem(struct iomap_pci_dev *d)
{
	char __iomem *uc = map(d, 2, false), *wc = map(d, 2, true);
	unsigned char src[4096], back[4096];
	static const char marker[] = "regbench ivshmem: written by the guest through resource2_wc";

	for (size_t i = 0; i < iomap_nr_strategies; i++) {
		const struct iomap_strategy *s = &iomap_strategies[i];

		if (!s->copy_toio || iomap_strategy_cpu_missing(s))
			continue;
		/* unaligned, so heads and tails too; a word copy takes whole aligned words only */
		size_t off = s->copy_words ? 0 : 3, n = s->copy_words ? sizeof(src) : sizeof(src) - 5;

		for (size_t j = 0; j < sizeof(src); j++)
			src[j] = (unsigned char)(j * 7 + i);
		s->copy_toio(wc + 4096 + off, src, n);
		wmb();
		memset(back, 0, sizeof(back));
		(s->copy_fromio ? s->copy_fromio : memcpy_fromio)(back, uc + 4096 + off, n);
		check(!memcmp(src, back, n), "ivshmem: copy_toio %s through WC reads back through UC", s->name);
	}
	memcpy_toio(wc + (1 << 20), marker, sizeof(marker));
	wmb();
	memset(back, 0, sizeof(back));
	memcpy_fromio(back, uc + (1 << 20), sizeof(marker));
	check(!memcmp(back, marker, sizeof(marker)), "ivshmem: the marker reads back through UC");
	{
		char __iomem *at = pci_iomap_range(d, 2, 1 << 20, sizeof(marker));

		memset(back, 0, sizeof(back));
		if (at)
			memcpy_fromio(back, at, sizeof(marker));
		check(at && !memcmp(back, marker, sizeof(marker)), "ivshmem: pci_iomap_range at 1 MiB maps the marker");
		pci_iounmap(d, at);
		check(pci_iomap_range(d, 2, 4 << 20, 0) == NULL, "ivshmem: pci_iomap_range past the BAR fails: %s",
		      d->error);
	}
	check(pci_iomap_wc(d, 0, 0) == NULL && strstr(d->error, "not prefetchable"),
	      "ivshmem: pci_iomap_wc of non-prefetchable BAR0 fails: %s", d->error);
	pci_iounmap(d, uc);
	pci_iounmap(d, wc);
}

static int peek(int argc, char **argv)
{
	unsigned int ven, dev;
	struct iomap_pci_dev *d;
	char __iomem *c;

	if (argc != 5 || sscanf(argv[2], "%x:%x", &ven, &dev) != 2) {
		fprintf(stderr, "usage: pci-guest peek VEN:DEV BAR OFF\n");
		return 2;
	}
	d = get(ven, dev);
	c = map(d, atoi(argv[3]), false);
	printf("0x%08x\n", ioread32(c + strtoul(argv[4], NULL, 0)));
	iomap_pci_put(d);
	return 0;
}

/* Which device and BAR each spec takes, through the library regbench opens targets with. */
static int targets(int n, char **specs)
{
	for (int i = 0; i < n; i++) {
		struct iomap_target t;
		char why[300];

		if (iomap_target_open(&t, specs[i], why, sizeof(why))) {
			printf("%s: error %s\n", specs[i], why);
			continue;
		}
		printf("%s: device %s: %s\n", specs[i], t.device, t.what);
		iomap_target_close(&t);
	}
	return 0;
}

/* A vfio target of edu at slot: spec SPEC, writes permitted at 0x04 when write is set. */
static int vfio_open(struct iomap_target *t, const char *slot, const char *opts, bool write)
{
	struct iomap_permit p = { .write_off = write ? 4 : 0, .write_len = write ? 4 : 0 };
	char spec[96], why[300];

	snprintf(spec, sizeof(spec), "vfio:%s/0,%s", slot, opts);
	if (iomap_target_open_permit(t, spec, &p, why, sizeof(why))) {
		check(0, "vfio: open %s: %s", spec, why);
		return -1;
	}
	return 0;
}

/*
 * edu's ID and liveness registers through vfio-pci: the BAR mmapped (an MMIO
 * cookie: the accessors) and through its region (pread/pwrite: the region
 * accessors and iomap_target_read).
 */
static int vfio(const char *slot)
{
	struct iomap_target t;

	if (!vfio_open(&t, slot, "len=4,widths=32", false)) {
		check(t.space == IOMAP_SPACE_MMIO && t.mapping == IOMAP_MAP_UC && !strcmp(t.iommu, "type1"),
		      "vfio: BAR0 mmapped, uncached, in a type-1 IOMMU container: %s", t.what);
		check(readl(t.base) == 0x010000ed && ioread32(t.base) == 0x010000ed,
		      "vfio: readl and ioread32 of the mmapped ID register read 0x010000ed");
		iomap_target_close(&t);
	}
	if (!vfio_open(&t, slot, "len=4,widths=32,pread", false)) {
		check(t.space == IOMAP_SPACE_REGION && t.mapping == IOMAP_MAP_PREAD, "vfio: ,pread reaches BAR0 as a region");
		check(iomap_pread32_relaxed(t.base) == 0x010000ed && iomap_pread32_barriered(t.base) == 0x010000ed &&
		      iomap_target_read(&t, 0, 4) == 0x010000ed, "vfio: pread of the ID register reads 0x010000ed");
		iomap_target_close(&t);
	}
	if (!vfio_open(&t, slot, "off=4,len=4,widths=32", true)) {
		iowrite32(0x12345678, t.base);
		check(ioread32(t.base) == 0xedcba987, "vfio: a write to 0x04 through the mapping reads back inverted");
		iomap_target_close(&t);
	}
	if (!vfio_open(&t, slot, "off=4,len=4,widths=32,pread", true)) {
		iomap_pwrite32_relaxed(0x0f0f0f0f, t.base);
		check(iomap_pread32_relaxed(t.base) == 0xf0f0f0f0 && iomap_target_read(&t, 0, 4) == 0xf0f0f0f0,
		      "vfio: a pwrite to 0x04 reads back inverted through pread");
		iomap_target_close(&t);
	}
	printf("pci-guest vfio: %d passed, %d failed\n", passes, failures);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct iomap_pci_dev *edu, *td, *shm;
	void __iomem *c;

	if (argc > 1 && !strcmp(argv[1], "peek"))
		return peek(argc, argv);
	if (argc == 3 && !strcmp(argv[1], "vfio"))
		return vfio(argv[2]);
	if (argc > 2 && !strcmp(argv[1], "target"))
		return targets(argc - 2, argv + 2);

	edu = get(0x1234, 0x11e8);
	c = map(edu, 0, false);
	check(iomap_cookie_kind(c) == IOMAP_COOKIE_MMIO, "edu: pci_iomap of BAR0 is an MMIO cookie");
	edu_reads(c);
	edu_liveness(c);
	check(pci_iomap(edu, 3, 0) == NULL && strstr(edu->error, "no BAR 3"), "edu: pci_iomap of BAR3 fails: %s",
	      edu->error);
	iomap_pci_put(edu);

	td = get(0x1b36, 0x0005);
	testdev(td);
	iomap_pci_put(td);

	shm = get(0x1af4, 0x1110);
	ivshmem(shm);
	iomap_pci_put(shm);

	printf("pci-guest: %d passed, %d failed\n", passes, failures);
	return failures ? 1 : 0;
}
