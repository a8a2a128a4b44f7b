// main.cc: regbench's run: the session built from the command line, the context from each fact's owner, the benchmarks run; the one place an error ends it
#include <errno.h>
#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#ifdef REGBENCH_HAVE_LIKWID
#include <likwid.h>
#endif

#include "console.h"
#include "contract.h"
#include "error.h"
#include "families.h"
#include "flags.h"
#include "identity.h"
#include "inkernel.h"
#include "measure.h"
#include "output.h"
#include "selfcheck.h"
#include "session.h"
#include "signals.h"

#include "commit.h"	// REGBENCH_COMMIT, made at build time (commit.cmake)

#ifndef REGBENCH_VERSION
#define REGBENCH_VERSION "unknown"
#endif
#ifndef REGBENCH_BUILD_TYPE
#define REGBENCH_BUILD_TYPE "unknown"
#endif
#ifndef REGBENCH_KMOD
#define REGBENCH_KMOD "regbench.ko"
#endif

namespace {

std::string with_kmod_hint(const std::string &why);

void list_targets()
{
	for (size_t i = 0; i < iomap_target_kind_count(); i++) {
		char why[200];
		bool ok = iomap_target_kind_probe(i, why, sizeof(why)) == 0;

		printf("%-6s %-14s %s\n      %s\n", iomap_target_kind_name(i), ok ? "available" : "not available",
		       iomap_target_kind_grammar(i), iomap_target_kind_help(i));
		if (!ok)
			printf("      why not: %s\n", errno == ENOENT && !strcmp(iomap_target_kind_name(i), "kernel")
						   ? with_kmod_hint(why).c_str() : why);
		else
			iomap_target_kind_describe(i, stdout);
	}
	printf("\nA device bound to a driver, or ports a driver claims, can be used anyway with --force.\n");
}

// Pins to cpu, by default the highest CPU of the affinity mask (CPU 0 takes most interrupts).
int pin(int cpu)
{
	cpu_set_t allowed, set;
	std::string list;
	int highest = -1;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		throw rb_error("--cpu", std::string("cannot read this process's CPU affinity: ") + strerror(errno),
			       "run without --cpu");
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &allowed)) {
			list += (list.empty() ? "" : ",") + std::to_string(c);
			highest = c;
		}
	if (cpu < 0)
		cpu = highest;
	else if (!CPU_ISSET(cpu, &allowed))
		throw rb_error("--cpu", "CPU " + std::to_string(cpu) + " is not one this process may use", "one of " + list);
#ifdef REGBENCH_HAVE_LIKWID
	if (likwid_pinThread(cpu))
		return cpu;
#endif
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		throw rb_error("--cpu", "cannot pin to CPU " + std::to_string(cpu) + ": " + strerror(errno), "one of " + list);
	return cpu;
}

std::string cpu_model()
{
	char model[128];

	rb_cpu_model(model, sizeof(model));
	return *model ? model : "unknown";
}

std::string fmt(double v, const char *f = "%.0f")
{
	char buf[64];

	snprintf(buf, sizeof(buf), f, v);
	return buf;
}

// The library's reason a driver owns the device or ports, "... (unbind it first)", with the flag
// that overrides it: "... (unbind it first, or override with --force)".
/*
 * The one command that loads the module, for a kernel: target that finds none
 * loaded: modprobe where the module is installed for this kernel (as
 * scripts/guest installs it), else insmod of the one this regbench built.
 */
std::string with_kmod_hint(const std::string &why)
{
	struct utsname u;
	std::string load;

	uname(&u);
	FILE *dep = fopen((std::string("/lib/modules/") + u.release + "/modules.dep").c_str(), "re");
	char line[512];
	while (dep && load.empty() && fgets(line, sizeof(line), dep))
		if (strstr(line, "/regbench.ko:"))
			load = "modprobe regbench";
	if (dep)
		fclose(dep);
	if (load.empty())
		load = std::string(access(REGBENCH_KMOD, R_OK) ? "build it with cmake --build BUILD --target kmod, then " : "") +
		       "insmod " + REGBENCH_KMOD;
	size_t open = why.rfind(" (");
	return (open == std::string::npos ? why : why.substr(0, open)) + " (" + load + ")";
}

std::string with_force_hint(const std::string &why)
{
	if (why.empty() || why.back() != ')')
		return why + " (override with --force)";
	return why.substr(0, why.size() - 1) + ", or override with --force)";
}

// --allow-write and --force are about hardware: on ram or trap they would mean nothing.
void check_hardware_flags(const rb_options &o, const iomap_target &t)
{
	if (t.hardware)
		return;
	if (o.permit.write_len)
		throw rb_error("--allow-write", std::string("target '") + t.spec +
			       "' is not hardware: its write families run without it", "drop --allow-write");
	if (o.permit.force)
		throw rb_error("--force", std::string("target '") + t.spec + "' is not hardware: no driver can own it",
			       "drop --force");
}

