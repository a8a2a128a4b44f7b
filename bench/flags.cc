// flags.cc: the command line: regbench's own flags and Google Benchmark 1.7.1's, each a row of a table, checked before anything runs
#include <errno.h>
#include <sched.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include <benchmark/benchmark.h>

#include "error.h"
#include "flags.h"
#include "iomap/strategy.h"

namespace {

// Seconds one repetition of a benchmark measures at most, unless --benchmark_min_time says otherwise.
constexpr const char *kMinTime = "0.05";
constexpr const char *kQuickMinTime = "0.005";

// The largest copy size and _rep count the flags take: a copy beyond 1 TiB fits no window, and a
// _rep buffer of 2^24 elements is already 128 MiB of 64-bit values.
constexpr unsigned long long kMaxSize = 1ull << 40;
constexpr unsigned long long kMaxCount = 1ull << 24;
// Values in one --sizes or --counts list: each is a benchmark per strategy and width (64 counts make some
// 2600), and Google Benchmark 1.7.1 takes time quadratic in their number to start (4000 benchmarks: 8 s)
constexpr size_t kMaxValues = 64;

constexpr int kMaxRepetitions = 1000;	// each repetition runs every benchmark again
constexpr double kMaxSeconds = 3600;	// per benchmark: an hour

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
std::vector<size_t> number_list(const char *flag, const std::string &v, unsigned long long max, const char *example)
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
			throw rb_error(flag, "bad value '" + item + "' in '" + v + "'",
				       std::string("numbers from 1 to ") + std::to_string(max) +
				       ", k/m/g/t allowed, comma-separated, e.g. " + flag + "=" + example);
		out.push_back((size_t)(n << shift));
	}
	std::sort(out.begin(), out.end());
	out.erase(std::unique(out.begin(), out.end()), out.end());
	if (out.size() > kMaxValues)
		throw rb_error(flag, std::to_string(out.size()) + " values, each a benchmark per strategy and width",
			       "at most " + std::to_string(kMaxValues) + ", e.g. " + flag + "=" + example);
	return out;
}

// The strategies of --strategy=a,b: each known, named once.
std::vector<std::string> strategy_list(const std::string &v)
{
	std::vector<std::string> out;

	for (const std::string &s : split(v)) {
		if (s.empty())
			throw rb_error("--strategy", "an empty name in '" + v + "'",
				       "names joined by commas, e.g. --strategy=relaxed,volatile");
		if (!iomap_strategy_find(s.c_str()))
			throw rb_error("--strategy", "unknown strategy '" + s + "'", "regbench --help lists them");
		if (std::find(out.begin(), out.end(), s) != out.end())
			throw rb_error("--strategy", "'" + s + "' given twice", "name each strategy once");
		out.push_back(s);
	}
	return out;
}

// --allow-write=OFF+LEN names the only bytes (from the start of the BAR or port range) that write
// families may touch.
void allow_write(rb_options &o, const std::string &v)
{
	size_t plus = v.find('+');
	char *end1 = nullptr, *end2 = nullptr;
	std::string off = v.substr(0, plus), len = plus == std::string::npos ? "" : v.substr(plus + 1);

	errno = 0;
	unsigned long long o_off = whole_number(off, &end1), o_len = whole_number(len, &end2);
	if (!end1 || !end2 || *end1 || *end2 || errno || !o_len || o_off + o_len < o_off)
		throw rb_error("--allow-write", "bad window '" + v + "'",
			       "OFF+LEN in bytes from the start of the BAR or port range, e.g. --allow-write=0x4+4");
	o.permit.write_off = o_off;
	o.permit.write_len = o_len;
}

void cpu(rb_options &o, const std::string &v)
{
	char *end;
	long n = strtol(v.c_str(), &end, 10);

	if (v.empty() || *end || n < 0 || n >= CPU_SETSIZE)
		throw rb_error("--cpu", "bad CPU number '" + v + "'", "a CPU number as in /proc/cpuinfo");
	o.cpu = (int)n;
}

void list_strategies(FILE *f)
{
	for (size_t i = 0; i < iomap_nr_strategies; i++)
		fprintf(f, "                      %-16s %s\n", iomap_strategies[i].name, iomap_strategies[i].help);
}

