/* guard-test.c: a SIGBUS or SIGSEGV inside a timed kernel is that run's error, and the next run works */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "iomap/strategy.h"
#include "kernels.h"
#include "clock.h"

/*
 * A real device faults when its BAR goes away (hot unplug, a truncated
 * resource file); a file mapping past the file's end does the same thing
 * safely: the access raises SIGBUS.  A read-only mapping written to raises
 * SIGSEGV, as a write would on a pci target mapped without --allow-write.
 */
static int failures;

static void check(int ok, const char *what, const char *detail)
{
	printf("%s: %s%s%s\n", ok ? "ok" : "FAIL", what, detail ? ": " : "", detail ? detail : "");
	failures += !ok;
}

/* The kernel of family fam, op and width in the strategy the kernel's readl is, on MMIO. */
static const struct rb_kernel *kernel(enum regbench_family fam, const char *op, unsigned int bits)
{
	const char *strategy = iomap_strategy_kernel_single()->id;

	for (size_t i = 0; i < rb_nr_kernels; i++)
		if (rb_kernels[i].family == &rb_families[fam] && !strcmp(rb_kernels[i].op, op) &&
		    rb_kernels[i].bits == bits && !strcmp(rb_kernels[i].strategy, strategy) &&
		    rb_kernels[i].space == IOMAP_SPACE_MMIO)
			return &rb_kernels[i];
	fprintf(stderr, "guard-test: no kernel %s/%s%u/%s\n", rb_families[fam].name, op, bits, strategy);
	exit(2);
}

/* A kernel that sends its own process a signal, as `kill -SEGV PID` would, from inside the guarded run. */
static int sent_signo, sent_by_queue;

static uint64_t send_signal(const struct rb_kernel_arg *a, uint64_t iters)
{
	(void)a;
	(void)iters;
	if (sent_by_queue)
		sigqueue(getpid(), sent_signo, (union sigval){ 0 });
	else
		kill(getpid(), sent_signo);
	return 0;
}

/*
 * In a child: signo sent with kill (or sigqueue) inside a guarded run, or
 * outside one (the guard is installed by then: main ran guarded runs
 * before), must not be taken for a fault:
 * the child dies of it (or, under a sanitizer, its handler reports it and
 * exits non-zero), and never gets a benchmark error (exit 3) or carries on
 * (exit 4).
 */
static void check_sent(int signo, int queue, int armed, const char *what)
{
	struct rb_kernel_arg a = { 0 };
	struct rb_clock clk = { .core_fd = -1 };
	struct rb_span span;
	char why[200];
	pid_t child;
	int status;

	fflush(stdout);
	child = fork();
	if (child == 0) {
		sent_signo = signo;
		sent_by_queue = queue;
		if (armed && rb_guarded_run(send_signal, &a, 1, &clk, &span, why, sizeof(why)))
			_exit(3);
		if (!armed)
			send_signal(&a, 1);
		_exit(4);
	}
	if (waitpid(child, &status, 0) != child)
		status = 4 << 8;
	check(((WIFSIGNALED(status) && WTERMSIG(status) == signo) ||
	       (WIFEXITED(status) && WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 3 &&
		WEXITSTATUS(status) != 4)),
	      what, WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : WEXITSTATUS(status) == 3 ? "taken for a fault"
				       : WEXITSTATUS(status) == 4 ? "ignored" : "exited non-zero");
}

/* A page of a file that is then cut to nothing: touching it raises SIGBUS. */
static void *vanished_page(size_t page)
{
	char path[] = "/tmp/regbench-guard-XXXXXX";
	int fd = mkstemp(path);
	void *p;

	if (fd < 0 || ftruncate(fd, (off_t)page)) {
		perror("guard-test: temporary file");
		exit(2);
	}
	p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED || ftruncate(fd, 0)) {
		perror("guard-test: mapping");
		exit(2);
	}
	unlink(path);
	close(fd);
	return p;
}

int main(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	const struct rb_kernel *rd = kernel(REGBENCH_THRPT, "read", 32), *wr = kernel(REGBENCH_THRPT, "write", 32);
	void *gone = vanished_page(page), *ro, *none, *ram;
	struct rb_kernel_arg a = { 0 };
	struct rb_clock clk = { .core_fd = -1 };	/* the timer only: no core-cycle counter */
	struct rb_span span = { 0 };
	char why[200], want[80];
	pid_t child;
	int status;

	a.io = (void __iomem __force *)gone;
	snprintf(want, sizeof(want), "SIGBUS (bus error) at address %p during the access", gone);
	check(rb_guarded_run(rd->fn, &a, 100, &clk, &span, why, sizeof(why)) == -1 && !strcmp(why, want),
	      "a read of a vanished mapping is SIGBUS, reported with its address", why);

	ram = calloc(1, page);
	a.io = (void __iomem __force *)ram;
	check(rb_guarded_run(rd->fn, &a, 1000, &clk, &span, why, sizeof(why)) == 0 && span.ticks > 0,
	      "the next run on good memory completes and is timed", NULL);

	ro = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	a.io = (void __iomem __force *)ro;
	check(rb_guarded_run(wr->fn, &a, 100, &clk, &span, why, sizeof(why)) == -1 && strstr(why, "SIGSEGV"),
	      "a write to a read-only mapping is SIGSEGV", why);
	check(rb_guarded_run(rd->fn, &a, 100, &clk, &span, why, sizeof(why)) == 0,
	      "reading the same read-only mapping works", NULL);

	none = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	a.io = (void __iomem __force *)none;
	check(rb_guarded_run(rd->fn, &a, 100, &clk, &span, why, sizeof(why)) == -1 && strstr(why, "SIGSEGV"),
	      "a read of an inaccessible page is SIGSEGV", why);

	/*
	 * Outside a guarded run the fault is not the guard's: the previous
	 * handler gets it, so the process dies of SIGBUS (or, under a
	 * sanitizer, its handler reports the fault and exits non-zero).
	 */
	fflush(stdout);
	child = fork();
	if (child == 0) {
		volatile unsigned int *p = gone;
		(void)*p;
		_exit(0);
	}
	check(waitpid(child, &status, 0) == child &&
	      ((WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS) || (WIFEXITED(status) && WEXITSTATUS(status))),
	      "a fault outside a guarded run still ends the process", NULL);

	check_sent(SIGSEGV, 0, 1, "kill -SEGV during a guarded run is no fault: the process dies of it");
	check_sent(SIGBUS, 0, 1, "kill -BUS during a guarded run is no fault: the process dies of it");
	check_sent(SIGSEGV, 1, 1, "sigqueue SIGSEGV during a guarded run is no fault: the process dies of it");
	check_sent(SIGSEGV, 0, 0, "kill -SEGV after a guarded run, the guard installed: the process dies of it");

	free(ram);
	printf("guard-test: %s\n", failures ? "FAILED" : "all passed");
	return failures != 0;
}
