/* test-trap-fault.c: what the trap device cannot emulate ends the process clearly; a stray fault still crashes */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trap-check.h"

/* Runs fn in a child with stderr captured; returns the wait status. */
static int in_child(void (*fn)(void), char *err, size_t errlen)
{
	int fd[2], status;
	ssize_t n, got = 0;
	pid_t pid;

	if (pipe(fd))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		dup2(fd[1], STDERR_FILENO);
		close(fd[0]);
		fn();
		_exit(0);
	}
	close(fd[1]);
	while ((n = read(fd[0], err + got, errlen - 1 - got)) > 0)
		got += n;
	err[got] = '\0';
	close(fd[0]);
	waitpid(pid, &status, 0);
	return status;
}

/* An instruction on the device the decoder does not emulate, and what its line must say. */
#ifdef __x86_64__
static void unsupported_on_device(void)
{
	__asm__ __volatile__("incl (%0)" : : "a" (mmio(REG)) : "memory", "cc");
}
static const char *const unsupported_says[] = {
	"iomap: trap: cannot emulate 'inc (%rax)' (inc) at 0x", ", device address 0x",
	"this instruction is not emulated",
};
#else
static void unsupported_on_device(void)
{
	uint32_t v;

	__asm__ __volatile__("ldtr %w0, [%1]" : "=r" (v) : "r" (mmio(REG)) : "memory");
}
static const char *const unsupported_says[] = {
	"iomap: trap: cannot emulate the instruction 0xb84", " at 0x", ", device address 0x",
	"an unprivileged load or store (ldtr/sttr)",
};
#endif

static void stray_fault(void)
{
	/* the default action, not a sanitizer's report, is what the child should meet */
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	struct iomap_target t2;
	char why[256];

	void *elsewhere = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	iomap_target_close(&t);
	sigaction(SIGSEGV, &dfl, NULL);
	if (elsewhere == MAP_FAILED || iomap_target_open(&t2, "trap", why, sizeof(why)))
		_exit(3);
	*(volatile int *)elsewhere = 1;
}

/*
 * qemu-user runs an arm64 program on another machine: /proc/cpuinfo is then
 * the host's, without the "CPU implementer" every arm64 kernel writes.
 */
static int under_qemu_user(void)
{
#ifdef __aarch64__
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	int arm = 0;

	while (f && !arm && fgets(line, sizeof(line), f))
		arm = !strncmp(line, "CPU implementer", 15);
	if (f)
		fclose(f);
	return !arm;
#else
	return 0;
#endif
}

static void test_faults(void)
{
	char err[1024];
	int status;

	if (under_qemu_user()) {
		check_skip("the faults in a child process: under qemu-user (7.2) a child forked here hangs before "
			   "it runs anything (the arm64 guest runs them)");
		return;
	}

	check_context("an unsupported instruction on the device");
	status = in_child(unsupported_on_device, err, sizeof(err));
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == IOMAP_TRAP_EXIT_UNSUPPORTED);
	for (size_t i = 0; i < sizeof(unsupported_says) / sizeof(unsupported_says[0]); i++)
		CHECK(strstr(err, unsupported_says[i]) != NULL);
	if (!CHECK(strchr(err, '\n') == err + strlen(err) - 1) || check_failed)
		fprintf(stderr, "    stderr: %s", err);

	check_context("a stray SIGSEGV elsewhere");
	status = in_child(stray_fault, err, sizeof(err));
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
}

int main(void)
{
	if (trap_open("test-trap-fault"))
		return 1;
	test_faults();
	iomap_target_close(&t);
	return check_report("test-trap-fault");
}