/*
 * regbench's own flags, as Google Benchmark declares its own: the name, what
 * it takes (NULL: a bare flag), its default as --help says it, its help
 * (lines joined by \n) and what sets it.
 */
struct Flag {
	const char *name;
	const char *value;
	const char *initial;
	const char *help;
	void (*set)(rb_options &o, const std::string &v);
	void (*more)(FILE *f);	// more lines of help after its own
};

const Flag kFlags[] = {
	{"--target", "SPEC", IOMAP_DEFAULT_TARGET, "what to measure; --list-targets shows the kinds",
	 [](rb_options &o, const std::string &v) { o.target = v; }, nullptr},
	{"--strategy", "LIST", nullptr, "only these accessor strategies (default: all; the libc row stays), of:",
	 [](rb_options &o, const std::string &v) { o.strategies = strategy_list(v); }, list_strategies},
	{"--cpu", "N", "the highest CPU this process may use", "pin to CPU N", cpu, nullptr},
	{"--quick", nullptr, nullptr, "fewer sizes and counts, short runs: the whole suite in seconds",
	 [](rb_options &o, const std::string &) { o.quick = true; }, nullptr},
	{"--sizes", "LIST", nullptr, "copy sizes in bytes, e.g. --sizes=8,64,4k,256k,4m (k, m, g: binary);\n"
	 "each must fit the target's copy window",
	 [](rb_options &o, const std::string &v) { o.sizes = number_list("--sizes", v, kMaxSize, "8,64,4k,256k,4m"); },
	 nullptr},
	{"--counts", "LIST", nullptr, "_rep counts (elements), e.g. --counts=1,16,1k",
	 [](rb_options &o, const std::string &v) { o.counts = number_list("--counts", v, kMaxCount, "1,16,1k"); },
	 nullptr},
	{"--list-targets", nullptr, nullptr, "every target kind: available here or not, and why; PCI devices and BARs",
	 [](rb_options &o, const std::string &) { o.list_targets = true; }, nullptr},
	{"--allow-write", "OFF+LEN", nullptr, "pci:/port: targets are read-only; allow writes to these bytes\n"
	 "(from the start of the BAR or port range), e.g. --allow-write=0x4+4", allow_write, nullptr},
	{"--force", nullptr, nullptr, "map a PCI device although a kernel driver is bound to it, or use\n"
	 "ports that /proc/ioports says a driver claims",
	 [](rb_options &o, const std::string &) { o.permit.force = true; }, nullptr},
	{"--self-check", nullptr, nullptr, "measure primitives with published costs and compare (exit 1 if a figure is\n"
	 "off, 3 if some could only be measured on a disturbed machine)",
	 [](rb_options &o, const std::string &) { o.self_check = true; }, nullptr},
	{"--help", nullptr, nullptr, "this help; -h too", [](rb_options &o, const std::string &) { o.help = true; },
	 nullptr},
};

// Google Benchmark's flags: what each one's value is.  OUTPUT: a flag regbench handles for Google Benchmark.
enum Kind { BOOL, COUNT, SECONDS, WARMUP, REGEX, UNIT, CONTEXT, LEVEL, PERF, REPORT_ONLY, OUTPUT, OUTPUT_BOOL };

struct BenchmarkFlag {
	const char *name;		// without the leading --
	Kind kind;
	bool run_only;			// means nothing when --benchmark_list_tests only lists the names
	const char *example;		// a value it takes
	std::vector<std::string> allowed;	// OUTPUT: its values ("": any)
};

