/* target-vfio.c: a BAR of a device bound to vfio-pci: memory BARs mmapped from its region, I/O BARs (or any, with pread) through the region's pread/pwrite */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/vfio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backends.h"
#include "iomap/io.h"
#include "iomap/pci.h"
#include "iomap/region.h"

#define CONTAINER "/dev/vfio/vfio"

/* vfio:SELECTOR/BAR, then pread and the options pci: has but wc (vfio-pci maps BARs uncached only). */
struct vfio_config {
	struct iomap_bar_spec bar;
	bool pread;			/* reach a memory BAR through pread/pwrite rather than mmap */
};

static int vfio_parse(void *config, const char *args, char *why, size_t whylen)
{
	struct vfio_config *c = config;

	return iomap_bar_spec_parse(&c->bar, "vfio", "pread", &c->pread, "; vfio-pci maps BARs uncached only", args,
				    why, whylen);
}

static void vfio_format(const void *config, char *out, size_t outlen)
{
	const struct vfio_config *c = config;

	iomap_bar_spec_format(&c->bar, "vfio", c->pread ? "pread" : NULL, out, outlen);
}

/* Which IOMMU backend a container can use here: VFIO_TYPE1_IOMMU, VFIO_NOIOMMU_IOMMU, or 0 with why. */
static int iommu_type(int container, char *why, size_t whylen)
{
	if (ioctl(container, VFIO_GET_API_VERSION) != VFIO_API_VERSION) {
		iomap_fail(why, whylen, ENOTSUP, "%s speaks another vfio API version than %d", CONTAINER,
			   VFIO_API_VERSION);
		return 0;
	}
	if (ioctl(container, VFIO_CHECK_EXTENSION, VFIO_TYPE1_IOMMU) > 0)
		return VFIO_TYPE1_IOMMU;
	if (ioctl(container, VFIO_CHECK_EXTENSION, VFIO_NOIOMMU_IOMMU) > 0)
		return VFIO_NOIOMMU_IOMMU;
	iomap_fail(why, whylen, ENOTSUP, "vfio has no IOMMU backend: neither type 1 (modprobe vfio_iommu_type1; the "
		   "kernel needs an IOMMU: intel_iommu=on or amd_iommu=on) nor no-IOMMU mode (vfio's "
		   "enable_unsafe_noiommu_mode)");
	return 0;
}

static int open_container(char *why, size_t whylen)
{
	int fd = open(CONTAINER, O_RDWR | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT)
		return iomap_fail(why, whylen, ENOENT, "no %s: vfio is not loaded (modprobe vfio-pci, or bind a device "
				  "with scripts/vfio-bind SLOT)", CONTAINER);
	if (fd < 0)
		return iomap_fail(why, whylen, errno, "cannot open %s: %s", CONTAINER, strerror(errno));
	return fd;
}

static int vfio_probe(char *why, size_t whylen)
{
	int fd = open_container(why, whylen), type;

	if (fd < 0)
		return -1;
	type = iommu_type(fd, why, whylen);
	close(fd);
	return type ? 0 : -1;
}

/* The IOMMU group of a device ("4"), or NULL when it has none. */
static const char *group_of(const char *slot, char *buf, size_t len)
{
	char path[96], link[256];
	ssize_t n;

	snprintf(path, sizeof(path), SYSFS_DEVICES "/%s/iommu_group", slot);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return NULL;
	link[n] = '\0';
	snprintf(buf, len, "%s", basename(link));
	return buf;
}

/* The group's device node: /dev/vfio/N, or /dev/vfio/noiommu-N in no-IOMMU mode. */
static void group_node(const char *group, char *path, size_t len)
{
	snprintf(path, len, "/dev/vfio/%s", group);
	if (access(path, F_OK))
		snprintf(path, len, "/dev/vfio/noiommu-%s", group);
}

static int describe_device(struct iomap_pci_dev *d, void *arg)
{
	FILE *out = arg;
	char group[32], node[64], size[32];

	if (strcmp(d->driver, "vfio-pci"))
		return 0;
	if (!group_of(d->slot, group, sizeof(group)))
		snprintf(group, sizeof(group), "none");
	group_node(group, node, sizeof(node));
	fprintf(out, "      %s %04x:%04x [%04x] %s (IOMMU group %s: %s%s)\n", d->slot, d->vendor, d->device,
		d->class_id, d->name, group, node, access(node, R_OK | W_OK) ? ", not accessible to this user" : "");
	for (int i = 0; i < 6; i++) {
		const struct iomap_pci_bar *b = &d->bar[i];

		if (b->present)
			fprintf(out, "        BAR%d %s, %s: %s\n", i, iomap_pci_bar_kind(b),
				iomap_human_size(b->size, size, sizeof(size)),
				b->io ? "pread/pwrite" : "mmap (uncached), or pread/pwrite with ,pread");
	}
	return 0;
}

