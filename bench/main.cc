// main.cc: regbench's command line, pinning, the JSON context, and the run
#include <errno.h>
#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#ifdef REGBENCH_HAVE_LIKWID
#include <likwid.h>
#endif

#include "contract.h"
#include "env.h"
#include "iomap/strategy.h"
#include "output.h"
#include "regbench.h"
#include "selfcheck.h"

#ifndef REGBENCH_VERSION
#define REGBENCH_VERSION "unknown"
#endif
#ifndef REGBENCH_BUILD_TYPE
#define REGBENCH_BUILD_TYPE "unknown"
#endif

namespace {

// Seconds each benchmark runs at least, unless --benchmark_min_time says otherwise.
constexpr const char *kMinTime = "0.05";
constexpr const char *kQuickMinTime = "0.005";

// The largest copy size and _rep count the flags take: a copy beyond 1 TiB fits no window, and a
// _rep buffer of 2^24 elements is already 128 MiB of 64-bit values.
constexpr unsigned long long kMaxSize = 1ull << 40;
constexpr unsigned long long kMaxCount = 1ull << 24;

[[noreturn]] void die(const std::string &line)
{
	fprintf(stderr, "regbench: %s\n", line.c_str());
	exit(2);
}

[[noreturn]] void die(const std::string &what, const std::string &why, const std::string &hint)
{
	die(what + ": " + why + " (" + hint + ")");
}

void usage()
{
	printf("usage: regbench [--target=SPEC] [--strategy=NAME[,NAME...]] [--cpu=N] [--quick]\n"
	       "                [--sizes=LIST] [--counts=LIST]\n"
	       "                [--allow-write=OFF+LEN] [--force] [--list-targets] [--benchmark_...]\n"
	       "\n"
	       "  --target=SPEC     what to measure (default %s); --list-targets shows the kinds\n"
	       "  --strategy=LIST   only these accessor strategies (the libc row stays), of:",
	       IOMAP_DEFAULT_TARGET);
	for (size_t i = 0; i < iomap_nr_strategies; i++)
		printf("\n                      %-16s %s", iomap_strategies[i].name, iomap_strategies[i].help);
	printf("\n"
	       "  --cpu=N           pin to CPU N (default: the highest CPU this process may use)\n"
	       "  --quick           fewer sizes and counts, short runs: the whole suite in seconds\n"
	       "  --sizes=LIST      copy sizes in bytes, e.g. --sizes=8,64,4k,256k,4m (k, m, g: binary);\n"
	       "                    each must fit the target's copy window\n"
	       "  --counts=LIST     _rep counts (elements), e.g. --counts=1,16,1k\n"
	       "  --list-targets    every target kind: available here or not, and why; PCI devices and BARs\n"
	       "  --allow-write=OFF+LEN  pci:/port: targets are read-only; allow writes to these bytes\n"
	       "                    (from the start of the BAR or port range), e.g. --allow-write=0x4+4\n"
	       "  --force           map a PCI device although a kernel driver is bound to it, or use\n"
	       "                    ports that /proc/ioports says a driver claims\n"
	       "  --self-check      measure primitives with published costs and compare (exit 1 if off)\n"
	       "\n"
	       "Google Benchmark's flags work too: --benchmark_filter=REGEX, --benchmark_out=FILE,\n"
	       "--benchmark_out_format=json, --benchmark_repetitions=N, --benchmark_min_time=SECONDS, ...\n");
}

// --name=value or --name value; advances i past a separate value.
bool flag(int argc, char **argv, int &i, const char *name, std::string *value)
{
	size_t n = strlen(name);

	if (strncmp(argv[i], name, n))
		return false;
	if (argv[i][n] == '=') {
		*value = argv[i] + n + 1;
		return true;
	}
	if (argv[i][n] != '\0')
		return false;
	if (i + 1 >= argc)
		die(name, "needs a value", std::string("e.g. ") + name + "=...");
	*value = argv[++i];
	return true;
}

std::vector<std::string> split(const std::string &s, const std::string &sep = ",")
{
	std::vector<std::string> out;
	size_t start = 0, at;

	do {
		at = s.find(sep, start);
		out.push_back(s.substr(start, at - start));
		start = at + sep.size();
	} while (at != std::string::npos);
	return out;
}

// --sizes=LIST / --counts=LIST: positive numbers (decimal or 0x hex) with an optional binary k, m
// or g, comma-separated; returned sorted, each once.
std::vector<size_t> number_list(const char *flag, const std::string &v, unsigned long long max,
				const char *example)
{
	std::vector<size_t> out;

	for (const std::string &item : split(v)) {
		char *end = nullptr;
		errno = 0;
		unsigned long long n = item.empty() || item[0] == '-' ? 0 : strtoull(item.c_str(), &end, 0);
		int shift = !end ? 0 : *end == 'k' || *end == 'K' ? 10 : *end == 'm' || *end == 'M' ? 20
			: *end == 'g' || *end == 'G' ? 30 : 0;
		if (end && shift)
			end++;
		if (!end || *end || errno || !n || n > (max >> shift))
			die(flag, "bad value '" + item + "' in '" + v + "'",
			    std::string("numbers from 1 to ") + std::to_string(max) + ", k/m/g allowed, comma-separated, e.g. " +
			    flag + "=" + example);
		out.push_back((size_t)(n << shift));
	}
	std::sort(out.begin(), out.end());
	out.erase(std::unique(out.begin(), out.end()), out.end());
	return out;
}

std::vector<std::string> split_warnings(const std::string &w)
{
	return w.empty() ? std::vector<std::string>{} : split(w, "; ");
}

// --- hardware safety flags (pci:, port:) --------------------------------------------------------
// --allow-write=OFF+LEN names the only bytes (from the start of the BAR or port range) that write
// families may touch; --force maps a device although a kernel driver is bound to it (or uses ports
// a driver claims).
bool safety_flag(int argc, char **argv, int &i, rb_options &o)
{
	std::string v;

	if (!strcmp(argv[i], "--force")) {
		o.permit.force = true;
		return true;
	}
	if (!flag(argc, argv, i, "--allow-write", &v))
		return false;
	size_t plus = v.find('+');
	char *end1 = nullptr, *end2 = nullptr;
	std::string off = v.substr(0, plus), len = plus == std::string::npos ? "" : v.substr(plus + 1);
	errno = 0;
	unsigned long long o_off = strtoull(off.c_str(), &end1, 0), o_len = strtoull(len.c_str(), &end2, 0);
	if (off.empty() || len.empty() || *end1 || *end2 || errno || off[0] == '-' || len[0] == '-' || !o_len ||
	    o_off + o_len < o_off)
		die("--allow-write", "bad window '" + v + "'",
		    "OFF+LEN in bytes from the start of the BAR or port range, e.g. --allow-write=0x4+4");
	o.permit.write_off = o_off;
	o.permit.write_len = o_len;
	return true;
}

// The library's reason a driver owns the device or ports, "... (unbind it first)", with the flag
// that overrides it: "... (unbind it first, or override with --force)".
std::string with_force_hint(const std::string &why)
{
	if (why.empty() || why.back() != ')')
		return why + " (override with --force)";
	return why.substr(0, why.size() - 1) + ", or override with --force)";
}
// --- end of hardware safety flags ---------------------------------------------------------------

// Takes regbench's own flags, and the output flags it handles for Google Benchmark, out of argv;
// leaves the program name and the rest.
rb_options parse(int &argc, char **argv, rb_output *output)
{
	rb_options o;
	int out = 1;

	for (int i = 1; i < argc; i++) {
		std::string v;

		if (rb_output_flag(argv[i], output)) {
			continue;
		} else if (flag(argc, argv, i, "--target", &v)) {
			o.target = v;
		} else if (flag(argc, argv, i, "--strategy", &v)) {
			for (const std::string &s : split(v)) {
				if (!iomap_strategy_find(s.c_str()))
					die("--strategy", "unknown strategy '" + s + "'", "regbench --help lists them");
				o.strategies.push_back(s);
			}
		} else if (flag(argc, argv, i, "--sizes", &v)) {
			o.sizes = number_list("--sizes", v, kMaxSize, "8,64,4k,256k,4m");
		} else if (flag(argc, argv, i, "--counts", &v)) {
			o.counts = number_list("--counts", v, kMaxCount, "1,16,1k");
		} else if (flag(argc, argv, i, "--cpu", &v)) {
			char *end;
			long cpu = strtol(v.c_str(), &end, 10);
			if (v.empty() || *end || cpu < 0 || cpu >= CPU_SETSIZE)
				die("--cpu", "bad CPU number '" + v + "'", "a CPU number as in /proc/cpuinfo");
			o.cpu = (int)cpu;
		} else if (safety_flag(argc, argv, i, o)) {
			continue;
		} else if (!strcmp(argv[i], "--quick")) {
			o.quick = true;
		} else if (!strcmp(argv[i], "--list-targets")) {
			o.list_targets = true;
		} else if (!strcmp(argv[i], "--self-check")) {
			o.self_check = true;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage();
			exit(0);
		} else {
			argv[out++] = argv[i];
		}
	}
	argc = out;
	argv[argc] = nullptr;
	return o;
}

void list_targets()
{
	for (size_t i = 0; i < iomap_target_kind_count(); i++) {
		char why[200];
		bool ok = iomap_target_kind_probe(i, why, sizeof(why)) == 0;

		printf("%-5s %-14s %s\n      %s\n", iomap_target_kind_name(i), ok ? "available" : "not available",
		       iomap_target_kind_grammar(i), iomap_target_kind_help(i));
		if (!ok)
			printf("      why not: %s\n", why);
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
		die("--cpu", std::string("cannot read this process's CPU affinity: ") + strerror(errno),
		    "run without --cpu");
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &allowed)) {
			list += (list.empty() ? "" : ",") + std::to_string(c);
			highest = c;
		}
	if (cpu < 0)
		cpu = highest;
	else if (!CPU_ISSET(cpu, &allowed))
		die("--cpu", "CPU " + std::to_string(cpu) + " is not one this process may use", "one of " + list);
#ifdef REGBENCH_HAVE_LIKWID
	if (likwid_pinThread(cpu))
		return cpu;
#endif
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("--cpu", "cannot pin to CPU " + std::to_string(cpu) + ": " + strerror(errno), "one of " + list);
	return cpu;
}

