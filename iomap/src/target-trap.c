/* target-trap.c: the trap target: an emulated device whose every access faults, is emulated and logged; its public device side */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "backends.h"
#include "iomap/io.h"
#include "trap-dev.h"

/*
 * The open device.  The handler reaches it through this pointer, so there is
 * one trap target at a time.
 */
static struct trap_dev *dev;
static size_t dev_maplen;
static struct sigaction previous;	/* the SIGSEGV disposition before ours */
static volatile sig_atomic_t emulating;	/* a fault while emulating is not the device's */

/* trap[:MODEL]: the layout the device starts from. */
struct trap_config {
	char model[32];
};

struct trap_dev *trap_dev_of(const struct iomap_target *t)
{
	return t && t->kind == &iomap_target_trap && t->priv && t->priv == dev ? dev : NULL;
}

/* The target hook (iomap_target_fault): ours when the faulting access is to the device. */
static int trap_fault(int signo, siginfo_t *si, void *uc)
{
	int handled;

	if (!dev)
		return 0;
	if (emulating) {
		/* the emulation itself faulted (say, rep movs from a bad buffer): a real bug, pass it on */
		emulating = 0;
		return 0;
	}
	emulating = 1;
	handled = trap_emulate(dev, signo, si, uc);
	emulating = 0;
	return handled;
}

/*
 * Not ours: hand the fault to whoever had SIGSEGV before.  With the default
 * action (or ignore, which the kernel overrides for faults) restore it and
 * return: the instruction runs again and meets it, so a real bug still
 * crashes with the right signal; a signal sent by kill() is raised again.
 */
static void pass_on(int signo, siginfo_t *si, void *uc)
{
	if (previous.sa_flags & SA_SIGINFO) {
		previous.sa_sigaction(signo, si, uc);
	} else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
		previous.sa_handler(signo);
	} else {
		signal(signo, SIG_DFL);
		if (si->si_code <= 0)
			raise(signo);
	}
}

/*
 * The handler the trap device installs asks its own hook, not every kind's
 * (iomap_target_fault, which a program's own handler calls): no other kind
 * emulates faults, and the backend then calls nothing above it.
 */
static void on_sigsegv(int signo, siginfo_t *si, void *uc)
{
	int saved = errno;

	if (trap_fault(signo, si, uc)) {
		errno = saved;
		return;
	}
	errno = saved;
	pass_on(signo, si, uc);
}

static int trap_parse(void *config, const char *args, char *why, size_t whylen)
{
	struct trap_config *c = config;
	const char *m = args[0] ? args + 1 : "default";

	if (args[0] == ',')
		return iomap_fail(why, whylen, EINVAL, "unknown option '%s' (trap takes a model: trap:MODEL)", m);
	/* "trap:" is refused as "ram:" is: a ':' promises a model (an unset variable left it empty) */
	if (!*m || strlen(m) >= sizeof(c->model) || strspn(m, "abcdefghijklmnopqrstuvwxyz0123456789-_") != strlen(m))
		return iomap_fail(why, whylen, EINVAL,
				  "bad model name '%s' (letters, digits, - and _, e.g. trap:default)", m);
	strcpy(c->model, m);
	return 0;
}

static void trap_format(const void *config, char *out, size_t outlen)
{
	snprintf(out, outlen, "trap:%s", ((const struct trap_config *)config)->model);
}

/*
 * Nothing may reach real ports: drop any I/O permission for the window and
 * any I/O privilege level.  Lowering never needs privilege; a kernel built
 * without ioperm (ENOSYS) grants none in the first place.
 */
static void revoke_io(void)
{
#ifdef SYS_ioperm
	syscall(SYS_ioperm, (unsigned long)IOMAP_TRAP_PORT_BASE, (unsigned long)IOMAP_TRAP_PORT_LEN, 0);
	syscall(SYS_iopl, 0);
#endif
}

