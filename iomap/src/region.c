/* region.c: cookies for ranges of a device file, and the pread/pwrite behind each access */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backends.h"
#include "iomap/region.h"

/* The open regions: few, so a lookup is a short walk (and a system call follows it anyway). */
static struct region {
	char *start;			/* the reservation (NULL: a free slot) */
	size_t span;			/* its length */
	char *cookie;			/* the cookie of the region's first byte */
	size_t len;
	int fd;
	uint64_t offset;
	uint64_t write_off, write_len;
} regions[16];

void __iomem *iomap_region_map(int fd, uint64_t offset, size_t len, uint64_t write_off, uint64_t write_len,
			       char *why, size_t whylen)
{
	struct region *r = NULL;
	size_t pad = offset % 8;
	void *p;

	for (size_t i = 0; i < sizeof(regions) / sizeof(regions[0]) && !r; i++)
		if (!regions[i].start)
			r = &regions[i];
	if (!r) {
		iomap_fail(why, whylen, ENOMEM, "too many regions open at once (close some)");
		return NULL;
	}
	if (!len || write_off + write_len > len || write_off + write_len < write_off) {
		iomap_fail(why, whylen, EINVAL, "bad region window");
		return NULL;
	}
	p = mmap(NULL, len + pad, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		iomap_fail(why, whylen, errno, "cannot reserve %zu bytes of address space: %s", len + pad, strerror(errno));
		return NULL;
	}
	*r = (struct region){ p, len + pad, (char *)p + pad, len, fd, offset, write_off, write_len };
	return (void __iomem __force *)r->cookie;
}

void iomap_region_unmap(void __iomem *cookie)
{
	for (size_t i = 0; i < sizeof(regions) / sizeof(regions[0]); i++)
		if (regions[i].start && regions[i].cookie == (char __force *)cookie) {
			munmap(regions[i].start, regions[i].span);
			memset(&regions[i], 0, sizeof(regions[i]));
		}
}

/* The region holding [addr, addr+bytes), or NULL. */
static const struct region *find(const volatile void __iomem *addr, unsigned int bytes, uint64_t *at)
{
	const char *a = (const char __force *)addr;

	for (size_t i = 0; i < sizeof(regions) / sizeof(regions[0]); i++) {
		const struct region *r = &regions[i];

		if (r->start && a >= r->cookie && a + bytes <= r->cookie + r->len && a + bytes > a) {
			*at = (uint64_t)(a - r->cookie);
			return r;
		}
	}
	return NULL;
}

uint64_t iomap_region_read(const volatile void __iomem *addr, unsigned int bytes)
{
	uint64_t at, v = 0;
	const struct region *r = find(addr, bytes, &at);

	if (r && pread(r->fd, &v, bytes, (off_t)(r->offset + at)) == (ssize_t)bytes)
		return v;
	return bytes >= 8 ? ~0ull : (1ull << (8 * bytes)) - 1;
}

void iomap_region_write(uint64_t v, volatile void __iomem *addr, unsigned int bytes)
{
	uint64_t at;
	const struct region *r = find(addr, bytes, &at);

	if (!r)
		return;
	if (at < r->write_off || at + bytes > r->write_off + r->write_len) {
		/* the reservation is PROT_NONE: this store faults at the cookie, as on a read-only mapping */
		*(volatile uint8_t __force *)addr = 0;
		return;
	}
	(void)!pwrite(r->fd, &v, bytes, (off_t)(r->offset + at));
}
