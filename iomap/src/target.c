/* target.c: the table of target kinds, in listing order, and opening, checking and closing a target */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends.h"
#include "iomap/io.h"
#include "iomap/region.h"

#define ENTRY(k) &iomap_target_##k,
static const struct iomap_target_kind *const kinds[] = { IOMAP_TARGET_KINDS(ENTRY) };
#undef ENTRY

#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

size_t iomap_target_kind_count(void)
{
	return NKINDS;
}

const char *iomap_target_kind_name(size_t i)
{
	return i < NKINDS ? kinds[i]->name : NULL;
}

const char *iomap_target_kind_grammar(size_t i)
{
	return i < NKINDS ? kinds[i]->grammar : NULL;
}

const char *iomap_target_kind_help(size_t i)
{
	return i < NKINDS ? kinds[i]->help : NULL;
}

int iomap_target_kind_probe(size_t i, char *why, size_t whylen)
{
	if (i >= NKINDS)
		return iomap_fail(why, whylen, EINVAL, "no target kind %zu", i);
	return kinds[i]->probe ? kinds[i]->probe(why, whylen) : 0;
}

void iomap_target_kind_describe(size_t i, FILE *out)
{
	if (i < NKINDS && kinds[i]->describe)
		kinds[i]->describe(out);
}

const struct iomap_target_kind *iomap_find_kind(const char *name)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (!strcmp(kinds[i]->name, name))
			return kinds[i];
	return NULL;
}

const char *iomap_target_kind_of(const struct iomap_target *t)
{
	return t->kind ? t->kind->name : "";
}

int iomap_target_open(struct iomap_target *t, const char *text, char *why, size_t whylen)
{
	return iomap_target_open_permit(t, text, NULL, why, whylen);
}

/* The widest allowed access that fits the window, in bytes (1 when none does). */
static unsigned int widest(const struct iomap_target *t)
{
	unsigned int w = 8;

	while (w > 1 && (!iomap_target_allows_width(t, w) || w > t->len))
		w /= 2;
	return w;
}

/*
 * What every hardware backend must hold before the first access: the write
 * window inside the target's window, and the base aligned for the widest
 * access the window allows (a misaligned MMIO access splits or faults; a
 * misaligned port access reaches a neighbouring register).
 */
static int check_hardware(const struct iomap_target *t, char *why, size_t whylen)
{
	const struct iomap_permit *p = &t->permit;
	uintptr_t at = !t->base ? (uintptr_t)t->off
		: iomap_cookie_kind(t->base) == IOMAP_COOKIE_PIO
		? (uintptr_t)(void __force *)t->base - IOMAP_PIO_OFFSET : (uintptr_t)(void __force *)t->base;
	unsigned int w = widest(t);

	if (p->write_len && (p->write_off < t->off || p->write_off + p->write_len > t->off + t->len ||
			     p->write_off + p->write_len < p->write_off))
		return iomap_fail(why, whylen, EINVAL,
				  "the write window 0x%llx+%llu lies outside the target's window 0x%llx+%zu "
				  "(offsets count from the start of the BAR or port range)",
				  (unsigned long long)p->write_off, (unsigned long long)p->write_len,
				  (unsigned long long)t->off, t->len);
	if (at % w)
		return iomap_fail(why, whylen, EINVAL, "%s 0x%llx is not aligned for %u-bit accesses "
				  "(align it to %u bytes, or allow narrower accesses with widths=)",
				  t->space == IOMAP_SPACE_PIO ? "port" : "offset",
				  (unsigned long long)(t->space == IOMAP_SPACE_PIO ? at : t->off), w * 8, w);
	return 0;
}

int iomap_target_open_permit(struct iomap_target *t, const char *text, const struct iomap_permit *p,
			     char *why, size_t whylen)
{
	const struct iomap_target_kind *kind;
	char reason[300];
	void *config;

	memset(t, 0, sizeof(*t));
	t->bar = -1;
	if (p)
		t->permit = *p;
	if (iomap_spec_parse(text, &kind, &config, why, whylen))
		return -1;
	snprintf(t->spec, sizeof(t->spec), "%s", text);
	t->kind = kind;
	t->config = config;
	if (kind->open(t, config, reason, sizeof(reason)) ||
	    (t->hardware && check_hardware(t, reason, sizeof(reason)))) {
		int e = errno;

		iomap_target_close(t);
		return iomap_fail(why, whylen, e ? e : EINVAL, "target '%s': %s", text, reason);
	}
	if (!t->copy_len && t->copy_off < t->len && t->space == IOMAP_SPACE_MMIO)
		t->copy_len = t->len - t->copy_off;
	return 0;
}

void iomap_target_close(struct iomap_target *t)
{
	if (t->kind && t->kind->close && (t->base || t->priv))
		t->kind->close(t);
	free(t->config);
	t->config = NULL;
	t->base = NULL;
}

const char *iomap_target_why_not(const struct iomap_target *t, enum iomap_insn insn, unsigned int bytes)
{
	return t->kind && t->kind->why_not ? t->kind->why_not(t, insn, bytes) : NULL;
}

int iomap_target_fault(int signo, siginfo_t *si, void *uc)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (kinds[i]->fault && kinds[i]->fault(signo, si, uc))
			return 1;
	return 0;
}

bool iomap_target_may_write(const struct iomap_target *t, uint64_t off, uint64_t n)
{
	const struct iomap_permit *p = &t->permit;
	uint64_t at = t->off + off;

	if (off + n > t->len || off + n < off)
		return false;
	if (!t->hardware)
		return t->writable;
	return p->write_len && at >= p->write_off && at + n <= p->write_off + p->write_len;
}

bool iomap_target_allows_width(const struct iomap_target *t, unsigned int bytes)
{
	return (t->widths ? t->widths : IOMAP_WIDTHS_ALL) & bytes;
}

uint64_t iomap_target_read(const struct iomap_target *t, size_t off, unsigned int bytes)
{
	const void __iomem *at = (const char __iomem *)t->base + off;

	if (t->kind && t->kind->read)
		return t->kind->read(t, off, bytes);
	if (t->space == IOMAP_SPACE_REGION)
		return iomap_region_read(at, bytes);
	switch (bytes) {
	case 1: return ioread8(at);
	case 2: return ioread16(at);
	case 8: return ioread64(at);
	default: return ioread32(at);
	}
}

int iomap_target_decoding(const struct iomap_target *t, char *why, size_t whylen)
{
	return t->kind && t->kind->decoding ? t->kind->decoding(t, why, whylen) : 0;
}

const char *iomap_space_name(enum iomap_space s)
{
	static const char *const names[] = {
		[IOMAP_SPACE_MMIO] = "mmio", [IOMAP_SPACE_PIO] = "pio", [IOMAP_SPACE_REGION] = "region",
	};

	return names[s];
}

const char *iomap_mapping_name(enum iomap_mapping m)
{
	static const char *const names[] = {
		[IOMAP_MAP_WB] = "wb", [IOMAP_MAP_UC] = "uc", [IOMAP_MAP_WC] = "wc",
		[IOMAP_MAP_TRAP] = "trap", [IOMAP_MAP_PORT] = "port", [IOMAP_MAP_PREAD] = "pread",
	};

	return names[m];
}