// Every flag Google Benchmark 1.7.1 reads (benchmark.cc's ParseCommandLineFlags), in its order.
const BenchmarkFlag kBenchmarkFlags[] = {
	{"benchmark_list_tests", BOOL, false, "true", {}},
	{"benchmark_filter", REGEX, false, "^chain/", {}},
	{"benchmark_min_time", SECONDS, true, "0.5", {}},
	{"benchmark_min_warmup_time", WARMUP, true, "0", {}},
	{"benchmark_repetitions", COUNT, true, "5", {}},
	{"benchmark_enable_random_interleaving", BOOL, true, "true", {}},
	{"benchmark_report_aggregates_only", REPORT_ONLY, true, "false", {}},
	{"benchmark_display_aggregates_only", OUTPUT_BOOL, true, "false", {}},
	{"benchmark_format", OUTPUT, true, "json", {"console", "json", "csv"}},
	{"benchmark_out", OUTPUT, true, "FILE", {}},
	{"benchmark_out_format", OUTPUT, true, "json", {"json", "console", "csv"}},
	{"benchmark_color", OUTPUT, true, "auto", {"auto", "true", "false", "yes", "no", "1", "0"}},
	{"benchmark_counters_tabular", OUTPUT_BOOL, true, "true", {}},
	{"benchmark_perf_counters", PERF, true, "CYCLES", {}},
	{"benchmark_context", CONTEXT, true, "accelerator=tcg", {}},
	{"benchmark_time_unit", UNIT, true, "ns", {}},
	{"v", LEVEL, true, "1", {}},
};

const BenchmarkFlag *find_benchmark_flag(const std::string &name)
{
	for (const BenchmarkFlag &f : kBenchmarkFlags)
		if (name == f.name)
			return &f;
	return nullptr;
}

// true/false, yes/no, on/off, 1/0 into *out; false for anything else.
bool boolean(const std::string &v, bool *out)
{
	for (const char *t : {"true", "yes", "1", "on"})
		if (v == t)
			return *out = true;
	for (const char *f : {"false", "no", "0", "off"})
		if (v == f) {
			*out = false;
			return true;
		}
	return false;
}

bool digits(const std::string &v)
{
	return !v.empty() && v.size() <= 9 && v.find_first_not_of("0123456789") == std::string::npos;
}

// A number of seconds as Google Benchmark 1.7.1 reads it (strtod, the whole string), finite.
bool seconds(const std::string &v, double *out)
{
	char *end;

	if (v.empty() || isspace((unsigned char)v[0]))
		return false;
	*out = strtod(v.c_str(), &end);
	return !*end && std::isfinite(*out);
}

void check_seconds(const std::string &flag, const std::string &v)
{
	double s, unused;

	if (!seconds(v, &s) && v.size() > 1 && (v.back() == 's' || v.back() == 'x') &&
	    seconds(v.substr(0, v.size() - 1), &unused))
		throw rb_error(flag, "bad time '" + v + "'",
			       "Google Benchmark 1.7.1 takes a bare number of seconds, e.g. " + flag + "=0.5");
	if (!seconds(v, &s) || s <= 0 || s > kMaxSeconds)
		throw rb_error(flag, "bad time '" + v + "'", "seconds above 0 to 3600, e.g. " + flag + "=0.5");
}

// --benchmark_context=KEY=VALUE[,KEY=VALUE...]: Google Benchmark splits at every ',' and '='.
void context_pairs(const std::string &v, rb_benchmark_flags *f)
{
	const std::string flag = "--benchmark_context";
	size_t start = 0;

	for (;;) {
		size_t comma = v.find(',', start);
		std::string pair = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
		size_t eq = pair.find('=');

		if (eq == std::string::npos || eq == 0 || pair.find('=', eq + 1) != std::string::npos)
			throw rb_error(flag, "bad pair '" + pair + "'",
				       "KEY=VALUE, several joined by commas, e.g. " + flag + "=accelerator=tcg");
		std::string key = pair.substr(0, eq), value = pair.substr(eq + 1);
		bool again = false;
		for (const auto &kv : f->context) {
			if (kv.first == key && kv.second != value)
				throw rb_error(flag, "'" + key + "' given twice: '" + kv.second + "' and '" + value + "'",
					       "give it once");
			again |= kv.first == key;
		}
		if (!again)
			f->context.emplace_back(key, value);
		if (comma == std::string::npos)
			break;
		start = comma + 1;
	}
}

