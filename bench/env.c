/* env.c: governor, boost, VM, busy SMT siblings and other load, and the CPU topology */
#define _GNU_SOURCE
#include <ctype.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "env.h"

/* First line of a file without its newline, or "" when it cannot be read. */
static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

static void boost_state(char *out, size_t len)
{
	char v[16];

	/* acpi-cpufreq and amd-pstate: 1 = boost allowed; intel_pstate: no_turbo 1 = off */
	read_line("/sys/devices/system/cpu/cpufreq/boost", v, sizeof(v));
	if (*v) {
		snprintf(out, len, "%s", !strcmp(v, "1") ? "on" : "off");
		return;
	}
	read_line("/sys/devices/system/cpu/intel_pstate/no_turbo", v, sizeof(v));
	snprintf(out, len, "%s", *v ? (!strcmp(v, "0") ? "on" : "off") : "unknown");
}

void rb_cpuinfo_field(const char *field, char *out, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	size_t n = strlen(field);

	out[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, field, n) || !colon || strspn(line + n, " \t") != (size_t)(colon - line - n))
			continue;
		colon += strspn(colon + 1, " \t") + 1;
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(out, len, "%s", colon);
		break;
	}
	if (f)
		fclose(f);
}

/* A whole small file (/proc/stat) as a string, or NULL; the caller frees it. */
static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0, got;

	if (!f)
		return NULL;
	for (;;) {
		char *more = realloc(text, len + 4097);

		if (!more) {
			free(text);
			text = NULL;
			break;
		}
		text = more;
		got = fread(text + len, 1, 4096, f);
		len += got;
		text[len] = '\0';
		if (got < 4096)
			break;
	}
	fclose(f);
	return text;
}

int rb_env_stat_parse(const char *text, struct rb_cpu_time *t, int max)
{
	int n = 0;

	for (int c = 0; c < max; c++)
		t[c] = (struct rb_cpu_time){ 0, 0, false };
	for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		unsigned long long v[8] = { 0 };
		const char *p = line + 3;
		char *end;
		int fields = 0;
		long cpu;

		/* "cpuN ..." only: the "cpu  ..." total has no number right after "cpu" */
		if (strncmp(line, "cpu", 3) || !isdigit((unsigned char)*p))
			continue;
		cpu = strtol(p, &end, 10);
		if (end == p || (*end != ' ' && *end != '\t') || cpu < 0 || cpu >= max)
			continue;
		for (p = end; fields < 8; fields++) {
			while (*p == ' ' || *p == '\t')
				p++;
			if (!isdigit((unsigned char)*p))
				break;
			v[fields] = strtoull(p, &end, 10);
			p = end;
		}
		/* user nice system idle are in every kernel's /proc/stat; the rest came later */
		if (fields < 4)
			continue;
		/* user nice system idle iowait irq softirq steal (guest time is already in user and nice) */
		t[cpu].total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
		t[cpu].busy = t[cpu].total - v[3] - v[4];
		t[cpu].present = true;
		if (cpu + 1 > n)
			n = (int)cpu + 1;
	}
	return n;
}

/* Whether cpu is in a sysfs CPU list such as "0-3,8,10-11". */
static bool in_cpu_list(const char *list, int cpu)
{
	while (*list) {
		char *end;
		long lo = strtol(list, &end, 10), hi = lo;

		if (end == list)
			return false;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (cpu >= lo && cpu <= hi)
			return true;
		list = *end == ',' ? end + 1 : end;
		if (*end != ',')
			break;
	}
	return false;
}

void rb_env_load(struct rb_env *e, int cpu, const char *siblings, const char *before, const char *after)
{
	enum { MAX = 1024 };
	static struct rb_cpu_time t0[MAX], t1[MAX];
	unsigned long long sb = 0, st = 0, ob = 0, ot = 0;
	int n;

	rb_env_stat_parse(before, t0, MAX);
	n = rb_env_stat_parse(after, t1, MAX);
	e->smt_siblings[0] = '\0';
	e->others = 0;
	for (int c = 0; c < n; c++) {
		size_t used = strlen(e->smt_siblings);

		/* a CPU listed in both samples whose counters moved forward */
		if (c == cpu || !t0[c].present || !t1[c].present || t1[c].total <= t0[c].total ||
		    t1[c].busy < t0[c].busy)
			continue;
		if (in_cpu_list(siblings, c)) {
			snprintf(e->smt_siblings + used, sizeof(e->smt_siblings) - used, "%s%d", used ? "," : "", c);
			sb += t1[c].busy - t0[c].busy;
			st += t1[c].total - t0[c].total;
		} else {
			e->others++;
			ob += t1[c].busy - t0[c].busy;
			ot += t1[c].total - t0[c].total;
		}
	}
	e->sibling_busy = st ? (double)sb / st : 0;
	e->others_busy = ot ? (double)ob / ot : 0;
}

/* Busy fraction of the SMT siblings of cpu and of every other CPU, over ~100 ms. */
static void load(struct rb_env *e, int cpu)
{
	struct timespec pause = { 0, 100 * 1000 * 1000 };
	char path[96], list[64];
	char *before, *after;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
	read_line(path, list, sizeof(list));
	before = read_text("/proc/stat");
	nanosleep(&pause, NULL);
	after = read_text("/proc/stat");
	rb_env_load(e, cpu, list, before ? before : "", after ? after : "");
	free(before);
	free(after);
	if (getloadavg(&e->loadavg, 1) != 1)
		e->loadavg = -1;
}

/*
 * Sockets, cores, threads per core and caches from sysfs, which every Linux
 * has.  (likwid's topology module would do, but it exits the process where
 * it misses its configuration, as in a minimal guest.)
 */
