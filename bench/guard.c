/* guard.c: a fault during a timed access becomes that benchmark's error, not the end of the run */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "iomap/target.h"
#include "kernels.h"
#include "clock.h"

static sigjmp_buf *armed;
static volatile sig_atomic_t fault_signo;
static void *volatile fault_addr;
static struct sigaction previous[2];	/* SIGSEGV, SIGBUS */

/*
 * A signal another process (or this one) sent with kill, sigqueue or tgkill
 * (si_code SI_USER, SI_QUEUE, SI_TKILL: not above 0) is no fault: it goes to
 * the handler installed before, and where that was the default action, the
 * process dies of it as it would have without the guard.
 */
static void pass_on(int signo, siginfo_t *si, void *uc)
{
	const struct sigaction *p = &previous[signo == SIGBUS];

	if (p->sa_flags & SA_SIGINFO) {
		p->sa_sigaction(signo, si, uc);
	} else if (p->sa_handler == SIG_IGN) {
		return;
	} else if (p->sa_handler != SIG_DFL) {
		p->sa_handler(signo);
	} else {
		signal(signo, SIG_DFL);
		raise(signo);
	}
}

/*
 * A target that emulates its accesses by faulting (trap) sees the fault
 * first, whichever handler was installed last.  A fault the kernel raised
 * (si_code above 0) outside a guarded run is not ours: restore the previous
 * handler and return, so the faulting instruction runs again and meets it
 * (a real bug still crashes).  Inside, jump back to rb_guarded_run.
 */
static void on_fault(int signo, siginfo_t *si, void *uc)
{
	if (iomap_target_fault(signo, si, uc))
		return;
	if (si->si_code <= 0) {
		pass_on(signo, si, uc);
		return;
	}
	if (!armed) {
		sigaction(signo, &previous[signo == SIGBUS], NULL);
		return;
	}
	fault_signo = signo;
	fault_addr = si->si_addr;
	siglongjmp(*armed, 1);
}

static void install(void)
{
	static int installed;
	struct sigaction sa;

	if (installed)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	/* SA_NODEFER: sigsetjmp(env, 0) does not restore the mask, so nothing may stay blocked. */
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &previous[0]);
	sigaction(SIGBUS, &sa, &previous[1]);
	installed = 1;
}

static __always_inline uint64_t timed_call(enum rb_timer t, rb_kernel_fn fn, const struct rb_kernel_arg *a,
					   uint64_t iters)
{
	uint64_t t0 = rb_timer_start();

	fn(a, iters);
	return rb_timer_stop(t) - t0;
}

int rb_guarded_run(rb_kernel_fn fn, const struct rb_kernel_arg *a, uint64_t iters,
		   const struct rb_clock *clk, struct rb_span *span, char *why, size_t whylen)
{
	sigjmp_buf env;
	uint64_t c0;

	install();
	if (sigsetjmp(env, 0)) {
		armed = NULL;
		snprintf(why, whylen, "%s at address %p during the access",
			 fault_signo == SIGBUS ? "SIGBUS (bus error)" : "SIGSEGV (segmentation fault)",
			 fault_addr);
		return -1;
	}
	armed = &env;
	c0 = rb_core_read(clk);
	span->ticks = RB_TIMED(clk->timer, timed_call, fn, a, iters);
	span->core = rb_core_read(clk) - c0;
	armed = NULL;
	return 0;
}