std::string cpu_model()
{
	std::ifstream f("/proc/cpuinfo");
	std::string line;

	while (std::getline(f, line))
		if (line.rfind("model name", 0) == 0)
			return line.substr(line.find(':') + 2);
	return "unknown";
}

std::string fmt(double v, const char *f = "%.0f")
{
	char buf[64];

	snprintf(buf, sizeof(buf), f, v);
	return buf;
}

void add_context(const iomap_target &t, const rb_clock &clk, int cpu)
{
	struct utsname u;

	uname(&u);
	benchmark::AddCustomContext("regbench_version", REGBENCH_VERSION);
	benchmark::AddCustomContext("regbench_build_type", REGBENCH_BUILD_TYPE);
	benchmark::AddCustomContext("target", t.spec);
	benchmark::AddCustomContext("target_kind", iomap_space_name(t.space));
	benchmark::AddCustomContext("target_mapping", iomap_mapping_name(t.mapping));
	benchmark::AddCustomContext("target_what", t.what);
	benchmark::AddCustomContext("target_device", t.device);
	benchmark::AddCustomContext("target_bar", t.bar >= 0 ? std::to_string(t.bar) : "");
	benchmark::AddCustomContext("target_len", std::to_string(t.len));
	benchmark::AddCustomContext("tsc_hz", fmt(clk.tsc_hz));
	benchmark::AddCustomContext("tsc_hz_source", clk.tsc_hz_source);
	benchmark::AddCustomContext("invariant_tsc", clk.invariant ? "true" : "false");
	benchmark::AddCustomContext("core_hz_estimate", fmt(clk.core_hz));
	benchmark::AddCustomContext("core_hz_source", clk.core_hz_source);
	benchmark::AddCustomContext("core_cycles_source", clk.core_cycles_source);
	benchmark::AddCustomContext("cpu", std::to_string(cpu));
	benchmark::AddCustomContext("cpu_model", cpu_model());
	benchmark::AddCustomContext("kernel", std::string(u.sysname) + " " + u.release);
	benchmark::AddCustomContext("timer", "lfence;rdtsc .. rdtscp;lfence");
	benchmark::AddCustomContext("timer_overhead_cycles", fmt(clk.overhead));
	benchmark::AddCustomContext("timer_resolution_cycles", fmt(clk.resolution));
	benchmark::AddCustomContext("counters", "cycles: TSC ticks per access, element or copy, timer and "
						"loop cost removed; core_cycles: the same in core clock cycles "
						"(see core_cycles_source); ns; bytes_per_second; lat/: min p50 p90 "
						"p99 p999 max and outliers (samples beyond Q3 + 3 IQR), TSC ticks");
}

