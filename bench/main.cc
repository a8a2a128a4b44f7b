// main.cc: regbench's command line, pinning, the JSON context, and the run
#include <errno.h>
#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#ifdef REGBENCH_HAVE_LIKWID
#include <likwid.h>
#endif

#include "contract.h"
#include "env.h"
#include "flags.h"
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

// Seconds one repetition of a benchmark measures at most, unless --benchmark_min_time says otherwise.
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

// The flags given, each with its value: one given twice with different values is refused (which
// would count is a guess).
class Given {
public:
	void add(const std::string &flag, const std::string &value)
	{
		for (const auto &f : flags_)
			if (f.first == flag && f.second != value)
				die(flag, "given twice: '" + f.second + "' and '" + value + "'", "give it once");
		flags_.emplace_back(flag, value);
	}

	bool has(const std::string &flag) const
	{
		return std::any_of(flags_.begin(), flags_.end(), [&](const auto &f) { return f.first == flag; });
	}

	// The first flag given that is none of allowed, or "".
	std::string other_than(std::initializer_list<std::string> allowed) const
	{
		for (const auto &f : flags_)
			if (std::find(allowed.begin(), allowed.end(), f.first) == allowed.end())
				return f.first;
		return "";
	}

private:
	std::vector<std::pair<std::string, std::string>> flags_;
};

// The context keys regbench sets; --benchmark_context may not take one (Google Benchmark keeps the
// first value a key gets).
std::set<std::string> g_context_keys;

void context(const std::string &key, const std::string &value)
{
	g_context_keys.insert(key);
	benchmark::AddCustomContext(key, value);
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
	       "  --self-check      measure primitives with published costs and compare (exit 1 if a figure is\n"
	       "                    off, 3 if some could only be measured on a disturbed machine)\n"
	       "\n"
	       "Google Benchmark's flags work too (--benchmark_min_time=SECONDS is the most one repetition\n"
	       "measures; regbench stops it sooner once its figure settles). Google Benchmark's help:\n\n");
	fflush(stdout);
	benchmark::PrintDefaultHelp();
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

// A whole number as the target spec reads one: decimal, or hex after 0x, never octal (010 is ten),
// nothing before its first digit (no sign, no blank).  *end is where it stops, or nullptr when s
// does not start with a digit.
unsigned long long whole_number(const std::string &s, char **end)
{
	*end = nullptr;
	if (s.empty() || !isdigit((unsigned char)s[0]))
		return 0;
	return strtoull(s.c_str(), end, s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10);
}