// One of the output flags regbench handles for Google Benchmark.
void output_flag(const BenchmarkFlag &def, const std::string &flag, const std::string &value, rb_output_options *o)
{
	if (def.kind == OUTPUT_BOOL) {
		bool b;
		if (!boolean(value, &b))
			throw rb_error(flag, "not true or false: '" + value + "'", "true or false");
		(def.name == std::string("benchmark_counters_tabular") ? o->tabular : o->aggregates_only) = b;
		return;
	}
	if (value.empty())
		throw rb_error(flag, "needs a value", "e.g. " + flag + "=" + def.example);
	if (!def.allowed.empty() && std::find(def.allowed.begin(), def.allowed.end(), value) == def.allowed.end()) {
		std::string all;
		for (const std::string &x : def.allowed)
			all += (all.empty() ? "" : ", ") + x;
		throw rb_error(flag, "unknown value '" + value + "'", "one of " + all);
	}
	if (flag == "--benchmark_out") {
		o->out = value;
	} else if (flag == "--benchmark_out_format") {
		o->out_format = value;
	} else if (flag == "--benchmark_format") {
		o->format = value;
	} else {
		bool b;
		o->color = boolean(value, &b) ? b : -1;
	}
}

// Takes arg when it is one of Google Benchmark's flags (--NAME=VALUE, or a bare boolean flag), checked,
// into the command, with *value what it means (a boolean's true or false, however spelt); false when it
// is not one of them.
bool benchmark_flag(const std::string &arg, rb_command *c, std::string *value)
{
	rb_benchmark_flags *f = &c->benchmark;

	if (arg.compare(0, 2, "--"))
		return false;
	size_t eq = arg.find('=');
	std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
	std::string flag = "--" + name, v = eq == std::string::npos ? "" : arg.substr(eq + 1);
	const BenchmarkFlag *def = find_benchmark_flag(name);
	bool b;

	if (!def) {
		if (!name.compare(0, 10, "benchmark_"))
			throw rb_error(flag, "unknown flag", "regbench --help lists the flags");
		return false;
	}
	bool boolean_kind = def->kind == BOOL || def->kind == REPORT_ONLY || def->kind == OUTPUT_BOOL;
	if (def->run_only)
		f->run_only.push_back(flag);
	if (eq == std::string::npos) {
		// a bare flag: true for the booleans, as Google Benchmark takes it
		if (!boolean_kind)
			throw rb_error(flag, "needs a value", "Google Benchmark's flags take =, e.g. " + flag + "=" + def->example);
		v = "true";
	}
	*value = boolean_kind && boolean(v, &b) ? (b ? "true" : "false") : v;
	switch (def->kind) {
	case OUTPUT:
	case OUTPUT_BOOL:
		output_flag(*def, flag, v, &c->output);
		return true;
	case BOOL:
	case REPORT_ONLY:
		if (!boolean(v, &b))
			throw rb_error(flag, "not true or false: '" + v + "'", "true or false");
		if (def->kind == REPORT_ONLY && b)
			throw rb_error(flag, "the result file keeps every repetition, which its statistics need",
				       "--benchmark_display_aggregates_only chooses what the console shows");
		if (name == "benchmark_list_tests")
			f->list_tests = b;
		f->pass.push_back(flag + "=" + (b ? "true" : "false"));
		return true;
	case COUNT:
		if (!digits(v) || atoi(v.c_str()) < 1 || atoi(v.c_str()) > kMaxRepetitions)
			throw rb_error(flag, "bad count '" + v + "'", "repetitions from 1 to 1000, e.g. " + flag + "=5");
		break;
	case LEVEL:
		if (!digits(v))
			throw rb_error(flag, "bad level '" + v + "'", "a verbosity from 0, e.g. " + flag + "=1");
		break;
	case SECONDS:
		check_seconds(flag, v);
		break;
	case WARMUP: {
		double s;
		if (!seconds(v, &s) || s != 0)
			throw rb_error(flag, "regbench warms up and times its own calls; Google Benchmark's warm-up would "
				       "repeat whole measurements", "leave it out");
		break;
	}
	case REGEX: {
		if (v.empty())
			throw rb_error(flag, "needs a value", "a regular expression or all, e.g. " + flag + "=^chain/");
		std::string why = f->filter.set(v);
		if (!why.empty())
			throw rb_error(flag, why, "an extended regular expression, as grep -E takes");
		return true;	// regbench registers only what it selects: Google Benchmark gets no filter
	}
	case UNIT:
		if (v != "ns" && v != "us" && v != "ms" && v != "s")
			throw rb_error(flag, "unknown value '" + v + "'", "one of ns, us, ms, s");
		break;
	case CONTEXT:
		context_pairs(v, f);
		return true;
	case PERF:
		throw rb_error(flag, "this Google Benchmark is built without libpfm: it has no counters to read",
			       "regbench's core_cycles counts core cycles where perf_event has a counter");
	}
	f->pass.push_back(flag + "=" + v);
	return true;
}