// Google Benchmark flags regbench sets unless the command line does: a short
// min_time (the TSC measurements need little), three repetitions so every
// result has a median and a coefficient of variation.
void default_flags(int &argc, char **&argv, bool quick, std::vector<std::string> &store,
		   std::vector<char *> &args)
{
	const std::pair<const char *, const char *> defaults[] = {
		{"--benchmark_min_time", quick ? kQuickMinTime : kMinTime},
		{"--benchmark_repetitions", "3"},
	};

	args.assign(argv, argv + argc);
	for (const auto &d : defaults) {
		bool given = false;
		for (int i = 1; i < argc; i++)
			given |= !strncmp(argv[i], d.first, strlen(d.first));
		if (!given)
			store.push_back(std::string(d.first) + "=" + d.second);
	}
	for (std::string &s : store)
		args.push_back(&s[0]);
	argc = (int)args.size();
	args.push_back(nullptr);
	argv = args.data();
}

void add_env_context(const rb_env &e)
{
	benchmark::AddCustomContext("topology", e.topology);
	benchmark::AddCustomContext("env_governor", e.governor);
	benchmark::AddCustomContext("env_boost", e.boost);
	benchmark::AddCustomContext("env_vm", e.vm ? std::string("yes (") + e.hypervisor + ")" : "no");
	benchmark::AddCustomContext("env_smt_siblings", e.smt_siblings);
	benchmark::AddCustomContext("env_sibling_busy", fmt(e.sibling_busy, "%.3f"));
	benchmark::AddCustomContext("env_others_busy", fmt(e.others_busy, "%.3f"));
	benchmark::AddCustomContext("env_loadavg", fmt(e.loadavg, "%.2f"));
	benchmark::AddCustomContext("env_warnings", e.warnings);
}

}  // namespace