static void topology(struct rb_env *e)
{
	char path[128], v[32], type[16];
	int cpus = 0, sockets = 0, threads = 1;
	size_t n;

	for (int c = 0;; c++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", c);
		read_line(path, v, sizeof(v));
		if (!*v)
			break;
		cpus++;
		if (atoi(v) + 1 > sockets)
			sockets = atoi(v) + 1;
	}
	read_line("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list", v, sizeof(v));
	for (int c = 1; c < 1024 && *v; c++)
		threads += in_cpu_list(v, c);
	if (!cpus) {
		snprintf(e->topology, sizeof(e->topology), "unknown (no /sys/devices/system/cpu topology)");
		return;
	}
	n = (size_t)snprintf(e->topology, sizeof(e->topology), "%d socket(s), %d core(s) per socket, %d thread(s) per core",
			     sockets, cpus / sockets / threads, threads);
	for (int i = 0; n < sizeof(e->topology); i++) {
		char level[8], size[16];

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		read_line(path, level, sizeof(level));
		if (!*level)
			break;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
		read_line(path, type, sizeof(type));
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		read_line(path, size, sizeof(size));
		if (!strcmp(type, "Instruction"))
			continue;
		n += (size_t)snprintf(e->topology + n, sizeof(e->topology) - n, ", L%s%s %s", level,
				      !strcmp(type, "Data") ? "d" : "", size);
	}
}

static void warn(struct rb_env *e, const char *what)
{
	size_t n = strlen(e->warnings);

	snprintf(e->warnings + n, sizeof(e->warnings) - n, "%s%s", n ? "; " : "", what);
}

void rb_env_read(struct rb_env *e, int cpu)
{
	char path[96];

	memset(e, 0, sizeof(*e));
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
	read_line(path, e->governor, sizeof(e->governor));
	if (!*e->governor)
		strcpy(e->governor, "none");
	boost_state(e->boost, sizeof(e->boost));
	rb_cpu_hypervisor(&e->vm, e->hypervisor, sizeof(e->hypervisor));
	load(e, cpu);
	topology(e);
	rb_env_warn(e);
}

void rb_env_warn(struct rb_env *e)
{
	char line[160];

	e->warnings[0] = '\0';
	if (strcmp(e->governor, "performance") && strcmp(e->governor, "none")) {
		snprintf(line, sizeof(line), "frequency governor '%s' (performance keeps the clock steady)", e->governor);
		warn(e, line);
	}
	if (!strcmp(e->boost, "on"))
		warn(e, "turbo/boost is on (the core clock changes with load and temperature)");
	if (e->vm) {
		snprintf(line, sizeof(line), "running in a VM (%s): the host shares the CPU and may trap or steal time",
			 e->hypervisor);
		warn(e, line);
	}
	if (*e->smt_siblings && e->sibling_busy > 0.1) {
		snprintf(line, sizeof(line), "SMT sibling CPU %s is %.0f%% busy", e->smt_siblings, 100 * e->sibling_busy);
		warn(e, line);
	}
	if (e->others && e->others_busy > 0.25) {
		snprintf(line, sizeof(line), "the other CPUs are %.0f%% busy", 100 * e->others_busy);
		warn(e, line);
	}
}

/* The steal field (the eighth) of this CPU's line in a /proc/stat text, or 0. */
static unsigned long long steal_of(const char *stat, int cpu)
{
	char head[24];
	const char *line;
	unsigned long long v[8] = { 0 };

	snprintf(head, sizeof(head), "\ncpu%d ", cpu);
	line = stat ? strstr(stat, head) : NULL;
	if (!line || sscanf(line + strlen(head), "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
			    &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
		return 0;
	return v[7];
}

void rb_contention_read(struct rb_contention *c)
{
	struct rusage ru;
	unsigned long long on_cpu;
	char line[256];
	char *stat = read_text("/proc/stat");
	int cpu = sched_getcpu();
	FILE *f;

	memset(c, 0, sizeof(*c));
	read_line("/proc/thread-self/schedstat", line, sizeof(line));
	c->has_run_delay = sscanf(line, "%llu %llu", &on_cpu, &c->run_delay_ns) == 2;
	if (!getrusage(RUSAGE_THREAD, &ru))
		c->involuntary = (unsigned long long)ru.ru_nivcsw;
	c->steal = cpu >= 0 ? steal_of(stat, cpu) : 0;
	free(stat);
	if (!c->has_run_delay && (f = fopen("/proc/pressure/cpu", "r"))) {
		c->has_stall = fscanf(f, "some avg10=%*f avg60=%*f avg300=%*f total=%llu", &c->stall_us) == 1;
		fclose(f);
	}
}

bool rb_contended(const struct rb_contention *a, const struct rb_contention *b)
{
	if (b->steal > a->steal)
		return true;
	if (a->has_run_delay && b->has_run_delay)
		return b->run_delay_ns - a->run_delay_ns > RB_RUN_DELAY_NS;
	return b->involuntary > a->involuntary || (a->has_stall && b->has_stall && b->stall_us > a->stall_us);
}

void rb_hypervisor_name(char *sig)
{
	size_t n = strlen(sig);

	for (size_t unit = 1; unit <= n / 2; unit++) {
		size_t i = unit;

		while (i < n && sig[i] == sig[i % unit])
			i++;
		if (i == n) {		/* the whole signature repeats its first `unit` bytes */
			sig[unit] = '\0';
			break;
		}
	}
	for (n = strlen(sig); n && sig[n - 1] == ' '; n--)
		sig[n - 1] = '\0';
}
