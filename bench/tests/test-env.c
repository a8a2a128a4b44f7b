/* test-env.c: the environment notes from synthetic /proc/stat texts (CPUs by field, the total line, 1-CPU machines, busy siblings and others), contention (synthetic and a real hog on this CPU), a hypervisor's name from its signature */
#define _GNU_SOURCE
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "env.h"

static int failures;

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAIL", what);
	failures += !ok;
}

/* The environment of pinned CPU cpu from two samples, warnings included, nothing else set. */
static struct rb_env env_of(int cpu, const char *siblings, const char *before, const char *after)
{
	struct rb_env e;

	memset(&e, 0, sizeof(e));
	strcpy(e.governor, "performance");
	strcpy(e.boost, "off");
	rb_env_load(&e, cpu, siblings, before, after);
	rb_env_warn(&e);
	return e;
}

static void test_parse(void)
{
	struct rb_cpu_time t[8];
	int n;

	n = rb_env_stat_parse("cpu  345 0 12 1000 5 0 0 0 0 0\n"
			      "cpu0 345 0 12 1000 5 0 0 0 0 0\n"
			      "intr 12345 0 0\nctxt 999\nbtime 1700000000\n", t, 8);
	check(n == 1 && t[0].present && !t[1].present, "the total line \"cpu  345 ...\" is not CPU 345, nor any CPU");
	check(t[0].total == 345 + 12 + 1000 + 5 && t[0].busy == 345 + 12,
	      "busy is user+nice+system+irq+softirq+steal, idle and iowait are not");

	n = rb_env_stat_parse("cpu0 10 20 30 40\ncpu2 1 2 3 4 5 6 7 8 9 10\n", t, 8);
	check(n == 3 && t[0].present && !t[1].present && t[2].present,
	      "CPUs are numbered by their lines; an offline CPU has none");
	check(t[0].total == 100 && t[0].busy == 60, "a kernel's four fields alone are enough");
	check(t[2].total == 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 && t[2].busy == 1 + 2 + 3 + 6 + 7 + 8,
	      "guest and guest_nice are not added again (they are in user and nice)");

	n = rb_env_stat_parse("cpuX 1 2 3 4\ncpu1 1 2\ncpu3a 1 2 3 4\ncpu9 1 2 3 4\ncpu-1 1 2 3 4\n", t, 8);
	check(n == 0, "malformed lines, too few fields and CPUs beyond the table are not CPUs");
	check(rb_env_stat_parse("", t, 8) == 0, "an empty text has no CPUs");
	check(rb_env_stat_parse("cpu0 1 2 3 4", t, 8) == 1, "the last line needs no newline");
}

static void test_load(void)
{
	struct rb_env e;

	/* the guest: one CPU, however busy the machine's total line says it is */
	e = env_of(0, "0", "cpu  100 0 0 100\ncpu0 100 0 0 100\n", "cpu  200 0 0 100\ncpu0 200 0 0 100\n");
	check(e.others == 0 && e.others_busy == 0 && !*e.smt_siblings,
	      "1 CPU: no other CPUs and no siblings to be busy");
	check(!strstr(e.warnings, "other CPUs") && !strstr(e.warnings, "sibling"),
	      "1 CPU: never \"the other CPUs are busy\"");

	/* a fresh 1-CPU machine whose total line once read as CPU 345 */
	e = env_of(0, "", "cpu  345 0 0 10\ncpu0 345 0 0 10\n", "cpu  346 0 0 20\ncpu0 346 0 0 20\n");
	check(e.others == 0 && !strstr(e.warnings, "other CPUs"), "1 CPU, no sibling list: no other CPUs either");

	/* two hyperthreads: the sibling half busy */
	e = env_of(1, "0-1", "cpu0 0 0 0 0\ncpu1 0 0 0 0\n", "cpu0 50 0 0 50\ncpu1 0 0 0 100\n");
	check(!strcmp(e.smt_siblings, "0") && fabs(e.sibling_busy - 0.5) < 1e-12 && e.others == 0,
	      "a busy SMT sibling is measured as one");
	check(strstr(e.warnings, "SMT sibling CPU 0 is 50% busy") && !strstr(e.warnings, "other CPUs"),
	      "a busy sibling is said, and there are no other CPUs");

	/* four CPUs: the pinned one's sibling idle, two others one busy and one idle */
	e = env_of(3, "2,3", "cpu0 0 0 0 0\ncpu1 0 0 0 0\ncpu2 0 0 0 0\ncpu3 0 0 0 0\n",
		   "cpu0 100 0 0 0\ncpu1 0 0 0 100\ncpu2 0 0 0 100\ncpu3 100 0 0 0\n");
	check(e.others == 2 && fabs(e.others_busy - 0.5) < 1e-12 && e.sibling_busy == 0,
	      "other CPUs: busy over total of all of them; the pinned CPU's own load is not counted");
	check(strstr(e.warnings, "the other CPUs are 50% busy") && !strstr(e.warnings, "sibling"),
	      "busy other CPUs are said, an idle sibling is not");

	/* iowait is waiting, not work; steal is time the host took from a CPU that wanted to run */
	e = env_of(0, "0", "cpu0 0 0 0 0\ncpu1 0 0 0 0 0 0 0 0\n", "cpu0 0 0 0 100\ncpu1 0 0 0 10 80 0 0 10\n");
	check(fabs(e.others_busy - 0.1) < 1e-12 && !strstr(e.warnings, "other CPUs"), "iowait is not busy, steal is");

	/* a CPU that went offline during the sample, or one that just came up, is not counted */
	e = env_of(0, "", "cpu0 0 0 0 0\ncpu1 0 0 0 0\n", "cpu0 0 0 0 100\ncpu2 100 0 0 0\n");
	check(e.others == 0 && !strstr(e.warnings, "other CPUs"), "only CPUs listed in both samples count");

	/* no /proc/stat at all */
	e = env_of(0, "", "", "");
	check(e.others == 0 && !*e.warnings, "no /proc/stat: nothing to say");
}

