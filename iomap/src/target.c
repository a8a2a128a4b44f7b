/* target.c: the table of target kinds, in listing order, and opening a target from its spec */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "backends.h"

/*
 * Kinds whose backend is not built yet are listed with their grammar so that
 * specs parse and --list-targets can say so; they have no probe or open.
 */
static const struct iomap_target_ops planned_pci = {
	.name = "pci", .grammar = "pci:SLOT/BAR[,wc][,off=N][,len=N] | pci:VENDOR:DEVICE/BAR[,...]",
	.help = "a PCI BAR through sysfs resourceN (UC) or resourceN_wc (WC); I/O BARs through port I/O",
};
static const struct iomap_target_ops planned_port = {
	.name = "port", .grammar = "port:BASE[+LEN]",
	.help = "port I/O through ioperm/iopl, exact width",
};

const struct iomap_target_ops *const iomap_target_kinds[] = {
	&iomap_target_ram, &iomap_target_trap, &planned_pci, &planned_port,
};
const size_t iomap_nr_target_kinds = sizeof(iomap_target_kinds) / sizeof(iomap_target_kinds[0]);

int iomap_target_probe(const struct iomap_target_ops *ops, char *why, size_t whylen)
{
	if (!ops->probe) {
		snprintf(why, whylen, "not built yet in this version of regbench");
		errno = ENOSYS;
		return -1;
	}
	return ops->probe(why, whylen);
}

int iomap_target_open(struct iomap_target *t, const char *text, char *why, size_t whylen)
{
	char reason[200];

	memset(t, 0, sizeof(*t));
	if (iomap_spec_parse(text, &t->spec, why, whylen))
		return -1;
	if (!t->spec.ops->open) {
		snprintf(why, whylen, "target '%s': the %s backend is not built yet in this version (use ram)",
			 text, t->spec.ops->name);
		errno = ENOSYS;
		return -1;
	}
	if (t->spec.ops->open(t, reason, sizeof(reason))) {
		snprintf(why, whylen, "target '%s': %s", text, reason);
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