/*
 * A kernel: target's benchmarks are timed in the kernel, whose timer pair
 * costs what it costs there: the clock's overhead becomes the module's own
 * (the median of as many empty pairs as rb_clock_init times), so that
 * subtracting it means the same on both sides.  The counter and its step
 * are the same.
 */
void in_kernel(rb_session &s)
{
	int fd = iomap_target_kernel_fd(&s.target);
	std::vector<uint64_t> empty(20001);
	char why[200];

	if (fd < 0)
		return;
	if (rb_inkernel_empty(fd, s.clock.timer, empty.data(), empty.size(), why, sizeof(why)))
		throw rb_error(std::string("target '") + s.target.spec + "': " + why + " (rmmod regbench, insmod it again)");
	s.clock.overhead = rb_median_u64(empty.data(), empty.size());
}

// The context: each fact as its owner gives it (the target's description, the clock's timer, the
// environment's warnings, the machine's identity); bench/context-keys.cc declares each key.
void describe(rb_session &s)
{
	const iomap_target &t = s.target;
	const rb_clock &clk = s.clock;
	const rb_env &e = s.env;
	rb_context &c = s.context;
	struct rb_identity id;
	struct utsname u;

	uname(&u);
	rb_identity_read(&id);
	c.set("regbench_version", REGBENCH_VERSION);
	c.set("regbench_commit", REGBENCH_COMMIT);
	c.set("regbench_build_type", REGBENCH_BUILD_TYPE);
	c.set("arch", rb_arch_name());
	c.set("machine_id", id.machine_id);
	c.set("firmware", id.firmware);
	if (*id.microcode)
		c.set("microcode", id.microcode);
	c.set("target", t.spec);
	c.set("target_kind", iomap_space_name(t.space));
	c.set("target_mapping", iomap_mapping_name(t.mapping));
	c.set("target_what", t.what);
	c.set("target_device", t.device);
	c.set("target_bar", t.bar >= 0 ? std::to_string(t.bar) : "");
	c.set("target_len", std::to_string(t.len));
	c.set("target_iommu", t.iommu);
	c.set("runs_in", iomap_target_kernel_fd(&t) >= 0 ? "kernel" : "user");
	char version[64], built_for[80];
	if (iomap_target_kernel_fd(&t) >= 0 &&
	    !rb_inkernel_info(iomap_target_kernel_fd(&t), version, sizeof(version), built_for, sizeof(built_for))) {
		c.set("kmod_version", version);
		c.set("kmod_kernel", built_for);
	}
	c.set("timer_counter", RB_COUNTER_NAME);
	c.set("tsc_hz", fmt(clk.tick_hz));
	c.set("tsc_hz_source", clk.tick_hz_source);
	c.set("invariant_tsc", clk.invariant ? "true" : "false");
	c.set("core_cycles_source", clk.core_cycles_source);
	c.set("cpu", std::to_string(s.cpu));
	c.set("cpu_model", s.cpu_model);
	c.set("cpu_uarch", rb_cpu_name() ? rb_cpu_name() : "");
	c.set("kernel", std::string(u.sysname) + " " + u.release);
	c.set("timer", rb_timer_text(clk.timer));
	c.set("timer_overhead_cycles", fmt(clk.overhead));
	c.set("timer_resolution_cycles", fmt(clk.resolution));
	c.set("topology", e.topology);
	c.set("env_governor", e.governor);
	c.set("env_boost", e.boost);
	c.set("env_vm", e.vm ? std::string("yes (") + e.hypervisor + ")" : "no");
	c.set("env_smt_siblings", e.smt_siblings);
	// no such CPUs, no figure: 0 would say they are idle
	c.set("env_sibling_busy", *e.smt_siblings ? fmt(e.sibling_busy, "%.3f") : "");
	c.set("env_others_busy", e.others ? fmt(e.others_busy, "%.3f") : "");
	c.set("env_loadavg", fmt(e.loadavg, "%.2f"));
	c.set("env_warnings", e.warnings);
	c.set("command_line", s.command.line);
	rb_measure_describe(c);
}

/*
 * --benchmark_context's pairs are the run's labels, kept apart from the
 * context's own keys (a reader tells a label from a fact); a label may not
 * take the name of a key regbench or Google Benchmark sets, which would read
 * as that fact.
 */
void add_labels(rb_session &s)
{
	for (const auto &kv : s.command.benchmark.context) {
		const rb_context_key *k = rb_context_key_find(kv.first);
		if (k && k->when != RB_FORMERLY)
			throw rb_error("--benchmark_context", "'" + kv.first + "' is a key regbench or Google Benchmark sets itself",
				       "choose another key");
		s.context.label(kv.first, kv.second);
	}
}

// A filter that selects none of the benchmarks registered would run nothing and write an empty result.
void check_filter(const rb_session &s)
{
	const rb_filter &filter = s.command.benchmark.filter;

	if (!filter.given().empty() && !s.registry.selected(false))
		throw rb_error("--benchmark_filter", "'" + filter.quoted() + "' matches none of the " +
			       std::to_string(s.registry.all().size()) + " benchmarks on target '" + s.target.spec + "'",
			       "regbench --benchmark_list_tests lists them");
}

