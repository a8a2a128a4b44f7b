/* trap-emulate.c: what every architecture's trap decoder shares: moving an access's bytes to the device model or memory, and the one-line report of what cannot be emulated */
#include <string.h>
#include <unistd.h>

#include "trap-dev.h"

/*
 * Everything here runs in the SIGSEGV handler: no allocation, no stdio, no
 * locks; write(2) and _exit are async-signal-safe.
 */

void (*trap_unsupported_hook)(const char *line, size_t len);

int trap_mem_move(struct trap_dev *d, uint64_t a, void *buf, size_t n, enum iomap_trap_dir dir)
{
	const struct trap_window *w = &d->win[IOMAP_SPACE_MMIO];
	uint64_t end = w->base + w->len;

	if (a >= w->base && a < end && n <= end - a)
		trap_access(d, IOMAP_SPACE_MMIO, a - w->base, (unsigned int)n, dir, buf);
	else if (a < w->base + w->len && a + n > w->base)
		return -1;
	else if (dir == IOMAP_TRAP_READ)
		memcpy(buf, (const void *)(uintptr_t)a, n);
	else
		memcpy((void *)(uintptr_t)a, buf, n);
	return 0;
}

void trap_line_put(struct trap_line *l, const char *s)
{
	while (*s && l->n < sizeof(l->buf) - 1)
		l->buf[l->n++] = *s++;
}

void trap_line_hex(struct trap_line *l, uint64_t v)
{
	char digits[19] = "0x";
	int n = 2;

	for (int shift = 60; shift >= 0; shift -= 4)
		if (v >> shift || shift == 0 || n > 2)
			digits[n++] = "0123456789abcdef"[(v >> shift) & 0xf];
	digits[n] = '\0';
	trap_line_put(l, digits);
}

/*
 * The process ends here: an access to the device that is not emulated must
 * not run on as if it had happened.
 */
void trap_line_exit(struct trap_line *l)
{
	trap_line_put(l, "\n");
	if (trap_unsupported_hook)
		trap_unsupported_hook(l->buf, l->n);
	/* nothing is left to do if stderr is gone: the exit status still says it */
	(void)!write(STDERR_FILENO, l->buf, l->n);
	_exit(IOMAP_TRAP_EXIT_UNSUPPORTED);
}