// The flags given, each with its value: one given twice with different values is refused (which
// would count is a guess).
class Given {
public:
	void add(const std::string &flag, const std::string &value)
	{
		for (const auto &f : flags_)
			if (f.first == flag && f.second != value)
				throw rb_error(flag, "given twice: '" + f.second + "' and '" + value + "'", "give it once");
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

// Flag combinations that would leave a flag meaning nothing (the target's kind is checked once open).
void check_combinations(const rb_command &c, const Given &given)
{
	const rb_options &o = c.options;
	const rb_output_options &out = c.output;
	std::string other;

	if (o.list_targets && !(other = given.other_than({"--list-targets"})).empty())
		throw rb_error("--list-targets", "takes no other flag, and " + other + " was given",
			       "run regbench --list-targets alone");
	if (o.self_check && !(other = given.other_than({"--self-check", "--cpu"})).empty())
		throw rb_error("--self-check", "measures the CPU's own primitives and ignores " + other,
			       "give --self-check alone, or with --cpu=N");
	if (c.benchmark.list_tests && !c.benchmark.run_only.empty())
		throw rb_error("--benchmark_list_tests", "lists the names and runs nothing, so " + c.benchmark.run_only[0] +
			       " means nothing", "drop one of them");
	if (given.has("--benchmark_out_format") && out.out.empty())
		throw rb_error("--benchmark_out_format", "there is no --benchmark_out file to write in it",
			       "add --benchmark_out=FILE");
	if (given.has("--benchmark_counters_tabular") && out.format != "console" &&
	    (out.out.empty() || out.out_format != "console"))
		throw rb_error("--benchmark_counters_tabular", "only the console format has columns, and no output is console",
			       "drop it, or use --benchmark_format=console");
	if (given.has("--benchmark_color") && out.format != "console")
		throw rb_error("--benchmark_color", "only the console format has colours, and --benchmark_format is " +
			       out.format, "drop it");
}

// Where s stops being UTF-8 (a stray byte, an overlong form, a surrogate, past U+10FFFF), or npos.
size_t invalid_utf8(const std::string &s)
{
	for (size_t i = 0; i < s.size();) {
		unsigned char c = (unsigned char)s[i];
		size_t n = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : (c & 0xf8) == 0xf0 ? 3 : 4;
		uint32_t cp = n == 0 ? c : n == 1 ? c & 0x1f : n == 2 ? c & 0x0f : c & 0x07;

		if (n == 4 || i + n >= s.size() + (n ? 0 : 1))
			return i;
		for (size_t k = 1; k <= n; k++) {
			unsigned char d = (unsigned char)s[i + k];
			if ((d & 0xc0) != 0x80)
				return i;
			cp = cp << 6 | (d & 0x3f);
		}
		if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return i;
		i += n + 1;
	}
	return std::string::npos;
}

// s as the error line shows it: the bytes that are not UTF-8 as \xNN.
std::string shown(const std::string &s)
{
	std::string out;

	for (size_t i = 0; i < s.size();) {
		size_t bad = invalid_utf8(s.substr(i));
		if (bad == std::string::npos) {
			out += s.substr(i);
			break;
		}
		char hex[8];
		snprintf(hex, sizeof(hex), "\\x%02x", (unsigned char)s[i + bad]);
		out += s.substr(i, bad) + hex;
		i += bad + 1;
	}
	return out;
}

/*
 * Every argument ends up in the JSON (the command line is kept in the
 * context, --benchmark_context's values are context, the result's name is
 * in that command line), and JSON holds UTF-8 only: an argument that is not
 * is refused here, before anything runs, never found when the results are
 * written.
 */
void check_utf8(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		std::string a = argv[i], what = "command line", value = a;
		size_t eq = a.find('=');

		if (invalid_utf8(a) == std::string::npos)
			continue;
		if (!a.compare(0, 2, "--") && eq != std::string::npos && invalid_utf8(a.substr(0, eq)) == std::string::npos) {
			what = a.substr(0, eq);
			value = a.substr(eq + 1);
		} else if (a.compare(0, 2, "--") && i > 1 && !strncmp(argv[i - 1], "--", 2) && !strchr(argv[i - 1], '=')) {
			what = argv[i - 1];
		}
		throw rb_error(what, "'" + shown(value) + "': not valid UTF-8 at byte " +
			       std::to_string(invalid_utf8(value) + 1),
			       "the results are JSON, which holds UTF-8 text only: give it in UTF-8");
	}
}

const Flag *find_flag(const std::string &name)
{
	for (const Flag &f : kFlags)
		if (name == f.name)
			return &f;
	return nullptr;
}

}  // namespace