int main(int argc, char **argv)
{
	std::string command_line = argv[0];

	for (int i = 1; i < argc; i++)
		command_line += std::string(" ") + argv[i];
	rb_output output;
	rb_options o = parse(argc, argv, &output);
	std::vector<std::string> extra;
	std::vector<char *> args;
	iomap_target t;
	rb_clock clk;
	rb_env env;
	char why[300];

	if (o.list_targets) {
		list_targets();
		return 0;
	}
	default_flags(argc, argv, o.quick, extra, args);
	benchmark::Initialize(&argc, argv);
	if (argc > 1)
		die(argv[1], "unknown flag", "regbench --help lists the flags");

	int cpu = pin(o.cpu);
	if (rb_clock_init(&clk, why, sizeof(why)))
		die("timer", why, "regbench needs an x86-64 CPU with rdtscp");
	if (o.self_check)
		return rb_selfcheck(stdout, &clk) ? 1 : 0;
	if (iomap_target_open_permit(&t, o.target.c_str(), &o.permit, why, sizeof(why)))
		die(errno == EBUSY ? with_force_hint(why) : why);	// already "target 'SPEC': why (what to try)"
	std::string bad_sweep = rb_check_sweeps(t, o);
	if (!bad_sweep.empty()) {
		iomap_target_close(&t);
		die(bad_sweep);
	}
	rb_output_open(output);
	if (!clk.invariant)
		fprintf(stderr, "regbench: warning: the TSC is not invariant: cycle counts drift with the clock\n");
	rb_env_read(&env, cpu);
	for (const std::string &w : split_warnings(env.warnings))
		fprintf(stderr, "regbench: note: %s\n", w.c_str());

	add_context(t, clk, cpu);
	add_env_context(env);
	benchmark::AddCustomContext("command_line", command_line);
	rb_markers_init();
	rb_register_families(t, clk, o);
	rb_output_catch_signals();
	int status = rb_output_run(output);
	benchmark::Shutdown();
	rb_markers_close();
	iomap_target_close(&t);
	if (rb_interrupted())
		return 128 + rb_interrupted();
	return status ? status : rb_any_error() ? 1 : 0;
}
