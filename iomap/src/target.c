/* target.c: the table of target kinds, in listing order, and opening a target from its spec */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "backends.h"
#include "iomap/io.h"

/* Every kind, in the order --list-targets shows them. */
const struct iomap_target_ops *const iomap_target_kinds[] = {
	&iomap_target_ram, &iomap_target_trap, &iomap_target_pci, &iomap_target_port,
};
const size_t iomap_nr_target_kinds = sizeof(iomap_target_kinds) / sizeof(iomap_target_kinds[0]);

int iomap_target_probe(const struct iomap_target_ops *ops, char *why, size_t whylen)
{
	return ops->probe(why, whylen);
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
	uintptr_t at = iomap_cookie_kind(t->base) == IOMAP_COOKIE_PIO
		? (uintptr_t)(void __force *)t->base - IOMAP_PIO_OFFSET : (uintptr_t)(void __force *)t->base;
	unsigned int w = widest(t);

	if (p->write_len && (p->write_off < t->off || p->write_off + p->write_len > t->off + t->len ||
			     p->write_off + p->write_len < p->write_off)) {
		snprintf(why, whylen, "--allow-write=0x%llx+%llu lies outside the target's window 0x%llx+%zu "
			 "(offsets count from the start of the BAR or port range)",
			 (unsigned long long)p->write_off, (unsigned long long)p->write_len,
			 (unsigned long long)t->off, t->len);
		errno = EINVAL;
		return -1;
	}
	if (at % w) {
		snprintf(why, whylen, "%s 0x%llx is not aligned for %u-bit accesses "
			 "(align it to %u bytes, or allow narrower accesses with widths=)",
			 t->space == IOMAP_SPACE_PIO ? "port" : "offset",
			 (unsigned long long)(t->space == IOMAP_SPACE_PIO ? at : t->off), w * 8, w);
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int iomap_target_open_permit(struct iomap_target *t, const char *text, const struct iomap_permit *p,
			     char *why, size_t whylen)
{
	char reason[200];

	memset(t, 0, sizeof(*t));
	if (p)
		t->permit = *p;
	if (iomap_spec_parse(text, &t->spec, why, whylen))
		return -1;
	if (t->spec.ops->open(t, reason, sizeof(reason))) {
		snprintf(why, whylen, "target '%s': %s", text, reason);
		return -1;
	}
	if (t->hardware && check_hardware(t, reason, sizeof(reason))) {
		int e = errno;

		iomap_target_close(t);
		snprintf(why, whylen, "target '%s': %s", text, reason);
		errno = e;
		return -1;
	}
	if (!t->copy_len && t->copy_off < t->len && t->space == IOMAP_SPACE_MMIO)
		t->copy_len = t->len - t->copy_off;
	return 0;
}

const char *iomap_target_why_not(const struct iomap_target *t, const char *strategy)
{
	const struct iomap_target_ops *ops = t->spec.ops;

	return ops && ops->why_not ? ops->why_not(t, strategy) : NULL;
}

int iomap_target_fault(int signo, siginfo_t *si, void *uc)
{
	for (size_t i = 0; i < iomap_nr_target_kinds; i++)
		if (iomap_target_kinds[i]->fault && iomap_target_kinds[i]->fault(signo, si, uc))
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

void iomap_target_close(struct iomap_target *t)
{
	if (t->spec.ops && t->spec.ops->close && t->base)
		t->spec.ops->close(t);
	t->base = NULL;
}

const char *iomap_space_name(enum iomap_space s)
{
	return s == IOMAP_SPACE_PIO ? "pio" : "mmio";
}

const char *iomap_mapping_name(enum iomap_mapping m)
{
	static const char *const names[] = {
		[IOMAP_MAP_WB] = "wb", [IOMAP_MAP_UC] = "uc", [IOMAP_MAP_WC] = "wc",
		[IOMAP_MAP_TRAP] = "trap", [IOMAP_MAP_PORT] = "port",
	};

	return names[m];
}
