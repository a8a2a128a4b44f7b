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
	bool vm;		/* CPUID hypervisor bit */
	char hypervisor[16];	/* its vendor signature, e.g. "KVMKVMKVM" */
	char smt_siblings[64];	/* other hardware threads of the pinned core, or "" */
	double sibling_busy;	/* their busy fraction over the sample, 0..1 */
	double others_busy;	/* busy fraction of the other CPUs over the sample, 0..1 */
	double loadavg;		/* 1-minute load average */
	char topology[160];	/* sockets, cores, threads per core, caches: one line */
	char warnings[512];	/* "; "-separated, empty when nothing stands out */
};

/*
 * Read the environment of CPU `cpu` (sampling /proc/stat for about 100 ms).
 * Only reads: regbench never changes system settings.
 */
void rb_env_read(struct rb_env *e, int cpu);

#ifdef __cplusplus
}
#endif

#endif