// --sizes=LIST / --counts=LIST: positive numbers (decimal or 0x hex) with an optional binary k, m,
// g or t (as in a target spec), comma-separated; returned sorted, each once.
std::vector<size_t> number_list(const char *flag, const std::string &v, unsigned long long max,
				const char *example)
{
	std::vector<size_t> out;

	for (const std::string &item : split(v)) {
		char *end = nullptr;
		errno = 0;
		unsigned long long n = whole_number(item, &end);
		int shift = !end ? 0 : *end == 'k' || *end == 'K' ? 10 : *end == 'm' || *end == 'M' ? 20
			: *end == 'g' || *end == 'G' ? 30 : *end == 't' || *end == 'T' ? 40 : 0;
		if (end && shift)
			end++;
		if (!end || *end || errno || !n || n > (max >> shift))
			die(flag, "bad value '" + item + "' in '" + v + "'",
			    std::string("numbers from 1 to ") + std::to_string(max) + ", k/m/g/t allowed, comma-separated, e.g. " +
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
bool safety_flag(int argc, char **argv, int &i, rb_options &o, Given &given)
{
	std::string v;

	if (!strcmp(argv[i], "--force")) {
		given.add("--force", "");
		o.permit.force = true;
		return true;
	}
	if (!flag(argc, argv, i, "--allow-write", &v))
		return false;
	given.add("--allow-write", v);
	size_t plus = v.find('+');
	char *end1 = nullptr, *end2 = nullptr;
	std::string off = v.substr(0, plus), len = plus == std::string::npos ? "" : v.substr(plus + 1);
	errno = 0;
	unsigned long long o_off = whole_number(off, &end1), o_len = whole_number(len, &end2);
	if (!end1 || !end2 || *end1 || *end2 || errno || !o_len ||
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

// The strategies of --strategy=a,b: each known, named once.
std::vector<std::string> strategy_list(const std::string &v)
{
	std::vector<std::string> out;

	for (const std::string &s : split(v)) {
		if (s.empty())
			die("--strategy", "an empty name in '" + v + "'",
			    "names joined by commas, e.g. --strategy=relaxed,volatile");
		if (!iomap_strategy_find(s.c_str()))
			die("--strategy", "unknown strategy '" + s + "'", "regbench --help lists them");
		if (std::find(out.begin(), out.end(), s) != out.end())
			die("--strategy", "'" + s + "' given twice", "name each strategy once");
		out.push_back(s);
	}
	return out;
}

// Flag combinations that would leave a flag meaning nothing (the target's kind is checked once open).
void check_combinations(const rb_options &o, const Given &given, const rb_benchmark_flags &gb, const rb_output &out)
{
	std::string other;

	if (o.list_targets && !(other = given.other_than({"--list-targets"})).empty())
		die("--list-targets", "takes no other flag, and " + other + " was given",
		    "run regbench --list-targets alone");
	if (o.self_check && !(other = given.other_than({"--self-check", "--cpu"})).empty())
		die("--self-check", "measures the CPU's own primitives and ignores " + other,
		    "give --self-check alone, or with --cpu=N");
	if (gb.list_tests && !gb.run_only.empty())
		die("--benchmark_list_tests", "lists the names and runs nothing, so " + gb.run_only[0] +
		    " means nothing", "drop one of them");
	if (given.has("--benchmark_out_format") && out.out.empty())
		die("--benchmark_out_format", "there is no --benchmark_out file to write in it",
		    "add --benchmark_out=FILE");
	if (given.has("--benchmark_counters_tabular") && out.format != "console" &&
	    (out.out.empty() || out.out_format != "console"))
		die("--benchmark_counters_tabular", "only the console format has columns, and no output is console",
		    "drop it, or use --benchmark_format=console");
	if (given.has("--benchmark_color") && out.format != "console")
		die("--benchmark_color", "only the console format has colours, and --benchmark_format is " + out.format,
		    "drop it");
}

// Reads the command line: regbench's own flags into the options, Google Benchmark's (checked) into
// gb and output.  Anything else, a value given twice differently or a meaningless combination is
// one line and exit 2.
rb_options parse(int argc, char **argv, rb_output *output, rb_benchmark_flags *gb)
{
	rb_options o;
	Given given;

	for (int i = 1; i < argc; i++) {
		std::string a = argv[i], v;
		size_t eq = a.find('=');

		if (a == "--help" || a == "-h") {
			usage();
			exit(0);
		}
		if (rb_benchmark_flag(a, gb, output)) {
			// several --benchmark_context flags add up; flags.cc checks their keys
			if (a.compare(0, eq, "--benchmark_context"))
				given.add(a.substr(0, eq), eq == std::string::npos ? "" : a.substr(eq + 1));
			continue;
		}
		for (const char *bare : {"--quick", "--list-targets", "--self-check", "--force"})
			if (!a.compare(0, eq, bare) && eq != std::string::npos)
				die(bare, "takes no value", std::string("give ") + bare + " alone");
		if (flag(argc, argv, i, "--target", &v)) {
			given.add("--target", v);
			o.target = v;
		} else if (flag(argc, argv, i, "--strategy", &v)) {
			given.add("--strategy", v);
			o.strategies = strategy_list(v);
		} else if (flag(argc, argv, i, "--sizes", &v)) {
			given.add("--sizes", v);
			o.sizes = number_list("--sizes", v, kMaxSize, "8,64,4k,256k,4m");
		} else if (flag(argc, argv, i, "--counts", &v)) {
			given.add("--counts", v);
			o.counts = number_list("--counts", v, kMaxCount, "1,16,1k");
		} else if (flag(argc, argv, i, "--cpu", &v)) {
			char *end;
			long cpu = strtol(v.c_str(), &end, 10);
			given.add("--cpu", v);
			if (v.empty() || *end || cpu < 0 || cpu >= CPU_SETSIZE)
				die("--cpu", "bad CPU number '" + v + "'", "a CPU number as in /proc/cpuinfo");
			o.cpu = (int)cpu;
		} else if (safety_flag(argc, argv, i, o, given)) {
			continue;
		} else if (a == "--quick") {
			given.add(a, "");
			o.quick = true;
		} else if (a == "--list-targets") {
			given.add(a, "");
			o.list_targets = true;
		} else if (a == "--self-check") {
			given.add(a, "");
			o.self_check = true;
		} else if (a[0] == '-') {
			die(a.substr(0, eq), "unknown flag", "regbench --help lists the flags");
		} else {
			die(a, "not a flag", "regbench --help lists the flags");
		}
	}
	check_combinations(o, given, *gb, *output);
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
	context("regbench_version", REGBENCH_VERSION);
	context("regbench_build_type", REGBENCH_BUILD_TYPE);
	context("target", t.spec);
	context("target_kind", iomap_space_name(t.space));
	context("target_mapping", iomap_mapping_name(t.mapping));
	context("target_what", t.what);
	context("target_device", t.device);
	context("target_bar", t.bar >= 0 ? std::to_string(t.bar) : "");
	context("target_len", std::to_string(t.len));
	context("target_iommu", t.iommu);
	context("tsc_hz", fmt(clk.tsc_hz));
	context("tsc_hz_source", clk.tsc_hz_source);
	context("invariant_tsc", clk.invariant ? "true" : "false");
	context("core_cycles_source", clk.core_cycles_source);
	context("cpu", std::to_string(cpu));
	context("cpu_model", cpu_model());
	context("cpu_uarch", rb_cpu_name() ? rb_cpu_name() : "");
	context("kernel", std::string(u.sysname) + " " + u.release);
	context("timer", rb_timer_text(clk.timer));
	context("timer_overhead_cycles", fmt(clk.overhead));
	context("timer_resolution_cycles", fmt(clk.resolution));
	context("counters", "cycles: TSC ticks per access, element or copy, timer and "
			    "loop cost removed; core_cycles: the same in core clock cycles "
			    "(see core_cycles_source); ns; bytes_per_second; lat/: min p50 p90 "
			    "p99 p999 max and outliers (samples beyond Q3 + 3 IQR), TSC ticks");
}

// What Google Benchmark gets: the program's name, its flags as checked, and what regbench sets
// unless the command line does: a short min_time (the most one repetition measures: the TSC
// measurements need little), three repetitions so every result has a median and a coefficient of
// variation.  regbench keeps min_time as its budget and hands Google Benchmark 0: each repetition
// is then one call of one iteration, whose manual time the runner sets, never a search for an
// iteration count: *budget is that min_time, in seconds.
std::vector<std::string> benchmark_args(const char *program, const rb_benchmark_flags &gb, bool quick,
					double *budget)
{
	const std::pair<const char *, const char *> defaults[] = {
		{"--benchmark_min_time=", quick ? kQuickMinTime : kMinTime},
		{"--benchmark_repetitions=", "3"},
	};
	const std::string min_time = defaults[0].first;
	std::vector<std::string> args{program};

	for (const auto &d : defaults)
		if (std::none_of(gb.pass.begin(), gb.pass.end(), [&](const std::string &a) { return !a.rfind(d.first, 0); }))
			args.push_back(std::string(d.first) + d.second);
	args.insert(args.end(), gb.pass.begin(), gb.pass.end());
	for (std::string &a : args)
		if (!a.rfind(min_time, 0)) {
			*budget = strtod(a.c_str() + min_time.size(), nullptr);
			a = min_time + "0";
		}
	return args;
}

// --allow-write and --force are about hardware: on ram or trap they would mean nothing.
void check_hardware_flags(const rb_options &o, const iomap_target &t)
{
	if (t.hardware)
		return;
	if (o.permit.write_len)
		die("--allow-write", std::string("target '") + t.spec + "' is not hardware: its write families run without it",
		    "drop --allow-write");
	if (o.permit.force)
		die("--force", std::string("target '") + t.spec + "' is not hardware: no driver can own it", "drop --force");
}

// --benchmark_context's keys beside regbench's and Google Benchmark's own, which they may not replace.
void add_user_context(const rb_benchmark_flags &gb)
{
	for (const auto &kv : gb.context) {
		if (g_context_keys.count(kv.first) || rb_benchmark_context_key(kv.first) || rb_output_context_key(kv.first) ||
		    rb_measure_context_key(kv.first))
			die("--benchmark_context", "'" + kv.first + "' is a key regbench or Google Benchmark sets itself",
			    "choose another key");
		benchmark::AddCustomContext(kv.first, kv.second);
	}
}

// A filter that selects none of the benchmarks registered would run nothing and write an empty result.
void check_filter(const rb_benchmark_flags &gb, const iomap_target &t)
{
	std::vector<std::string> names = rb_contract_names();

	if (!gb.filter.empty() && !rb_filter_count(gb.filter, names))
		die("--benchmark_filter", "'" + gb.filter + "' matches none of the " + std::to_string(names.size()) +
		    " benchmarks on target '" + t.spec + "'", "regbench --benchmark_list_tests lists them");
}

void add_env_context(const rb_env &e)
{
	context("topology", e.topology);
	context("env_governor", e.governor);
	context("env_boost", e.boost);
	context("env_vm", e.vm ? std::string("yes (") + e.hypervisor + ")" : "no");
	context("env_smt_siblings", e.smt_siblings);
	// no such CPUs, no figure: 0 would say they are idle
	context("env_sibling_busy", *e.smt_siblings ? fmt(e.sibling_busy, "%.3f") : "");
	context("env_others_busy", e.others ? fmt(e.others_busy, "%.3f") : "");
	context("env_loadavg", fmt(e.loadavg, "%.2f"));
	context("env_warnings", e.warnings);
}

}  // namespace

void rb_die(const std::string &what, const std::string &why, const std::string &hint)
{
	die(what, why, hint);
}

int main(int argc, char **argv)
{
	std::string command_line = argv[0];

	for (int i = 1; i < argc; i++)
		command_line += std::string(" ") + argv[i];
	rb_output output;
	rb_benchmark_flags gb;
	rb_benchmark_env_check();
	rb_options o = parse(argc, argv, &output, &gb);
	double budget = 0;
	std::vector<std::string> gb_args = benchmark_args(argv[0], gb, o.quick, &budget);
	std::vector<char *> gb_argv;
	iomap_target t;
	rb_clock clk;
	rb_env env;
	char why[300];

	if (o.list_targets) {
		list_targets();
		return 0;
	}
	for (std::string &a : gb_args)
		gb_argv.push_back(&a[0]);
	int gb_argc = (int)gb_argv.size();
	gb_argv.push_back(nullptr);
	benchmark::Initialize(&gb_argc, gb_argv.data());

	int cpu = pin(o.cpu);
	if (rb_clock_init(&clk, why, sizeof(why)))
		die("timer", why, "regbench needs an x86-64 CPU with a TSC");
	if (o.self_check)
		return rb_selfcheck(stdout, &clk);
	if (iomap_target_open_permit(&t, o.target.c_str(), &o.permit, why, sizeof(why)))
		die(errno == EBUSY ? with_force_hint(why) : why);	// already "target 'SPEC': why (what to try)"
	check_hardware_flags(o, t);
	std::string bad_sweep = rb_check_sweeps(t, o);
	if (!bad_sweep.empty()) {
		iomap_target_close(&t);
		die(bad_sweep);
	}
	rb_env_read(&env, cpu);
	add_context(t, clk, cpu);
	add_env_context(env);
	context("command_line", command_line);
	add_user_context(gb);
	rb_register_families(t, clk, o);
	check_filter(gb, t);
	rb_output_open(output);

	// the input is good: what may make the numbers noisy
	if (!clk.invariant)
		fprintf(stderr, "regbench: warning: the TSC is not invariant: cycle counts drift with the clock\n");
	for (const std::string &w : split_warnings(env.warnings))
		fprintf(stderr, "regbench: note: %s\n", w.c_str());
	// a step of 2 ns or more swallows an access that hits the cache (1-2 ns): said before the sampled families run
	if (clk.resolution / clk.tsc_hz >= 2e-9) {
		std::string sampled;
		for (const rb_family &f : rb_families)
			if (rb_family_sampled(&f))
				sampled += (sampled.empty() ? "" : " and ") + std::string(f.name) + "/";
		fprintf(stderr, "regbench: note: the TSC moves in steps of %.0f ticks (%.1f ns) here: %s figures under one "
			"step are below resolution\n", clk.resolution, clk.resolution / clk.tsc_hz * 1e9, sampled.c_str());
	}
	rb_markers_init();
	rb_output_catch_signals();
	rb_measure_init(clk, budget);
	int status = rb_output_run(output);
	benchmark::Shutdown();
	rb_markers_close();
	if (const char *lost = rb_device_lost())
		fprintf(stderr, "regbench: target '%s': the device stopped answering: %s (what ran before is kept; "
			"check that it is present and enabled%s%s, and run again)\n", t.spec, lost,
			t.device[0] ? ": lspci -vv -s " : "", t.device[0] ? strchr(t.device, ' ') + 1 : "");
	iomap_target_close(&t);
	if (rb_interrupted())
		return 128 + rb_interrupted();
	return status ? status : rb_any_error() ? 1 : 0;
}
