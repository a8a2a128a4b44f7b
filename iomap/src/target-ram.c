/* target-ram.c: anonymous write-back memory, the baseline that shows each strategy's CPU-side cost */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backends.h"

#define HUGE_PAGE (2UL << 20)
#define DEFAULT_SIZE (4u << 20)	/* room for copies that leave L2 */

struct ram_config {
	uint64_t size;		/* bytes */
	bool huge;		/* 2 MiB pages */
};

/* ram[:SIZE][,huge]: the size only right after the ':', huge anywhere after it. */
static int ram_parse(void *config, const char *args, char *why, size_t whylen)
{
	struct ram_config *c = config;
	const char *rest = *args ? args + 1 : NULL;
	bool first = true;
	char opt[128];

	c->size = DEFAULT_SIZE;
	for (; iomap_next_option(&rest, opt, sizeof(opt)); first = false) {
		if (!strcmp(opt, "huge")) {
			c->huge = true;
		} else if (first && args[0] == ':') {
			if (iomap_parse_number(opt, 0, 1, &c->size) || c->size == 0 || c->size > (1ULL << 40))
				return iomap_fail(why, whylen, EINVAL,
						  "bad size '%s' (a size from 1 byte to 1t, e.g. ram:64k or ram:2m)", opt);
		} else {
			return iomap_fail(why, whylen, EINVAL,
					  "unknown option '%s' (ram takes a size and huge: ram:2m,huge)", opt);
		}
	}
	return 0;
}

static void ram_format(const void *config, char *out, size_t outlen)
{
	const struct ram_config *c = config;

	snprintf(out, outlen, "ram:%llu%s", (unsigned long long)c->size, c->huge ? ",huge" : "");
}

static size_t round_up(size_t n, size_t to)
{
	return (n + to - 1) / to * to;
}

static int thp_disabled(void)
{
	char buf[128] = "";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	return !f || strstr(buf, "[never]") != NULL;
}

/*
 * huge: hugetlbfs pages when the administrator reserved some, else a
 * transparent huge page requested with madvise; the description says which.
 */
static void *map_huge(size_t len, const char **how)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	char *raw, *aligned;

	if (p != MAP_FAILED) {
		*how = "2 MiB hugetlb pages";
		return p;
	}
	if (thp_disabled())
		return NULL;
	raw = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		return NULL;
	aligned = (char *)round_up((size_t)raw, HUGE_PAGE);
	if (aligned > raw)
		munmap(raw, aligned - raw);
	munmap(aligned + len, raw + HUGE_PAGE - aligned);
	if (madvise(aligned, len, MADV_HUGEPAGE)) {
		munmap(aligned, len);
		return NULL;
	}
	*how = "2 MiB transparent huge pages (madvise)";
	return aligned;
}

static int ram_open(struct iomap_target *t, const void *config, char *why, size_t whylen)
{
	const struct ram_config *c = config;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t maplen = round_up(c->size, c->huge ? HUGE_PAGE : page);
	const char *how = "4 KiB pages";
	void *p;

	if (c->huge)
		p = map_huge(maplen, &how);
	else
		p = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!p || p == MAP_FAILED) {
		if (c->huge)
			snprintf(why, whylen, "no huge pages: none reserved and transparent huge pages off "
				 "(reserve some in /proc/sys/vm/nr_hugepages)");
		else
			snprintf(why, whylen, "cannot map %zu bytes: %s (try a smaller size)", maplen, strerror(errno));
		return -1;
	}
	/* Touch every page now so no timed access takes a page fault. */
	memset(p, 0, maplen);

	t->base = (void __iomem __force *)p;
	t->len = c->size;
	t->space = IOMAP_SPACE_MMIO;
	t->mapping = IOMAP_MAP_WB;
	t->writable = true;
	t->priv = (void *)maplen;
	snprintf(t->what, sizeof(t->what), "anonymous memory, %zu bytes, write-back, %s", t->len, how);
	return 0;
}

static void ram_close(struct iomap_target *t)
{
	munmap((void __force *)t->base, (size_t)t->priv);
}

const struct iomap_target_kind iomap_target_ram = {
	.name = "ram",
	.grammar = "ram[:SIZE][,huge]",
	.help = "anonymous write-back memory: the CPU-side cost of each strategy (default 4m)",
	.config_size = sizeof(struct ram_config),
	.parse = ram_parse,
	.format = ram_format,
	.open = ram_open,
	.close = ram_close,
};