// When the last benchmark has run: what only then is known, in the context.
void finish(rb_session &s)
{
	if (rb_interrupted())
		s.context.set("interrupted", rb_signal_name(rb_interrupted()));
	s.context.set("disturbed_benchmarks", std::to_string(s.registry.disturbed_benchmarks()));
	rb_measure_context(s);
}

int run(int argc, char **argv)
{
	rb_benchmark_env_check();
	rb_session s;
	s.command = rb_parse_flags(argc, argv);
	const rb_options &o = s.command.options;
	double budget = 0;
	int repetitions = 3;
	bool repetitions_given = false;
	std::vector<std::string> gb_args = rb_benchmark_args(argv[0], s.command.benchmark, o.quick, &budget, &repetitions,
							     &repetitions_given);
	// repetitions adapt to the noise by default; asked for a number of them, or a quick run, each gets exactly that
	s.measure.run_budget = o.run_budget >= 0 ? o.run_budget : o.quick || repetitions_given ? 0 : atof(RB_RUN_BUDGET);
	s.measure.least = repetitions;
	s.measure.most = s.measure.run_budget > 0 ? 3 * repetitions : repetitions;
	// Google Benchmark calls each benchmark as often as it may repeat; the calls not needed end at once
	for (std::string &a : gb_args)
		if (!a.rfind("--benchmark_repetitions=", 0))
			a = "--benchmark_repetitions=" + std::to_string(s.measure.most);
	std::vector<char *> gb_argv;
	char why[300];

	if (o.action) {
		printf("%s\n", rb_action(s.command));
		return 0;
	}
	if (o.help) {
		rb_usage(stdout);
		return 0;
	}
	if (o.list_targets) {
		list_targets();
		return 0;
	}
	for (std::string &a : gb_args)
		gb_argv.push_back(&a[0]);
	int gb_argc = (int)gb_argv.size();
	gb_argv.push_back(nullptr);
	benchmark::Initialize(&gb_argc, gb_argv.data());
	s.library_debug = rb_benchmark_debug_build();

	s.cpu = pin(o.cpu);
	if (rb_clock_init(&s.clock, why, sizeof(why)))
		throw rb_error("timer", why, "regbench needs a CPU whose " RB_COUNTER_NAME " it can read");
	if (o.self_check)
		return rb_selfcheck(stdout, &s.clock);
	if (iomap_target_open_permit(&s.target, o.target.c_str(), &o.permit, why, sizeof(why)))
		// already "target 'SPEC': why (what to try)"
		throw rb_error(errno == EBUSY ? with_force_hint(why) : errno == ENOENT && !strncmp(o.target.c_str(), "kernel", 6)
			       ? with_kmod_hint(why) : why);
	s.target_open = true;
	in_kernel(s);
	check_hardware_flags(o, s.target);
	std::string bad_sweep = rb_check_sweeps(s.target, o);
	if (!bad_sweep.empty())
		throw rb_error(bad_sweep);
	rb_env_read(&s.env, s.cpu);
	s.cpu_model = cpu_model();
	s.measure.budget = budget;
	describe(s);
	add_labels(s);
	rb_register_families(s);
	check_filter(s);
	s.measure.left = s.registry.selected(true);
	rb_output output(s);
	output.open();

	// Google Benchmark's own text reporters (--benchmark_out_format=console, csv) print its context
	for (const auto &kv : s.context.all())
		benchmark::AddCustomContext(kv.first, kv.second);
	for (const auto &kv : s.context.labels())
		benchmark::AddCustomContext(kv.first, kv.second);
	rb_measure_init(s);
	int status = output.run([&s] { finish(s); });
	benchmark::Shutdown();
	rb_measure_close(s);
	if (!s.device.lost().empty())
		fprintf(stderr, "regbench: target '%s': the device stopped answering: %s (what ran before is kept; "
			"check that it is present and enabled%s%s, and run again)\n", s.target.spec, s.device.lost().c_str(),
			s.target.device[0] ? ": lspci -vv -s " : "", s.target.device[0] ? strchr(s.target.device, ' ') + 1 : "");
	if (rb_interrupted())
		return 128 + rb_interrupted();
	return status ? status : s.registry.any_error() ? 1 : 0;
}

}  // namespace

int main(int argc, char **argv)
{
	try {
		return run(argc, argv);
	} catch (const rb_error &e) {
		fprintf(stderr, "regbench: %s\n", e.what());
		return e.status;
	} catch (const std::logic_error &e) {
		// a mistake in regbench itself (a context key without a row): say so in one line, not an abort
		fprintf(stderr, "regbench: internal error: %s (report it with the command line)\n", e.what());
		return 70;
	} catch (const std::bad_alloc &e) {
		// inside a benchmark it is that benchmark's error (measure.cc), and the run goes on
		fprintf(stderr, "regbench: out of memory: %s outside a benchmark (raise the memory limit, ulimit -v)\n",
			e.what());
		return 1;
	}
}
