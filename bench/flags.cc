// flags.cc: the command line: regbench's own flags as a table, the whole line read and checked before anything runs (Google Benchmark's: flags-benchmark.cc)
#include <errno.h>
#include <sched.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include <benchmark/benchmark.h>

#include "error.h"
#include "flags.h"
#include "iomap/strategy.h"

namespace {

// The largest copy size and _rep count the flags take: a copy beyond 1 TiB fits no window, and a
// _rep buffer of 2^24 elements is already 128 MiB of 64-bit values.
constexpr unsigned long long kMaxSize = 1ull << 40;
constexpr unsigned long long kMaxCount = 1ull << 24;
// Values in one --sizes or --counts list: each is a benchmark per strategy and width (64 counts make some
// 2600), and Google Benchmark 1.7.1 takes time quadratic in their number to start (4000 benchmarks: 8 s)
constexpr size_t kMaxValues = 64;

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

// --run-budget=SECONDS: a decimal number of seconds from 0 (fixed repetitions) to a day.
void run_budget(rb_options &o, const std::string &v)
{
	char *end = nullptr;
	double sec = v.empty() || !(isdigit((unsigned char)v[0]) || v[0] == '.') ? -1 : strtod(v.c_str(), &end);

	if (!end || *end || !(sec >= 0 && sec <= 86400))
		throw rb_error("--run-budget", "bad time '" + v + "'",
			       "seconds from 0 (every benchmark its --benchmark_repetitions) to 86400, e.g. --run-budget=20");
	o.run_budget = sec;
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
	{"--target", "SPEC", IOMAP_DEFAULT_TARGET, "what to measure; --list-targets shows the kinds, e.g. trap,\n"
	 "pci:00:04.0/0 (a BAR through sysfs), kernel:1234:11e8/0 (the same BAR measured in the\n"
	 "kernel by regbench's module, with the kernel's own readl: docs/HARDWARE.md)",
	 [](rb_options &o, const std::string &v) { o.target = v; }, nullptr},
	{"--strategy", "LIST", nullptr, "only these accessor strategies (default: all; the libc row stays), of:",
	 [](rb_options &o, const std::string &v) { o.strategies = strategy_list(v); }, list_strategies},
	{"--cpu", "N", "the highest CPU this process may use", "pin to CPU N", cpu, nullptr},
	{"--quick", nullptr, nullptr, "fewer sizes and counts, short runs: the whole suite in seconds",
	 [](rb_options &o, const std::string &) { o.quick = true; }, nullptr},
	{"--run-budget", "SECONDS", RB_RUN_BUDGET " s; 0 with --quick or --benchmark_repetitions",
	 "the run's time goal: a benchmark whose repetitions cannot yet tell a 5%\n"
	 "difference gets more (up to three times --benchmark_repetitions) while its\n"
	 "share of what is left lasts; 0: exactly --benchmark_repetitions each", run_budget, nullptr},
	{"--sizes", "LIST", nullptr, "copy sizes in bytes, e.g. --sizes=8,64,4k,256k,4m (k, m, g: binary);\n"
	 "each must fit the target's copy window",
	 [](rb_options &o, const std::string &v) { o.sizes = number_list("--sizes", v, kMaxSize, "8,64,4k,256k,4m"); },
	 nullptr},
	{"--counts", "LIST", nullptr, "_rep counts (elements), e.g. --counts=1,16,1k",
	 [](rb_options &o, const std::string &v) { o.counts = number_list("--counts", v, kMaxCount, "1,16,1k"); },
	 nullptr},
	{"--list-targets", nullptr, nullptr, "every target kind: available here or not, and why; PCI devices and BARs",
	 [](rb_options &o, const std::string &) { o.list_targets = true; }, nullptr},
	{"--allow-write", "OFF+LEN", nullptr, "pci:, port:, vfio: and kernel: targets are read-only; allow writes\n"
	 "to these bytes (from the start of the BAR or port range), e.g. --allow-write=0x4+4", allow_write, nullptr},
	{"--force", nullptr, nullptr, "map a PCI device although a kernel driver is bound to it, or use\n"
	 "ports that /proc/ioports says a driver claims",
	 [](rb_options &o, const std::string &) { o.permit.force = true; }, nullptr},
	{"--self-check", nullptr, nullptr, "measure primitives with published costs and compare (exit 1 if a figure is\n"
	 "off, 3 if some could only be measured on a disturbed machine)",
	 [](rb_options &o, const std::string &) { o.self_check = true; }, nullptr},
	{"--help", nullptr, nullptr, "this help; -h too", [](rb_options &o, const std::string &) { o.help = true; },
	 nullptr},
};


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
std::string quoted(const std::string &s)
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
		throw rb_error(what, "'" + quoted(value) + "': not valid UTF-8 at byte " +
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

	// --action, only as the first argument: what the rest would do is the answer, whatever they are
	int first = argc > 1 && !strcmp(argv[1], "--action") ? 2 : 1;

	c.options.action = first == 2;
	check_utf8(argc, argv);
	c.line = argv[0];
	for (int i = first; i < argc; i++)
		c.line += std::string(" ") + argv[i];
	for (int i = first; i < argc; i++) {
		std::string a = !strcmp(argv[i], "-h") ? "--help" : argv[i];
		size_t eq = a.find('=');
		const Flag *f = find_flag(a.substr(0, eq));

		if (a == "--help") {
			c.options.help = true;
			return c;
		}
		std::string value;
		if (rb_benchmark_flag(a, &c, &value)) {
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

const char *rb_action(const rb_command &c)
{
	const rb_options &o = c.options;

	return o.help ? "help" : o.list_targets ? "list-targets" : o.self_check ? "self-check"
	       : c.benchmark.list_tests ? "list-tests" : "run";
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
	fprintf(out, "  --action ARGS...  (first) print what ARGS ask for, one word: run, help, list-targets, self-check\n"
		     "                    or list-tests, for scripts that wrap regbench\n");
	fprintf(out, "\nGoogle Benchmark's flags work too (--benchmark_min_time=SECONDS is the most one repetition\n"
		     "measures; regbench stops it sooner once its figure settles). Google Benchmark's help:\n\n");
	fflush(out);
	benchmark::PrintDefaultHelp();
}