static void test_contended(void)
{
	struct rb_contention a = { .run_delay_ns = 1000000, .involuntary = 3, .steal = 10, .has_run_delay = true };
	struct rb_contention b = a;

	check(!rb_contended(&a, &b), "nothing moved: not contended");
	b.run_delay_ns += RB_RUN_DELAY_NS;
	b.involuntary++;
	check(!rb_contended(&a, &b), "a short wait and its involuntary switch (a kernel thread) are not contention");
	b.run_delay_ns++;
	check(rb_contended(&a, &b), "a wait on the run queue longer than RB_RUN_DELAY_NS is");
	b = a;
	b.steal++;
	check(rb_contended(&a, &b), "time stolen by the host is");
	a.has_run_delay = b.has_run_delay = false;
	b = a;
	b.involuntary++;
	check(rb_contended(&a, &b), "without schedstat an involuntary switch is");
	b = a;
	a.has_stall = b.has_stall = true;
	b.stall_us++;
	check(rb_contended(&a, &b), "without schedstat a CPU pressure stall is");
}

/* A busy loop pinned to this CPU for 200 ms while this process spins too: the scheduler must share it. */
static void test_real_hog(void)
{
	struct rb_contention a, b;
	struct timespec t0, t;
	cpu_set_t one;
	pid_t hog;
	int cpu = sched_getcpu();

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		printf("skip: cannot pin to CPU %d\n", cpu);
		return;
	}
	hog = fork();
	if (hog == 0)
		for (;;)
			;
	rb_contention_read(&a);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 200000000L);
	rb_contention_read(&b);
	kill(hog, SIGKILL);
	waitpid(hog, NULL, 0);
	printf("beside a hog on CPU %d for 200 ms: waited %.1f ms on the run queue, %llu involuntary switches\n", cpu,
	       (double)(b.run_delay_ns - a.run_delay_ns) / 1e6, b.involuntary - a.involuntary);
	check(rb_contended(&a, &b), "a CPU hog on this CPU is seen");
}

/* A hypervisor's CPUID signature is its name once: the VM line said "bhyve bhyve". */
static void test_hypervisor_name(void)
{
	static const char *const cases[][2] = {
		{ "KVMKVMKVM", "KVM" }, { "bhyve bhyve ", "bhyve" }, { "VMwareVMware", "VMware" },
		{ "TCGTCGTCGTCG", "TCG" }, { "Microsoft Hv", "Microsoft Hv" }, { "XenVMMXenVMM", "XenVMM" },
		{ "ACRNACRNACRN", "ACRN" }, { " lrpepyh  vr", " lrpepyh  vr" }, { "", "" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char sig[16], what[64];

		snprintf(sig, sizeof(sig), "%s", cases[i][0]);
		rb_hypervisor_name(sig);
		snprintf(what, sizeof(what), "signature '%s' is '%s' (got '%s')", cases[i][0], cases[i][1], sig);
		check(strcmp(sig, cases[i][1]) == 0, what);
	}
}

int main(void)
{
	test_parse();
	test_load();
	test_contended();
	test_real_hog();
	test_hypervisor_name();
	printf("test-env: %s\n", failures ? "FAILED" : "all passed");
	return failures != 0;
}