rb_command rb_parse_flags(int argc, char **argv)
{
	rb_command c;
	Given given;

	check_utf8(argc, argv);
	c.line = argv[0];
	for (int i = 1; i < argc; i++)
		c.line += std::string(" ") + argv[i];
	for (int i = 1; i < argc; i++) {
		std::string a = !strcmp(argv[i], "-h") ? "--help" : argv[i];
		size_t eq = a.find('=');
		const Flag *f = find_flag(a.substr(0, eq));

		if (a == "--help") {
			c.options.help = true;
			return c;
		}
		std::string value;
		if (benchmark_flag(a, &c, &value)) {
			// several --benchmark_context flags add up; their keys are checked as they are read
			if (a.compare(0, eq, "--benchmark_context"))
				given.add(a.substr(0, eq), value);
			continue;
		}
		if (!f)
			throw rb_error(a[0] == '-' ? a.substr(0, eq) : a, a[0] == '-' ? "unknown flag" : "not a flag",
				       "regbench --help lists the flags");
		if (!f->value && eq != std::string::npos)
			throw rb_error(f->name, "takes no value", std::string("give ") + f->name + " alone");
		std::string v;
		if (f->value && eq != std::string::npos) {
			v = a.substr(eq + 1);
		} else if (f->value) {
			if (i + 1 >= argc)
				throw rb_error(f->name, "needs a value", std::string("e.g. ") + f->name + "=...");
			v = argv[++i];
		}
		given.add(f->name, v);
		f->set(c.options, v);
	}
	check_combinations(c, given);
	return c;
}

void rb_usage(FILE *out)
{
	std::string line = "usage: regbench";
	size_t width = line.size();

	for (const Flag &f : kFlags) {
		std::string item = std::string(" [") + f.name + (f.value ? std::string("=") + f.value : "") + "]";
		if (width + item.size() > 84) {
			line += "\n               ";
			width = 15;
		}
		line += item;
		width += item.size();
	}
	fprintf(out, "%s [--benchmark_...]\n\n", line.c_str());
	for (const Flag &f : kFlags) {
		std::string name = std::string(f.name) + (f.value ? std::string("=") + f.value : ""), help = f.help;

		if (f.initial)
			help += std::string(" (default: ") + f.initial + ")";
		for (size_t nl = 0; (nl = help.find('\n', nl)) != std::string::npos; nl += 21)
			help.replace(nl, 1, "\n                    ");
		fprintf(out, "  %-17s%s%s\n", name.c_str(), name.size() < 18 ? " " : "  ", help.c_str());
		if (f.more)
			f.more(out);
	}
	fprintf(out, "\nGoogle Benchmark's flags work too (--benchmark_min_time=SECONDS is the most one repetition\n"
		     "measures; regbench stops it sooner once its figure settles). Google Benchmark's help:\n\n");
	fflush(out);
	benchmark::PrintDefaultHelp();
}

void rb_benchmark_env_check()
{
	for (const BenchmarkFlag &f : kBenchmarkFlags) {
		std::string var;

		for (const char *c = f.name; *c; c++)
			var += (char)toupper((unsigned char)*c);
		// V (--v, verbosity) is common in other tools' environments, and Google Benchmark reads
		// it before main: a bad value gets its own line there, a number only sets its verbosity
		if (f.kind == LEVEL || !getenv(var.c_str()))
			continue;
		throw rb_error(var, "Google Benchmark would read this environment variable past regbench's checks",
			       std::string("unset it, and give --") + f.name + "=... instead");
	}
}

std::vector<std::string> rb_benchmark_args(const char *program, const rb_benchmark_flags &gb, bool quick,
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