static void trap_close(struct iomap_target *t)
{
	struct sigaction cur;

	if (!trap_dev_of(t))
		return;
	/* restore the old handler only if nobody installed one over ours */
	if (!sigaction(SIGSEGV, NULL, &cur) && (cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == on_sigsegv)
		sigaction(SIGSEGV, &previous, NULL);
	munmap((void *)dev->win[IOMAP_SPACE_MMIO].base, dev->win[IOMAP_SPACE_MMIO].len);
	munmap(dev, dev_maplen);
	dev = NULL;
	t->priv = NULL;
}

static int trap_open(struct iomap_target *t, const void *config, char *why, size_t whylen)
{
	const struct trap_config *c = config;
	size_t maplen = sizeof(struct trap_dev) + IOMAP_TRAP_MMIO_LEN + IOMAP_TRAP_PORT_LEN;
	struct trap_dev *d;
	struct sigaction sa;
	void *window;

	if (dev) {
		snprintf(why, whylen, "a trap target is already open (close it first: one trap device at a time)");
		errno = EBUSY;
		return -1;
	}
	d = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	window = mmap(NULL, IOMAP_TRAP_MMIO_LEN, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (d == MAP_FAILED || window == MAP_FAILED) {
		snprintf(why, whylen, "cannot map the device: %s (free some memory)", strerror(errno));
		if (d != MAP_FAILED)
			munmap(d, maplen);
		if (window != MAP_FAILED)
			munmap(window, IOMAP_TRAP_MMIO_LEN);
		return -1;
	}
	d->win[IOMAP_SPACE_MMIO] = (struct trap_window){
		.base = (uintptr_t)window, .len = IOMAP_TRAP_MMIO_LEN, .store = (unsigned char *)(d + 1),
	};
	d->win[IOMAP_SPACE_PIO] = (struct trap_window){
		.base = IOMAP_TRAP_PORT_BASE, .len = IOMAP_TRAP_PORT_LEN,
		.store = (unsigned char *)(d + 1) + IOMAP_TRAP_MMIO_LEN,
	};
	if (trap_layout_apply(d, c->model, why, whylen)) {
		munmap(window, IOMAP_TRAP_MMIO_LEN);
		munmap(d, maplen);
		return -1;
	}
	trap_decode_init(&d->xs);
	revoke_io();

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsegv;
	/*
	 * SA_NODEFER: a handler we pass a fault on to may siglongjmp out (the
	 * bench guard does, with sigsetjmp(env, 0)), which must not leave
	 * SIGSEGV blocked.
	 */
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, &previous)) {
		snprintf(why, whylen, "cannot install the SIGSEGV handler: %s", strerror(errno));
		munmap(window, IOMAP_TRAP_MMIO_LEN);
		munmap(d, maplen);
		return -1;
	}
	dev = d;
	dev_maplen = maplen;

	t->base = (void __iomem __force *)window;
	t->len = IOMAP_TRAP_MMIO_LEN;
	t->space = IOMAP_SPACE_MMIO;
	if (trap_ports) {
		t->port = ioport_map(IOMAP_TRAP_PORT_BASE, IOMAP_TRAP_PORT_LEN);
		t->port_len = IOMAP_TRAP_PORT_LEN;
	}
	t->mapping = IOMAP_MAP_TRAP;
	t->writable = true;
	t->reg_off = IOMAP_TRAP_OFF_SCRATCH;
	t->fifo_off = IOMAP_TRAP_OFF_FIFO;
	t->copy_off = IOMAP_TRAP_OFF_COPY;
	t->copy_len = IOMAP_TRAP_COPY_LEN;
	t->priv = d;
	if (trap_ports)
		snprintf(t->what, sizeof(t->what),
			 "emulated device '%s': %u-byte MMIO window (PROT_NONE) and ports %#x+%u, every access trapped",
			 d->layout, IOMAP_TRAP_MMIO_LEN, IOMAP_TRAP_PORT_BASE, IOMAP_TRAP_PORT_LEN);
	else
		snprintf(t->what, sizeof(t->what),
			 "emulated device '%s': %u-byte MMIO window (PROT_NONE), every access trapped; no ports "
			 "(this architecture has no I/O instructions)", d->layout, IOMAP_TRAP_MMIO_LEN);
	return 0;
}

/*
 * Accesses the device cannot take: vector widths whose registers the signal
 * frame does not carry, and code not built on libiomap, which may pick any
 * instruction at run time (glibc's memcpy issues masked AVX-512 stores).
 */
static const char *trap_why_not(const struct iomap_target *t, enum iomap_insn insn, unsigned int bytes)
{
	struct trap_dev *d = trap_dev_of(t);

	if (insn == IOMAP_INSN_ANY)
		return "it emulates the instructions libiomap issues (loads, stores and whole-register vector moves); "
		       "code outside libiomap may pick others at run time, such as masked vector stores";
	if (d && insn == IOMAP_INSN_VECTOR)
		return trap_vector_why_not(&d->xs, bytes);
	return NULL;
}

/* The public device side: each checks that t is the open trap target and the range fits. */
static struct trap_window *window_of(const struct iomap_target *t, enum iomap_space space, size_t off,
				     size_t n)
{
	struct trap_dev *d = trap_dev_of(t);

	if (!d || (space != IOMAP_SPACE_MMIO && space != IOMAP_SPACE_PIO) || off > d->win[space].len ||
	    n > d->win[space].len - off) {
		errno = EINVAL;
		return NULL;
	}
	return &d->win[space];
}

int iomap_trap_set_reg(struct iomap_target *t, enum iomap_space space, size_t off, size_t len,
		       enum iomap_trap_model model, uint64_t value)
{
	struct trap_window *w = window_of(t, space, off, len);

	return w ? trap_reg_add(w, off, len, model, value) : -1;
}

int iomap_trap_poke(struct iomap_target *t, enum iomap_space space, size_t off, const void *buf, size_t n)
{
	struct trap_window *w = window_of(t, space, off, n);

	if (!w)
		return -1;
	memcpy(w->store + off, buf, n);
	return 0;
}

int iomap_trap_peek(const struct iomap_target *t, enum iomap_space space, size_t off, void *buf, size_t n)
{
	struct trap_window *w = window_of(t, space, off, n);

	if (!w)
		return -1;
	memcpy(buf, w->store + off, n);
	return 0;
}

void iomap_trap_reset(struct iomap_target *t)
{
	struct trap_dev *d = trap_dev_of(t);

	if (d)
		trap_layout_apply(d, d->layout, NULL, 0);
}

const struct iomap_trap_access *iomap_trap_log(const struct iomap_target *t, size_t *n)
{
	struct trap_dev *d = trap_dev_of(t);

	*n = d ? d->log_count : 0;
	return d ? d->log : NULL;
}

uint64_t iomap_trap_log_dropped(const struct iomap_target *t)
{
	struct trap_dev *d = trap_dev_of(t);

	return d ? d->log_dropped : 0;
}

void iomap_trap_log_reset(struct iomap_target *t)
{
	struct trap_dev *d = trap_dev_of(t);

	if (d) {
		d->log_count = 0;
		d->log_dropped = 0;
	}
}

const struct iomap_target_kind iomap_target_trap = {
	.name = "trap",
	.grammar = "trap[:MODEL]",
	.help = "emulated device: every access faults, is decoded (x86-64: Zydis; arm64: the syndrome or the "
		"instruction), emulated and logged; models: default, scratch",
	.config_size = sizeof(struct trap_config),
	.parse = trap_parse,
	.format = trap_format,
	.open = trap_open,
	.close = trap_close,
	.why_not = trap_why_not,
	.fault = trap_fault,
};