/* The devices bound to vfio-pci and how each BAR is reached; opening none of them (that resets a device). */
static void vfio_describe(FILE *out)
{
	char why[200];

	fprintf(out, "      devices bound to vfio-pci (give one to it with scripts/vfio-bind SLOT):\n");
	if (iomap_pci_each(describe_device, out, why, sizeof(why)))
		fprintf(out, "      cannot list PCI devices: %s\n", why);
}

/* What an open vfio target holds. */
struct vfio_state {
	struct iomap_pci_dev *dev;
	int container, group, device;
	void *map;			/* the mmapped pages of a memory BAR, or NULL */
	size_t maplen;
	void __iomem *region;		/* the region's cookies, or NULL */
};

static void release(struct vfio_state *v)
{
	if (v->map)
		munmap(v->map, v->maplen);
	if (v->region)
		iomap_region_unmap(v->region);
	if (v->device >= 0)
		close(v->device);
	if (v->group >= 0)
		close(v->group);
	if (v->container >= 0)
		close(v->container);
	iomap_pci_put(v->dev);
	free(v);
}

/* The group, attached to a new container with the IOMMU backend there is; 0, or -1 with why. */
static int attach(struct vfio_state *v, const char *slot, const char *group, int *type, char *why, size_t whylen)
{
	struct vfio_group_status status = { .argsz = sizeof(status) };
	char node[64];

	v->container = open_container(why, whylen);
	if (v->container < 0)
		return -1;
	*type = iommu_type(v->container, why, whylen);
	if (!*type)
		return -1;
	group_node(group, node, sizeof(node));
	v->group = open(node, O_RDWR | O_CLOEXEC);
	if (v->group < 0 && errno == EBUSY)
		return iomap_fail(why, whylen, EBUSY, "IOMMU group %s is open in another process (QEMU or another "
				  "user-space driver holds %s)", group, node);
	if (v->group < 0 && (errno == EACCES || errno == EPERM))
		return iomap_fail(why, whylen, errno, "cannot open %s: %s (as root, or give this user the group: "
				  "chown USER %s)", node, strerror(errno), node);
	if (v->group < 0)
		return iomap_fail(why, whylen, errno, "cannot open %s: %s (is %s bound to vfio-pci? scripts/vfio-bind %s)",
				  node, strerror(errno), slot, slot);
	if (ioctl(v->group, VFIO_GROUP_GET_STATUS, &status) || !(status.flags & VFIO_GROUP_FLAGS_VIABLE))
		return iomap_fail(why, whylen, EBUSY, "IOMMU group %s is not viable: every device in it must be bound "
				  "to vfio-pci or to no driver (ls /sys/kernel/iommu_groups/%s/devices; scripts/vfio-bind "
				  "each)", group, group);
	if (ioctl(v->group, VFIO_GROUP_SET_CONTAINER, &v->container))
		return iomap_fail(why, whylen, errno, "cannot attach IOMMU group %s to a vfio container: %s", group,
				  strerror(errno));
	if (ioctl(v->container, VFIO_SET_IOMMU, *type))
		return iomap_fail(why, whylen, errno, "the %s IOMMU refused the container: %s (dmesg says why; "
				  "without interrupt remapping vfio_iommu_type1 needs allow_unsafe_interrupts=1)",
				  *type == VFIO_TYPE1_IOMMU ? "type-1" : "no-IOMMU", strerror(errno));
	v->device = ioctl(v->group, VFIO_GROUP_GET_DEVICE_FD, slot);
	if (v->device < 0)
		return iomap_fail(why, whylen, errno, "vfio will not give out %s: %s (is it open elsewhere?)", slot,
				  strerror(errno));
	return 0;
}

