/* env.h: what on this machine will make numbers noisy, and its shape (topology) */
#ifndef REGBENCH_ENV_H
#define REGBENCH_ENV_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rb_env {
	char governor[32];	/* cpufreq scaling governor of the pinned CPU, or "none" */
	char boost[32];		/* "on", "off" or "unknown" (turbo/boost/precision boost) */
	bool vm;		/* a hypervisor or emulator runs this (bench/arch/ARCH/cpu.c says how it knows) */
	char hypervisor[16];	/* its vendor signature, e.g. "KVMKVMKVM" */
	char smt_siblings[64];	/* other hardware threads of the pinned core, or "" */
	double sibling_busy;	/* their busy fraction over the sample, 0..1 */
	double others_busy;	/* busy fraction of the other CPUs over the sample, 0..1 */
	int others;		/* how many other CPUs (not siblings) the sample saw: 0 on a 1-CPU machine */
	double loadavg;		/* 1-minute load average */
	char topology[160];	/* sockets, cores, threads per core, caches: one line */
	char warnings[512];	/* "; "-separated, empty when nothing stands out */
};

/*
 * Read the environment of CPU `cpu` (sampling /proc/stat for about 100 ms).
 * Only reads: regbench never changes system settings.
 */
void rb_env_read(struct rb_env *e, int cpu);

/*
 * What rb_env_read derives from the texts it reads, apart so tests can give
 * it their own.
 *
 * rb_env_stat_parse: busy and total jiffies of each CPU of a /proc/stat
 * text, from its "cpuN" lines by field (user nice system idle iowait irq
 * softirq steal; idle and iowait are not busy; a kernel with fewer fields
 * counts the rest as 0).  The "cpu" line is the total of all CPUs, not one
 * of them.  t[c].present says whether CPU c was listed.  Returns one more
 * than the highest CPU listed below max, 0 for none.
 *
 * rb_env_load: smt_siblings, sibling_busy, others and others_busy of e for
 * pinned CPU cpu, from /proc/stat texts taken before and after a pause and
 * the pinned CPU's sibling list as sysfs writes it ("0-1", "2,6"; "" for
 * none).  Only CPUs listed in both texts count.
 *
 * rb_env_warn: e's warnings from its other fields: what makes numbers
 * noisy, never a CPU that is not there.
 */
struct rb_cpu_time {
	unsigned long long busy, total;
	bool present;
};
int rb_env_stat_parse(const char *text, struct rb_cpu_time *t, int max);
void rb_env_load(struct rb_env *e, int cpu, const char *siblings, const char *before, const char *after);
void rb_env_warn(struct rb_env *e);

/*
 * What tells that other work shared this thread's CPU between two
 * readings, apart from what the control sees (estimate.h): the time the
 * thread waited runnable on a run queue (/proc/thread-self/schedstat, where
 * the kernel keeps it) or else its involuntary context switches (getrusage), the
 * time the host stole from its CPU (/proc/stat's steal), and, where there is
 * no schedstat, the CPU pressure stall time (/proc/pressure/cpu, of the
 * whole system).  Zero it, then read it at each end.
 */
struct rb_contention {
	unsigned long long run_delay_ns;	/* schedstat's second field */
	unsigned long long involuntary;		/* ru_nivcsw */
	unsigned long long steal;		/* the CPU's steal, in USER_HZ ticks */
	unsigned long long stall_us;		/* /proc/pressure/cpu "some" total */
	bool has_run_delay, has_stall;
};
void rb_contention_read(struct rb_contention *c);

/*
 * Whether other work shared the CPU from a to b: a wait on the run queue of
 * more than RB_RUN_DELAY_NS, or stolen time; without schedstat, an
 * involuntary switch or a stall.  On the development VM, 6% of quiet 20 ms
 * windows had a kernel thread take the CPU for 10-20 us (an involuntary
 * switch that leaves a fastest call alone) and 0.5% waited over 100 us;
 * beside a CPU hog on the same core, half of them waited a millisecond or
 * more.
 */
#define RB_RUN_DELAY_NS 100000ULL
bool rb_contended(const struct rb_contention *a, const struct rb_contention *b);

/*
 * bench/arch/ARCH/cpu.c: whether this runs under a hypervisor and its name
 * ("KVMKVMKVM", "QEMU"), and the CPU's model as a person reads it (x86:
 * /proc/cpuinfo's model name; arm64: the MIDR's implementer and part).
 */
void rb_cpu_hypervisor(bool *vm, char *name, size_t len);
/*
 * A hypervisor's 12-byte CPUID signature repeats its name to fill the bytes
 * ("KVMKVMKVM", "bhyve bhyve ", "VMwareVMware"): sig becomes the name once,
 * without the padding ("KVM", "bhyve", "VMware"); any other text stays.
 */
void rb_hypervisor_name(char *sig);
void rb_cpu_model(char *out, size_t len);

/* Why this CPU is known to be an emulator's, whose loads do not miss caches, or NULL (bench/arch/ARCH/cpu.c). */
const char *rb_cpu_emulated(void);

/* The value of the first line of /proc/cpuinfo that starts with field, or "" (unknown). */
void rb_cpuinfo_field(const char *field, char *out, size_t len);

#ifdef __cplusplus
}
#endif

#endif