static int vfio_open(struct iomap_target *t, const void *config, char *why, size_t whylen)
{
	const struct vfio_config *s = config;
	const struct iomap_bar_spec *c = &s->bar;
	struct vfio_region_info info = { .argsz = sizeof(info), .index = (uint32_t)c->bar };
	struct vfio_state *v = calloc(1, sizeof(*v));
	const struct iomap_pci_bar *b;
	bool writes = t->permit.write_len != 0, io, mmapped;
	char group[32], size[32], chosen[120];
	uint64_t len, page = (uint64_t)sysconf(_SC_PAGESIZE);
	int type = 0;

	if (!v)
		return iomap_fail(why, whylen, ENOMEM, "out of memory");
	v->container = v->group = v->device = -1;
	v->dev = iomap_pci_get(&c->sel, IOMAP_PCI_FORCE, why, whylen);
	if (!v->dev || iomap_bar_spec_window(c, v->dev, &len, why, whylen))
		goto fail;
	b = &v->dev->bar[c->bar];
	io = b->io;
	mmapped = !io && !s->pread;
	if (!v->dev->driver[0]) {
		iomap_fail(why, whylen, ENXIO, "%s is not bound to vfio-pci (give it to vfio-pci: scripts/vfio-bind %s)",
			   v->dev->slot, v->dev->slot);
		goto fail;
	}
	if (strcmp(v->dev->driver, "vfio-pci")) {
		iomap_fail(why, whylen, ENXIO, "%s is bound to %s, not vfio-pci (give it to vfio-pci: "
			   "scripts/vfio-bind %s)", v->dev->slot, v->dev->driver, v->dev->slot);
		goto fail;
	}
	if (!group_of(v->dev->slot, group, sizeof(group))) {
		iomap_fail(why, whylen, ENXIO, "%s has no IOMMU group (the kernel runs without an IOMMU: boot with "
			   "intel_iommu=on or amd_iommu=on)", v->dev->slot);
		goto fail;
	}
	if (attach(v, v->dev->slot, group, &type, why, whylen))
		goto fail;
	if (ioctl(v->device, VFIO_DEVICE_GET_REGION_INFO, &info) || !info.size) {
		iomap_fail(why, whylen, ENXIO, "vfio has no region for BAR %d of %s", c->bar, v->dev->slot);
		goto fail;
	}
	if (mmapped && !(info.flags & VFIO_REGION_INFO_FLAG_MMAP)) {
		iomap_fail(why, whylen, ENOTSUP, "vfio does not let BAR %d of %s be mmapped (reach it with pread: add "
			   ",pread)", c->bar, v->dev->slot);
		goto fail;
	}
	if (writes && !(info.flags & VFIO_REGION_INFO_FLAG_WRITE)) {
		iomap_fail(why, whylen, EPERM, "vfio's region of BAR %d of %s is read-only", c->bar, v->dev->slot);
		goto fail;
	}
	if (mmapped) {
		uint64_t first = c->off / page * page;
		void *p;

		v->maplen = (size_t)((c->off + len - first + page - 1) / page * page);
		p = mmap(NULL, v->maplen, PROT_READ | (writes ? PROT_WRITE : 0), MAP_SHARED, v->device,
			 (off_t)(info.offset + first));
		if (p == MAP_FAILED) {
			iomap_fail(why, whylen, errno, "cannot mmap BAR %d of %s through vfio: %s (reach it with pread: "
				   "add ,pread)", c->bar, v->dev->slot, strerror(errno));
			goto fail;
		}
		v->map = p;
		t->base = (void __iomem __force *)((char *)p + (c->off - first));
	} else {
		const struct iomap_permit *p = &t->permit;
		uint64_t wlo = p->write_len ? p->write_off : 0, whi = p->write_len ? p->write_off + p->write_len : 0;

		/* the region permits writes where the write window and the target's window meet */
		wlo = wlo > c->off ? wlo - c->off : 0;
		whi = whi > c->off ? (whi - c->off < len ? whi - c->off : len) : 0;
		v->region = iomap_region_map(v->device, info.offset + c->off, (size_t)len, wlo, whi > wlo ? whi - wlo : 0,
					     why, whylen);
		if (!v->region)
			goto fail;
		t->base = v->region;
	}

	iomap_bar_spec_target(c, v->dev, len, t);
	t->space = mmapped ? IOMAP_SPACE_MMIO : IOMAP_SPACE_REGION;
	t->mapping = mmapped ? IOMAP_MAP_UC : IOMAP_MAP_PREAD;
	t->priv = v;
	snprintf(t->iommu, sizeof(t->iommu), "%s", type == VFIO_TYPE1_IOMMU ? "type1" : "noiommu");
	iomap_pci_chosen(c, v->dev, chosen, sizeof(chosen));
	snprintf(t->what, sizeof(t->what), "%s%.70s BAR%d: %s, %s, vfio-pci %s, bytes 0x%llx-0x%llx, %s, IOMMU group "
		 "%.8s (%.40s)", v->dev->slot, chosen, c->bar, iomap_pci_bar_kind(b),
		 iomap_human_size(b->size, size, sizeof(size)), mmapped ? "mmap (uncached)" : "pread/pwrite of its region",
		 (unsigned long long)c->off, (unsigned long long)(c->off + len - 1),
		 type == VFIO_TYPE1_IOMMU ? "type-1 IOMMU" : "no-IOMMU mode (no DMA isolation)", group, v->dev->name);
	return 0;
fail:
	release(v);
	t->base = NULL;
	return -1;
}

static void vfio_close(struct iomap_target *t)
{
	release(t->priv);
	t->priv = NULL;
}

static int vfio_decoding(const struct iomap_target *t, char *why, size_t whylen)
{
	const struct vfio_state *v = t->priv;

	return iomap_pci_decoding(v->dev->slot, v->dev->bar[t->bar].io, why, whylen);
}

const struct iomap_target_kind iomap_target_vfio = {
	.name = "vfio",
	.grammar = "vfio:[s=]SLOT/BAR | vfio:[d=]VENDOR:DEVICE[:CLASS]/BAR, then [,pread][,off=N][,len=N][,widths=W]",
	.help = "a BAR of a device bound to vfio-pci: memory BARs mmapped (uncached), I/O BARs through pread/pwrite",
	.config_size = sizeof(struct vfio_config),
	.parse = vfio_parse,
	.format = vfio_format,
	.probe = vfio_probe,
	.open = vfio_open,
	.close = vfio_close,
	.decoding = vfio_decoding,
	.describe = vfio_describe,
};
